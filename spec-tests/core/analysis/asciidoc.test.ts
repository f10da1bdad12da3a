// The AsciiDoc section reader (lib/core/analysis/asciidoc.ts), issue 46: section titles,
// levels, ids and spans by Asciidoctor's rules (docs/sources.md "Formats and files"). A real page
// (spec-tests/fixtures/formats/asciidoc, README there) and the rules one by one.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { asciidocId, parseAsciidoc } from '../../../lib/core/analysis/asciidoc.js';
import { splitSections } from '../../../lib/core/analysis/sections.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'formats', 'asciidoc');
const read = (doc: string): Array<[number, string, string]> => parseAsciidoc(doc).headings.map((h) => [h.level, h.text, h.slug]);

t.test('a real page: Jetty\'s README', async (t) => {
  const text = readFileSync(join(DIR, 'jetty-home-README.adoc'), 'utf8');
  const s = parseAsciidoc(text);
  // `=== ECLIPSE JETTY` (line 1) and `==== Quick Setup` (line 14, after a `// tag::` comment
  // line); the `$ java …` lines inside `----` listing blocks are not titles. Ids: Asciidoctor's
  // defaults, prefix `_`, separator `_`.
  t.same(s.headings.map((h) => [h.level, h.text, h.slug, text.slice(0, h.start).split('\n').length]), [
    [3, 'ECLIPSE JETTY', '_eclipse_jetty', 1],
    [4, 'Quick Setup', '_quick_setup', 14],
  ]);
  const parts = splitSections(text, s, { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes: 1024 });
  t.equal(parts.map((p) => text.slice(p.start, p.end)).join(''), text, 'sections tile the page');
});

t.test('titles: = to ======, Markdown-style #, a closing run, the document title an h1', async (t) => {
  t.same(read('= Doc\n\n== A\n\n=== B ===\n\n====== F\n'), [[1, 'Doc', '_doc'], [2, 'A', '_a'], [3, 'B', '_b'], [6, 'F', '_f']]);
  t.same(read('## Md style\n'), [[2, 'Md style', '_md_style']]);
  t.same(read('======= Seven\n'), [], 'seven markers: text');
  t.same(read('==No space\n'), [], 'no space after the marker');
  t.same(read(' == Indented\n'), [], 'not at column 0');
  t.same(read('== C# ==\n'), [[2, 'C#', '_c']], 'closing run dropped; # is not an id character');
});

t.test('ids: [[id]], [#id], Asciidoctor\'s generated ids and their numbering', async (t) => {
  t.same(read('[[install]]\n== Installing It\n'), [[2, 'Installing It', 'install']]);
  t.same(read('[[install,Installing]]\n== Installing It\n'), [[2, 'Installing It', 'install']], 'with reftext');
  t.same(read('[#setup.role%opt]\n== Setup\n'), [[2, 'Setup', 'setup']]);
  t.same(read('[appendix]\n[[extra]]\n== Extra\n'), [[2, 'Extra', 'extra']], 'stacked attribute lines');
  t.same(read('[[lost]]\n\n== After a blank line\n'), [[2, 'After a blank line', '_after_a_blank_line']]);
  t.same(read('== Dup\n\n== Dup\n\n== Dup\n').map((h) => h[2]), ['_dup', '_dup_2', '_dup_3']);
  t.same(read(':idprefix:\n:idseparator: -\n\n== Getting Started\n\n== Getting Started\n').map((h) => h[2]), ['getting-started', 'getting-started-2'], 'header attributes');
  t.equal(asciidocId('Über *bold* `code` & co.', '_', '_'), '_über_bold_code_co');
  t.equal(asciidocId('a -- b . c', '', '-'), 'a-b-c');
});

t.test('no titles inside delimited blocks or comments; discrete headings are not sections', async (t) => {
  for (const d of ['----', '....', '====', '****', '____', '++++', '////', '|===', '--', '------']) {
    t.same(read(`${d}\n== Inside\n${d}\n\n== After\n`).map((h) => h[1]), ['After'], `${d} block`);
  }
  t.same(read('====\n----\n====\n== Still inside\n----\n====\n\n== After\n').map((h) => h[1]), ['After'], 'only the listing\'s delimiter closes it');
  t.same(read('------\n----\n== Inside\n------\n== After\n').map((h) => h[1]), ['After'], 'a delimiter of another length does not close');
  t.same(read('// == comment\n== Real\n').map((h) => h[1]), ['Real']);
  t.same(read('[discrete]\n== Floating\n\n== Real\n').map((h) => h[1]), ['Real']);
  t.same(read('----\n== Unclosed\n\n== Never\n'), [], 'an unclosed block runs to the end');
});

t.test('spans include the attribute lines above; CRLF', async (t) => {
  const doc = 'Preamble.\r\n\r\n[[a]]\r\n== A\r\nText.\r\n';
  const s = parseAsciidoc(doc);
  t.same(s.headings.map((h) => doc.slice(h.start, h.end)), ['[[a]]\r\n== A\r\n']);
  const parts = splitSections(doc, s, { splitLevel: 2, minBytes: 0 });
  // The preamble is named by its first line (docs/sources.md "Sections": a leading part's name).
    t.same(parts.map((p) => [p.slug, p.trail]), [['', ['Preamble.']], ['a', ['A']]]);
});

// Two-line titles (cache format 14). Asciidoctor 2.0 still reads them (Compliance
// underline_style_section_titles, on by default; Parser.setext_section_title?): a line where
// a block may start, then a line of one of = - ~ ^ + (levels 0 to 4) whose length is the
// title's within one character; the title does not start with `.` and holds a letter or digit.
t.test('two-line titles: levels by underline, length within one, where a block may start', async (t) => {
  t.same(read('Doc Title\n=========\n\nLevel 1\n-------\n\nLevel 2\n~~~~~~~\n\nLevel 3\n^^^^^^^\n\nLevel 4\n+++++++\n'), [
    [1, 'Doc Title', '_doc_title'],
    [2, 'Level 1', '_level_1'],
    [3, 'Level 2', '_level_2'],
    [4, 'Level 3', '_level_3'],
    [5, 'Level 4', '_level_4'],
  ]);
  t.same(read('Seven\n------\n').map((h) => h[1]), ['Seven'], 'one longer');
  t.same(read('Seven\n----\n').map((h) => h[1]), ['Seven'], 'one shorter');
  t.same(read('Sevenxx\n-----\n\n== Inside\n'), [], 'two shorter: the text, then a listing block that runs to the end');
  t.same(read('Seven\n-------\n'), [], 'two longer: a paragraph and a listing block');
  t.same(read('Title  \t\n-----  \n').map((h) => h[1]), ['Title'], 'trailing spaces and tabs are not counted');
  t.same(read('.Block title\n------------\ncode\n------------\n\n== After\n').map((h) => h[1]), ['After'], 'a block title (leading `.`) is not a section');
  t.same(read('----\n----\n\n== After\n').map((h) => h[1]), ['After'], 'no letter or digit: an empty listing block');
  t.same(read('\u{1F600}\u{1F600}\n--\n'), [], 'emoji are not letters');
  t.same(read('\u{1D400}\u{1D401}\n--\n').map((h) => h[0]), [2], 'astral letters count as one character each');
  t.same(read(':toc: left\n----------\n'), [], 'an attribute entry is not a title');
  t.same(read('Some text\nmore text\n---------\ncode\n---------\n\n== After\n').map((h) => h[1]), ['After'], 'inside a paragraph: a listing block');
  t.same(read('[[custom]]\nNamed\n-----\n').map((h) => h[2]), ['custom'], 'attribute lines above give the id');
  t.same(read('[discrete]\nFloating\n--------\nText.\n\nAfter\n-----\n').map((h) => h[1]), ['After'], 'a discrete two-line heading reads its underline with it');
  t.same(read('====\nInside\n~~~~~~\n====\n\nAfter\n-----\n').map((h) => h[1]), ['After'], 'not inside a delimited block');
  const doc = 'Intro\r\n\r\nNAME\r\n----\r\ngit-add - Add file contents\r\n';
  const s = parseAsciidoc(doc);
  t.same(s.headings.map((h) => [h.text, doc.slice(h.start, h.end)]), [['NAME', 'NAME\r\n----\r\n']], 'CRLF; the span holds both lines');
});

t.test('a real page written with two-line titles: git bisect\'s manual (bench/relevance/devset7)', async (t) => {
  const page = join(import.meta.dirname, '..', '..', '..', 'bench', 'relevance', 'devset7', 'corpus', 'git', 'git-bisect.adoc');
  const text = readFileSync(page, 'utf8');
  const s = parseAsciidoc(text);
  // `git-bisect(1)` over `=============`, `NAME` over `----` (a title, not a listing block
  // that would hide every later title), subsections underlined with `~`.
  t.same(s.headings.slice(0, 5).map((h) => [h.level, h.text, h.slug]), [
    [1, 'git-bisect(1)', '_git_bisect1'],
    [2, 'NAME', '_name'],
    [2, 'SYNOPSIS', '_synopsis'],
    [2, 'DESCRIPTION', '_description'],
    [3, 'Basic bisect commands: start, bad, good', '_basic_bisect_commands_start_bad_good'],
  ]);
  t.ok(s.headings.some((h) => h.slug === '_bisect_run' && h.level === 3), 'Bisect run');
  t.ok(s.headings.some((h) => h.slug === '_examples' && h.level === 2), 'EXAMPLES');
  const parts = splitSections(text, s, { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes: 1024 });
  t.equal(parts.map((p) => text.slice(p.start, p.end)).join(''), text, 'sections tile the page');
});

t.test('anchors in titles: a trailing one gives the id, inline ones are not text', async (t) => {
  t.same(read('== Title [[custom]]\n'), [[2, 'Title', 'custom']]);
  t.same(read('== Title [[custom, Reference text]]\n'), [[2, 'Title', 'custom']], 'with reference text');
  t.same(read('OPTIONS[[OPTIONS]]\n------------------\n'), [[2, 'OPTIONS', '_options']], 'no space before it: an inline anchor, the id made from the rest');
  t.same(read('== A [[x]] B [[y]]\n'), [[2, 'A B', 'y']], 'the one ending the title names it');
  t.same(read('[[given]]\n== Title [[ignored]]\n').map((h) => h[2]), ['given'], 'an attribute line\'s id comes first');
  t.same(read('== Title \\[[kept]]\n'), [[2, 'Title \\[[kept]]', '_title_kept']], 'escaped: text');
  t.same(read('== Title [[1bad]]\n').map((h) => h[2]), ['_title_1bad'], 'an id must start with a letter, `_` or `:`');
});
