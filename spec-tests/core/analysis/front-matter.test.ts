// Front matter (lib/core/analysis/front-matter.ts, through parseMarkdown): YAML fenced by
// `---` and closed by `---` or `...` (the Jekyll / YAML document markers), TOML fenced by
// `+++` (Hugo), on the first line that is not blank (Astro's Markdown reader skips blank
// lines before it); `title` read from its top level (issue 9's
// measured "front-matter title" field; docs/sources.md "Markdown structure and sections").

import t from 'tap';
import { parseMarkdown } from '../../../lib/core/analysis/markdown.js';

const fm = (doc: string) => parseMarkdown(doc).frontMatter;
const title = (yaml: string) => fm(`---\n${yaml}\n---\n`)?.title;

t.test('YAML front matter: end is just past the closing fence line', async (t) => {
  const doc = '---\ntitle: Hello\nnav_order: 2\n---\n# Body\n';
  t.same(fm(doc), { end: 34, title: 'Hello' });
  t.equal(doc.slice(34), '# Body\n');
  t.same(parseMarkdown(doc).headings.map((h) => h.text), ['Body']);
  t.same(fm('---\na: 1\n...\nrest'), { end: 13, title: null }, 'closed by ... too');
  t.same(fm('---\n---\n'), { end: 8, title: null }, 'empty front matter');
  t.same(fm('---  \ntitle: x\n---\t\n'), { end: 20, title: 'x' }, 'fence lines may carry trailing spaces');
  t.same(fm('---\r\ntitle: x\r\n---\r\nbody'), { end: 20, title: 'x' }, 'CRLF: the line ending is included');
  t.same(fm('\ufeff---\ntitle: x\n---\n'), { end: 18, title: 'x' }, 'after a byte order mark');
});

t.test('headings inside front matter are not headings', async (t) => {
  const doc = '---\n# comment: yes\ntitle: T\n---\n# Real\n';
  t.same(parseMarkdown(doc).headings.map((h) => h.text), ['Real']);
});

t.test('front matter on the first line that is not blank, and only when closed', async (t) => {
  // docs/sources.md "What is a heading": blank lines (spaces and tabs only) before the fence
  // are skipped, as Astro's Markdown reader skips them (a page that starts with
  // an empty line renders its front matter as front matter there).
  const late = '\n---\ntitle: x\n---\n# Body\n';
  t.same(fm(late), { end: 18, title: 'x' }, 'after a blank line: front matter');
  t.same(parseMarkdown(late).headings.map((h) => [h.level, h.text]), [[1, 'Body']], 'not an hr and a setext heading');
  t.same(fm(' \t\r\n\n+++\ntitle = "T"\n+++\n'), { end: 25, title: 'T' }, 'blank lines with spaces, TOML too');
  t.same(fm('\ufeff\n---\ntitle: x\n---\n'), { end: 19, title: 'x' }, 'a byte order mark, then a blank line');
  const text = 'Intro\n---\ntitle: x\n---\n';
  t.equal(fm(text), null, 'a line of text first: no front matter');
  t.same(parseMarkdown(text).headings.map((h) => [h.level, h.text]), [[2, 'Intro'], [2, 'title: x']], 'CommonMark reads setext headings');
  t.equal(fm('\n\n'), null, 'blank lines alone');
  const open = '---\ntitle: x\n\n# Heading\n';
  t.equal(fm(open), null, 'unclosed: no front matter');
  t.same(parseMarkdown(open).headings.map((h) => h.text), ['Heading'], 'the --- is a thematic break');
  t.equal(fm('----\ntitle: x\n----\n'), null, 'four dashes is no fence');
  t.equal(fm(' ---\ntitle: x\n---\n'), null, 'an indented fence is no fence');
});

t.test('YAML title: plain, quoted, folded; top-level key only', async (t) => {
  t.equal(title('title: Getting started'), 'Getting started');
  t.equal(title('title: "Say \\"hi\\" \\u00e9"'), 'Say "hi" é', 'double quotes: escapes decoded');
  t.equal(title("title: 'It''s here'"), "It's here", "single quotes: '' is a quote");
  t.equal(title('title: Plain # a comment'), 'Plain', 'a comment after a plain value goes');
  t.equal(title('title: C# in depth'), 'C# in depth', '# without a space before it is text');
  t.equal(title('title: "Quoted" # comment'), 'Quoted');
  t.equal(title('title: A long\n  title over lines'), 'A long title over lines', 'continuation lines fold into spaces');
  t.equal(title('title: >\n  Folded\n  text'), 'Folded text', 'folded block scalar');
  t.equal(title('title: |\n  Line one\n  Line two'), 'Line one\nLine two', 'literal block scalar');
  t.equal(title('title:\n  On the next line'), 'On the next line');
  t.equal(title('"title": Quoted key'), 'Quoted key');
  t.equal(title('nav:\n  title: Nested'), null, 'a nested title is not the document title');
  t.equal(title('description: x'), null, 'no title');
  t.equal(title('title:'), null, 'empty title is null');
  t.equal(title('title: ~'), null, 'YAML null');
  t.equal(title('title: [a, b]'), null, 'a sequence is not a title');
  t.equal(title('title: "unclosed'), null, 'malformed quoting is no title');
  t.equal(title('titles: x'), null, 'only the key title');
  t.equal(title('title: first\ntitle: second'), 'first', 'the first occurrence');
});

t.test('TOML front matter (+++) and its title', async (t) => {
  t.same(fm('+++\ntitle = "Hugo page"\ndraft = true\n+++\n# Body\n'), { end: 41, title: 'Hugo page' });
  t.equal(fm("+++\ntitle = 'literal \\n'\n+++\n")?.title, 'literal \\n', 'literal strings keep backslashes');
  t.equal(fm('+++\ntitle = "tab\\tand \\u00e9"\n+++\n')?.title, 'tab\tand é', 'basic strings decode escapes');
  t.equal(fm('+++\n[params]\ntitle = "x"\n+++\n')?.title, null, 'a title inside a table is not top-level');
  t.equal(fm('+++\ntitle = "x"\n---\n'), null, '+++ must close +++');
});
