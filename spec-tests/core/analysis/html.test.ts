// The HTML reader (lib/core/analysis/html.ts), issue 46: "Content is the source text of the
// unit (HTML: its visible text with code blocks kept as code, scripts/styles/navigation
// dropped — say exactly what is kept)". An HTML document's text — what its units are offsets
// into, print, count and index — is its visible text (docs/sources.md "Formats and files", HTML); its
// h1-h6 outside dropped regions are its sections.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeReferences, htmlText, parseHtml } from '../../../lib/core/analysis/html.js';
import { splitSections } from '../../../lib/core/analysis/sections.js';

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'fixtures', 'formats', 'html');
const read = (doc: string): Array<[number, string, string]> => parseHtml(doc).headings.map((h) => [h.level, h.text, h.slug]);

t.test('h1-h6 outside script, style, template, textarea, title, comments and the head', async (t) => {
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
    '<h2> </h2>',
    '</body></html>',
  ].join('\n');
  t.same(read(doc), [
    [1, 'Welcome & hello', 'top'],
    [2, 'Install now', 'install-now'],
    [3, 'From source', 'src'],
    [2, 'Install now', 'install-now-1'],
  ], 'an empty heading is none');
  const s = parseHtml(doc);
  t.equal(s.text, '# Welcome & hello\n\n## Install now\n\n### From source\n\n## Install now\n\nno such level\n');
  t.same(s.headings.map((h) => s.text.slice(h.start, h.end)), ['# Welcome & hello\n', '## Install now\n', '### From source\n', '## Install now\n'], "a heading's span is its line");
  const parts = splitSections(s.text, s, { splitLevel: 2, minBytes: 0 });
  t.equal(parts.map((p) => s.text.slice(p.start, p.end)).join(''), s.text, 'sections tile the text');
  t.same(parts.map((p) => p.slug), ['top', 'install-now', 'install-now-1']);
});

t.test('unclosed headings are none (their text stays); ids from a section opened just before', async (t) => {
  t.same(read('<h1>never closed'), []);
  t.equal(htmlText('<h1>never closed'), 'never closed\n');
  t.same(read('<h2>Open\n<h2>C</h2>'), [[2, 'C', 'c']]);
  t.equal(htmlText('<h2>Open\n<h2>C</h2>'), 'Open\n\n## C\n');
  t.same(read('<h1 title="a>b" id="x">T</h1>'), [[1, 'T', 'x']], 'a > inside a quoted attribute');
  t.same(read('a < b <h2>T</h2>'), [[2, 'T', 't']], 'a lone < is text');
  t.equal(htmlText('a < b'), 'a < b\n');
  t.same(read('<section id="intro">\n<span id="x"></span><h2>Getting started</h2></section>'), [[2, 'Getting started', 'intro']], 'Sphinx: the id is on the section');
  t.same(read('<section id="intro"><p>text</p><h2>Getting started</h2></section>'), [[2, 'Getting started', 'getting-started']], 'not when text comes between');
  // SQLite's pages: a search box's <div id="searchmenu"> (a form, no text) ends, then the heading.
  t.same(read('<div id="searchmenu"><form><input name="q"></form></div>\n<h2>Frequently Asked Questions</h2>'), [[2, 'Frequently Asked Questions', 'frequently-asked-questions']], 'nor when the element with the id has closed before the heading');
  t.same(read('<div id="outer"><div class="inner"></div><h2>T</h2></div>'), [[2, 'T', 'outer']], 'an inner element closing does not end the outer one');
  t.same(read('<section id="s"><div id="d"></div><h2>T</h2></section>'), [[2, 'T', 's']], 'the innermost id still open');
  t.same(read('<section id="s"><p>x</p><div id="d"></div><h2>T</h2></section>'), [[2, 'T', 't']], 'and only when no text came since it opened');
  t.same(read('<div id="d"/><h2>T</h2>'), [[2, 'T', 'd']], 'a self-closed <div/> opens nothing (as before)');
  t.same(read('<h2>Title <a class="headerlink" href="#title">¶</a></h2>'), [[2, 'Title', 'title']], 'a permalink mark is no part of the text');
  t.same(read('<h2><a href="#x">Linked</a> title</h2>'), [[2, 'Linked title', 'linked-title']], 'a link with words is');
});

t.test('navigation, page chrome, hidden elements and the head are dropped, headings and all', async (t) => {
  const doc = [
    '<html><head><title>Page</title><meta charset="utf-8"><link rel="stylesheet" href="s.css"></head><body>',
    '<header><h1>Site name</h1></header>',
    '<nav><h3>Navigation</h3><ul><li><a href="/">Home</a></li></ul></nav>',
    '<div class="related" role="navigation"><h3>Related</h3><div><p>inner</p></div></div>',
    '<article><header><h1>The article</h1></header>',
    '<p>Body text.</p>',
    '<aside><h3>See also</h3></aside>',
    '<div role="search"><form><input name="q"><button>Go</button></form></div>',
    '<p hidden>Hidden.</p><p aria-hidden="true">Also hidden.</p><noscript>Enable JavaScript</noscript>',
    '<footer>Article footer</footer></article>',
    '<div role="contentinfo">© Someone</div>',
    '<footer><h3>Site footer</h3></footer>',
    '</body></html>',
  ].join('\n');
  const s = parseHtml(doc);
  t.equal(s.text, '# The article\n\nBody text.\n\nArticle footer\n');
  t.same(s.headings.map((h) => h.text), ['The article'], "an article's own header and footer are kept; the page's are not");
});

t.test('an <aside> inside the main region is content (docutils footnotes, sidebars, topics); outside it, a sidebar', async (t) => {
  // docutils >= 0.18 (Sphinx's HTML5 writer) writes footnotes, `.. sidebar::` and `.. topic::`
  // as <aside> elements inside the page's body: Celery's "Soft, or hard?" on time limits,
  // Python's abstracts, the Linux kernel's footnote lists. Themes put their site sidebars in
  // <aside> elements outside the main region.
  const doc = [
    '<body><aside class="theme-doc-sidebar"><h3>Docs</h3><ul><li><a href="a.html">A</a></li></ul></aside>',
    '<div class="body" role="main"><section id="time-limits"><h2>Time Limits</h2>',
    '<aside class="sidebar"><p class="sidebar-title">Soft, or hard?</p><p>The time limit is set in two values.</p></aside>',
    '<p>A single task can potentially run forever.<a class="footnote-reference brackets" href="#f1" id="r1" role="doc-noteref"><span class="fn-bracket">[</span>1<span class="fn-bracket">]</span></a></p>',
    '<aside class="footnote-list brackets"><aside class="footnote brackets" id="f1" role="note"><span class="label">1</span><p>Unless it is killed.</p></aside></aside>',
    '<aside role="complementary"><p>Ad.</p></aside>',
    '</section></div>',
    '<aside class="toc-drawer"><p>On this page</p></aside></body>',
  ].join('\n');
  const text = htmlText(doc);
  t.match(text, /Soft, or hard\?\n\nThe time limit is set in two values\./, 'a sidebar directive inside the main region is kept');
  t.match(text, /Unless it is killed\./, 'so is a footnote (nested asides)');
  t.notMatch(text, /Docs|On this page/, 'asides outside the main region are dropped');
  t.notMatch(text, /Ad\./, 'an aside whose role says complementary is dropped anywhere');
  t.same(parseHtml(doc).headings.map((h) => h.text), ['Time Limits']);
  t.equal(htmlText('<p>Body.</p><aside><h3>See also</h3></aside>'), 'Body.\n', 'a page with no main region: an aside is dropped, as before');
});

t.test("DocBook XSL's navigation tables (class navheader / navfooter, no <nav>, no role) are dropped", async (t) => {
  // The shape of every page of a DocBook XSL build (PostgreSQL's manual among them): a table of
  // Prev / Up / Home / Next links above the page and below it, marked by class alone.
  const doc = [
    '<body id="docContent"><div class="navheader"><table width="100%" summary="Navigation header"><tr><th colspan="5" align="center">VACUUM</th></tr>',
    '<tr><td><a accesskey="p" href="sql-update.html">Prev</a> </td><td><a accesskey="u" href="sql-commands.html">Up</a></td><th>SQL Commands</th><td><a accesskey="h" href="index.html">Home</a></td><td> <a accesskey="n" href="sql-values.html">Next</a></td></tr></table><hr /></div>',
    '<div class="refentry" id="SQL-VACUUM"><div class="refnamediv"><h2><span class="refentrytitle">VACUUM</span></h2><p>VACUUM — garbage-collect a database</p></div></div>',
    '<div class="navfooter"><hr /><table summary="Navigation footer"><tr><td><a href="sql-update.html">Prev</a></td><td>UPDATE</td><td>VALUES</td></tr></table></div></body>',
  ].join('\n');
  t.equal(htmlText(doc), '## VACUUM\n\nVACUUM — garbage-collect a database\n');
  t.equal(htmlText('<div class="x navheader y"><p>nav</p></div><div class="navheaders"><p>kept</p></div><div class="NavHeader"><p>kept too</p></div>'), 'kept\n\nkept too\n',
    'one class among several; class names compared whole and case-sensitively, as CSS does');
});

t.test("DocBook XSL's admonitions: the heading that titles a note is no section title", async (t) => {
  const doc = [
    '<div class="sect1" id="VACUUM-BASICS"><h2 class="title">Vacuuming Basics</h2><p>Intro.</p>',
    '<div class="tip"><h3 class="title">Tip</h3><div><p>Tip text.</p></div></div>',
    '<p>After the tip.</p></div>',
    '<div class="sect1" id="NEXT"><h2 class="title">Next Steps</h2><div class="note caution-like"><h3>Note</h3><p>n</p></div><h3 id="DEEP">Deep</h3><p>d</p></div>',
  ].join('');
  const s = parseHtml(doc);
  t.equal(s.text, '## Vacuuming Basics\n\nIntro.\n\nTip\n\nTip text.\n\nAfter the tip.\n\n## Next Steps\n\nNote\n\nn\n\n### Deep\n\nd\n');
  t.same(s.headings.map((h) => [h.level, h.text, h.slug]), [[2, 'Vacuuming Basics', 'VACUUM-BASICS'], [2, 'Next Steps', 'NEXT'], [3, 'Deep', 'DEEP']],
    "the text after a note stays in its section; a nested div inside the note does not end it early; a heading after it is one again");
  t.same(parseHtml('<div class="admonition note"><p class="admonition-title">Note</p><p>x</p></div><h2>After</h2>').headings.map((h) => h.text), ['After'], "Sphinx's admonitions (no heading inside) read as before");
  t.same(parseHtml('<div class="tip"><h3>Tip</h3><div class="x"/><p>x</p></div><h2>After</h2>').headings.map((h) => h.text), ['After'], 'a self-closed <div/> inside a note (XHTML) does not keep the note open');
});

t.test('a main region: only its text is kept', async (t) => {
  const doc = '<body><div class="top">Skip to content</div><main><h1>Guide</h1><p>Read this.</p></main><div>Copyright</div></body>';
  t.equal(htmlText(doc), '# Guide\n\nRead this.\n');
  t.equal(htmlText('<div>menu</div><div role="main"><p>Kept <div>nested</div> here</p></div><p>after</p>'), 'Kept\nnested\nhere\n', 'role="main", nested divs counted');
  t.equal(htmlText('<nav><main>not this</main></nav><p>page</p>'), 'page\n', 'a main inside navigation is none');
});

t.test('visible text: blocks, lists, tables, character references', async (t) => {
  t.equal(htmlText('<p>One\n   two</p><p>Three<br>four</p><div>five</div><div>six</div>'), 'One two\n\nThree\nfour\n\nfive\nsix\n', 'paragraphs a blank line apart, divs and br a line');
  t.equal(htmlText('<ul><li>one</li><li>two<ul><li>nested <b>bold</b></li></ul></li></ul><ol><li><p>a</p></li><li>b</li></ol>'), '- one\n- two\n  - nested bold\n\n1. a\n\n2. b\n', 'list items on their own lines (a paragraph in one ends a paragraph)');
  t.equal(htmlText('<dl><dt>term</dt><dd><p>definition</p></dd></dl>'), 'term\ndefinition\n');
  t.equal(htmlText('<table><tr><th>key</th><th>value</th></tr><tr><td>a</td><td>b</td></tr></table>'), 'key | value\na | b\n', 'cells ` | ` apart, a row a line');
  t.equal(htmlText('<p>x &lt; y &amp;&amp; &quot;q&quot; &copy; &#169; &#xA9; &hellip; &#x1F600; &nosuch; &amp</p>'), 'x < y && "q" © © © … \u{1F600} &nosuch; &amp\n', "references decoded by HTML's table; unknown and unterminated ones kept");
  t.equal(decodeReferences('&#0; &#xD800; &#x110000;'), '\uFFFD \uFFFD \uFFFD');
  t.equal(htmlText('<p>a<!-- note --> b<?php echo 1 ?></p>'), 'a b\n', 'comments and processing instructions');
});

t.test('code: <pre> verbatim and fenced, inline code in backticks', async (t) => {
  const pre = '<div class="highlight"><pre><span></span><span class="kn">import</span> <span class="nn">pytest</span>\n\n\n<span class="k">def</span> <span class="nf">test</span><span class="p">():</span>\n    <span class="k">assert</span> <span class="s2">&quot;a&quot;</span> <span class="o">&lt;</span> <span class="s2">&quot;b&quot;</span>\n</pre></div>';
  t.equal(htmlText(`<p>Example:</p>${pre}<p>After.</p>`), 'Example:\n\n```\nimport pytest\n\n\ndef test():\n    assert "a" < "b"\n```\n\nAfter.\n', 'the text of the code, not its spans; whitespace kept');
  t.equal(htmlText('<pre>\nfirst\n```\nx</pre>'), '````\nfirst\n```\nx\n````\n', 'a fence longer than any run of backticks inside; the line ending after <pre> dropped');
  t.equal(htmlText('<p>Run <code class="docutils literal"><span class="pre">pytest</span> <span class="pre">--lf</span></code> again.</p>'), 'Run `pytest --lf` again.\n');
  t.equal(htmlText('<p><code>a`b</code> and <code>`x</code></p>'), '``a`b`` and `` `x ``\n');
  t.same(read('<h2>The <code>yield</code> statement</h2>'), [[2, 'The yield statement', 'the-yield-statement']], 'plain text in a heading');
});

t.test('a Sphinx page as shipped (pytest 7.2.1, reference/exit-codes.html): the body, no sidebar or navigation units', async (t) => {
  const source = readFileSync(join(FIXTURES, 'pytest-exit-codes.html'), 'utf8');
  const s = parseHtml(source, { headingBytes: 1024 });
  t.same(s.headings.map((h) => [h.level, h.text, h.slug]), [[1, 'Exit codes', 'exit-codes']], 'Navigation, Contents, About the project, Related Topics, Useful Links are no headings');
  t.notMatch(s.text, /[<>]|&[a-z#]|Navigation|About the project|Useful Links|Related Topics|Created using|DOCUMENTATION_OPTIONS|searchbox/, 'no markup, references, navigation, sidebar, footer or script');
  t.ok(s.text.startsWith('# Exit codes\n\nRunning `pytest` can result in six different exit codes:\n\nExit code 0:\nAll tests were collected and passed successfully\n'));
  t.match(s.text, /\n```\nfrom pytest import ExitCode\n```\n/, 'the code block kept as code');
  t.match(s.text, /The exit codes being a part of the public API can be imported and accessed directly using:/, 'a passage reads as the page shows it');
  t.ok(s.text.length < source.length / 4, `the text (${s.text.length}) is a fraction of the page (${source.length})`);
  const units = splitSections(s.text, s, { splitLevel: 2, minBytes: 256, maxBytes: 2048, mergeMaxBytes: 1024 });
  t.same(units.map((u) => u.slug), ['exit-codes'], 'one unit: the page body');
});

t.test('sources.md "Formats and files": before the first heading, a line of nothing but links is a menu or breadcrumb and is dropped', async (t) => {
  // Apache's manual: a menu paragraph and a breadcrumb above the page's <h1>, marked by id and class alone.
  const apache = [
    '<body><div id="page-header"><p class="menu"><a href="../mod/">Modules</a> | <a href="../mod/quickreference.html">Directives</a> | <a href="faq">FAQ</a></p>',
    '<p class="apache">Apache HTTP Server Version 2.4</p></div>',
    '<div id="path"><a href="https://www.apache.org/">Apache</a> &gt; <a href="../">HTTP Server</a> &gt; <a href="./">Documentation</a></div>',
    '<div id="preamble"><h1>Password Formats</h1><p>Notes about the <a href="x.html">formats</a>.</p>',
    '<p><a href="a.html">Only a link</a> | <a href="b.html">after the heading</a></p></div></body>',
  ].join('\n');
  const a = parseHtml(apache);
  t.equal(a.text, 'Apache HTTP Server Version 2.4\n\n# Password Formats\n\nNotes about the formats.\n\nOnly a link | after the heading\n', 'menu and breadcrumb gone; the words around them and every line after the heading stay');
  t.same(a.headings.map((h) => a.text.slice(h.start, h.end)), ['# Password Formats\n'], 'the heading\'s span moved with the text');
  t.ok(a.blocks.every((b) => b === 0 || a.text[b - 1] === '\n'), 'blocks still start lines');
  t.same(a.blocks.map((b) => a.text.slice(b, b + 6)), ['Apache', '# Pass', 'Notes ', 'Only a'], 'and name the same blocks');
  // SQLite's pages: a menu list of single links, a tagline without links.
  const sqlite = '<div class=nosearch><div class="tagline">Small. Fast. Reliable.<br>Choose any three.</div><div class="menu mainmenu"><ul><li><a href="index.html">Home</a><li><a href="about.html">About</a></ul></div></div><h2>Frequently Asked Questions</h2><ul><li><a href="#q1">How do I create an AUTOINCREMENT field?</a></ul>';
  const s = parseHtml(sqlite);
  t.equal(s.text, 'Small. Fast. Reliable.\nChoose any three.\n\n## Frequently Asked Questions\n\n- How do I create an AUTOINCREMENT field?\n', 'the menu list goes, the tagline and the list after the heading stay');
  t.equal(htmlText(sqlite), s.text, 'htmlText is the same text');
  // What stays.
  t.equal(htmlText('<p><a href="a">Guide</a> and <a href="b">reference</a></p><h1>T</h1>'), 'Guide and reference\n\n# T\n', 'words between links: not a menu');
  t.equal(htmlText('<p><a href="a">Home</a> | <a href="b">About</a></p><p>No heading on this page.</p>'), 'Home | About\n\nNo heading on this page.\n', 'a page without a heading keeps every line');
  t.equal(htmlText('<p><a name="top">Anchor text</a></p><h1>T</h1>'), 'Anchor text\n\n# T\n', 'an <a> without href is no link');
  t.equal(htmlText('<p><a href="a">Home</a></p>\n<p><a href="b">About</a></p>\n<p>Intro.</p><h1>T</h1>'), 'Intro.\n\n# T\n', 'consecutive link lines go with the blank lines between them');
  t.equal(htmlText('<p>Intro.</p><p><a href="a">Home</a></p><h1>T</h1>'), 'Intro.\n\n# T\n', 'one blank line stays between what is kept');
});

t.test('sources.md "Formats and files": a first heading that is all one link to the site\'s home page is the site\'s name, not a section', async (t) => {
  // Django's theme: the site's name in an <h1> linking home, its menus under it, then the page.
  const django = [
    '<div id="hd"><h1><a href="../../index.html">Django 3.2.25 documentation</a></h1>',
    '<div id="global-nav"><a title="Home page" href="../../index.html">Home</a> | <a href="../../contents.html">Table of contents</a></div>',
    '<div class="nav">&laquo; <a href="models.html">previous</a> | <a href="../index.html">up</a> | <a href="aggregation.html">next</a> &raquo;</div></div>',
    '<div id="bd"><div class="section" id="s-making-queries"><span id="making-queries"></span><h1>Making queries<a class="headerlink" href="#making-queries">¶</a></h1>',
    '<p>Once you have created your data models.</p></div></div>',
  ].join('\n');
  const d = parseHtml(django);
  t.equal(d.text, '# Making queries\n\nOnce you have created your data models.\n', 'the site\'s name and the menus under it are gone');
  t.same(d.headings.map((h) => [h.text, h.slug, d.text.slice(h.start, h.end)]), [['Making queries', 's-making-queries', '# Making queries\n']]);
  for (const href of ['/', './', '../', '../../', 'index.html', '../index.html', '/index.htm', 'INDEX.HTML']) {
    t.same(read(`<h1><a href="${href}">Site</a></h1><h2>Page</h2>`), [[2, 'Page', 'page']], `href="${href}" links home`);
  }
  // What stays a heading.
  t.same(read('<h2><a href="https://github.com/o/r/compare/v1.1.0...v1.2.0">1.2.0</a></h2><p>Fixed</p>'), [[2, '1.2.0', '120']], 'a link elsewhere (a changelog\'s compare link)');
  t.same(read('<h1><a href="">Here</a></h1>'), [[1, 'Here', 'here']], 'an empty href');
  t.same(read('<h1><a href="guide/index.html">Guide</a></h1>'), [[1, 'Guide', 'guide']], 'another section\'s index page');
  t.same(read('<h1>Welcome to <a href="/">Site</a></h1>'), [[1, 'Welcome to Site', 'welcome-to-site']], 'words outside the link');
  t.same(read('<h1>Page</h1><h2><a href="/">Home</a></h2>'), [[1, 'Page', 'page'], [2, 'Home', 'home']], 'not the first heading');
  t.equal(htmlText('<h1><a href="/">My site</a></h1><p>No other heading.</p>'), 'My site\n\nNo other heading.\n', 'no heading after it: its text stays, as a line');
});

t.test('a link left open does not make the lines after it links: an <a> ends any open one, and so does a new line', async (t) => {
  t.equal(htmlText('<p><a href="a">Home</a> | <a href="b">About</p><p>The intro paragraph.</p><h1>T</h1>'), 'The intro paragraph.\n\n# T\n', 'an unclosed last link: its line goes, the paragraph after it stays');
  t.equal(htmlText('<a href="card"><div>A card</div></a><h1>T</h1>'), 'A card\n\n# T\n', 'a link around a block: its block is no link line (kept)');
  t.equal(htmlText('<p><a href="a">one <a href="b">two</a> words after</p><h1>T</h1>'), 'one two words after\n\n# T\n', 'a nested <a> closes the first: the words after it are no link');
});

t.test('sources.md "Formats and files": a permalink mark outside a heading (an <a href="#..."> with no letter or digit) is left out, as in headings', async (t) => {
  // Sphinx puts one after every API signature: 11,010 of them in Python 3.11's manual.
  t.equal(htmlText('<dl><dt>sqlite3.connect(<em>database</em>)<a class="headerlink" href="#sqlite3.connect" title="Link to this definition">¶</a></dt><dd><p>Open a connection.</p></dd></dl>'), 'sqlite3.connect(database)\nOpen a connection.\n');
  t.equal(htmlText('<ul><li><a href="#x">¶</a> text after</li></ul>'), '- text after\n', 'a list item keeps its marker');
  t.equal(htmlText('<p>See <a href="#sec">the section</a>, note <a href="#n1">[1]</a>.</p>'), 'See the section, note [1].\n', 'a link with a letter or a digit stays');
  t.equal(htmlText('<p><a href="#a"><code>x</code></a> and <a href="other.html">¶</a></p>'), '`x` and ¶\n', 'code stays; a mark linking elsewhere stays');
  t.equal(htmlText('<p>a<a href="#b"><br>¶</a></p>'), 'a\n¶\n', 'text over more than one line stays');
  const s = parseHtml('<h2>T</h2><p>x<a href="#p">¶</a></p><p>y</p>');
  t.equal(s.text, '## T\n\nx\n\ny\n');
  t.ok(s.blocks.every((b) => b === 0 || s.text[b - 1] === '\n'), 'blocks still start lines');
});

t.test('sources.md "Formats and files": a definition term that links to itself (an id and a permalink to it) is titled as a heading, a level below its section', async (t) => {
  // Sphinx's API entries as shipped (Python 3.11's manual, library/csv.html, trimmed).
  const sphinx = [
    '<section id="module-contents"><h2>Module Contents<a class="headerlink" href="#module-contents" title="Permalink to this heading">¶</a></h2>',
    '<dl class="py function">',
    '<dt class="sig sig-object py" id="csv.reader">',
    '<span class="sig-prename descclassname"><span class="pre">csv.</span></span><span class="sig-name descname"><span class="pre">reader</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="n"><span class="pre">csvfile</span></span></em><span class="sig-paren">)</span><a class="headerlink" href="#csv.reader" title="Permalink to this definition">¶</a></dt>',
    '<dd><p>Return a <code>reader</code> object.</p></dd></dl>',
    '<dl class="py class">',
    '<dt class="sig sig-object py" id="csv.Sniffer">',
    '<em class="property"><span class="pre">class</span><span class="w"> </span></em><span class="sig-prename descclassname"><span class="pre">csv.</span></span><span class="sig-name descname"><span class="pre">Sniffer</span></span><a class="headerlink" href="#csv.Sniffer" title="Permalink to this definition">¶</a></dt>',
    '<dd><p>Deduces the format.</p>',
    '<dl class="py method">',
    '<dt class="sig sig-object py" id="csv.Sniffer.sniff">',
    '<span class="sig-name descname"><span class="pre">sniff</span></span><span class="sig-paren">(</span><em class="sig-param">sample</em><span class="sig-paren">)</span><a class="headerlink" href="#csv.Sniffer.sniff" title="Permalink to this definition">¶</a></dt>',
    '<dd><p>Analyze the sample.</p></dd></dl>',
    '</dd></dl></section>',
    '<section id="examples"><h2>Examples</h2><p>x</p></section>',
  ].join('\n');
  t.same(read(sphinx), [
    [2, 'Module Contents', 'module-contents'],
    [3, 'csv.reader(csvfile)', 'csv.reader'],
    [3, 'class csv.Sniffer', 'csv.Sniffer'],
    [4, 'sniff(sample)', 'csv.Sniffer.sniff'],
    [2, 'Examples', 'examples'],
  ], "each entry a level below its section, a class's methods one more; the id kept as written");
  const s = parseHtml(sphinx);
  t.equal(s.text, '## Module Contents\n\n### csv.reader(csvfile)\n\nReturn a `reader` object.\n\n### class csv.Sniffer\n\nDeduces the format.\n\n#### sniff(sample)\n\nAnalyze the sample.\n\n## Examples\n\nx\n', 'a line of #, as an <hN> is; its text plain, the permalink left out');
  const parts = splitSections(s.text, s, { splitLevel: 2, minBytes: 0, maxBytes: 60 });
  t.equal(parts.map((p) => s.text.slice(p.start, p.end)).join(''), s.text, 'sections tile the text');
  t.same(parts.map((p) => p.slug), ['module-contents', 'csv.reader', 'csv.Sniffer', 'csv.Sniffer.sniff', 'examples'], 'a section over the cap is cut at its entries, each unit named by its anchor');
  // A glossary term (Sphinx: <dt id="term-…">), single-quoted attributes, a page with no heading.
  t.same(read('<dl class="glossary"><dt id=\'term-GIL\'>GIL<a class="headerlink" href=\'#term-GIL\'>¶</a></dt><dd><p>The lock.</p></dd></dl>'), [[1, 'GIL', 'term-GIL']], 'before any heading: level 1');
  t.same(read('<h5>Deep</h5><dl><dd><dl><dd><dl><dt id="x">X<a href="#x">¶</a></dt></dl></dd></dl></dd></dl>'), [[5, 'Deep', 'deep'], [6, 'X', 'x']], 'at most level 6');
  t.same(read('<h2>S</h2><dl><dt id="x">X<a href="#x">¶</a><dd>body</dl><p>after</p>'), [[2, 'S', 's'], [3, 'X', 'x']], 'a term left open ends where its definition begins');
  t.same(read('<h2>S</h2><h4> </h4><dl><dt id="x">X<a href="#x">¶</a></dt></dl>'), [[2, 'S', 's'], [3, 'X', 'x']], 'below the last heading that is one (an empty <h4> is none)');
  t.equal(htmlText('<h2>S</h2><dl><dt id="x">X<a href="#x">¶</a><dd>body</dl><p>after</p>'), '## S\n\n### X\n\nbody\n\nafter\n');
});

t.test('sources.md "Formats and files": a definition term that opens with its own empty anchor (DocBook XSL) is titled as a heading', async (t) => {
  // Valgrind's manual as Debian ships it (mc-manual.html, trimmed): a variablelist entry with an id.
  const docbook = [
    '<div class="sect1"><div class="titlepage"><div><div><h2 class="title" style="clear: both">',
    '<a name="mc-manual.options"></a>4.3.&#160;Memcheck Command-Line Options</h2></div></div></div>',
    '<a name="mc.opts.list"></a><dl class="variablelist">',
    '<dt>',
    '<a name="opt.leak-check"></a><span class="term">',
    '      <code class="option">--leak-check=&lt;no|summary|yes|full&gt; [default: summary] </code>',
    '    </span>',
    '</dt>',
    '<dd><p>When enabled, search for memory leaks.</p></dd>',
    '<dt>',
    '<a name="opt.leak-resolution"></a><span class="term">',
    '      <code class="option">--leak-resolution=&lt;low|med|high&gt; [default: high] </code>',
    '    </span>',
    '</dt>',
    '<dd><p>When doing leak checking, determines how willing Memcheck is.</p></dd>',
    '<dt><span class="term"><code class="option">--no-anchor</code></span></dt>',
    '<dd><p>Stays a line.</p></dd>',
    '</dl></div>',
  ].join('\n');
  t.same(read(docbook), [
    [2, '4.3.\u00a0Memcheck Command-Line Options', 'mc-manual.options'],
    [3, '--leak-check=<no|summary|yes|full> [default: summary]', 'opt.leak-check'],
    [3, '--leak-resolution=<low|med|high> [default: high]', 'opt.leak-resolution'],
  ], "the section takes the name of the anchor its heading opens with; a term, a level below it, its own; a term without one stays a line");
  const s = parseHtml(docbook);
  t.match(s.text, /\n### --leak-check=<no\|summary\|yes\|full> \[default: summary\]\n\nWhen enabled, search for memory leaks\.\n/, 'its text plain, as a heading');
  t.match(s.text, /\n`--no-anchor`\nStays a line\.\n/, 'a term with no anchor of its own stays a line of the list');
  t.same(read('<h2>S</h2><dl><dt><a id="x"></a>X</dt><dd>d</dd></dl>'), [[2, 'S', 's'], [3, 'X', 'x']], 'an `id` anchor (XHTML) too');
  t.same(read("<h2>S</h2><dl><dt> <a name='x' /> X</dt><dd>d</dd></dl>"), [[2, 'S', 's'], [3, 'X', 'x']], 'whitespace, single quotes, a self-closed anchor');
  t.same(read('<h2>S</h2><dl><dt><span>X</span><a name="x"></a></dt><dd>d</dd></dl>'), [[2, 'S', 's']], 'an anchor after the term\'s text is not its own');
  t.same(read('<h2>S</h2><dl><dt><a name="x" href="y.html">X</a></dt><dd>d</dd></dl>'), [[2, 'S', 's']], 'a link is not an empty anchor');
  t.same(read('<h2>S</h2><dl><dt><a name=""></a>X</dt><dd>d</dd></dl>'), [[2, 'S', 's']], 'an empty name names nothing');
  t.same(read('<H2>S</H2><DL><DT><A NAME="x"></A>X</DT><DD>d</DD></DL>'), [[2, 'S', 's'], [3, 'X', 'x']], 'in any case');
  t.same(read('<h2>S</h2><dl><dt><a class="indexterm" name="x"></a>X</dt><dd>d</dd></dl>'), [[2, 'S', 's']], 'an anchor whose first attribute is not its name (an index term) is not the term\'s');
  t.same(read('<h2 id="own"><a name="x"></a>S</h2><section id="sec"><h2><a name="y"></a>T</h2></section><h2><a name="z"></a>U</h2><h2><a href="#u">V</a></h2>'), [[2, 'S', 'own'], [2, 'T', 'sec'], [2, 'U', 'z'], [2, 'V', 'v']], "a heading's own id, then its section's, then its opening anchor's name, then its slug");
  t.same(read('<div class="note"><dl><dt><a name="a"></a>A</dt></dl></div>'), [], 'inside a DocBook admonition, as its headings');
});

t.test('sources.md "Formats and files": a definition term without a link to itself stays a line of the list', async (t) => {
  // PostgreSQL's index (bookindex.html): ids, no permalink — entries, not sections.
  const index = '<h1>Index</h1><dl><dt id="ientry-1">set_byte, <a class="indexterm" href="functions-binarystring.html">Binary String Functions</a></dt><dt id="ientry-2">set_config, <a href="functions-admin.html#SET">Settings</a></dt></dl>';
  t.same(read(index), [[1, 'Index', 'index']]);
  t.equal(htmlText(index), '# Index\n\nset_byte, Binary String Functions\nset_config, Settings\n');
  t.same(read('<dl><dt>term<a href="#term">¶</a></dt><dd>d</dd></dl>'), [], 'no id');
  t.same(read('<dl><dt id="a">A</dt><dd><a href="#a">¶</a></dd></dl>'), [], 'a link in its definition is not in the term');
  t.same(read('<dl><dt id="a">A<a href="#b">¶</a></dt></dl>'), [], 'a link to another anchor');
  t.same(read('<dl><dt id="a">A<dt id="b">B<a href="#a">¶</a></dt></dl>'), [], 'the next term ends one left open');
  t.same(read('<div class="note"><dl><dt id="a">A<a href="#a">¶</a></dt></dl></div>'), [], 'inside a DocBook admonition, as its headings');
  // Terms left open, in upper case, many: each is read up to the next, once.
  const many = `<DL>${'<DT id=a>x'.repeat(5000)}</DL><a href="#a">¶</a>`;
  t.same(read(many), []);
  t.equal(htmlText(many), `${'x\n'.repeat(5000)}\n¶\n`);
});

// GNU Texinfo's HTML (cache format 14): every node of a manual is a page (or a part of one)
// with a navigation panel above it, a list of its subsections below its introduction, and a
// redirecting page for each node that lives inside another page. docs/sources.md "Formats and files".
const TEXINFO_6_NODE = [
  '<html><head><title>Reversed Patches</title></head><body lang="en">',
  '<div class="subsection" id="Reversed-Patches">',
  '<div class="header">',
  '<p>',
  'Next: <a href="#Inexact" accesskey="n" rel="next">Helping <code>patch</code> Find Inexact Matches</a>, Previous: <a href="#Changed-White-Space" accesskey="p" rel="prev">Changed White Space</a>, Up: <a href="#Imperfect" accesskey="u" rel="up">Applying Imperfect Patches</a> &nbsp; [<a href="index.html#SEC_Contents" rel="contents">Contents</a>][<a href="Index.html" rel="index">Index</a>]</p>',
  '</div>',
  '<span id="Applying-Reversed-Patches"></span><h4 class="subsection">10.3.2 Applying Reversed Patches</h4>',
  '<p>To apply such patches, give <code>patch</code> the <samp>--reverse</samp> option.</p>',
  '<ul class="section-toc">',
  '<li><a href="#Sub" accesskey="1">A subsection</a></li>',
  '</ul>',
  '<hr>',
  '</div>',
  '</body></html>',
].join('\n');

t.test("engine.md \"Sources\": Texinfo 6's navigation panel and subsection list are dropped; a node's heading takes the node's id", async (t) => {
  const s = parseHtml(TEXINFO_6_NODE);
  t.same(s.headings.map((h) => [h.level, h.text, h.slug]), [[4, '10.3.2 Applying Reversed Patches', 'Reversed-Patches']], "the node's id, which Texinfo's own links use");
  t.notMatch(s.text, /Next:|Previous:|Up:|Contents|A subsection/, 'no panel, no subsection list');
  t.equal(s.text, '#### 10.3.2 Applying Reversed Patches\n\nTo apply such patches, give `patch` the `--reverse` option.\n');
});

t.test("engine.md \"Sources\": Texinfo 6's panel repeated below a node's text, whose links carry no rel, is dropped too (libffi's manual)", async (t) => {
  const doc = [
    '<body><div class="subsection" id="Size-and-Alignment">',
    '<div class="header"><p>Next: <a href="Arrays.html" accesskey="n" rel="next">Arrays</a>, Up: <a href="Types.html" accesskey="u" rel="up">Types</a></p></div>',
    '<hr>',
    '<h4 class="subsection">2.3.3 Size and Alignment</h4>',
    '<p>Body text.</p>',
    '<hr>',
    '<div class="header">',
    '<p>',
    'Next: <a href="Arrays.html">Arrays, Unions, and Enumerations</a>, Previous: <a href="Structures.html">Structures</a>, Up: <a href="Types.html">Types</a> &nbsp; [<a href="Index.html" title="Index" rel="index">Index</a>]</p>',
    '</div>',
    '</div></body>',
  ].join('\n');
  t.equal(htmlText(doc), '#### 2.3.3 Size and Alignment\n\nBody text.\n', 'both panels dropped');
  for (const word of ['Previous', 'Up', 'prev']) t.notMatch(htmlText(doc.replace('Next: <a href="Arrays.html">', `${word}: <a href="Arrays.html">`)), /Arrays, Unions/, `a panel opening with ${word}: dropped`);
  const prose = '<body><div class="header"><p>Next steps: <a href="x.html">read on</a>.</p></div><p>Text.</p></body>';
  t.match(htmlText(prose), /Next steps: read on/, 'a header div opening with other words is kept');
  const titled = '<body><div class="header"><p>Upgrading: <a href="x.html">notes</a></p></div></body>';
  t.match(htmlText(titled), /Upgrading: notes/, 'not a panel word followed by a colon: kept');
});

t.test('sources.md "Formats and files": Texinfo 7\'s panel, mini-toc and menu, index tables and tables of contents are dropped', async (t) => {
  const doc = [
    '<body><div class="section-level-extent" id="Node">',
    '<div class="nav-panel"><p>Next: <a href="#n" accesskey="n" rel="next">Next node</a></p></div>',
    '<h3 class="section" id="Node-1"><span>2.1 Node<a class="copiable-link" href="#Node-1"> &para;</a></span></h3>',
    '<p>Body text.</p>',
    '<ul class="mini-toc"><li><a href="#a">Mini entry</a></li></ul>',
    '<table class="menu"><tr><td><a href="#b">Menu entry</a></td></tr></table>',
    '<table class="index-cp"><tr><td><a href="#c">Index entry six</a></td></tr></table>',
    '<table class="cp-entries-printindex"><tr><td><a href="#d">Index entry seven</a></td></tr></table>',
    '<div class="Contents_element" id="SEC_Contents"><h2 class="contents-heading">Table of Contents</h2><ul><li>Toc entry</li></ul></div>',
    '</div></body>',
  ].join('\n');
  const s = parseHtml(doc);
  t.same(s.headings.map((h) => [h.text, h.slug]), [['2.1 Node', 'Node-1']]);
  t.equal(s.text, '### 2.1 Node\n\nBody text.\n');
});

t.test('sources.md "Formats and files": a <div class="header"> without a link to a next, previous or enclosing page is kept (Doxygen titles pages in one)', async (t) => {
  const doc = '<body><div class="header"><div class="headertitle"><div class="title">Foo Class Reference</div></div></div><div class="contents"><p>Text.</p></div></body>';
  t.match(htmlText(doc), /Foo Class Reference/);
  const later = '<body><div class="header">Title</div><p>See <a href="x.html" rel="next">the next page</a>.</p></body>';
  t.match(htmlText(later), /Title/, 'a navigation link after the header closed does not drop it');
  t.match(htmlText(later), /the next page/);
});

t.test('sources.md "Formats and files": a page that redirects at once (meta refresh, delay 0, a URL) has no text', async (t) => {
  const stub = (content: string): string =>
    `<html><head><title>Reversed Patches</title><meta http-equiv="Refresh" content="${content}"></head><body><p>The node you are looking for is at <a href="Merging-with-patch.html#Reversed-Patches">Reversed Patches</a>.</p></body></html>`;
  for (const content of ['0; url=Merging-with-patch.html#Reversed-Patches', '0;URL=\'x.html\'', '0, x.html', ' 0.0 ; url = x.html']) {
    const s = parseHtml(stub(content));
    t.same([s.text, s.headings, s.blocks], ['', [], []], `content="${content}"`);
  }
  for (const content of ['5; url=x.html', '0', '0;', '10']) {
    t.match(htmlText(stub(content)), /The node you are looking for/, `content="${content}": kept`);
  }
  t.match(htmlText('<meta name="refresh" content="0; url=x.html"><p>Kept.</p>'), /Kept/, 'not http-equiv');
});
