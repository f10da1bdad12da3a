// Checks issue 4 "Go beyond": verifying a folder takes every Markdown file under it in a
// deterministic order (UTF-8 byte order of the root-relative path), never following a
// symlink; `.git` and `node_modules` are skipped (docs/citations.md "Folders").
import t from 'tap';
import { isMarkdownName, listMarkdownFiles } from '../../../lib/core/citations/markdown-files.js';
import { nodeWorkspaceFs } from '../../../lib/core/citations/workspace-fs.js';

t.test('Markdown names', async (t) => {
  for (const name of ['a.md', 'README.MD', 'x.Markdown', 'a.b.md']) t.ok(isMarkdownName(name), name);
  for (const name of ['.md', '.markdown', 'a.mdx', 'a.md.bak', 'md', 'a.txt']) t.notOk(isMarkdownName(name), name);
});

t.test('listing: byte order over the whole relative path, no symlinks', async (t) => {
  const dir = t.testdir({
    docs: {
      'b.md': '',
      'a.md': '',
      'a-b.md': '',
      a: { 'c.md': '', deeper: { 'd.md': '' } },
      'é.md': '',
      'Z.md': '',
      'skip.txt': '',
      'ln.md': t.fixture('symlink', 'b.md'),
      lndir: t.fixture('symlink', 'a'),
      '.git': { 'x.md': '' },
      node_modules: { 'y.md': '' },
      '.github': { 'z.md': '' },
    },
  });
  const files = listMarkdownFiles(nodeWorkspaceFs, 'docs', `${dir}/docs`);
  t.same(files.map((f) => f.path), [
    'docs/.github/z.md',
    'docs/Z.md',
    'docs/a-b.md',
    'docs/a.md',
    'docs/a/c.md',
    'docs/a/deeper/d.md',
    'docs/b.md',
    'docs/é.md',
  ]);
  t.equal(files[0]?.absolutePath, `${dir}/docs/.github/z.md`);
});
