// Issue 46: the section readers of reStructuredText, AsciiDoc and plain text are linear and
// total. Random documents made of each format's structural pieces give structures sections.ts
// accepts (headings in order, inside the text, blocks ascending) and sections that tile the
// text; pathological 1 MB inputs (unclosed blocks, deep nesting, one 1 MB line, runs that a
// backtracking regular expression would try from every position) finish within a bound a
// quadratic reader could not meet (1 MB squared is 10^12 steps; the readers take 3 ms to 1.3 s).
import fc from 'fast-check';
import t from 'tap';
import { parseAsciidoc } from '../../../lib/core/analysis/asciidoc.js';
import { parseHtml } from '../../../lib/core/analysis/html.js';
import { parsePlainText } from '../../../lib/core/analysis/plain-text.js';
import { parseRst } from '../../../lib/core/analysis/rst.js';
import type { MarkdownStructure } from '../../../lib/core/analysis/markdown.js';
import { splitSections } from '../../../lib/core/analysis/sections.js';

/** A reader: the document's text (HTML: its visible text; others: the source) and its structure. */
type Reader = (source: string) => { text: string; structure: MarkdownStructure };
const READERS: Array<[string, Reader]> = [
  ['rst', (s) => ({ text: s, structure: parseRst(s, { headingBytes: 1024 }) })],
  ['asciidoc', (s) => ({ text: s, structure: parseAsciidoc(s, { headingBytes: 1024 }) })],
  ['text', (s) => ({ text: s, structure: parsePlainText(s) })],
  [
    'html',
    (s) => {
      const structure = parseHtml(s, { headingBytes: 1024 });
      return { text: structure.text, structure };
    },
  ],
];

function checkStructure(text: string, s: MarkdownStructure): boolean {
  let end = 0;
  for (const h of s.headings) {
    if (!(h.start >= end && h.end > h.start && h.end <= text.length && h.level >= 1 && h.level <= 6 && !h.slug.includes('~'))) return false;
    end = h.end;
  }
  let prev = -1;
  for (const b of s.blocks) {
    if (!(b > prev && b <= text.length)) return false;
    prev = b;
  }
  const parts = splitSections(text, s, { splitLevel: 2, minBytes: 64, maxBytes: 256, mergeMaxBytes: 128 });
  return parts.map((p) => text.slice(p.start, p.end)).join('') === text && parts.every((p) => Buffer.byteLength(text.slice(p.start, p.end)) <= 256);
}

const PIECES = [
  '\n', '\n\n', '\r\n', '\r', ' ', '   ', '\t', 'Title', 'word', 'é', '日本', '\u{1F600}', '=', '====', '-----', '~~~', '::', '.. ', '.. _label:', '.. note::',
  '`', '``', '*', '<', '>', '_', ':', '\\', '[[id]]', '[#id]', '[discrete]', '----', '....', '****', '____', '++++', '////', '|===', '--', '//', '= ', '== ', '###### ',
  ':idprefix:', ':idseparator: -', '\uFEFF', '<h1>', '</h1>', '<h2 id="a">', '</h2>', '<script>', '</script>', '<!--', '-->', '<p>', '"', "'", '&amp;', '<',
  // Definition terms that link to themselves (HTML) and Sphinx's object and glossary directives (rST).
  '<dl>', '</dl>', '<dt id="a">', '<DT id=a~1>', '</dt>', '<dd>', '<a href="#a">¶</a>', '<a href="#a~1">', '</a>', '<div class="note">', '</div>',
  '.. class:: A', '.. method:: m()', '.. py:data:: X', '.. c:function:: int f(x)', '.. glossary::', '.. module:: m', '      ', '\\\n',
  '\n.. class:: A\n\n   .. method:: m()\n   .. method:: n()\n\n', '\n.. glossary::\n\n   term\n   other\n      def\n',
  // AsciiDoc's two-line titles and title anchors.
  'NAME\n----\n', '\nAb\n~~\n', '^^^^', '+++', ' [[x]]', ' [[x, Ref]]', ' \\[[x]]', '[[OPTIONS]]',
  // Texinfo's navigation and redirecting pages.
  '<div class="header">', '<div class="nav-panel">', '<a rel="next" href="n">', '<ul class="mini-toc">', '<table class="index-cp">',
  '<meta http-equiv="refresh" content="0; url=x">',
];

t.test('random documents: structures sections.ts accepts, sections that tile', async (t) => {
  for (const [name, read] of READERS) {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }), (parts) => {
        const { text, structure } = read(parts.join(''));
        return checkStructure(text, structure);
      }),
      { numRuns: 600, seed: 46 },
    );
    t.pass(`${name}: 600 random documents`);
  }
});

const MB = 1 << 20;
const fill = (unit: string, bytes = MB): string => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
const PATHOLOGICAL: Array<[string, string]> = [
  ['one 1 MB line of =', fill('=')],
  ['1 MB of = lines', fill('=\n')],
  ['1 MB of title / underline pairs', fill('T\n=\n\n')],
  ['1 MB of overline / title / underline', fill('====\nT\n====\n')],
  ['an unclosed literal block', 'Example::\n\n' + fill('    ====\n    x\n')],
  ['an unclosed directive', '.. note::\n' + fill('   Title\n   =====\n')],
  ['directives nested deeper and deeper', Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + '.. note::\n').join('') + fill('x\n', MB / 2)],
  ['1 MB title of spaces and backticks', 'a' + fill(' `') + '\n' + '='.repeat(10) + '\n'],
  ['1 MB title of < inside backticks', '`' + fill('<') + '\n====\n'],
  ['1 MB title of roles', fill(':a') + '\n====\n'],
  ['1 MB target line', '.. _' + fill('a') + '\n\nT\n=\n'],
  ['an unclosed listing block', '----\n' + fill('== x\n')],
  ['blocks opened and never closed, nested', fill('====\n****\n____\n')],
  ['1 MB AsciiDoc title of spaces', '== a' + fill(' ') + 'b\n'],
  ['1 MB anchor line', '[#' + fill('a') + ']x]\n== T\n'],
  ['1 MB of [[ lines', fill('[[a]]\n')],
  ['1 MB title of < (id generation)', '== ' + fill('<') + '\n'],
  ['1 MB header attribute', ':idprefix:' + fill(' ') + 'x\n== T\n'],
  ['1 MB of blank-separated paragraphs', fill('a\n\n')],
  ['1 MB of < with no >', fill('<a ')],
  ['an unclosed script', '<script>' + fill('<h1>x</h1>')],
  ['an unclosed comment', '<!--' + fill('<h2>x</h2>')],
  ['headings opened and never closed', fill('<h2>a ')],
  ['1 MB heading of < inside', '<h1>' + fill('<') + '</h1>'],
  ['1 MB of headings', fill('<h2>T</h2>\n')],
  ['1 MB unclosed quoted attribute', '<h1 id="' + fill('a')],
  ['1 MB of nested navigation', fill('<div role="navigation">') + fill('</div>', MB / 2)],
  ['1 MB of unclosed pre', fill('<pre>`` x')],
  ['1 MB of unclosed inline code', fill('<code>`')],
  ['1 MB of heading anchors', '<h2>' + fill('<a>¶</a>')],
  ['1 MB of object descriptions and their members', fill('.. class:: A\n\n   .. method:: m()\n\n      .. attribute:: x\n\n')],
  ['1 MB of one object description\'s members', '.. class:: A\n\n' + fill('   .. method:: m()\n\n')],
  ['1 MB of definition terms with ids, never closed', '<dl>' + fill('<dt id="a">x')],
  ['1 MB of definition terms, one link to them at the end', `<dl>${fill('<DT id=a>x', (1 << 20) - 20)}<a href="#a">¶</a>`],
  ['1 MB of definition terms that link to themselves', '<dl>' + fill('<dt id="a">x<a href="#a">¶</a></dt>')],
  ['1 MB of list items, nested', fill('<ul><li>a')],
  ['1 MB of references', fill('&amp;&#x41;&bogus')],
  ['1 MB of role lists, none main', fill('<p role="note x y z">')],
  ['1 MB of roles without a main', fill('role= a b c d ')],
  // AsciiDoc's two-line titles and the anchors in titles (cache format 14).
  ['a 1 MB two-line title', fill('a') + '\n' + fill('-')],
  ['a 1 MB two-line title of astral letters', fill('\u{1D400}') + '\n' + fill('~', MB / 2)],
  ['1 MB of text / underline pairs, every other length', fill('Ab\n---\n\nAbcdef\n--\n\n')],
  ['a 1 MB title of " [[" anchors, none ending it', '== ' + fill(' [[a') + ' x]]\n'],
  ['a 1 MB title of " [[a," anchors', '== ' + fill(' [[a,') + ']]\n'],
  ['a 1 MB title of escaped anchors', '== ' + fill(' \\[[a') + ']]\n'],
  ['a 1 MB two-line title of inline anchors', fill('[[a]]') + '\n' + fill('^')],
  // Texinfo's navigation (cache format 14): each `<div class="header">` looks ahead for a
  // navigation link before its `</div>`, from where the last look stopped.
  ['1 MB of <div class="header"> never closed, one navigation link at the end', fill('<div class="header">x', MB - 40) + '<a rel="next" href="n">n</a>'],
  ['1 MB of <div class="header"> each closed, no navigation link', fill('<div class="header">x</div>')],
  ['1 MB of navigation panels', fill('<div class="header"><a rel="next" href="n">n</a></div><p>t</p>')],
  ['1 MB of refresh tags', fill('<meta http-equiv="refresh" content="5; url=x">')],
];

t.test('pathological 1 MB inputs finish in linear time', async (t) => {
  for (const [label, text] of PATHOLOGICAL) {
    for (const [name, read] of READERS) {
      const t0 = performance.now();
      const s = read(text).structure;
      const ms = performance.now() - t0;
      // 3 ms to 1.3 s measured (the slowest: 260,000 rST titles in 1 MB); 5 s leaves room for a
      // loaded 2-core host, not for n² (a quadratic reader took minutes on "title / underline pairs"
      // before ids were numbered from the last free number).
      t.ok(ms < 5000, `${name}: ${label}: ${ms.toFixed(0)} ms`);
      t.ok(s.headings.length <= text.length);
    }
  }
});

t.test('time grows with size, not its square', async (t) => {
  const doc = 'Title\n=====\n\nText with ``code`` and *stress*.\n\n.. note::\n\n   Body\n\n----\n== x\n----\n\n';
  for (const [name, read] of READERS) {
    const time = (n: number, runs: number): number => {
      const text = fill(doc, n);
      let best = Infinity;
      for (let k = 0; k < runs; k++) {
        const t0 = performance.now();
        read(text);
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    time(1 << 16, 3);
    // 8 times the input (256 KB, 2 MB): a linear reader takes ~8 times as long; a quadratic one
    // 64 times. HTML is measured at 4 MB and 16 MB (4 times: ~4 and 16): its text here is one
    // run between tags, whose whitespace one regular-expression replace collapses, and V8's
    // replace gets ~3 times slower per byte between 1 and 2 MB (measured on the bare replace:
    // 10.5 ms at 1 MB, 67 ms at 2 MB, 152 ms at 4 MB), then stays linear: 256 KB against 2 MB
    // read that step as growth (21 times when quiet, 48 under load). A loaded host (tap runs
    // four files at once) can stretch one measurement, never every one of four attempts for a
    // reader that is linear; a quadratic one fails all four.
    const [smallSize, largeSize] = name === 'html' ? [1 << 22, 1 << 24] : [1 << 18, 1 << 21];
    const factor = largeSize / smallSize;
    let small = 0;
    let large = 0;
    let linear = false;
    for (let attempt = 0; attempt < 4 && !linear; attempt++) {
      small = time(smallSize, name === 'html' ? 3 : 5);
      large = time(largeSize, name === 'html' ? 2 : 3);
      linear = large < small * factor * 3 + 50;
    }
    t.ok(linear, `${name}: ${smallSize >> 10} KB ${small.toFixed(1)} ms, ${largeSize >> 10} KB ${large.toFixed(1)} ms`);
  }
});
