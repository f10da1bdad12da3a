// splitSections (lib/core/analysis/sections.ts): issue 9 item 5 "Markdown split at
// headings ... each section an addressable unit path#slug carrying its heading trail ...
// tiny sections merged with a neighbour", with the rules of docs/engine.md "Markdown
// structure and sections": split at top-level headings of level <= splitLevel; a section
// under minBytes (UTF-8) joins the one before it, a small first section the one after it,
// keeping the first part's slug and trail; whitespace-only leading parts count as tiny;
// the sections tile the body (the text after any front matter); a leading part is named by
// the page (its first line here; section-names.test.ts has the rest).

import t from 'tap';
import fc from 'fast-check';
import { ContextError } from '../../../lib/errors.js';
import { parseMarkdown } from '../../../lib/core/analysis/markdown.js';
import { splitSections, utf8Length, type Section, type SectionOptions } from '../../../lib/core/analysis/sections.js';

const split = (text: string, options: SectionOptions = { splitLevel: 2, minBytes: 0 }): Section[] =>
  splitSections(text, parseMarkdown(text), options);
const view = (text: string, sections: Section[]) =>
  sections.map((s) => ({ text: text.slice(s.start, s.end), slug: s.slug, trail: s.trail, headings: s.headings }));

t.test('no split heading: one section, the whole text, slug ""', async (t) => {
  t.same(split(''), [{ start: 0, end: 0, slug: '', trail: [], headings: [], leading: true }], 'even an empty text has one section');
  const text = 'Just text.\n\n### Deep heading\n\nmore\n';
  t.same(view(text, split(text)), [{ text, slug: '', trail: ['Just text.'], headings: ['Deep heading'] }], 'h3 does not split at level 2');
});

t.test('split at headings of level <= splitLevel; trail = enclosing headings; headings = all inside', async (t) => {
  const text = 'lead\n# Guide\nintro\n## Install\nsteps\n### From source\nbuild\n## Use\nrun\n# Reference\n## Install\nx\n';
  t.same(view(text, split(text)), [
    { text: 'lead\n', slug: '', trail: ['lead'], headings: [] },
    { text: '# Guide\nintro\n', slug: 'guide', trail: ['Guide'], headings: ['Guide'] },
    { text: '## Install\nsteps\n### From source\nbuild\n', slug: 'install', trail: ['Guide', 'Install'], headings: ['Install', 'From source'] },
    { text: '## Use\nrun\n', slug: 'use', trail: ['Guide', 'Use'], headings: ['Use'] },
    { text: '# Reference\n', slug: 'reference', trail: ['Reference'], headings: ['Reference'] },
    { text: '## Install\nx\n', slug: 'install-1', trail: ['Reference', 'Install'], headings: ['Install'] },
  ]);
  t.same(
    split(text, { splitLevel: 1, minBytes: 0 }).map((s) => s.slug),
    ['', 'guide', 'reference'],
    'splitLevel 1: only h1',
  );
  const skip = '### Deep\n## Mid\n';
  t.same(split(skip).map((s) => s.trail), [['Deep'], ['Mid']], 'a deeper heading before is no ancestor (it names the leading part)');
  const ancestors = '# A\n### a3\n## B\n';
  t.same(split(ancestors)[1]?.trail, ['A', 'B'], 'ancestors of any smaller level, deeper siblings popped');
});

t.test('headings inside code or containers do not split', async (t) => {
  const text = '# One\n```\n## not a heading\n```\n> ## quoted\n- ## item\n';
  t.same(split(text).map((s) => s.slug), ['one']);
});

t.test('merge: a small section joins the one before it, which keeps its slug and trail', async (t) => {
  const big = 'x'.repeat(600) + '\n';
  const text = `# A\n${big}## Tiny\nsmall\n## B\n${big}`;
  const sections = split(text, { splitLevel: 2, minBytes: 512 });
  t.same(view(text, sections).map((s) => [s.slug, s.trail, s.headings]), [
    ['a', ['A'], ['A', 'Tiny']],
    ['b', ['A', 'B'], ['B']],
  ]);
  t.equal(sections[0]?.end, text.indexOf('## B'));
  const chain = `# A\n${big}## T1\n## T2\n## T3\n`;
  t.same(split(chain, { splitLevel: 2, minBytes: 512 }).map((s) => s.headings), [['A', 'T1', 'T2', 'T3']], 'consecutive small sections all join');
});

t.test('merge: a small first section joins the one after it and keeps its own slug and trail', async (t) => {
  const big = 'x'.repeat(600) + '\n';
  const text = `---\ntitle: T\n---\n# Title\n${big}## Next\n${big}`;
  const sections = split(text, { splitLevel: 2, minBytes: 512 });
  t.same(view(text, sections).map((s) => [s.slug, s.trail, s.headings]), [
    ['title', ['Title'], ['Title']],
    ['next', ['Title', 'Next'], ['Next']],
  ], 'front matter is no part: the body starts with the first heading');
  t.equal(sections[0]?.start, text.indexOf('# Title'), 'the first section starts where the front matter ends');
  const spaced = `---\ntitle: T\n---\n\n# Title\n${big}`;
  t.same(split(spaced, { splitLevel: 2, minBytes: 512 }).map((s) => [s.start, s.slug, s.trail]), [[spaced.indexOf('\n# Title'), '', ['T']]],
    'a blank line after the front matter is a leading part, named by the title, that takes in the heading after it');
  const smallHead = `# Small\nx\n## Big\n${big}`;
  t.same(split(smallHead, { splitLevel: 2, minBytes: 512 }).map((s) => [s.slug, s.headings]), [['small', ['Small', 'Big']]]);
  t.same(split('# a\n## b\n', { splitLevel: 2, minBytes: 512 }).map((s) => s.slug), ['a'], 'all small: one section remains');
});

t.test('a small leading part that takes in the first heading is named by that heading', async (t) => {
  // docs/sources.md "Sections" rule 3: a page's banner, badge line or directive before its
  // first heading names nothing; the heading the part takes in names the page.
  const big = 'x'.repeat(300) + '\n';
  const banner = `Apache HTTP Server Version 2.4\n\n# Log Files\nintro\n## Overview\n${big}`;
  t.same(split(banner, { splitLevel: 2, minBytes: 256, mergeMaxBytes: 300 }).map((s) => [s.slug, s.trail]), [
    ['', ['Log Files']],
    ['overview', ['Log Files', 'Overview']],
  ], 'the banner is content, not the name: the id stays the path');
  const rst = `.. currentmodule:: flask\n\n# The Application Context\n${big}`;
  t.same(split(rst, { splitLevel: 2, minBytes: 256 })[0]?.trail, ['The Application Context'], 'a directive line is no name either');
  const chain = `Banner\n# Small\nx\n## Next\n${big}`;
  t.same(split(chain, { splitLevel: 2, minBytes: 256 }).map((s) => [s.slug, s.trail, s.headings]), [['', ['Small'], ['Small', 'Next']]],
    'named by the first heading it takes in, not by a later one');
  const titled = `---\ntitle: Server Logs\n---\nBanner\n# Log Files\n${big}`;
  t.same(split(titled, { splitLevel: 2, minBytes: 256 })[0]?.trail, ['Server Logs'], "the front matter's title still names the page");
  const empty = `Banner\n## \n${big}`;
  t.same(split(empty, { splitLevel: 2, minBytes: 256 })[0]?.trail, ['Banner'], 'a heading that shows no text names nothing');
  const long = `${'A long introduction. '.repeat(20)}\n\n# Title\n${big}`;
  t.same(split(long, { splitLevel: 2, minBytes: 256 }).map((s) => [s.slug, s.trail[0]?.slice(0, 20)]), [['', 'A long introduction.'], ['title', 'Title']],
    'a leading part of minBytes or more is its own section, named by its first line');
  const past = `Banner\n# Title\n${'y'.repeat(900)}\n`;
  t.same(split(past, { splitLevel: 2, minBytes: 256, maxBytes: 1536, mergeMaxBytes: 768 }).map((s) => [s.slug, s.trail, s.end]), [['', ['Title'], past.length]],
    'it takes the heading in past the merge limit, within the cap: a banner is no unit of its own');
  const later = `# Title\n${'y'.repeat(200)}\n## Tiny\nz\n## Next\n${'w'.repeat(700)}\n`;
  t.same(split(later, { splitLevel: 2, minBytes: 256, maxBytes: 1536, mergeMaxBytes: 768 }).map((s) => s.slug), ['title', 'next'],
    'other small parts still merge only within the merge limit');
  const far = `Banner\n# Title\n${'y'.repeat(499)}\n`; // the heading's section: 508 bytes
  t.same(split(far, { splitLevel: 2, minBytes: 256, maxBytes: 512 }).map((s) => [s.slug, s.trail]), [['', ['Banner']], ['title', ['Title']]],
    'one that cannot take the heading in within the cap keeps its first line');
});

t.test('whitespace-only leading parts count as tiny, whatever minBytes', async (t) => {
  const text = '\n\n# Title\nbody\n';
  t.same(split(text, { splitLevel: 2, minBytes: 0 }).map((s) => [s.start, s.end, s.slug]), [[0, text.length, '']]);
  t.same(split(text, { splitLevel: 2, minBytes: 0 })[0]?.trail, ['Title'], 'it is named by its first line of text: the heading');
  const bom = '\ufeff# Title\n';
  t.same(split(bom, { splitLevel: 2, minBytes: 0 }).map((s) => [s.start, s.slug]), [[0, 'title']], 'a BOM belongs to the first line');
});

t.test('sizes are UTF-8 bytes, not UTF-16 code units', async (t) => {
  t.equal(utf8Length('aé€😀', 0, 5), 1 + 2 + 3 + 4);
  t.equal(utf8Length('\ud800x', 0, 2), 3 + 1, 'a lone surrogate counts as its U+FFFD');
  const wide = `# A\n${'x'.repeat(600)}\n## B\n${'é'.repeat(300)}\n`; // B: 604 bytes, 305 code units
  t.same(split(wide, { splitLevel: 2, minBytes: 512 }).map((s) => s.slug), ['a', 'b']);
  const narrow = `# A\n${'x'.repeat(600)}\n## B\n${'e'.repeat(300)}\n`;
  t.same(split(narrow, { splitLevel: 2, minBytes: 512 }).map((s) => s.slug), ['a']);
});

t.test('options and structure are validated', async (t) => {
  const text = '# a\n';
  const structure = parseMarkdown(text);
  for (const options of [
    { splitLevel: 0, minBytes: 0 },
    { splitLevel: 7, minBytes: 0 },
    { splitLevel: 1.5, minBytes: 0 },
    { splitLevel: 2, minBytes: -1 },
    { splitLevel: 2, minBytes: Number.NaN },
  ]) {
    t.throws(() => splitSections(text, structure, options), ContextError, JSON.stringify(options));
  }
  t.throws(() => splitSections('', structure, { splitLevel: 2, minBytes: 0 }), ContextError, 'a structure from another text');
});

// Tiling for random documents: concatenating the sections gives the body (the text after
// any front matter) back, starts where it starts, each end is the next start, every section
// is non-empty unless the body is, and ids are unique.
const piece = fc.constantFrom(
  '# H1\n', '## H2\n', '### H3\n', 'Setext\n===\n', 'Two\n---\n', 'text line é 😀\n', '\n', '```\n## in code\n```\n',
  '> ## quoted\n', '- ## item\n', '---\ntitle: x\n---\n', 'x'.repeat(300) + '\n', '\r\n', '# dup\n', '<div>\n# html\n</div>\n',
);
const randomDoc = fc.array(piece, { maxLength: 25 }).map((p) => p.join(''));
const randomOptions = fc.record({ splitLevel: fc.integer({ min: 1, max: 6 }), minBytes: fc.constantFrom(0, 1, 64, 512, 4096) });

t.test('sections tile the text exactly (random documents and options)', async (t) => {
  let checked = 0;
  fc.assert(
    fc.property(randomDoc, randomOptions, (text, options) => {
      const sections = split(text, options);
      checked++;
      const bodyStart = parseMarkdown(text).frontMatter?.end ?? 0;
      if (sections.length === 0 || sections[0]?.start !== bodyStart || sections[sections.length - 1]?.end !== text.length) return false;
      for (let i = 1; i < sections.length; i++) if (sections[i]?.start !== sections[i - 1]?.end) return false;
      if (sections.map((s) => text.slice(s.start, s.end)).join('') !== text.slice(bodyStart)) return false;
      if (text.length > bodyStart && sections.some((s) => s.end <= s.start)) return false;
      if (new Set(sections.map((s) => s.slug)).size !== sections.length) return false;
      // Every section but a lone one is at least minBytes (the merge policy's guarantee).
      if (sections.length > 1 && sections.some((s) => utf8Length(text, s.start, s.end) < options.minBytes)) return false;
      // Headings are counted once: the sections' heading lists add up to the document's.
      const all = parseMarkdown(text).headings.map((h) => h.text);
      return JSON.stringify(sections.flatMap((s) => s.headings)) === JSON.stringify(all);
    }),
    { numRuns: 1000, seed: 5 },
  );
  t.equal(checked >= 1000, true, `documents checked: ${checked}`);
});
