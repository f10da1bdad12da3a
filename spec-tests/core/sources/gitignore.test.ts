// IgnoreStack: gitignore semantics (git-scm.com/docs/gitignore "PATTERN FORMAT") through the
// `ignore` package, layered per directory as git reads nested .gitignore files.

import t from 'tap';
import { IgnoreStack } from '../../../lib/core/sources/gitignore.js';

t.test('empty stack ignores nothing', async (t) => {
  const s = IgnoreStack.empty();
  t.equal(s.isEmpty, true);
  t.equal(s.ignores('a.md', false), false);
  t.equal(s.with('', '# only a comment\n\n'), s, 'comment-only text adds no layer');
});

t.test('"a pattern without a slash matches at any level"; "a trailing / matches directories only"', async (t) => {
  const s = IgnoreStack.empty().with('', 'drafts\nbuild/\n*.tmp.md\n');
  t.equal(s.ignores('drafts', true), true);
  t.equal(s.ignores('docs/drafts', true), true);
  t.equal(s.ignores('build', true), true);
  t.equal(s.ignores('build', false), false, 'a file named build is not a directory');
  t.equal(s.ignores('docs/x.tmp.md', false), true);
  t.equal(s.ignores('docs/x.md', false), false);
});

t.test('"a leading slash anchors to the directory of the .gitignore file"', async (t) => {
  const s = IgnoreStack.empty().with('docs', '/api.md\n');
  t.equal(s.ignores('docs/api.md', false), true);
  t.equal(s.ignores('docs/sub/api.md', false), false);
  t.equal(s.ignores('api.md', false), false, 'outside the layer base: not matched');
});

t.test('"!" re-includes; a deeper file decides over a shallower one; CRLF text', async (t) => {
  const root = IgnoreStack.empty().with('', '*.md\r\n!keep.md\r\n');
  t.equal(root.ignores('a.md', false), true);
  t.equal(root.ignores('keep.md', false), false);
  const deeper = root.with('guide', '!*.md\n');
  t.equal(deeper.ignores('guide/a.md', false), false, 'nested !*.md re-includes');
  t.equal(deeper.ignores('a.md', false), true, 'the root layer still applies outside guide/');
  t.equal(root.ignores('guide/a.md', false), true, 'with() leaves the original stack unchanged');
});

t.test('pattern lists (config files) and "**"', async (t) => {
  const s = IgnoreStack.empty().with('', ['**/generated/**', 'tmp']);
  t.equal(s.ignores('a/generated/b.md', false), true);
  t.equal(s.ignores('tmp', true), true);
  t.equal(s.ignores('a/b.md', false), false);
});
