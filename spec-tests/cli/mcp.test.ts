// Checks issue 3 item 1: `context mcp [--cache-root DIR] [--tool-names dotted|underscore]`,
// CONTEXT_CACHE_ROOT honoured, the default root (~/.context/caches) stated in --help, bad
// flags a usage error (exit 1) before anything is served, stdout for protocol lines only.
import t from 'tap';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';

const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}';
const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context.list_caches"}}';

async function run(argv: string[], env: Record<string, string>, cwd: string, input = `${INIT}\n${LIST}\n`) {
  let printed = '';
  let err = '';
  let protocol = '';
  const io: CliIo = {
    stdout: (s) => void (printed += s),
    stderr: (s) => void (err += s),
    env,
    cwd,
    stdin: Readable.from([Buffer.from(input)]),
    stdoutStream: new Writable({
      write(chunk: Buffer, _enc, done) {
        protocol += chunk.toString('utf8');
        done();
      },
    }),
  };
  const code = await main(argv, io);
  return { code, printed, err, protocol };
}

const listed = (protocol: string): string => /"text":"(.*?)","type"/.exec(protocol)?.[1] ?? '';

t.test('--help states the flags and the default cache root', async (t) => {
  const r = await run(['mcp', '--help'], {}, '/');
  t.equal(r.code, 0);
  t.match(r.printed, /--cache-root DIR/);
  t.match(r.printed, /--tool-names/);
  t.match(r.printed, /CONTEXT_CACHE_ROOT/);
  t.match(r.printed, /~\/\.context\/caches/);
});

t.test('bad flags are usage errors (exit 1), nothing served', async (t) => {
  for (const argv of [['mcp', '--tool-names', 'dots'], ['mcp', '--bogus'], ['mcp', 'extra'], ['mcp', '--cache-root']]) {
    const r = await run(argv, {}, '/');
    t.equal(r.code, 1, argv.join(' '));
    t.equal(r.protocol, '', 'no protocol output');
    t.match(r.err, /usage: context mcp/);
  }
});

t.test('cache root: --cache-root, else CONTEXT_CACHE_ROOT, else $HOME/.context/caches', async (t) => {
  const dir = t.testdir({
    flag: { a: {} },
    env: { b: {} },
    home: { '.context': { caches: { c: {} } } },
  });
  const byFlag = await run(['mcp', '--cache-root', 'flag'], { CONTEXT_CACHE_ROOT: join(dir, 'env'), HOME: join(dir, 'home') }, dir);
  t.equal(listed(byFlag.protocol), '{\\"caches\\":[{\\"path\\":\\"a\\",\\"has_manifest\\":false}]}', 'the flag wins, relative to cwd');
  const byEnv = await run(['mcp'], { CONTEXT_CACHE_ROOT: join(dir, 'env'), HOME: join(dir, 'home') }, '/');
  t.equal(listed(byEnv.protocol), '{\\"caches\\":[{\\"path\\":\\"b\\",\\"has_manifest\\":false}]}', 'then CONTEXT_CACHE_ROOT');
  const byHome = await run(['mcp'], { CONTEXT_CACHE_ROOT: '', HOME: join(dir, 'home') }, '/');
  t.equal(listed(byHome.protocol), '{\\"caches\\":[{\\"path\\":\\"c\\",\\"has_manifest\\":false}]}', 'then ~/.context/caches (empty env ignored)');
  for (const r of [byFlag, byEnv, byHome]) {
    t.equal(r.code, 0, 'exit 0 at end of input');
    t.equal(r.printed, '', 'nothing printed outside the protocol stream');
    t.equal(r.err, '', 'nothing on stderr');
  }
});
