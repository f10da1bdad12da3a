// parseMarkdown (lib/core/analysis/markdown.ts): which lines are top-level headings, their
// plain text and GitHub slugs. Each test cites the rule it checks: CommonMark 0.31.2
// ("CM §" sections of spec.commonmark.org), GitHub's anchor rules (docs.github.com, "Section
// links": markup removed, lowercase, spaces to hyphens, punctuation dropped, leading and
// trailing whitespace removed, duplicates numbered), and docs/engine.md "Markdown structure
// and sections" for the decisions the specs leave open.

import t from 'tap';
import { parseMarkdown, type Heading } from '../../../lib/core/analysis/markdown.js';

const heads = (doc: string): Array<[number, string]> => parseMarkdown(doc).headings.map((h) => [h.level, h.text]);
const texts = (doc: string): string[] => parseMarkdown(doc).headings.map((h) => h.text);
const slugs = (doc: string): string[] => parseMarkdown(doc).headings.map((h) => h.slug);
const spans = (doc: string): string[] => parseMarkdown(doc).headings.map((h: Heading) => doc.slice(h.start, h.end));

t.test('CM §4.2 ATX headings: 1-6 #, then a space, tab or end of line', async (t) => {
  t.same(heads('# a\n## b\n### c\n#### d\n##### e\n###### f\n'), [[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd'], [5, 'e'], [6, 'f']]);
  t.same(heads('####### seven\n'), [], 'seven # is a paragraph');
  t.same(heads('#5 bolt\n\n#hashtag\n'), [], 'no space after # is a paragraph');
  t.same(heads('#\tfoo\n'), [[1, 'foo']], 'a tab separates too');
  t.same(heads('#\n## \n'), [[1, ''], [2, '']], 'empty headings');
  t.same(heads('   ### up to three spaces\n'), [[3, 'up to three spaces']]);
  t.same(heads('    # four spaces is code\n'), [], 'CM §4.4: four spaces of indentation is indented code');
  t.same(heads('\\## escaped\n'), [], 'an escaped # does not open a heading');
});

t.test('CM §4.2 the optional closing sequence', async (t) => {
  t.same(texts('## foo ##\n# foo ##################################\n### foo ###   \n'), ['foo', 'foo', 'foo']);
  t.same(texts('### foo ### b\n'), ['foo ### b'], 'not a closing sequence when text follows');
  t.same(texts('# foo#\n'), ['foo#'], 'must be preceded by a space or tab');
  t.same(texts('### foo \\###\n## foo #\\##\n# foo \\#\n'), ['foo ###', 'foo ###', 'foo #'], 'escaped # stays text');
  t.same(texts('# #\n### ###\n'), ['', ''], 'a heading of only a closing sequence is empty');
});

t.test('CM §4.3 setext headings: = or - under a paragraph, text may span lines', async (t) => {
  t.same(heads('Foo *bar*\n=========\n\nFoo *bar*\n---------\n'), [[1, 'Foo bar'], [2, 'Foo bar']]);
  const doc = 'intro\n\nFoo\nbar  \nbaz\n===\nafter\n';
  t.same(heads(doc), [[1, 'Foo\nbar\nbaz']], 'multi-line content; soft and hard breaks are line breaks');
  t.same(spans(doc), ['Foo\nbar  \nbaz\n===\n'], 'the span runs from the first text line through the underline');
  t.same(heads('Foo\n   ----      \n'), [[2, 'Foo']], 'underline indented up to three spaces, trailing spaces allowed');
  t.same(heads('Foo\n    ---\n'), [], 'an underline indented four spaces is paragraph text');
  t.same(heads('Foo\n= =\n\nFoo\n--- -\n'), [], 'no internal spaces in an underline');
  t.same(heads('\n---\n'), [], '--- after a blank line is a thematic break, not a heading');
  t.same(heads('    Foo\n    ---\n'), [], 'indented code is not a paragraph');
  t.same(heads('> Foo\n---\n'), [], 'an underline cannot continue a block quote lazily: thematic break');
  t.same(heads('- Foo\n---\n'), [], 'nor a list item');
  t.same(heads('Foo\nBar\n---\n'), [[2, 'Foo\nBar']], 'CM example 96: the whole paragraph is the heading');
});

t.test('CM §4.7 link reference definitions before a setext underline are not heading text', async (t) => {
  const doc = '[foo]: /url\nbar\n===\n';
  t.same(heads(doc), [[1, 'bar']]);
  t.same(spans(doc), ['bar\n===\n'], 'the heading starts at its first text line');
  t.same(heads('[foo]: /url\n===\n'), [], 'a paragraph of definitions only is no heading: === stays text');
  t.same(heads('[foo]: /url\n---\n'), [], 'and --- is a thematic break');
});

t.test('CM §4.5 fenced code: no headings inside, whatever the fence', async (t) => {
  t.same(texts('```\n# not\n```\n# yes\n'), ['yes'], 'backticks');
  t.same(texts('~~~\n# not\n~~~\n# yes\n'), ['yes'], 'tildes');
  t.same(texts('````\n# not\n```\n# still code\n````\n# yes\n'), ['yes'], 'the closing fence must be at least as long');
  t.same(texts('```\n# not\n~~~\n# still code\n```\n# yes\n'), ['yes'], 'and of the same character');
  t.same(texts('~~~~~\n# not\n~~~~~~~~\n# yes\n'), ['yes'], 'a longer closing fence closes');
  t.same(texts('```js title="x"\n# not\n```\n~~~ `x` y\n# not\n~~~\n'), [], 'info strings (a tilde fence may hold backticks)');
  t.same(texts('``` a`b\n# yes\n'), ['yes'], 'a backtick fence whose info string holds a backtick is no fence');
  t.same(texts('# yes\n```\n# not\n# not either\n'), ['yes'], 'an unclosed fence runs to the end of the document');
  t.same(texts('   ```\n# not\n   ```\n# yes\n'), ['yes'], 'fences indented up to three spaces');
  t.same(texts('```\n# not\n    ```\n# still code\n```\n'), [], 'a closing fence indented four spaces does not close');
  t.same(texts('- ```\n  # in the item\n# yes\n'), ['yes'], 'a fence in a list item ends with the item');
});

t.test('CM §4.4 indented code: four spaces, and it cannot interrupt a paragraph', async (t) => {
  t.same(texts('    # code\n\t# code\n'), []);
  t.same(texts('para\n    # still para\n'), [], 'the indented line continues the paragraph');
  t.same(texts('para\n# yes\n'), ['yes'], 'an ATX heading interrupts a paragraph');
});

t.test('CM §4.6 HTML blocks hide headings until their end condition', async (t) => {
  t.same(texts('<!--\n# not\n-->\n# yes\n'), ['yes'], 'kind 2: comment, ends at -->');
  t.same(texts('<pre>\n# not\n\n# not\n</pre>\n# yes\n'), ['yes'], 'kind 1: <pre> ends at </pre>, not at a blank line');
  t.same(texts('<script>\n# not\n</script>\n<style>\n# not\n</style>\n# yes\n'), ['yes'], 'kind 1: script, style');
  t.same(texts('<?php\n# not\n?>\n<!DOCTYPE html\n# not\n>\n<![CDATA[\n# not\n]]>\n# yes\n'), ['yes'], 'kinds 3, 4, 5');
  t.same(texts('<div>\n# not\n\n# yes\n'), ['yes'], 'kind 6: block tags end at a blank line');
  t.same(texts('<x-card a="1">\n# not\n\n# yes\n'), ['yes'], 'kind 7: any complete tag alone on its line, ends at a blank line');
  t.same(texts('para\n<x-card>\n# yes\n'), ['yes'], 'kind 7 cannot interrupt a paragraph');
  t.same(texts('<div align="center">\n  <h1>Raw</h1>\n</div>\n'), [], 'raw HTML headings are not Markdown headings');
});

t.test('only headings at the top level count (not in block quotes or list items)', async (t) => {
  t.same(texts('> # quoted\n- # item\n1. # ordered\n- a\n\n  # in item\n'), []);
  t.same(texts('- a\n\n# top\n'), ['top'], 'a heading not indented to the item content leaves the list');
  t.same(texts('> a\n# top\n'), ['top'], 'an ATX heading is no lazy continuation');
});

t.test('heading text as GitHub renders it: markup removed, text kept', async (t) => {
  t.same(texts('# *a* **b** _c_ __d__ ***e***\n'), ['a b c d e'], 'CM §6.2 emphasis markers go');
  t.same(texts('# snake_case_name and 2*3*4\n'), ['snake_case_name and 234'], 'intraword _ is text; intraword * is emphasis');
  t.same(texts('# `a  *b*` and `` ` ``\n'), ['a  *b* and `'], 'CM §6.1 code spans keep their content');
  t.same(texts('# [text *x*](http://a "t") and <http://b.c>\n'), ['text x and http://b.c'], 'links keep their text, autolinks their URL');
  t.same(texts('# ![alt *x*](i.png) and <span class="k">raw</span><!-- c -->\n'), ['alt x and raw'], 'image alt kept; raw HTML dropped');
  t.same(texts('# \\*not\\* \\# \\\\ \\a\n'), ['*not* # \\ \\a'], 'CM §2.4 backslash escapes ASCII punctuation only');
  t.same(texts('# AT&amp;T &copy; &#35; &#x41; &bogus; &#0;\n'), ['AT&T © # A &bogus; \ufffd'], 'CM §2.5 entity and numeric references');
  t.same(texts('# ~~old~~ new\n'), ['old new'], 'GFM strikethrough markers go');
  t.same(texts('# [a][ref] [b][] [c] [d][nope]\n\n[ref]: /r\n[b]: /b\n[c]: /c\n'), ['a b c [d][nope]'], 'reference links resolve against definitions anywhere');
  t.same(texts('# [x] and [y][z]\n'), ['[x] and [y][z]'], 'undefined references stay bracketed text');
  t.same(texts('# a\u0000b\n'), ['a\ufffdb'], 'NUL renders as U+FFFD');
});

t.test('inline corners where parsers differ: we follow the CommonMark reference (cmark, GitHub)', async (t) => {
  t.same(texts('# ***a*b*c\n'), ['*abc'], 'CM §6.2 rule 9: the rule of 3 sums the original run lengths (micromark uses what is left)');
  t.same(texts('# [foo][not a label\n\n[foo]: /u\n'), ['foo[not a label'], 'CM §6.7: [foo] before a non-label is a shortcut reference');
  t.same(texts('a  <span>\nb\n===\n'), ['a  \nb'], 'CM §6.13: only the text run right before a line ending loses its spaces');
  t.same(texts('a  \\\nb\n===\n'), ['a  \nb'], 'CM §6.12: a backslash hard break keeps the spaces before it');
  t.same(texts('a\t  \nb\n===\n'), ['a\nb'], 'spaces and tabs before a line ending go (cmark; commonmark.js keeps the tab)');
  t.same(texts('</script>\n# not\n\n# yes\n'), ['yes'], 'CM §4.6: </script> alone on a line opens a kind-7 block, as every implementation reads it');
});

t.test('slugs: GitHub anchors via github-slugger, one slugger per document', async (t) => {
  t.same(slugs('# Hello, World!\n## Sample Section\n## This\'ll be a _Helpful_ Section\n'), ['hello-world', 'sample-section', 'thisll-be-a-helpful-section']);
  t.same(slugs('# Foo\n# Foo\n# Foo\n# foo-1\n'), ['foo', 'foo-1', 'foo-2', 'foo-1-1'], 'duplicates numbered in document order');
  t.same(slugs('> # Intro\n- # Intro\n\n# Intro\n'), ['intro-2'], 'numbering counts nested headings too, as GitHub renders them');
  t.same(slugs('```\n# Intro\n```\n# Intro\n'), ['intro'], 'but not lines inside code');
  t.same(slugs('# Über Straße\n# 日本語の見出し\n# Ünïcode_ok-yes\n'), ['über-straße', '日本語の見出し', 'ünïcode_ok-yes'], 'Unicode letters kept');
  t.same(slugs('# 🚀 Launch\n'), ['-launch'], 'an emoji is dropped, its space stays a hyphen');
  t.same(slugs('## <a name="x"></a> Title\n'), ['title'], 'leading whitespace left by raw HTML is trimmed');
  const logo = parseMarkdown('## ![logo](l.png) Project\n').headings[0];
  t.equal(logo?.text, 'logo Project', 'the text keeps the image alt');
  t.equal(logo?.slug, 'project', 'the anchor does not: an image has no text content');
  t.same(slugs('Multi\nline\n===\n'), ['multiline'], 'a line break inside a setext heading is dropped from the slug');
});

// Engine v1's whole-file units never address a heading, so the build asks for no slugs
// (a speed choice, "Builds at native speed on real text", What to build item 3: "skip slug
// work where the granularity does not use it"): everything else is the same structure.
t.test('slugs: false gives the same headings and blocks, each slug empty', async (t) => {
  const doc = '---\ntitle: T\n---\n# Intro {#intro}\n\nText.\n\n## Usage `x`\n\n## Usage `x`\n\n- a\n- b\n\nSetext\n---\n';
  const full = parseMarkdown(doc, { headingIds: true });
  const bare = parseMarkdown(doc, { headingIds: true, slugs: false });
  t.same(full.headings.map((h) => h.slug), ['intro', 'usage-x', 'usage-x-1', 'setext'], 'slugs computed by default');
  t.same(bare.headings.map((h) => h.slug), ['', '', '', '']);
  t.same(bare.headings.map(({ slug: _, ...rest }) => rest), full.headings.map(({ slug: _, ...rest }) => rest), 'levels, texts, offsets unchanged');
  t.same(bare.blocks, full.blocks);
  t.same(bare.frontMatter, full.frontMatter);
});

t.test('offsets: start of the first line, end past the last line ending', async (t) => {
  const doc = 'x\n\n  ## Two ##\nA\nB\n---\n# End';
  const h = parseMarkdown(doc).headings;
  t.same(
    h.map((x) => [x.start, x.end]),
    [
      [3, 15],
      [15, 23],
      [23, 28],
    ],
  );
  t.same(spans(doc), ['  ## Two ##\n', 'A\nB\n---\n', '# End'], 'indentation included; no line ending at the end of the text');
});

t.test('CM §2.1 line endings: LF, CRLF and CR alike', async (t) => {
  const crlf = '# One\r\nTwo\r\nlines\r\n===\r\n';
  t.same(heads(crlf), [[1, 'One'], [1, 'Two\nlines']]);
  t.same(spans(crlf), ['# One\r\n', 'Two\r\nlines\r\n===\r\n'], 'the CRLF is part of the span');
  t.same(heads('# One\rTwo\r---\r'), [[1, 'One'], [2, 'Two']], 'a lone CR ends a line');
  t.same(texts('```\r\n# not\r\n```\r\n# yes\r\n'), ['yes']);
});

t.test('a byte order mark is not content; the first heading still starts at 0', async (t) => {
  const doc = '\ufeff# Title\n';
  t.same(parseMarkdown(doc).headings.map((h) => [h.text, h.start, h.end]), [['Title', 0, 9]]);
});

t.test('empty documents and documents without headings', async (t) => {
  t.same(parseMarkdown(''), { frontMatter: null, headings: [], blocks: [] });
  t.same(parseMarkdown('\n\n  \n'), { frontMatter: null, headings: [], blocks: [] });
  t.same(parseMarkdown('Just a paragraph.\n\n- a list\n\n> a quote\n').headings, []);
});

t.test('MDX goes through the same parser: import/export and JSX lines are text or HTML', async (t) => {
  const mdx = "import Tabs from './tabs'\nexport const meta = { title: 'x' }\n\n# Title\n\n<Tabs items={['a']}>\n\n## Inside JSX\n\n</Tabs>\n";
  t.same(texts(mdx), ['Title', 'Inside JSX'], 'JSX tags alone on a line are HTML blocks ending at blank lines');
});

t.test('bad input is a TypeError, not a wrong answer', async (t) => {
  t.throws(() => parseMarkdown(42 as unknown as string), TypeError);
});

// "Answers that fit, by default", What to build item 2: sections over the cap are cut "at
// block boundaries (paragraphs, lists, whole code fences and tables)": the structure lists
// where top-level blocks (and items of top-level lists) start, and nothing inside a block.
t.test('blocks: where top-level blocks and top-level list items start', async (t) => {
  const doc = [
    '---\ntitle: x\n---\n', // front matter: not Markdown, no block
    'A paragraph\nwith two lines.\n\n', // paragraph
    '| a | b |\n|---|---|\n| 1 | 2 |\n\n', // a table: one paragraph to CommonMark
    '- one\n  continued\n- two\n\n  - nested\n', // list: the list and each top-level item
    '```\ncode\n\n# not a heading\n```\n', // a fence, whole
    '> quote\nlazy\n\n', // block quote with a lazy line
    'Setext\n---\n', // a setext heading (the paragraph's start)
    '<div>\n\ninside\n\n', // HTML block ends at the blank line; then a paragraph
    '    indented\n', // indented code
    '***\n', // thematic break
  ].join('');
  const starts = parseMarkdown(doc).blocks;
  const lineOf = (needle: string): number => doc.indexOf(needle);
  t.same(
    starts,
    ['A paragraph', '| a |', '- one', '- two', '```', '> quote', 'Setext', '<div>', 'inside', '    indented', '***'].map(lineOf),
  );
  t.notOk(starts.includes(lineOf('  - nested')), 'a nested list item is inside its item');
  t.notOk(starts.includes(lineOf('# not a heading')), 'nothing inside a fence');
  t.notOk(starts.includes(lineOf('lazy')), 'a lazy continuation line is not a block');
});
