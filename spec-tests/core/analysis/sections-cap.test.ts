// splitSections with a cap (lib/core/analysis/sections.ts), "Answers that fit, by default",
// What to build item 2: "Split sections hierarchically: at h2, then at deeper headings, then
// at block boundaries (paragraphs, lists, whole code fences and tables) for long
// heading-less text, so that no unit exceeds a cap ... (a single block larger than the cap is
// cut at line boundaries). Every unit keeps its heading trail and addresses as path#slug
// (sub-parts of one heading get a stable, documented suffix). Small neighbours still merge."
// And Done when: "No unit above the cap on any doc set you build (a test on generated
// pathological pages: one huge heading-less page, a 5,000-line code block, deeply nested
// headings)." Rules as docs/sources.md "Units that fit" states them: a line over the cap is
// cut at a code point boundary; sub-parts are `slug~2`, `slug~3`, ...; merges never go over
// the cap; the sections still tile the text.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { ContextError } from '../../../lib/errors.js';
import { parseMarkdown, type Heading } from '../../../lib/core/analysis/markdown.js';
import { splitSections, utf8Length, type Section, type SectionOptions } from '../../../lib/core/analysis/sections.js';
import { slugOf } from '../../../lib/core/analysis/slugger.js';

const CAP = 3072;
const RULES: SectionOptions = { splitLevel: 2, minBytes: 512, maxBytes: CAP };
const split = (text: string, options: SectionOptions = RULES): Section[] => splitSections(text, parseMarkdown(text, { headingIds: true }), options);
const base = (id: string): string => id.replace(/~[0-9]+$/u, '');

/** The invariants every document must meet; returns the first broken one, or null. */
function broken(text: string, sections: readonly Section[], options: SectionOptions): string | null {
  const cap = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const structure = parseMarkdown(text, { headingIds: true });
  // The sections tile the body: the text after the front matter.
  const bodyStart = structure.frontMatter?.end ?? 0;
  if (sections.length === 0 || sections[0]?.start !== bodyStart || sections[sections.length - 1]?.end !== text.length) return 'not tiled at the ends';
  for (let i = 1; i < sections.length; i++) if (sections[i]?.start !== sections[i - 1]?.end) return `gap or overlap before section ${i}`;
  if (text.length > bodyStart && sections.some((s) => s.end <= s.start)) return 'an empty section';
  const over = sections.find((s) => utf8Length(text, s.start, s.end) > cap);
  if (over !== undefined) return `a section of ${utf8Length(text, over.start, over.end)} bytes over the cap ${cap}`;
  const ids = sections.map((s) => s.slug);
  if (new Set(ids).size !== ids.length) return `ids not unique: ${JSON.stringify(ids)}`;
  // No cut splits a surrogate pair (cuts fall on code point boundaries).
  for (const s of sections.slice(1)) {
    const c = text.charCodeAt(s.start);
    if (c >= 0xdc00 && c <= 0xdfff && (text.charCodeAt(s.start - 1) & 0xfc00) === 0xd800) return `a cut inside a surrogate pair at ${s.start}`;
  }
  // Trails kept: a section addressed by a heading's slug carries that heading's trail and starts at or after it.
  // The leading part's pieces come first, named by the page: '' then name~k, trail [name] or [].
  const headings = structure.headings;
  const leading = sections.filter((s) => s.leading);
  if (sections.slice(0, leading.length).some((s) => !s.leading)) return 'leading pieces not first';
  for (const [i, s] of leading.entries()) {
    const name = s.trail[0];
    if (s.trail.length > 1 || (name !== undefined && (name === '' || (Array.from(name).length > 80 && name !== structure.frontMatter?.title)))) return `leading trail ${JSON.stringify(s.trail)}`;
    if (i === 0 ? s.slug !== '' : base(s.slug) !== (name === undefined ? '' : slugOf(name))) return `leading id ${s.slug} for ${JSON.stringify(s.trail)}`;
  }
  for (const s of sections.slice(leading.length)) {
    const b = base(s.slug);
    if (b === '' && s.trail.length === 0) continue;
    const h = headings.find((x: Heading) => x.slug === b);
    if (h === undefined) return `no heading for id ${s.slug}`;
    if (s.trail[s.trail.length - 1] !== h.text || s.start < h.start) return `trail or place wrong for ${s.slug}`;
  }
  // Pieces of one heading (or of the leading part) are numbered up in document order: ~2, ~3, ...
  const last = new Map<string, number>();
  for (const s of sections) {
    const id = s.slug;
    const key = `${s.leading ? 'leading' : 'heading'}#${base(id)}`;
    const n = id === base(id) ? 1 : Number(id.slice(base(id).length + 1));
    if (n <= (last.get(key) ?? 0)) return `id ${id} out of order`;
    last.set(key, n);
  }
  // Headings are counted once.
  if (JSON.stringify(sections.flatMap((s) => s.headings)) !== JSON.stringify(headings.map((h) => h.text))) return 'headings lost or repeated';
  return null;
}

function check(t: Test, text: string, options: SectionOptions = RULES): Section[] {
  const sections = split(text, options);
  t.equal(broken(text, sections, options), null, 'tiled, under the cap, unique ordered ids, trails kept');
  t.same(split(text, options), sections, 'deterministic: the same text cuts the same way');
  return sections;
}

const paragraph = (i: number): string => `Paragraph ${i} says something about the topic at hand, with enough words to be a real paragraph of prose.\n\n`;

t.test('a huge heading-less page: cut between paragraphs, named by its first line: ids "", name~2, name~3, ...', async (t) => {
  const text = Array.from({ length: 3000 }, (_, i) => paragraph(i)).join('');
  const sections = check(t, text);
  t.ok(sections.length >= Math.ceil(utf8Length(text, 0, text.length) / CAP), `${sections.length} sections`);
  const name = 'Paragraph 0 says something about the topic at hand, with enough words to be a…';
  t.ok(Array.from(name).length <= 80, 'the first line, cut at a space to at most 80 code points with the ellipsis');
  t.ok(sections.every((s) => s.trail.length === 1 && s.trail[0] === name), 'every piece carries the name as its trail');
  const slug = 'paragraph-0-says-something-about-the-topic-at-hand-with-enough-words-to-be-a';
  t.same(sections.slice(0, 3).map((s) => s.slug), ['', `${slug}~2`, `${slug}~3`]);
  const blocks = new Set(parseMarkdown(text).blocks);
  t.ok(sections.slice(1).every((s) => blocks.has(s.start)), 'every cut is at the start of a paragraph');
  t.ok(sections.slice(0, -1).every((s) => utf8Length(text, s.start, s.end) > CAP - paragraph(9999).length), 'pieces are as long as they can be');
});

t.test('a 5,000-line code block: cut at line starts, the text before it whole', async (t) => {
  const code = Array.from({ length: 5000 }, (_, i) => `const value${i} = compute(${i}); // line ${i}\n`).join('');
  const text = `# API\n\n${paragraph(0).repeat(5)}## Example\n\n${paragraph(1)}\`\`\`js\n${code}\`\`\`\n\n${paragraph(2)}`;
  const sections = check(t, text);
  const example = sections.filter((s) => base(s.slug) === 'example');
  t.ok(example.length > 10, 'the section is cut into many pieces');
  t.same(example.slice(0, 3).map((s) => s.slug), ['example', 'example~2', 'example~3'], 'stable suffixes: the k-th piece is ~k');
  t.ok(example.every((s) => s.start === 0 || text[s.start - 1] === '\n'), 'every cut at a line start');
  t.ok(example.every((s) => s.trail.join('>') === 'API>Example'), 'every piece keeps the trail');
  const first = example[0]!;
  t.ok(text.slice(first.start, first.end).startsWith(`## Example\n\n${paragraph(1)}\`\`\`js\nconst value0`), 'a short intro stays with the start of the code it introduces (no piece under minBytes)');
  // With an intro of at least minBytes, the cut falls at the fence's start: blocks stay whole where they can.
  const long = `## Example\n\n${paragraph(1).repeat(6)}\`\`\`js\n${code}\`\`\`\n`;
  const pieces = check(t, long);
  t.equal(long.slice(pieces[1]!.start, pieces[1]!.start + 5), '```js', 'example~2 starts at the fence');
  t.same(pieces.slice(0, 2).map((s) => s.slug), ['example', 'example~2']);
});

t.test('deeply nested headings h1..h6: cut at the shallowest deeper level first, trails to h6', async (t) => {
  let text = '';
  for (let a = 0; a < 3; a++) {
    text += `# Part ${a}\n\n${paragraph(a)}`;
    for (let b = 0; b < 3; b++) {
      text += `## Chapter ${a}.${b}\n\n${paragraph(b)}`;
      for (let c = 0; c < 3; c++) {
        text += `### Section ${a}.${b}.${c}\n\n${paragraph(c)}`;
        for (let d = 0; d < 2; d++) text += `#### Sub ${d}\n\n${paragraph(d)}##### Deeper ${d}\n\n${paragraph(d)}###### Deepest ${d}\n\n${paragraph(d).repeat(4)}`;
      }
    }
  }
  const sections = check(t, text);
  t.ok(sections.some((s) => s.slug === 'section-012' && s.trail.length === 3), 'h3 sections are units');
  const small = check(t, text, { splitLevel: 2, minBytes: 0, maxBytes: 500 });
  t.ok(small.some((s) => s.slug.startsWith('deepest-') && s.trail.length === 6), 'a small cap reaches h6');
  const uncapped = split(text, { splitLevel: 2, minBytes: 0 });
  t.same(uncapped.map((s) => s.slug), ['part-0', 'chapter-00', 'chapter-01', 'chapter-02', 'part-1', 'chapter-10', 'chapter-11', 'chapter-12', 'part-2', 'chapter-20', 'chapter-21', 'chapter-22'], 'without a cap: h1/h2 only, as before');
});

t.test('a single 1 MB line: cut at the cap; multi-byte text (CJK, emoji) at code point boundaries', async (t) => {
  const ascii = `# Big\n\n${'a'.repeat(1 << 20)}\n`;
  const a = check(t, ascii);
  t.ok(a.slice(1, -1).every((s) => utf8Length(ascii, s.start, s.end) === CAP), 'ASCII pieces are exactly the cap');
  const cjk = `## 日本語\n\n${'日本語のテキスト😀'.repeat(40000)}\n`;
  const c = check(t, cjk);
  t.ok(c.slice(1, -1).every((s) => utf8Length(cjk, s.start, s.end) > CAP - 4), 'multi-byte pieces are within 3 bytes of the cap');
  t.same(c.slice(0, 2).map((s) => s.slug), ['日本語', '日本語~2']);
  const tiny = `${'😀é日'.repeat(50)}\n`;
  check(t, tiny, { splitLevel: 2, minBytes: 0, maxBytes: 4 });
});

t.test('blocks stay whole: lists at items, tables and code fences whole when they fit', async (t) => {
  const table = `| a | b |\n|---|---|\n${'| cell | value |\n'.repeat(100)}`;
  const fence = `\`\`\`\n${'code line\n'.repeat(150)}\`\`\`\n`;
  const list = Array.from({ length: 200 }, (_, i) => `- item ${i} of a long list\n`).join('');
  const text = `## Blocks\n\n${paragraph(1).repeat(10)}${table}\n${paragraph(2).repeat(5)}${fence}\n${list}`;
  const sections = check(t, text);
  const inOne = (needle: string): boolean => sections.some((s) => text.slice(s.start, s.end).includes(needle));
  t.ok(inOne(table), 'the table is in one unit');
  t.ok(inOne(fence), 'the code fence is in one unit');
  t.ok(sections.slice(1).every((s) => /^(- item|\| a|```|Paragraph)/u.test(text.slice(s.start, s.start + 10))), 'every cut at a block or list item start');
});

t.test('small neighbours merge, never over the cap; a small introduction joins the sub-heading after it', async (t) => {
  const big = paragraph(0).repeat(20);
  const text = `## Guide\n\nShort intro.\n\n### Install\n\n${big}### Tiny\n\nshort.\n\n### Use\n\n${big}`;
  const sections = check(t, text, { ...RULES, maxBytes: 4000 });
  t.same(sections.map((s) => s.slug), ['guide', 'use']);
  t.ok(text.slice(sections[0]!.start, sections[0]!.end).includes('### Install'), 'the intro took in the h3 after it and keeps the h2 id and trail');
  t.same(sections[0]!.trail, ['Guide']);
  t.ok(text.slice(sections[0]!.start, sections[0]!.end).includes('### Tiny'), 'the tiny h3 joined the section before it');
  // A small introduction that cannot take in the sub-heading after it (too big together) joins the section before it.
  const intro = `## A\n\n${'a'.repeat(600)}\n\n## B\n\nshort\n\n### C\n\n${'c'.repeat(980)}\n\n### D\n\n${'d'.repeat(300)}\n`;
  const joined = check(t, intro, { splitLevel: 2, minBytes: 200, maxBytes: 1000 });
  t.same(joined.map((s) => s.slug), ['a', 'c', 'd']);
  t.ok(intro.slice(joined[0]!.start, joined[0]!.end).endsWith('## B\n\nshort\n\n'), 'B\'s introduction ends the unit before it');
  const full = `## A\n\n${'x'.repeat(3060)}\n\n## B\n\ntiny\n`;
  const two = check(t, full);
  t.same(two.map((s) => s.slug), ['a', 'b'], 'a tiny section stays alone when joining would go over the cap');
});

t.test('maxBytes is validated', async (t) => {
  const structure = parseMarkdown('# a\n');
  for (const maxBytes of [0, 3, 1.5, Number.NaN, -1]) {
    t.throws(() => splitSections('# a\n', structure, { splitLevel: 2, minBytes: 0, maxBytes }), ContextError, String(maxBytes));
  }
});

// Property: random Markdown (headings of every level, setext, long lines, fences, lists,
// tables, CJK and emoji, CRLF), random caps: tiled, under the cap, unique ids, trails kept.
const piece = fc.oneof(
  fc.constantFrom(
    '# H1\n', '## H2\n', '### H3\n', '#### H4\n', '##### H5\n', '###### H6\n', 'Setext\n===\n', 'Two\n---\n', '## Id {#custom}\n',
    '## Mdx {/*mdx-id*/}\n', 'text line é 😀 日本\n', '\n', '```\n## in code\n' + 'code\n'.repeat(40) + '```\n', '> ## quoted\n',
    '- ## item\n- second\n', '---\ntitle: x\n---\n', 'x'.repeat(300) + '\n', '\r\n', '# dup\n', '<div>\n# html\n</div>\n',
    '| a | b |\n|---|---|\n| 1 | 2 |\n', '😀'.repeat(700), '## \n',
  ),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
);
const randomDoc = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));
const randomOptions = fc.record({
  splitLevel: fc.integer({ min: 1, max: 6 }),
  minBytes: fc.constantFrom(0, 1, 64, 512, 4096),
  maxBytes: fc.constantFrom(4, 5, 64, 500, 3072),
  mergeMaxBytes: fc.constantFrom(0, 100, 1024, Number.MAX_SAFE_INTEGER),
});

// "Small neighbours still merge" — but only up to a limit (docs/sources.md "Units that fit",
// rule 4): small sections join while the joined unit stays within mergeMaxBytes, so a run
// of small reference entries (one class each) becomes several units, not one unit the size
// of the cap that an answer pays for whole to get one entry of it.
t.test('small neighbours merge only while the joined unit stays within mergeMaxBytes', async (t) => {
  const entry = (i: number): string => `## Class: Error${i}\n\n${'The socket was destroyed because a timeout elapsed. '.repeat(3)}\n\n`;
  const text = Array.from({ length: 20 }, (_, i) => entry(i)).join('');
  const small = utf8Length(entry(10), 0, entry(10).length);
  t.ok(small < 256, `each entry is small (${small} bytes)`);
  const limited = split(text, { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes: 1024 });
  t.equal(broken(text, limited, { splitLevel: 2, minBytes: 256, maxBytes: 2048 }), null, 'still tiled, unique ids');
  const sizes = limited.map((s) => utf8Length(text, s.start, s.end));
  t.ok(sizes.every((n) => n <= 1024), `no merged unit over the merge limit: ${sizes.join(', ')}`);
  t.ok(sizes.every((n) => n >= 256), `and every one merged up to min_bytes at least: ${sizes.join(', ')}`);
  const capped = split(text, { splitLevel: 2, minBytes: 256, maxBytes: 2048 });
  const capSizes = capped.map((s) => utf8Length(text, s.start, s.end));
  t.ok(Math.max(...capSizes) > 1024, `without the limit, merges run up to the cap: ${capSizes.join(', ')}`);
  t.ok(limited.length > capped.length, 'so the limit gives more, smaller units');
  // A merge limit above the cap changes nothing: the cap still bounds merges.
  t.same(split(text, { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes: 1e6 }), capped);
  for (const mergeMaxBytes of [-1, 1.5, Number.NaN]) {
    t.throws(() => split(text, { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes }), ContextError, `mergeMaxBytes ${mergeMaxBytes}`);
  }
});

t.test('property: units tile, fit the cap and have unique ids (random Markdown and caps)', async (t) => {
  let checked = 0;
  fc.assert(
    fc.property(randomDoc, randomOptions, (text, options) => {
      checked++;
      const problem = broken(text, split(text, options), options);
      if (problem !== null) throw new Error(problem);
      return true;
    }),
    { numRuns: 1000, seed: 23 },
  );
  t.equal(checked >= 1000, true, `documents checked: ${checked}`);
});
