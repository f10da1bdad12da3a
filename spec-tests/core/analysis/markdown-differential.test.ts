// Differential test of parseMarkdown (lib/core/analysis/markdown.ts; issue 9 item 5,
// "fenced code is not a heading"; docs/sources.md "Markdown structure and sections"): its
// top-level headings (level, first and last line, text) must equal those of two
// independent parsers on real documentation pages and on generated documents.
// - commonmark.js, the CommonMark reference implementation (whose algorithm GitHub's cmark
//   shares), must agree on every heading: level, last line and text (read as cmark would:
//   see commonmarkHeadings).
// - micromark must agree on everything, first line included, wherever it agrees with
//   commonmark.js. Where the two disagree, micromark departs from the reference (it applies
//   the rule of 3 to partly used delimiter runs, drops a shortcut reference followed by an
//   unclosed '[', and ends a list at an empty item after indented code); ours follows the
//   reference, and those documents are counted.

import t from 'tap';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMarkdown } from '../../../lib/core/analysis/markdown.js';
import {
  blankFrontMatter,
  commonmarkHeadings,
  lineOfOffset,
  micromarkHeadings,
  type OracleHeading,
} from './markdown-oracles.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/markdown');

function ours(doc: string): { frontMatterEnd: number; headings: OracleHeading[] } {
  const structure = parseMarkdown(doc);
  const line = lineOfOffset(doc);
  return {
    frontMatterEnd: structure.frontMatter?.end ?? 0,
    headings: structure.headings.map((h) => ({
      level: h.level,
      startLine: line(h.start),
      endLine: line(h.end - 1),
      text: h.text,
    })),
  };
}

interface Tally {
  documents: number;
  headings: number;
  setext: number;
  micromarkAgrees: number;
  oraclesDisagree: number;
}

/** Compares one document; returns a description of the mismatch, or null. */
function compare(doc: string, frontMatterEnd: number, tally: Tally): string | null {
  const mine = ours(doc);
  if (mine.frontMatterEnd !== frontMatterEnd) return `front matter ends at ${mine.frontMatterEnd}, expected ${frontMatterEnd}`;
  const blanked = blankFrontMatter(doc, frontMatterEnd);
  const reference = commonmarkHeadings(blanked, false);
  const referenceTrimmed = commonmarkHeadings(blanked, true);
  const micromark = micromarkHeadings(blanked);
  tally.documents++;
  tally.headings += mine.headings.length;
  tally.setext += mine.headings.filter((h) => h.endLine > (h.startLine ?? h.endLine)).length;
  const equalsReference = (headings: readonly OracleHeading[]): boolean =>
    headings.length === reference.length &&
    headings.every((h, i) => {
      const r = reference[i] as OracleHeading;
      const rt = referenceTrimmed[i] as OracleHeading;
      return h.level === r.level && h.endLine === r.endLine && (h.text === r.text || h.text === rt.text);
    });
  if (!equalsReference(mine.headings)) {
    return `commonmark.js ${JSON.stringify(reference)}\nours          ${JSON.stringify(mine.headings)}`;
  }
  if (!equalsReference(micromark)) {
    tally.oraclesDisagree++;
    return null;
  }
  if (JSON.stringify(micromark) !== JSON.stringify(mine.headings)) {
    return `micromark ${JSON.stringify(micromark)}\nours      ${JSON.stringify(mine.headings)}`;
  }
  tally.micromarkAgrees++;
  return null;
}

function newTally(): Tally {
  return { documents: 0, headings: 0, setext: 0, micromarkAgrees: 0, oraclesDisagree: 0 };
}

t.test('real documentation pages: top-level headings equal both oracles', async (t) => {
  const tally = newTally();
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.md') && f !== 'NOTE.md').sort();
  t.ok(files.length >= 9, 'the fixture pages are there');
  for (const file of files) {
    const doc = readFileSync(join(FIXTURES, file), 'utf8');
    // Front matter found independently: a `---` first line closed by a later `---` line.
    const fm = /^---\r?\n(?:.*\r?\n)*?---\r?\n/.exec(doc);
    t.equal(compare(doc, fm === null ? 0 : fm[0].length, tally), null, file);
  }
  t.equal(tally.micromarkAgrees, files.length, 'micromark agrees on every page');
  t.ok(tally.headings > 300, `headings compared: ${tally.headings}`);
  t.comment(`pages ${tally.documents}, top-level headings ${tally.headings}, micromark-exact ${tally.micromarkAgrees}`);
});

// Generated documents: lines drawn from a soup of block starts (ATX and setext headings,
// fences, indented code, HTML blocks of every kind, lists, quotes, definitions, thematic
// breaks) under container prefixes, with inline markup, optional front matter, and LF,
// CRLF or CR line endings.
const inlineToken = fc.constantFrom(
  'foo', 'bar', 'Baz', 'Ünïcode', '日本語', ' ', ' ', '  ', '*', '**', '***', '_', '__', '`', '``', '[', ']', '(', ')', '![',
  '](/u)', '](/u "t")', '](<a b>)', '[foo]', '[bar][]', '[x][foo]', '<span>', '</span>', '<a href="x">', '<http://a.b/c>',
  '<a@b.co>', '&amp;', '&copy;', '&#35;', '&#x41;', '&bogus;', '\\', '\\*', '\\#', '\\[', '#', ' #', ' ##', '!',
  '<!-- c -->', '\t', '"', "'", '.', ',', '-', 'snake_case', 'a*b*c',
);
const inline = fc.array(inlineToken, { maxLength: 10 }).map((a) => a.join(''));
const prefix = fc.constantFrom(
  '', '', '', '', '', '', ' ', '  ', '   ', '    ', '     ', '      ', '\t', ' \t', '> ', '>', '>\t', '> > ', '- ', '* ', '+ ',
  '1. ', '2) ', '10. ', '01. ', '  - ', '    - ', '   > ', '-   ', '-    ', '-     ', '-\t', '1.     ', '1.  ', '  1. ',
  '- > ', '> - ', '- - ', '* * ',
);
const setext = fc
  .tuple(fc.array(inline, { minLength: 1, maxLength: 3 }), fc.constantFrom('===', '---', '  ==  ', '-', '=', '   ---', '    ---', '- -'))
  .map(([lines, underline]) => lines.map((s) => 'x' + s).join('\n') + '\n' + underline);
const body = fc.oneof(
  setext,
  inline,
  inline.map((s) => '# ' + s),
  inline.map((s) => '## ' + s),
  fc
    .tuple(fc.integer({ min: 1, max: 7 }), inline, fc.constantFrom('', ' #', ' ##', '#', ' # ', ' \\#'))
    .map(([n, s, close]) => '#'.repeat(n) + ' ' + s + close),
  fc.constantFrom(
    '#', '##', '#5', '#\tx', '===', '= =', '---', '--- ', '- - -', '***', '___', '==', '-', '=',
    '```', '```js', '````', '~~~', '~~~~', '~~~ x ~', '``` `x`', '```\t', '`````', '~~~~~~', '  ```', '   ~~~', '```a`b',
    '~~~ `x`', '<div>', '</div>', '<div class="a">', '<!--', '-->', '<!-- x -->', '<pre>', '</pre>', '<script>', '</script>',
    '<style>', '<textarea>', '</textarea>', '<x-tag attr="v">', '<x-tag>', '</x-tag>', '<?php', '?>', '<!DOCTYPE html>',
    '<![CDATA[', ']]>', '<a href="x">link</a>', '<br/>', '[foo]: /url', '[foo]: /url "title"', '[foo]:\n  /url\n  "title"',
    "[bar]: /u\n'multi\nline'", '[foo]: /u "t" x', '[foo]: /u\n"t" x', '[bar]:', '/url2', '"title"', "[baz]: <a b> 't'",
    '[Foo Bar]: /x', '[]: /x', 'Title\n===', 'A\nB\n---', '[foo]: /u\nText\n===', '[foo]: /u\n===',
    '<div>\n# in html\n</div>', '<!--\n# in comment\n-->', '<pre>\n# in pre\n</pre>', '', '', '', '',
  ),
);
const line = fc.tuple(prefix, body).map(([p, b]) => p + b);
const frontMatter = fc.constantFrom('', '', '---\ntitle: T\n---\n', '---\n---\n', '+++\ntitle = "x"\n+++\n', '---\na: 1\n...\n');
const generatedDocument = fc
  .tuple(frontMatter, fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\n', '\r\n', '\r'), fc.boolean())
  .map(([fm, lines, eol, trailing]) => ({
    text: (fm + lines.join('\n') + (trailing ? '\n' : '')).replace(/\n/g, eol),
    frontMatterEnd: fm.replace(/\n/g, eol).length,
  }));

t.test('generated documents: top-level headings equal both oracles', async (t) => {
  const tally = newTally();
  fc.assert(
    fc.property(generatedDocument, ({ text, frontMatterEnd }) => {
      const mismatch = compare(text, frontMatterEnd, tally);
      if (mismatch !== null) throw new Error(`${JSON.stringify(text)}\n${mismatch}`);
    }),
    { numRuns: 2000, seed: 9 },
  );
  t.ok(tally.headings > 1000, `headings compared: ${tally.headings}`);
  t.ok(tally.setext > 100, `multi-line (setext) headings among them: ${tally.setext}`);
  t.ok(tally.micromarkAgrees > tally.documents * 0.9, 'micromark agrees exactly on most documents');
  t.comment(
    `documents ${tally.documents} (fast-check runs, shrinks included), top-level headings ${tally.headings}, ` +
      `micromark-exact ${tally.micromarkAgrees}, oracles disagree ${tally.oraclesDisagree}`,
  );
});
