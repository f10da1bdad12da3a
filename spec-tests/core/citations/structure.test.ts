// Checks issue 4 "Structure checks use lstat": missing fails with `exists`; exists fails
// with `missing`; exists-file fails with `not_file`; exists-dir fails with `not_dir`
// (absent paths fail with `missing`); plus the path rules and symlinked parents.
import t from 'tap';
import { join } from 'node:path';
import { checkStructure } from '../../../lib/core/citations/structure.js';
import { openWorkspace } from '../../../lib/core/citations/workspace.js';
import { nodeWorkspaceFs, type WorkspaceFs } from '../../../lib/core/citations/workspace-fs.js';

t.test('each kind against a file, a directory, a symlink and nothing', async (t) => {
  const base = t.testdir({
    outside: { 'secret.md': 'x' },
    root: {
      'f.md': 'x',
      d: { 'g.md': 'y' },
      'link-to-f': t.fixture('symlink', 'f.md'),
      'link-to-d': t.fixture('symlink', 'd'),
      'dangling': t.fixture('symlink', 'nowhere'),
      'escape': t.fixture('symlink', '../outside'),
    },
  });
  const ws = openWorkspace(nodeWorkspaceFs, join(base, 'root'));
  const check = (kind: 'exists' | 'exists-file' | 'exists-dir' | 'missing', path: string) => checkStructure(ws, kind, path);
  const OK = { ok: true };
  const fail = (reason: string) => ({ ok: false, reason });

  t.same(check('exists', 'f.md'), OK);
  t.same(check('exists', 'd'), OK);
  t.same(check('exists', 'nope'), fail('missing'));
  t.same(check('exists', 'dangling'), OK, 'lstat: a dangling symlink exists');

  t.same(check('exists-file', 'f.md'), OK);
  t.same(check('exists-file', 'd'), fail('not_file'));
  t.same(check('exists-file', 'link-to-f'), fail('not_file'), 'a symlink to a file is not a file');
  t.same(check('exists-file', 'nope'), fail('missing'));

  t.same(check('exists-dir', 'd'), OK);
  t.same(check('exists-dir', 'd/'), OK, 'a trailing / is allowed');
  t.same(check('exists-dir', './d\\'), OK);
  t.same(check('exists-dir', 'f.md'), fail('not_dir'));
  t.same(check('exists-dir', 'link-to-d'), fail('not_dir'), 'a symlink to a directory is not a directory');
  t.same(check('exists-dir', 'nope/'), fail('missing'));

  t.same(check('missing', 'nope'), OK);
  t.same(check('missing', 'nope/deeper'), OK);
  t.same(check('missing', 'f.md/deeper'), OK, 'below a file nothing exists');
  t.same(check('missing', 'f.md'), fail('exists'));
  t.same(check('missing', 'dangling'), fail('exists'));

  t.same(check('exists', '../outside/secret.md'), fail('path_escape'), 'traversal');
  t.same(check('missing', '../nope'), fail('path_escape'), 'even a missing claim may not look outside');
  t.same(check('exists', '/etc'), fail('invalid_path'));
  t.same(check('exists', '.'), fail('invalid_path'));
  t.same(check('exists', 'escape'), OK, 'the symlink itself lies inside the root');
  t.same(check('exists-file', 'escape/secret.md'), fail('path_escape'), 'a symlinked parent that leaves the root is an escape');
});

t.test('a missing root: every exists* claim is missing, every missing claim holds', async (t) => {
  const ws = openWorkspace(nodeWorkspaceFs, join(t.testdir({}), 'no-such-root'));
  t.same(checkStructure(ws, 'exists', 'a'), { ok: false, reason: 'missing' });
  t.same(checkStructure(ws, 'missing', 'a'), { ok: true });
});

t.test('an OS failure is io_error, neither exists nor missing', async (t) => {
  const denied = (): never => { throw Object.assign(new Error('denied'), { code: 'EACCES' }); };
  const fs: WorkspaceFs = { ...nodeWorkspaceFs, realPath: (p) => p, lstat: denied };
  const ws = openWorkspace(fs, '/r');
  t.same(checkStructure(ws, 'missing', 'a'), { ok: false, reason: 'io_error' });
  t.same(checkStructure(ws, 'exists', 'a'), { ok: false, reason: 'io_error' });
  const noRealPath: WorkspaceFs = { ...nodeWorkspaceFs, realPath: denied };
  t.same(checkStructure(openWorkspace(noRealPath, '/r'), 'missing', 'a'), { ok: false, reason: 'io_error' });
});
