// Checks issue 4 "What to build": `context verify-claims --root R (--in-path F | --text T)`
// prints the verification JSON and exits 0 only when everything verified; 8 when anything
// failed; 1 (invalid_input) for neither or both inputs. `--in-path` may name a directory.
import t from 'tap';
import { createHash } from 'node:crypto';
import { runCli } from './citation-io.js';

const h8 = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 8);

t.test('all verified: exit 0', async (t) => {
  const token = `[[vctx:src/a.ts#L1-L2@${h8('a\nb')}]]`;
  const dir = t.testdir({ src: { 'a.ts': 'a\r\nb\r\n' }, 'doc.md': `<!-- ${token} -->\n<!-- [[vctx-exists-dir:src/]] -->\n` });
  const expected =
    '{"ok":true,"total":2,"ok_count":2,"fail_count":0,"results":[' +
    `{"claim":"${token}","kind":"citation","ok":true},{"claim":"[[vctx-exists-dir:src/]]","kind":"structure","ok":true}]}\n`;
  t.same(await runCli(['verify-claims', '--root', '.', '--in-path', 'doc.md'], dir), { code: 0, stdout: expected, stderr: '' });
  const inline = await runCli(['verify-claims', '--root', dir, '--text', `${token}\r\n[[vctx-exists-dir:src/]]`], '/');
  t.same(inline, { code: 0, stdout: expected, stderr: '' }, 'inline text, absolute root');
  t.same(await runCli(['verify-claims', '--root', '.', '--text', ''], dir), {
    code: 0,
    stdout: '{"ok":true,"total":0,"ok_count":0,"fail_count":0,"results":[]}\n',
    stderr: '',
  }, 'empty text has nothing to fail');
});

t.test('anything failed: the report on stdout, exit 8', async (t) => {
  const dir = t.testdir({ 'a.ts': 'new\na\nb\n', docs: { 'x.md': `[[vctx:a.ts#L1-L2@${h8('a\nb')}]]`, 'y.md': '[[vctx-missing:a.ts]]' } });
  const run = await runCli(['verify-claims', '--root', '.', '--in-path', 'docs'], dir);
  t.equal(run.code, 8);
  t.equal(run.stderr, 'context verify-claims: 2 of 2 claims failed\n');
  t.equal(
    run.stdout,
    '{"ok":false,"total":2,"ok_count":0,"fail_count":2,"files":[' +
      `{"path":"docs/x.md","ok":false,"total":1,"ok_count":0,"fail_count":1,"results":[{"claim":"[[vctx:a.ts#L1-L2@${h8('a\nb')}]]","kind":"citation","ok":false,"reason":"hash_mismatch","moved_to":[{"start_line":2,"end_line":3,"citation":"[[vctx:a.ts#L2-L3@${h8('a\nb')}]]"}]}]},` +
      '{"path":"docs/y.md","ok":false,"total":1,"ok_count":0,"fail_count":1,"results":[{"claim":"[[vctx-missing:a.ts]]","kind":"structure","ok":false,"reason":"exists"}]}]}\n',
  );
  t.same(await runCli(['verify-claims', '--root', '.', '--in-path', 'nope.md'], dir), { code: 8, stdout: '{"ok":false,"reason":"file_missing"}\n', stderr: 'context verify-claims: file_missing\n' });
});

t.test('neither or both inputs: invalid_input, exit 1', async (t) => {
  const dir = t.testdir({ 'd.md': '' });
  for (const args of [[], ['--in-path', 'd.md', '--text', 'x']]) {
    t.same(await runCli(['verify-claims', '--root', '.', ...args], dir), {
      code: 1,
      stdout: '{"ok":false,"reason":"invalid_input"}\n',
      stderr: 'context verify-claims: invalid_input\nusage: context verify-claims --root R (--in-path FILE-OR-DIR | --text T)\n',
    });
  }
});

t.test('the commands are listed in context --help', async (t) => {
  const help = await runCli(['--help'], '/');
  t.match(help.stdout, /\n {2}cite +Cite a line span/);
  t.match(help.stdout, /\n {2}claim +Make a structure claim/);
  t.match(help.stdout, /\n {2}verify-claims +Verify every citation/);
});
