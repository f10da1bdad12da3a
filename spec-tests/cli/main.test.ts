// Checks cli_spec.md "Commands", "Requirements" (scriptable) and "Exit Codes" for the
// top level of lib/cli/main.ts: --help and --version on stdout with exit 0; no command or
// an unknown one is a usage error (exit 1) with the usage on stderr and nothing on stdout.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { run, spawnContext } from './harness.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

t.test('--help lists every cli_spec.md command, on stdout, exit 0', async (t) => {
  for (const flag of ['--help', '-h', 'help']) {
    const r = await run([flag]);
    t.equal(r.code, 0, flag);
    t.equal(r.err, '', `${flag}: nothing on stderr`);
    t.match(r.out, /^usage: context <command>/, `${flag}: starts with the usage line`);
    for (const cmd of ['build', 'resolve', 'inspect', 'verify', 'list-caches']) t.match(r.out, new RegExp(`\\n  ${cmd} `), `${flag}: lists ${cmd}`);
  }
});

t.test('--version prints the package version, exit 0', async (t) => {
  for (const flag of ['--version', '-V']) {
    const r = await run([flag]);
    t.same(r, { code: 0, out: `context ${pkg.version}\n`, err: '' }, flag);
  }
});

t.test('cli_spec.md "Exit Codes" 1: no command or an unknown command is a usage error', async (t) => {
  for (const argv of [[], ['frobnicate'], ['--bogus'], ['Build'], ['']]) {
    const r = await run(argv);
    t.equal(r.code, 1, JSON.stringify(argv));
    t.equal(r.out, '', `${JSON.stringify(argv)}: nothing on stdout`);
    t.match(r.err, /usage: context <command>/, `${JSON.stringify(argv)}: usage on stderr`);
  }
});

t.test('<command> --help prints that command\'s usage (then its help) on stdout, exit 0 (whatever else is given)', async (t) => {
  const usages: Record<string, string> = {
    build: `usage: ${(await import('../../lib/cli/commands/build.js')).build.usage}\n\n`,
    resolve: 'usage: context resolve --cache DIR --query TEXT --budget TOKENS [--format json|pretty|markdown|text] [--explain] [--budget-scope content|answer]\n\n',
    inspect: 'usage: context inspect --cache DIR [--format pretty|json]\n\n',
    verify: 'usage: context verify --cache DIR [--format pretty|json]\n\n',
    'list-caches': 'usage: context list-caches --root DIR\n\n',
  };
  for (const [cmd, usage] of Object.entries(usages)) {
    const help = await run([cmd, '--help']);
    t.same({ code: help.code, err: help.err }, { code: 0, err: '' }, `${cmd} --help`);
    t.ok(help.out.startsWith(usage), `${cmd} --help: the usage line first`);
    t.same(await run([cmd, '--cache', '/nonexistent', '-h']), help, `${cmd} ... -h: the same`);
  }
});

t.test('the spawned bin: --version, --help, no command (exit codes as a shell sees them)', async (t) => {
  t.same(spawnContext(['--version']), { code: 0, out: `context ${pkg.version}\n`, err: '' });
  const help = spawnContext(['--help']);
  t.equal(help.code, 0);
  t.equal(help.out, (await run(['--help'])).out, 'same text as in-process');
  const none = spawnContext([]);
  t.same({ code: none.code, out: none.out }, { code: 1, out: '' });
  t.match(none.err, /^usage: context <command>/);
  const unknown = spawnContext(['nope']);
  t.same({ code: unknown.code, out: unknown.out }, { code: 1, out: '' });
});

t.test('a command\'s --help prints its usage, exit 0 — but not when it is an option\'s value', async (t) => {
  const help = await run(['resolve', '--cache', 'x', '--help']);
  t.same({ code: help.code, err: help.err }, { code: 0, err: '' });
  t.ok(help.out.startsWith('usage: context resolve --cache DIR --query TEXT --budget TOKENS [--format json|pretty|markdown|text] [--explain] [--budget-scope content|answer]\n\n'));
  const fixture = new URL('../fixtures/compat-v0/caches/minimal', import.meta.url).pathname;
  const query = await run(['resolve', '--cache', fixture, '--query', '--help', '--budget', '0']);
  t.equal(query.code, 0, '--query --help resolves the query "--help"');
  t.match(query.out, /"query":"--help"/);
});
