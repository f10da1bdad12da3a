// The HTML section reader (lib/core/analysis/html.ts), issue 46's last item: h1-h6 sections,
// ids, and the visible text that is indexed (tags, comments, scripts, styles blanked with
// offsets kept) beside the source slice that is printed.
import t from 'tap';
import { parseHtml } from '../../../lib/core/analysis/html.js';
import { splitSections } from '../../../lib/core/analysis/sections.js';

const read = (doc: string): Array<[number, string, string]> => parseHtml(doc).headings.map((h) => [h.level, h.text, h.slug]);

t.test('h1-h6 outside script, style, template, textarea, title and comments', async (t) => {
  const doc = [
    '<!doctype html><html><head><title>T <h1>no</h1></title><style>h2 { color: red }</style></head><body>',
    '<h1 id="top">Welcome &amp; <em>hello</em></h1>',
    '<script>document.write("<h2>not</h2>")</script>',
    '<!-- <h2>commented</h2> -->',
    '<H2 class="x">Install\n  now</H2>',
    '<template><h2>later</h2></template>',
    '<h3 id=\'src\'>From &#x73;ource</h3>',
    '<h2>Install now</h2>',
    '<h7>no such level</h7>',
    '</body></html>',
  ].join('\n');
  t.same(read(doc), [
    [1, 'Welcome & hello', 'top'],
    [2, 'Install now', 'install-now'],
    [3, 'From source', 'src'],
    [2, 'Install now', 'install-now-1'],
  ]);
  const s = parseHtml(doc);
  t.equal(s.visibleText.length, doc.length, 'visible text keeps every offset');
  t.notMatch(s.visibleText, /color|document\.write|commented|later|<|&amp;/, 'markup, scripts, styles, comments and references blanked');
  t.match(s.visibleText, /Welcome\s+hello/);
  t.equal(s.visibleText.split('\n').length, doc.split('\n').length, 'line endings kept');
  const parts = splitSections(doc, s, { splitLevel: 2, minBytes: 0 });
  t.equal(parts.map((p) => doc.slice(p.start, p.end)).join(''), doc, 'sections tile the source');
  t.same(parts.map((p) => p.slug), ['', 'top', 'install-now', 'install-now-1']);
});

t.test('spans: to the closing tag, and to the line end when only spaces follow; unclosed headings are none', async (t) => {
  const doc = '<p>a</p>\n<h2>A</h2>  \n<p>b</p><h2>B</h2><p>c</p>\n<h2>Open\n<h2>C</h2>';
  const s = parseHtml(doc);
  t.same(s.headings.map((h) => doc.slice(h.start, h.end)), ['<h2>A</h2>  \n', '<h2>B</h2>', '<h2>C</h2>']);
  t.same(read('<h1>never closed'), []);
  t.same(read('<h1 title="a>b" id="x">T</h1>'), [[1, 'T', 'x']], 'a > inside a quoted attribute');
  t.same(read('a < b <h2>T</h2>'), [[2, 'T', 't']], 'a lone < is text');
});
