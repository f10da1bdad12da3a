// Checks issue 4 "anything resolving outside the root is path_escape" beyond the lexical
// rule: a path is placed by the real path of its parent directory, so a symlinked parent
// leaving the root is an escape; a missing root or parent is absent; reads are memoised.
import t from 'tap';
import { join } from 'node:path';
import { openWorkspace } from '../../../lib/core/citations/workspace.js';
import { nodeWorkspaceFs, type WorkspaceFs } from '../../../lib/core/citations/workspace-fs.js';

t.test('placement', async (t) => {
  const base = t.testdir({
    outside: { 'x.md': '' },
    root: {
      'a.md': '',
      d: { 'b.md': '' },
      inner: t.fixture('symlink', 'd'),
      out: t.fixture('symlink', '../outside'),
      'a-link': t.fixture('symlink', '../outside/x.md'),
    },
    'root-link': t.fixture('symlink', 'root'),
  });
  const ws = openWorkspace(nodeWorkspaceFs, join(base, 'root'));
  const place = (p: string) => ws.place(join(base, 'root', p));
  t.equal(place('a.md'), 'inside');
  t.equal(place('d/b.md'), 'inside');
  t.equal(place('inner/b.md'), 'inside', 'a symlinked directory that stays inside is fine');
  t.equal(place('out/x.md'), 'escape');
  t.equal(place('a-link'), 'inside', 'the last component is never followed (lstat decides)');
  t.equal(place('nodir/x.md'), 'absent');
  t.equal(place('a.md/x'), 'inside', 'a file as a parent lies inside ...');
  t.equal(ws.kindOf(join(base, 'root', 'a.md/x')), 'absent', '... and lstat below it is ENOTDIR: absent');
  const viaLink = openWorkspace(nodeWorkspaceFs, join(base, 'root-link'));
  t.equal(viaLink.place(join(base, 'root-link', 'd', 'b.md')), 'inside', 'a symlinked root is compared by its real path');
  t.equal(openWorkspace(nodeWorkspaceFs, join(base, 'nope')).place(join(base, 'nope', 'a')), 'absent');
});

t.test('kinds by lstat', async (t) => {
  const dir = t.testdir({ f: '', d: {}, l: t.fixture('symlink', 'f') });
  const ws = openWorkspace(nodeWorkspaceFs, dir);
  t.same(['f', 'd', 'l', 'none'].map((n) => ws.kindOf(join(dir, n))), ['file', 'dir', 'symlink', 'absent']);
});

t.test('real paths and texts are memoised for one workspace', async (t) => {
  let realPaths = 0;
  let reads = 0;
  const fs: WorkspaceFs = {
    realPath: (p) => {
      realPaths++;
      return p;
    },
    lstat: () => 'file',
    readFile: () => {
      reads++;
      return new TextEncoder().encode('x');
    },
    readDir: () => [],
  };
  const ws = openWorkspace(fs, '/r');
  for (let i = 0; i < 3; i++) {
    ws.place('/r/d/a');
    ws.readText('/r/d/a');
  }
  t.equal(realPaths, 2, 'the root and /r/d, once each');
  t.equal(reads, 1);
});
