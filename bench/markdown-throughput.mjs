// `node bench/markdown-throughput.mjs` (after `npm run build`): throughput of parseMarkdown +
// splitSections (lib/core/analysis) over ~90 MB of generated Markdown held in memory, the
// size of the build benchmark's corpus. Two corpora, 10,000 documents of ~9 KB each:
// - "plain": bench/corpus.mjs's shape (one h1, then paragraph lines of vocabulary words);
// - "structured": docs-like pages with h2/h3 sections, fenced and indented code, lists,
//   block quotes, inline markup in headings, setext headings, HTML and front matter.
// Prints MB/s (UTF-16 characters; the text is ASCII, so bytes) per corpus. Never fails on a
// timing; not part of `npm test`.
import { parseMarkdown } from '../dist/core/analysis/markdown.js';
import { splitSections } from '../dist/core/analysis/sections.js';
import { rng, sentence, VOCAB } from './corpus.mjs';

const count = Number(process.env.BENCH_DOCS ?? 10_000);
const bytesPerDoc = 9_000;
const runs = Number(process.env.BENCH_RUNS ?? 3);

function plainCorpus() {
  const r = rng(42);
  const docs = [];
  for (let i = 0; i < count; i++) {
    const parts = [`# Document ${i}\n\n`];
    let size = parts[0].length;
    while (size < bytesPerDoc) {
      const line = sentence(r, 8, 12) + '.\n';
      parts.push(line);
      size += line.length;
    }
    docs.push(parts.join(''));
  }
  return docs;
}

function structuredCorpus() {
  const r = rng(7);
  const docs = [];
  const blocks = [
    () => `## ${sentence(r, 2, 4)} \`code\` *${sentence(r, 1, 2)}*\n\n`,
    () => `### ${sentence(r, 2, 4)}\n\n`,
    () => `${sentence(r, 3, 4)}\n${'-'.repeat(12)}\n\n`,
    () => '```ts\n# not a heading\n' + `const x = '${sentence(r, 3, 5)}';\n`.repeat(4) + '```\n\n',
    () => `    ${sentence(r, 4, 6)}\n    ${sentence(r, 4, 6)}\n\n`,
    () => `- ${sentence(r, 5, 8)}\n- ${sentence(r, 5, 8)}\n  ${sentence(r, 5, 8)}\n\n`,
    () => `1. ${sentence(r, 5, 8)}\n2. ${sentence(r, 5, 8)}\n\n`,
    () => `> ${sentence(r, 6, 8)}\n> ${sentence(r, 6, 8)}\n\n`,
    () => `<div align="center">\n${sentence(r, 4, 6)}\n</div>\n\n`,
    () => `[${VOCAB[r.next().value % VOCAB.length]}]: https://example.com/x "t"\n\n`,
  ];
  for (let i = 0; i < count; i++) {
    const parts = [`---\ntitle: Document ${i}\nnav_order: ${i}\n---\n\n# Document ${i}\n\n`];
    let size = parts[0].length;
    while (size < bytesPerDoc) {
      const k = r.next().value % 20;
      const block = k < blocks.length ? blocks[k]() : `${sentence(r, 8, 12)} **${sentence(r, 1, 3)}** \`${sentence(r, 1, 2)}\`.\n${sentence(r, 8, 12)}.\n\n`;
      parts.push(block);
      size += block.length;
    }
    docs.push(parts.join(''));
  }
  return docs;
}

function measure(name, docs) {
  const chars = docs.reduce((n, d) => n + d.length, 0);
  let headings = 0;
  let sections = 0;
  const times = [];
  for (let run = 0; run < runs; run++) {
    headings = 0;
    sections = 0;
    const t0 = process.hrtime.bigint();
    for (const doc of docs) {
      const structure = parseMarkdown(doc);
      headings += structure.headings.length;
      sections += splitSections(doc, structure, { splitLevel: 2, minBytes: 512 }).length;
    }
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const best = times[0];
  const median = times[Math.floor(times.length / 2)];
  const mb = chars / 1e6;
  console.log(
    `${name.padEnd(10)} ${docs.length} docs, ${mb.toFixed(1)} MB, ${headings} headings, ${sections} sections: ` +
      `median ${median.toFixed(0)} ms = ${(mb / (median / 1000)).toFixed(0)} MB/s (best ${(mb / (best / 1000)).toFixed(0)} MB/s)`,
  );
}

measure('plain', plainCorpus());
measure('structured', structuredCorpus());
