// Checks docs/engine.md "Repeated text", the text as its reader sees it
// (lib/core/analysis/visible-text.ts): what is set aside — heading markers, underlines and
// rules, blank lines, lines that show nothing — and what never is: fenced code, text.
import t from 'tap';
import { visibleText } from '../../../lib/core/analysis/visible-text.js';

t.test('a heading one level down, an anchor after it: the same text', async (t) => {
  const page = '# `MD033` - Inline HTML\n\nTags: `html`\n\nParameters:\n\n- `allowed_elements`\n';
  const gathered = '## `MD033` - Inline HTML\n\nTags: `html`\n\nParameters:\n\n- `allowed_elements`\n\n<a name="md034"></a>\n\n';
  t.equal(visibleText(page), visibleText(gathered), 'the ATX markers and the empty anchor are set aside');
  t.equal(visibleText(page), '`MD033` - Inline HTML\nTags: `html`\nParameters:\n- `allowed_elements`', 'exactly what is kept');
});

t.test('heading markers', async (t) => {
  t.equal(visibleText('   ### Install  '), 'Install', 'up to 3 spaces, then 1-6 #s and a space');
  t.equal(visibleText('######'), '', 'an empty heading (a rule of #s) shows nothing');
  t.equal(visibleText('#hashtag'), '#hashtag', 'no space after the #: text');
  t.equal(visibleText('####### seven'), '####### seven', 'seven #s: text');
  t.equal(visibleText('    # indented'), '    # indented', 'four spaces: not a heading');
  t.equal(visibleText('== AsciiDoc title'), 'AsciiDoc title', "an AsciiDoc title's =s");
});

t.test('lines that show nothing', async (t) => {
  for (const line of ['=====', '-----', '~~~~~', '* * *', '___', '<!-- a comment -->', '<a name="x"></a>', '<a id="x"></a> <span id="y"></span>', '</div>', '{/* shared with the pages router */}', '   ', '\t']) {
    t.equal(visibleText(`text\n${line}\nmore`, false), 'text\nmore', JSON.stringify(line));
  }
  for (const line of ['<b>bold</b>', '<!-- open', 'a <br>', '<3 kiwis', '--', '{/* a */} text', '< a >']) {
    t.equal(visibleText(`text\n${line}\nmore`), `text\n${line}\nmore`, `${JSON.stringify(line)} shows something`);
  }
});

t.test('fenced code is kept line for line', async (t) => {
  const code = (inside: string): string => `Example:\n\n\`\`\`sh\n${inside}\n\`\`\`\n\nAfter.`;
  t.equal(visibleText(code('# install it\n\n<a name="x"></a>\nnpm i')), 'Example:\n```sh\n# install it\n\n<a name="x"></a>\nnpm i\n```\nAfter.', 'markers, blank lines and tags inside the fence stay');
  t.not(visibleText(code('# install it')), visibleText(code('## install it')), 'so code that differs stays different');
  t.equal(visibleText('~~~\n# a\n~~~~\n# b'), '~~~\n# a\n~~~~\nb', 'a tilde fence closes on a longer tilde run, and text resumes');
  t.equal(visibleText('```\n# a\n~~~\n# b'), '```\n# a\n~~~\n# b', 'an unclosed fence holds to the end');
  t.equal(visibleText('``` a`b\n# c'), '``` a`b\nc', 'a backtick run with a backtick after it opens no fence');
  t.equal(visibleText('Title\n~~~~~\n\n# note', false), 'Title\nnote', 'without fences (reStructuredText) ~~~ is an underline');
});

t.test('line endings and trailing spaces do not matter; anything else does', async (t) => {
  t.equal(visibleText('# A\r\nb  \r\n\r\nc\t'), visibleText('# A\nb\n\nc'), 'CRLF and trailing blanks');
  t.equal(visibleText('# A\rb'), 'A\nb', 'a lone CR ends a line');
  t.not(visibleText('a  b'), visibleText('a b'), 'spaces inside a line are text');
  t.not(visibleText('  a'), visibleText('a'), 'so is indentation');
  t.not(visibleText('Version 1.18'), visibleText('Version 1.19'), 'one character apart: different');
});

t.test('hostile lines are read in one pass', async (t) => {
  const n = 200_000;
  t.equal(visibleText('<a'.repeat(n)), '<a'.repeat(n), 'unclosed tags');
  t.equal(visibleText('<!--'.repeat(n)), '<!--'.repeat(n), 'unclosed comments');
  t.equal(visibleText('<a>'.repeat(n)), '', 'a line of tags');
  t.equal(visibleText('`'.repeat(n)).length, n, 'one long fence line');
});
