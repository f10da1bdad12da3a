// The reStructuredText section reader (lib/core/analysis/rst.ts), issue 46: section titles,
// levels, ids and spans as docutils reads them. Real pages (spec-tests/fixtures/formats/rst,
// README there) are checked against what docutils 0.19 itself produced for them
// (expected.json, docutils-oracle.py); the rules one by one against small documents.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { makeId, parseRst } from '../../../lib/core/analysis/rst.js';
import { splitSections } from '../../../lib/core/analysis/sections.js';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'formats', 'rst');
const read = (doc: string): Array<[number, string, string]> => parseRst(doc).headings.map((h) => [h.level, h.text, h.slug]);

interface Expected {
  readonly level: number;
  readonly text: string;
  readonly ids: readonly string[];
  readonly line: number;
}

t.test('real pages: every section docutils finds, at its line, level, text and id', async (t) => {
  const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<string, Expected[]>;
  const names = readdirSync(DIR).filter((n) => n.endsWith('.rst')).sort();
  t.same(Object.keys(expected).sort(), names, 'expected.json covers every fixture');
  let compared = 0;
  for (const name of names) {
    const text = readFileSync(join(DIR, name), 'utf8');
    const { headings } = parseRst(text);
    const want = expected[name] as Expected[];
    t.equal(headings.length, want.length, `${name}: section count`);
    want.forEach((w, i) => {
      const h = headings[i];
      if (h === undefined) return;
      // docutils' line is the title's underline, the last line of the heading's span.
      const lastLine = text.slice(0, h.end - 1).split('\n').length;
      t.equal(lastLine, w.line, `${name}: "${w.text}" at its line`);
      t.equal(h.level, w.level, `${name}: "${w.text}" level`);
      // Plain docutils does not know Sphinx roles (`:mod:`); Sphinx renders their content.
      const withRole = /:[a-z]+:`/.test(w.text);
      t.equal(h.text, withRole ? w.text.replace(/:[a-z]+:`([^`]*)`/g, '$1') : w.text, `${name}: text`);
      if (!withRole) t.ok(w.ids.includes(h.slug), `${name}: id ${h.slug} is one of docutils' ${w.ids.join(', ')}`);
      compared++;
    });
  }
  t.ok(compared >= 30, `compared ${compared} sections`);
});

t.test('a target directly before a title names its id; otherwise docutils make_id', async (t) => {
  const text = readFileSync(join(DIR, 'pip-command-line-interface.rst'), 'utf8');
  t.same(read(text).map((h) => h[2]), ['command-line-interface', 'cli-overview', 'future-refactoring-ideas']);
  t.same(read('.. _Setup Guide:\n\nInstall\n=======\n'), [[1, 'Install', 'setup-guide']], 'the label made an id as docutils makes it');
  t.same(read('.. _`a: b`:\n\nX\n=\n'), [[1, 'X', 'a-b']], 'a quoted label');
  t.same(read('.. _first:\n.. _second:\n\nX\n=\n'), [[1, 'X', 'first']], 'chained targets: the first');
  t.same(read('.. _lost:\n\nA paragraph.\n\nX\n=\n'), [[1, 'X', 'x']], 'a paragraph between: the target is not the title\'s');
  t.equal(makeId('Über 2. Straße'), 'uber-2-strae');
  t.equal(makeId('3rd try'), 'rd-try', 'leading digits dropped');
});

t.test('levels follow the order styles first appear; overline+underline is its own style', async (t) => {
  const doc = '=====\nTitle\n=====\n\nA\n=\n\nB\n-\n\nC\n=\n\n=====\nAgain\n=====\n';
  t.same(read(doc).map((h) => h[0]), [1, 2, 3, 2, 1]);
  const deep = ['=', '-', '~', '^', '"', "'", '+', '#'].map((c, i) => `T${i}\n${c.repeat(3)}\n`).join('\n');
  t.same(read(deep).map((h) => h[0]), [1, 2, 3, 4, 5, 6, 6, 6], 'past the sixth style: level 6');
});

t.test('underline length: at least the title, or at least 4; wide characters count two', async (t) => {
  t.same(read('Title\n===\n'), [], 'too short and under 4: text');
  t.same(read('Long title\n====\n').length, 1, '4 or more: a title (docutils warns)');
  t.same(read('ab\n==\n').length, 1);
  t.same(read('日本\n===\n'), [], '日本 is 4 columns');
  t.same(read('日本\n====\n'), [[1, '日本', 'section-1']], 'no ASCII letter: docutils names it section-N');
  t.same(read('====\nTitle\n=====\n'), [], 'overline and underline differ: no title');
  t.same(read('====\n Inset title \n====\n'), [[1, 'Inset title', 'inset-title']], 'an overlined title may be inset');
  t.same(read('Title\n=====   \n').length, 1, 'trailing spaces after the underline');
  t.same(read('Title\n=-=-=\n'), [], 'one character only');
  t.same(read('Title\naaaaa\n'), [], 'punctuation only');
});

t.test('a title starts a paragraph; list items, literal blocks, directives and comments hold none', async (t) => {
  t.same(read('Para line\nTitle\n=====\n'), [], 'second line of a paragraph');
  t.same(read('- item\n------\n'), [], 'a bullet item');
  t.same(read('   Indented\n   ========\n'), [], 'indented: a block quote');
  t.same(read('Example::\n\n    Not a title\n    ===========\n\nAfter\n=====\n').map((h) => h[1]), ['After']);
  t.same(read('Example::\n\n> Quoted\n> ======\n\nAfter\n=====\n').map((h) => h[1]), ['After'], 'a quoted literal block');
  t.same(read('.. code-block:: rst\n\n   Not a title\n   ===========\n\nAfter\n=====\n').map((h) => h[1]), ['After']);
  t.same(read('..\n   Comment\n   =======\n\nAfter\n=====\n').map((h) => h[1]), ['After']);
  t.same(read('.. note::\n\nNot in the note\n===============\n').map((h) => h[1]), ['Not in the note'], 'an empty directive body');
  t.same(read('Text.\n\n----------\n\nMore.\n'), [], 'a transition');
});

t.test('spans tile with sections.ts: CRLF, a byte order mark, inline markup', async (t) => {
  const doc = '\uFEFFIntro.\r\n\r\nFirst ``code``\r\n==============\r\n\r\nBody *em*.\r\n\r\nSecond `link <http://x>`_\r\n-------------------------\r\n\r\nMore.\r\n';
  const s = parseRst(doc);
  t.same(s.headings.map((h) => [h.text, h.slug, doc.slice(h.start, h.end)]), [
    ['First code', 'first-code', 'First ``code``\r\n==============\r\n'],
    ['Second link', 'second-link', 'Second `link <http://x>`_\r\n-------------------------\r\n'],
  ]);
  const parts = splitSections(doc, s, { splitLevel: 2, minBytes: 0 });
  t.same(parts.map((p) => p.slug), ['', 'first-code', 'second-link']);
  // The leading part is named by its first line, the byte order mark left out.
    t.same(parts.map((p) => p.trail), [['Intro.'], ['First code'], ['First code', 'Second link']]);
  t.equal(parts.map((p) => doc.slice(p.start, p.end)).join(''), doc);
  t.same(read('A\n=\n\nA\n=\n').map((h) => h[2]), ['a', 'a-1'], 'a repeated id is numbered');
});

t.test('sources.md "Formats and files": a Sphinx object description is titled a level below its section, its members one more', async (t) => {
  // CPython's Doc/library/csv.rst as Python 3.11 ships it (_sources/library/csv.rst.txt), trimmed.
  const doc = [
    ':mod:`csv` --- CSV File Reading and Writing',
    '===========================================',
    '',
    '.. module:: csv',
    '',
    'Module Contents',
    '---------------',
    '',
    '.. function:: reader(csvfile, dialect=\'excel\', **fmtparams)',
    '',
    '   Return a reader object.',
    '',
    '.. class:: DictReader(f, fieldnames=None, restkey=None, restval=None, \\',
    '                      dialect=\'excel\', *args, **kwds)',
    '',
    '   Create an object that operates like a regular reader.',
    '',
    '.. class:: Sniffer()',
    '',
    '   The :class:`Sniffer` class is used to deduce the format of a CSV file.',
    '',
    '   .. method:: sniff(sample, delimiters=None)',
    '',
    '      Analyze the given *sample*::',
    '',
    '         .. method:: not_a_member()',
    '',
    '   .. method:: has_header(sample)',
    '',
    '      Analyze the sample text.',
    '',
    '   .. note::',
    '',
    '      .. method:: inside_a_note()',
    '',
    '.. data:: QUOTE_ALL',
    '',
    '   Quote all fields.',
    '',
    '.. c:function:: PyObject* PyCSV_New(int kind)',
    '',
    '.. option:: --strict',
    '',
    '.. currentmodule:: None',
    '',
    '.. py:data:: SECRET_KEY',
    '',
    '.. autofunction:: flask.url_for',
    '',
    'Examples',
    '--------',
    '',
    'Text.',
    '',
  ].join('\n');
  t.same(read(doc), [
    [1, 'csv --- CSV File Reading and Writing', 'csv-csv-file-reading-and-writing'],
    [2, 'Module Contents', 'module-contents'],
    [3, "reader(csvfile, dialect='excel', **fmtparams)", 'csv.reader'],
    [3, 'DictReader(f, fieldnames=None, restkey=None, restval=None,', 'csv.DictReader'],
    [3, 'Sniffer()', 'csv.Sniffer'],
    [4, 'sniff(sample, delimiters=None)', 'csv.Sniffer.sniff'],
    [4, 'has_header(sample)', 'csv.Sniffer.has_header'],
    [3, 'QUOTE_ALL', 'csv.QUOTE_ALL'],
    [3, 'PyObject* PyCSV_New(int kind)', 'c.PyCSV_New'],
    [3, '--strict', 'cmdoption-strict'],
    [3, 'SECRET_KEY', 'SECRET_KEY'],
    [2, 'Examples', 'examples'],
  ], "Sphinx's anchors for Python and C objects; a literal block's, a note's and an auto directive's lines are none");
  const s = parseRst(doc);
  const sniff = s.headings[5];
  t.equal(doc.slice(sniff?.start, sniff?.end), '   .. method:: sniff(sample, delimiters=None)\n', "a member's span is its directive's line");
  const parts = splitSections(doc, s, { splitLevel: 2, minBytes: 0, maxBytes: 120 });
  t.equal(parts.map((p) => doc.slice(p.start, p.end)).join(''), doc, 'sections tile the text');
  t.ok(parts.some((p) => p.slug === 'csv.Sniffer.sniff'), 'a section over the cap is cut at its members');
  t.same(read('Title\n=====\n\n.. function:: f()\n\n.. function:: f()\n'), [[1, 'Title', 'title'], [2, 'f()', 'f'], [2, 'f()', 'f-1']], 'a repeated anchor is numbered');
  t.same(read('.. class:: A\n\n   .. method:: m()\n\n.. method:: n()\n'), [[1, 'A', 'A'], [2, 'm()', 'A.m'], [1, 'n()', 'n']], 'before any title: level 1; the body ends where the indentation does');
});

t.test('sources.md "Formats and files": a Sphinx glossary\'s terms are headings a level below its section, named as Sphinx names them', async (t) => {
  // CPython's Doc/glossary.rst as Python 3.11 ships it, trimmed.
  const doc = [
    '********',
    'Glossary',
    '********',
    '',
    '.. glossary::',
    '   :sorted:',
    '',
    '   ``>>>``',
    '      The default Python prompt of the interactive shell.',
    '',
    '   abstract base class',
    '      Abstract base classes complement :term:`duck-typing`.',
    '',
    '      Not a term: a second paragraph of the definition.',
    '',
    '   CPython',
    '   C-Python : implementation',
    '      The canonical implementation of the Python programming language.',
    '',
    'After',
    '=====',
    '',
  ].join('\n');
  t.same(read(doc), [
    [1, 'Glossary', 'glossary'],
    [2, '>>>', 'section-1'],
    [2, 'abstract base class', 'term-abstract-base-class'],
    [2, 'CPython', 'term-CPython'],
    [2, 'C-Python', 'term-C-Python'],
    [2, 'After', 'after'],
  ], "each term line (a classifier after ' : ' dropped), its options and definitions none");
  const s = parseRst(doc);
  t.same(s.headings.slice(1, 5).map((h) => doc.slice(h.start, h.end)), ['   ``>>>``\n', '   abstract base class\n', '   CPython\n', '   C-Python : implementation\n'], "a term's span is its line");
  t.ok(s.blocks.includes(s.headings[2]?.start ?? -1), 'a term starts a block');
  const parts = splitSections(doc, s, { splitLevel: 1, minBytes: 0, maxBytes: 100 });
  t.equal(parts.map((p) => doc.slice(p.start, p.end)).join(''), doc, 'sections tile the text');
  t.ok(parts.some((p) => p.slug === 'term-abstract-base-class'), 'a glossary over the cap is cut at its terms');
});

t.test('sources.md "Formats and files": options, environment variables and configuration values take the anchors Sphinx gives them', async (t) => {
  const doc = ['.. program:: sphinx-build', '', '.. option:: -W', '', '   Turn warnings into errors.', '', '.. option:: --keep-going, -k', '', '.. std:envvar:: PYTHONPATH', '', '.. confval:: exclude_patterns', '', '.. program:: None', '', '.. cmdoption:: -c <command>', '', '.. describe:: anything else', ''].join('\n');
  t.same(read(doc), [
    [1, '-W', 'cmdoption-sphinx-build-W'],
    [1, '--keep-going, -k', 'cmdoption-sphinx-build-keep-going'],
    [1, 'PYTHONPATH', 'envvar-PYTHONPATH'],
    [1, 'exclude_patterns', 'confval-exclude_patterns'],
    [1, '-c <command>', 'cmdoption-c'],
    [1, 'anything else', 'anything-else'],
  ], "the program's name before an option's (none after `.. program:: None`); other directives make_id's");
});
