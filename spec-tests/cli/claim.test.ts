// Checks issue 4 "What to build": `context claim --root R --kind K --path P` prints the
// structure claim JSON (path normalised, exists-dir keeps a trailing `/`); exit 0, 8 on a
// refused path, 1 on invalid_input (e.g. an unknown kind) and on a malformed command line.
import t from 'tap';
import { runCli } from './citation-io.js';

t.test('each kind', async (t) => {
  const dir = t.testdir({});
  const expect = {
    exists: '{"ok":true,"claim":"[[vctx-exists:a/b]]","kind":"exists","normalized_path":"a/b"}\n',
    'exists-file': '{"ok":true,"claim":"[[vctx-exists-file:a/b]]","kind":"exists-file","normalized_path":"a/b"}\n',
    'exists-dir': '{"ok":true,"claim":"[[vctx-exists-dir:a/b/]]","kind":"exists-dir","normalized_path":"a/b/"}\n',
    missing: '{"ok":true,"claim":"[[vctx-missing:a/b]]","kind":"missing","normalized_path":"a/b"}\n',
  };
  for (const [kind, stdout] of Object.entries(expect)) {
    t.same(await runCli(['claim', '--root', '.', '--kind', kind, '--path', './a\\b/'], dir), { code: 0, stdout, stderr: '' }, kind);
  }
});

t.test('refused and invalid', async (t) => {
  const INVALID = { code: 1, stdout: '{"ok":false,"reason":"invalid_input"}\n', stderr: 'context claim: invalid_input\nusage: context claim --root R --kind exists|exists-file|exists-dir|missing --path P\n' };
  const dir = t.testdir({});
  t.same(await runCli(['claim', '--root', '.', '--kind', 'exists', '--path', '../up'], dir), { code: 8, stdout: '{"ok":false,"reason":"path_escape"}\n', stderr: 'context claim: path_escape\n' });
  t.same(await runCli(['claim', '--root', '.', '--kind', 'exists', '--path', '.'], dir), { code: 8, stdout: '{"ok":false,"reason":"invalid_path"}\n', stderr: 'context claim: invalid_path\n' });
  t.same(await runCli(['claim', '--root', '.', '--kind', 'present', '--path', 'a'], dir), INVALID);
  t.same(await runCli(['claim', '--root', '.', '--kind', 'exists'], dir), INVALID);
  const usage = await runCli(['claim', '--kind', 'exists', '--path', 'a', '--force'], dir);
  t.same([usage.code, usage.stdout], [1, '']);
});
