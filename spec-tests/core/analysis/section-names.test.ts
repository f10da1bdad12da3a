// Issue 43 item 4 (first half), with the rules of docs/sources.md "Sections": front matter is
// no unit's content (sections tile the body, the text after it), and the text before any
// heading is named by the page: its trail is [the front-matter title], else [its first line
// of text] (Markdown marks removed, at most 80 code points), and its pieces past the first
// are `name~k`, name the slug of that name, never an id a heading has.

import t from 'tap';
import fc from 'fast-check';
import { bodyStartOf, parseMarkdown } from '../../../lib/core/analysis/markdown.js';
import { splitSections, type Section, type SectionOptions } from '../../../lib/core/analysis/sections.js';
import { leadingName, NAME_MAX } from '../../../lib/core/analysis/section-name.js';

const RULES: SectionOptions = { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes: 1024 };
const split = (text: string, options: SectionOptions = RULES): Section[] => splitSections(text, parseMarkdown(text, { headingIds: true }), options);
const paragraphs = (n: number, words: string): string =>
  Array.from({ length: n }, (_, i) => `${words} ${i}, a sentence long enough to be a paragraph of its own in a page.\n\n`).join('');

const FRONT = '---\ntitle: Deploying Kiwi\ndescription: How to ship it\n---\n';

t.test('front matter is no unit\'s content: the first unit starts where it ends', async (t) => {
  for (const text of [
    `${FRONT}\nIntro text before any heading.\n\n## Install\n\n${paragraphs(3, 'Install')}`,
    `${FRONT}## Install\n\n${paragraphs(3, 'Install')}`,
    `${FRONT}${paragraphs(40, 'Body')}`,
    '+++\ntitle = "Toml"\n+++\nshort\n',
    `\ufeff${FRONT}short\n`,
  ]) {
    const sections = split(text);
    const end = parseMarkdown(text).frontMatter?.end as number;
    t.equal(sections[0]?.start, end, 'the first unit starts at the end of the front matter');
    t.ok(sections.every((s) => !text.slice(s.start, s.end).includes('title')), 'no unit holds the front matter');
    t.equal(sections.map((s) => text.slice(s.start, s.end)).join(''), text.slice(end), 'the units give the body back');
  }
  const only = `${FRONT}`;
  t.same(split(only).map((s) => [s.start, s.end, s.slug, s.trail]), [[only.length, only.length, '', ['Deploying Kiwi']]], 'front matter alone: one empty unit after it, named by the title');
});

t.test('a headingless page with a front-matter title, cut in several units: trail [title], ids from the title, unique', async (t) => {
  const text = `${FRONT}${paragraphs(60, 'Body')}`;
  const sections = split(text);
  t.ok(sections.length >= 3, `${sections.length} units`);
  t.ok(sections.every((s) => s.trail.length === 1 && s.trail[0] === 'Deploying Kiwi'), 'every piece has the trail [title]');
  t.ok(sections.every((s) => s.leading), 'all of them are the leading part');
  t.same(
    sections.map((s) => s.slug),
    ['', ...sections.slice(1).map((_, i) => `deploying-kiwi~${i + 2}`)],
    'the first piece is the page itself (path), then title-slug~2, ~3, ...',
  );
  t.equal(new Set(sections.map((s) => s.slug)).size, sections.length, 'unique');
  const toml = `+++\ntitle = "Ünïcode Tïtle!"\n+++\n${paragraphs(60, 'Body')}`;
  t.same(split(toml).slice(0, 3).map((s) => [s.slug, s.trail]), [['', ['Ünïcode Tïtle!']], ['ünïcode-tïtle~2', ['Ünïcode Tïtle!']], ['ünïcode-tïtle~3', ['Ünïcode Tïtle!']]], 'TOML titles too; slugs as GitHub makes them');
});

t.test('a headingless page without front matter: its first line of text names it', async (t) => {
  const text = paragraphs(60, '**Kiwi** is a [fruit](https://example.com) and `code`');
  const sections = split(text);
  const name = 'Kiwi is a fruit and code 0, a sentence long enough to be a paragraph of its…';
  t.ok(Array.from(name).length <= NAME_MAX);
  t.ok(sections.every((s) => s.trail.length === 1 && s.trail[0] === name), 'marks removed as from a heading, cut at a space to 80 code points');
  t.same(sections.slice(0, 2).map((s) => s.slug), ['', 'kiwi-is-a-fruit-and-code-0-a-sentence-long-enough-to-be-a-paragraph-of-its~2']);
  t.same(split('Short page.\n').map((s) => s.trail), [['Short page.']], 'one unit: its trail still names it');
  t.same(split('').map((s) => s.trail), [[]], 'no text: no name');
  t.same(split('```\ncode only\n```\n').map((s) => s.trail), [[]], 'code is not text: no name');
});

t.test('the first line of text: what is skipped and what is read', async (t) => {
  const name = (text: string, title: string | null = null): string | null => leadingName(text, 0, title, parseMarkdown(text, { headingIds: true }).headings);
  t.equal(name('body\n', 'The Title'), 'The Title', 'a front-matter title first');
  t.equal(name('body\n', '  '), 'body', 'a blank title is none');
  t.equal(name('\n\n  \nsecond\n'), 'second', 'blank lines skipped');
  t.equal(name('\uFEFFIntro.\n'), 'Intro.', 'a byte order mark is no part of the name');
  t.equal(name('```js\nconst a = 1\n```\nafter the code\n'), 'after the code', 'fenced code skipped');
  t.equal(name('~~~~\n~~~\nstill code\n~~~~\nout\n'), 'out', 'a fence closes only with a run as long');
  t.equal(name('<!-- a comment\nover lines -->\n<div align="center">\n<img src="x.png">\nText\n'), 'Text', 'HTML comments and tags show nothing');
  t.equal(name("import X from './x'\nexport const y = 1\n{/* an MDX comment */}\n\nProse\n"), 'Prose', 'MDX statements and comments skipped');
  t.equal(name('---\n***\n\n> - **Note**: read *this*\n'), 'Note: read this', 'rules skipped; quote and list markers, emphasis removed');
  t.equal(name('### Usage {#use} ###\nx\n'), 'Usage', 'a heading gives its text (custom id and closing sequence removed)');
  t.equal(name('Setext\nLine\n===\n'), 'Setext\nLine', 'a setext heading its text');
  t.equal(name('&amp; \\*escaped\\*\n'), '& *escaped*', 'entities and escapes decoded');
  t.equal(name(`${'日本語'.repeat(40)}\n`), `${'日本語'.repeat(40).slice(0, NAME_MAX - 1)}…`, 'no space: cut at 79 code points');
  t.equal(name(`${'😀'.repeat(100)}\n`), `${'😀'.repeat(NAME_MAX - 1)}…`, 'code points, not UTF-16 units');
  t.equal(name('\r\n\rCR line\r\n'), 'CR line', 'CRLF and CR line endings');
});

t.test('ids: a leading piece never takes an id a heading has, and headings keep theirs', async (t) => {
  // The title's slug is a heading's slug, and both the leading part and that heading are cut.
  const text = `---\ntitle: Install\n---\n${paragraphs(30, 'Lead')}## Install\n\n${paragraphs(80, 'Steps')}`;
  const sections = split(text);
  const lead = sections.filter((s) => s.leading).map((s) => s.slug);
  const heading = sections.filter((s) => !s.leading).map((s) => s.slug);
  t.same(heading.slice(0, 3), ['install', 'install~2', 'install~3'], 'the heading\'s pieces are numbered as without the leading part');
  t.equal(lead[0], '', 'the leading part\'s first piece is the page');
  t.ok(lead.slice(1).every((id) => /^install~[0-9]+$/.test(id) && !heading.includes(id)), `leading pieces skip the heading's ids: ${lead.join(', ')}`);
  const numbers = lead.slice(1).map((id) => Number(id.slice('install~'.length)));
  t.ok(numbers.every((n, i) => i === 0 || n > (numbers[i - 1] as number)), 'and are numbered up in document order');
  t.equal(new Set(sections.map((s) => s.slug)).size, sections.length, 'all unique');
});

// Property: random pages, front matter or not, titled or not: the units tile the body, ids
// are unique, a leading part is named [title] when there is one, and the rules hold whatever
// the options.
const block = fc.constantFrom(
  '# H1\n', '## H2\n', '### H3\n', 'Setext\n===\n', '## Id {#custom}\n', 'text line é 😀\n', '\n', '```\n## in code\n```\n',
  '> ## quoted\n', '- item\n', 'x'.repeat(300) + '\n', '\r\n', '# dup\n', '<!-- c -->\n', 'import a from "b"\n', '😀'.repeat(300) + '\n',
);
const front = fc.constantFrom('', '---\ntitle: x\n---\n', '---\ntitle: Install\n---\n', '---\ndescription: no title\n---\n', '+++\ntitle = "T ~ 1"\n+++\n', '---\ntitle: 😀\n---\n');
const page = fc.tuple(front, fc.array(block, { maxLength: 30 })).map(([f, blocks]) => f + blocks.join(''));
const options = fc.record({
  splitLevel: fc.integer({ min: 1, max: 6 }),
  minBytes: fc.constantFrom(0, 64, 256),
  maxBytes: fc.constantFrom(4, 64, 500, 2048),
  mergeMaxBytes: fc.constantFrom(0, 100, 1024),
});

t.test('property: units tile the body, ids are unique, a leading part is named by the title', async (t) => {
  let checked = 0;
  fc.assert(
    fc.property(page, options, (text, o) => {
      checked++;
      const structure = parseMarkdown(text, { headingIds: true });
      const sections = splitSections(text, structure, o);
      // The body: past the front matter and any import statements opening the page (format 15).
      const bodyStart = bodyStartOf(structure);
      const skipped = text.slice(structure.frontMatter?.end ?? 0, bodyStart);
      if (skipped !== '' && !/^(?:[ \t]*\r?\n)*import a from "b"/.test(skipped)) throw new Error(`skipped more than statements: ${JSON.stringify(skipped)}`);
      if (sections[0]?.start !== bodyStart) throw new Error('does not start at the body');
      if (sections.map((s) => text.slice(s.start, s.end)).join('') !== text.slice(bodyStart)) throw new Error('does not tile the body');
      if (new Set(sections.map((s) => s.slug)).size !== sections.length) throw new Error(`ids not unique: ${sections.map((s) => s.slug).join(' ')}`);
      const title = structure.frontMatter?.title ?? null;
      for (const s of sections.filter((x) => x.leading)) {
        if (title !== null && (s.trail.length !== 1 || s.trail[0] !== title)) throw new Error(`leading trail ${JSON.stringify(s.trail)} without the title ${title}`);
      }
      return true;
    }),
    { numRuns: 1000, seed: 43 },
  );
  t.equal(checked >= 1000, true, `pages checked: ${checked}`);
});
