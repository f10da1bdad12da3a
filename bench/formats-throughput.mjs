// `node bench/formats-throughput.mjs` (after `npm run build`): throughput of each section
// reader + splitSections (lib/core/analysis) beside Markdown's, on docs-like pages of the same
// words and shape in each format (issue 46): titles at two levels, paragraphs with inline
// markup, code blocks (fenced / `::` literal / `----` listing), lists, directives / admonition
// blocks, ids (`{#id}` / `.. _id:` / `[[id]]` / `id=`); HTML's reader also makes the page's visible text. 2,000 documents of ~9 KB each per format
// (BENCH_DOCS), held in memory. Prints MB/s per format. Never fails on a timing; not part of
// `npm test`.
import { parseDocumentAs, readDocumentAs } from '../dist/core/analysis/document.js';
import { splitSections } from '../dist/core/analysis/sections.js';
import { rng, sentence } from './corpus.mjs';

const count = Number(process.env.BENCH_DOCS ?? 2_000);
const bytesPerDoc = 9_000;
const runs = Number(process.env.BENCH_RUNS ?? 3);

const under = (s, c) => `${s}\n${c.repeat(s.length)}\n\n`;
const SHAPES = {
  markdown: (r, i) => ({
    top: `# Document ${i}\n\n`,
    h2: (s) => `## ${s} {#id-${i}}\n\n`,
    h3: (s) => `### ${s}\n\n`,
    code: () => '```sh\n# not a heading\n' + `run ${sentence(r, 3, 5)}\n`.repeat(4) + '```\n\n',
    list: () => `- ${sentence(r, 5, 8)}\n- ${sentence(r, 5, 8)}\n\n`,
    note: () => `> **Note** ${sentence(r, 6, 8)}\n\n`,
    para: () => `${sentence(r, 8, 12)} **${sentence(r, 1, 3)}** \`${sentence(r, 1, 2)}\`.\n${sentence(r, 8, 12)}.\n\n`,
  }),
  rst: (r, i) => ({
    top: `${'='.repeat(14)}\nDocument ${i}\n${'='.repeat(14)}\n\n`,
    h2: (s) => `.. _id-${i}:\n\n` + under(s, '='),
    h3: (s) => under(s, '-'),
    code: () => 'Run this::\n\n' + `    run ${sentence(r, 3, 5)}\n    ====\n`.repeat(4) + '\n',
    list: () => `- ${sentence(r, 5, 8)}\n- ${sentence(r, 5, 8)}\n\n`,
    note: () => `.. note::\n\n   ${sentence(r, 6, 8)}\n\n`,
    para: () => `${sentence(r, 8, 12)} **${sentence(r, 1, 3)}** \`\`${sentence(r, 1, 2)}\`\`.\n${sentence(r, 8, 12)}.\n\n`,
  }),
  asciidoc: (r, i) => ({
    top: `= Document ${i}\n\n`,
    h2: (s) => `[[id-${i}]]\n== ${s}\n\n`,
    h3: (s) => `=== ${s}\n\n`,
    code: () => '----\n== not a title\n' + `run ${sentence(r, 3, 5)}\n`.repeat(4) + '----\n\n',
    list: () => `* ${sentence(r, 5, 8)}\n* ${sentence(r, 5, 8)}\n\n`,
    note: () => `====\nNOTE: ${sentence(r, 6, 8)}\n====\n\n`,
    para: () => `${sentence(r, 8, 12)} *${sentence(r, 1, 3)}* \`${sentence(r, 1, 2)}\`.\n${sentence(r, 8, 12)}.\n\n`,
  }),
  html: (r, i) => ({
    top: `<!doctype html><html><head><style>p { margin: 0 }</style></head><body>\n<h1>Document ${i}</h1>\n`,
    h2: (s) => `<h2 id="id-${i}">${s}</h2>\n`,
    h3: (s) => `<h3>${s}</h3>\n`,
    code: () => '<pre><code>' + `run ${sentence(r, 3, 5)}\n`.repeat(4) + '</code></pre>\n',
    list: () => `<ul>\n<li>${sentence(r, 5, 8)}</li>\n<li>${sentence(r, 5, 8)}</li>\n</ul>\n`,
    note: () => `<div class="note"><p>${sentence(r, 6, 8)}</p></div>\n<script>track(${i});</script>\n`,
    para: () => `<p>${sentence(r, 8, 12)} <strong>${sentence(r, 1, 3)}</strong> <code>${sentence(r, 1, 2)}</code> &amp;\n${sentence(r, 8, 12)}.</p>\n`,
  }),
  text: (r, i) => ({
    top: `Document ${i}\n\n`,
    h2: (s) => `${s}\n\n`,
    h3: (s) => `${s}\n\n`,
    code: () => `    run ${sentence(r, 3, 5)}\n`.repeat(4) + '\n',
    list: () => `- ${sentence(r, 5, 8)}\n- ${sentence(r, 5, 8)}\n\n`,
    note: () => `Note: ${sentence(r, 6, 8)}\n\n`,
    para: () => `${sentence(r, 8, 12)} ${sentence(r, 1, 3)} ${sentence(r, 1, 2)}.\n${sentence(r, 8, 12)}.\n\n`,
  }),
};

function corpus(format) {
  const r = rng(46);
  const docs = [];
  for (let i = 0; i < count; i++) {
    const shape = SHAPES[format](r, i);
    const parts = [shape.top];
    let size = parts[0].length;
    while (size < bytesPerDoc) {
      const k = r.next().value % 12;
      const block = k === 0 ? shape.h2(sentence(r, 2, 4)) : k === 1 ? shape.h3(sentence(r, 2, 4)) : k === 2 ? shape.code() : k === 3 ? shape.list() : k === 4 ? shape.note() : shape.para();
      parts.push(block);
      size += block.length;
    }
    docs.push(parts.join(''));
  }
  return docs;
}

const options = { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes: 1024 };
for (const format of ['markdown', 'rst', 'asciidoc', 'text', 'html']) {
  const docs = corpus(format);
  const bytes = docs.reduce((n, d) => n + d.length, 0);
  let best = Infinity;
  let units = 0;
  for (let run = 0; run < runs; run++) {
    const t0 = process.hrtime.bigint();
    units = 0;
    for (const d of docs) {
      // HTML's sections are of its visible text (the reader's text), every other format's of its source.
      const { text, structure } = readDocumentAs(format, d, { headingIds: true, headingBytes: 1024 });
      units += splitSections(text, structure, options).length;
    }
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  let parseBest = Infinity;
  for (let run = 0; run < runs; run++) {
    const t0 = process.hrtime.bigint();
    for (const d of docs) parseDocumentAs(format, d, { headingIds: true, headingBytes: 1024 });
    parseBest = Math.min(parseBest, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  console.log(`${format.padEnd(9)} ${(bytes / 1e6).toFixed(1)} MB, ${units} units: reader ${(bytes / 1e6 / parseBest).toFixed(0)} MB/s, reader + sections ${(bytes / 1e6 / best).toFixed(0)} MB/s (best of ${runs})`);
}
