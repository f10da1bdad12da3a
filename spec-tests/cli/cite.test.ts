// Checks issue 4 "What to build": `context cite --root R --path P --start-line A --end-line B`
// prints JSON on stdout and exits 0 only on success; 8 when the citation is refused, 1 for
// invalid_input (both: JSON on stdout, a note on stderr), 1 for a malformed command line.
import t from 'tap';
import { createHash } from 'node:crypto';
import { runCli } from './citation-io.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

t.test('success: the citation JSON, exit 0', async (t) => {
  const dir = t.testdir({ 'a.md': 'one\r\ntwo\r\n' });
  const full = sha('one\ntwo');
  t.same(await runCli(['cite', '--root', '.', '--path', './a.md', '--start-line', '1', '--end-line', '2'], dir), {
    code: 0,
    stdout: `{"ok":true,"citation":"[[vctx:a.md#L1-L2@${full.slice(0, 8)}]]","sha256_full":"${full}"}\n`,
    stderr: '',
  });
  const eq = await runCli(['cite', '--root=.', '--path=a.md', '--start-line=3', '--end-line=3'], dir);
  t.equal(eq.stdout, `{"ok":true,"citation":"[[vctx:a.md#L3-L3@e3b0c442]]","sha256_full":"${sha('')}"}\n`, 'the empty last line');
});

t.test('refusals: JSON on stdout, exit 8', async (t) => {
  const dir = t.testdir({ 'a.md': 'x\n', 'bin': Buffer.from([0]), link: t.fixture('symlink', 'a.md') });
  const cases: Array<[string[], string]> = [
    [['--path', 'a.md', '--start-line', '2', '--end-line', '3'], 'range_invalid'],
    [['--path', 'a.md', '--start-line', '-1', '--end-line', '1'], 'range_invalid'],
    [['--path', 'none', '--start-line', '1', '--end-line', '1'], 'file_missing'],
    [['--path', 'bin', '--start-line', '1', '--end-line', '1'], 'binary_file'],
    [['--path', 'link', '--start-line', '1', '--end-line', '1'], 'symlink_skipped'],
    [['--path', '../a.md', '--start-line', '1', '--end-line', '1'], 'path_escape'],
    [['--path', '/etc/hosts', '--start-line', '1', '--end-line', '1'], 'invalid_path'],
  ];
  for (const [args, reason] of cases) {
    t.same(await runCli(['cite', '--root', '.', ...args], dir), { code: 8, stdout: `{"ok":false,"reason":"${reason}"}\n`, stderr: `context cite: ${reason}\n` }, reason);
  }
});

t.test('invalid input: JSON on stdout, usage on stderr, exit 1', async (t) => {
  const dir = t.testdir({ 'a.md': 'x\n' });
  for (const args of [
    ['--path', 'a.md', '--start-line', '1', '--end-line', '1'],
    ['--root', '.', '--path', 'a.md', '--start-line', 'one', '--end-line', '1'],
    ['--root', '.', '--path', 'a.md', '--start-line', '1'],
    ['--root', '', '--path', 'a.md', '--start-line', '1', '--end-line', '1'],
  ]) {
    t.same(await runCli(['cite', ...args], dir), {
      code: 1,
      stdout: '{"ok":false,"reason":"invalid_input"}\n',
      stderr: 'context cite: invalid_input\nusage: context cite --root R --path P --start-line A --end-line B\n',
    }, args.join(' '));
  }
});

t.test('a malformed command line: usage on stderr, nothing on stdout, exit 1', async (t) => {
  const dir = t.testdir({});
  for (const args of [['--bogus'], ['stray'], ['--root', '.', '--root', '.'], ['--root']]) {
    const run = await runCli(['cite', ...args], dir);
    t.equal(run.code, 1, args.join(' '));
    t.equal(run.stdout, '');
    t.match(run.stderr, /usage: context cite --root R --path P --start-line A --end-line B/);
  }
  const help = await runCli(['cite', '--help'], dir);
  t.equal(help.code, 0);
  t.ok(help.stdout.startsWith('usage: context cite --root R --path P --start-line A --end-line B\n\n'), 'the usage line, then the help');
});
