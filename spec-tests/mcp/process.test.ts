// Checks issue 3 "Shutdown and faults" on the real process (`bin/context mcp`, spawned as a
// host spawns it): closing stdin exits 0 promptly, even with a cache loaded and watched;
// SIGTERM ends it promptly; a closed stdout (EPIPE) ends it quietly; stdout carries
// protocol lines only, diagnostics go to stderr.
import t from 'tap';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { parseJson } from '../../lib/json.js';
import { contextCommand, hostEnv, REPO } from './spawn-server.js';

const caches = join(REPO, 'conformance', 'mcp', 'caches');
const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';
const RESOLVE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context.resolve","arguments":{"cache":"minimal","query":"hello","budget":100}}}\n';

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor: (pattern: RegExp) => Promise<void>;
}

function start(args: readonly string[] = ['--cache-root', caches]): Run {
  const { command, args: argv } = contextCommand(['mcp', ...args]);
  const child = spawn(command, argv, { env: hostEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString('utf8');
    for (const w of waiters) if (w.pattern.test(out)) w.resolve();
  });
  child.stderr.on('data', (b: Buffer) => {
    err += b.toString('utf8');
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    waitFor: (pattern) =>
      new Promise<void>((resolve) => {
        if (pattern.test(out)) resolve();
        else waiters.push({ pattern, resolve });
      }),
  };
}

/** Milliseconds from now until the process exits, with its exit status. */
async function timeExit(run: Run): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = Date.now();
  const r = await run.exit;
  return { ...r, ms: Date.now() - t0 };
}

t.test('closing stdin exits 0 promptly, after answering, with a cache loaded', async (t) => {
  const run = start();
  run.child.stdin.write(INIT + RESOLVE);
  await run.waitFor(/"id":1,/);
  const exited = timeExit(run);
  run.child.stdin.end();
  const { code, ms } = await exited;
  t.equal(code, 0, 'exit code 0');
  t.ok(ms < 1500, `exited ${ms} ms after stdin closed`);
  for (const l of run.stdout().split('\n').filter((x) => x !== '')) {
    const m = parseJson(l) as { jsonrpc?: unknown };
    t.equal(m.jsonrpc, '2.0', 'every stdout line is a JSON-RPC message');
  }
  t.equal(run.stderr(), '', 'nothing on stderr');
});

t.test('SIGTERM ends the server promptly', async (t) => {
  const run = start();
  run.child.stdin.write(INIT);
  await run.waitFor(/"id":0,/);
  const exited = timeExit(run);
  // The shell exec'd node, so the signal reaches the server itself.
  run.child.kill('SIGTERM');
  const { code, signal, ms } = await exited;
  t.ok(signal === 'SIGTERM' || code === 0, `ended by SIGTERM (code ${code}, signal ${signal})`);
  t.ok(ms < 1500, `ended ${ms} ms after SIGTERM`);
});

t.test('a closed stdout (EPIPE) ends the server quietly', async (t) => {
  const run = start();
  run.child.stdin.write(INIT);
  await run.waitFor(/"id":0,/);
  run.child.stdout.destroy();
  const exited = timeExit(run);
  // Enough replies to hit the closed pipe; stdin stays open: the server must notice EPIPE itself.
  for (let i = 1; i <= 50; i++) run.child.stdin.write(`{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`);
  const { code, ms } = await exited;
  t.equal(code, 0, 'exit code 0');
  t.ok(ms < 3000, `exited ${ms} ms after stdout closed`);
  t.equal(run.stderr(), '', 'no stack trace, no EPIPE noise on stderr');
});

t.test('a missing cache root is not fatal: the server runs and reports io_error per call', async (t) => {
  const run = start(['--cache-root', join(caches, 'no-such-root')]);
  run.child.stdin.end(INIT + '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context.list_caches"}}\n');
  const { code } = await run.exit;
  t.equal(code, 0);
  t.match(run.stdout(), /io_error/);
});
