// The AsciiDoc section reader (lib/core/analysis/asciidoc.ts), issue 46: section titles,
// levels, ids and spans by Asciidoctor's rules (docs/engine.md "Sources"). A real page
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
  // The preamble is named by its first line (docs/engine.md "Sections": a leading part's name).
    t.same(parts.map((p) => [p.slug, p.trail]), [['', ['Preamble.']], ['a', ['A']]]);
});
