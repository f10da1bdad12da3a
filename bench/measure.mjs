// What bench/real.mjs and bench/scale.mjs share: the questions they ask, how a step is timed
// (a fresh process, wall clock, the disk synced first) and its peak memory measured, the
// warm new-question p50 through `context mcp`, and the bytes a cache or database takes.
//
// Peak memory is the peak resident set size of the process a step runs, as the kernel
// accounts it (getrusage's ru_maxrss of the waited-for child, printed by GNU time's `%M`):
// a build's worker threads live in its one process, so this is the peak of the whole build;
// a command that spawned processes would report its largest one. Without GNU time
// (/usr/bin/time) the figure is null and printed as "n/a".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const QUESTIONS = [
  'how do I configure the model for commits',
  'exclude files from the packed output',
  'what does the security check do',
  'run the language server for python',
  'token count of each file',
  'edit format for weaker models',
  'install with docker',
  'git integration and auto commits',
  'remote repository compression',
  'symbol search in a project',
  'custom instructions in the output file',
  'lint and test after every change',
  'keyboard shortcuts in the chat',
  'ignore patterns and gitignore',
  'memory files of the agent',
  'output style markdown or xml',
  'voice input',
  'rename a symbol across files',
  'cache directory location',
  'api keys environment variables',
];
export const COLD_QUERY = 'how do I exclude files from the output';

export const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const GNU_TIME = '/usr/bin/time';
const haveGnuTime = existsSync(GNU_TIME) && spawnSync(GNU_TIME, ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;

/**
 * Runs `cmd args` in a fresh process after syncing the disk (and `settleMs` of sleep: this
 * disk's speed swings for a while after large writes and deletes); returns its wall clock in
 * ms, its stdout, and with `peak` its peak RSS in bytes (null without GNU time).
 */
export function timed(cmd, args, { input, peak = false, settleMs = 0 } = {}) {
  spawnSync('sync');
  if (settleMs > 0) sleep(settleMs);
  let argv = [cmd, ...args];
  let out = null;
  if (peak && haveGnuTime) {
    out = join(mkdtempSync(join(tmpdir(), 'ctx-peak-')), 'rss');
    argv = [GNU_TIME, '-f', '%M', '-o', out, ...argv];
  }
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 30, input });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  let peakBytes = null;
  if (out !== null) {
    const kb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
    peakBytes = Number.isFinite(kb) ? kb * 1024 : null;
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout, peak: peakBytes };
}

/** Bytes of the regular files under `dir` (their sizes, as `du --apparent-size -b` counts them). */
export function treeBytes(dir) {
  let n = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) n += lstatSync(p).size;
    }
  };
  walk(dir);
  return n;
}

/**
 * The warm new-question p50 of `context mcp` (bin) serving `cacheRoot`: one server, cache
 * `name` loaded and the code warmed by 51 calls, then QUESTIONS (none asked before), each
 * timed from its request written to its reply read.
 */
export async function mcpWarm(bin, cacheRoot, name) {
  const server = spawn(process.execPath, [bin, 'mcp', '--cache-root', cacheRoot], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: server.stdout });
  const pending = new Map();
  lines.on('line', (line) => {
    const id = Number(/^\{"jsonrpc":"2.0","id":(\d+),/.exec(line)?.[1]);
    pending.get(id)?.(line);
    pending.delete(id);
  });
  let nextId = 0;
  const request = (method, params) => {
    const id = nextId++;
    const t0 = process.hrtime.bigint();
    return new Promise((resolve) => {
      pending.set(id, (line) => resolve({ line, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
      server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  };
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  server.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const call = (query) => request('tools/call', { name: 'context.resolve', arguments: { cache: name, query, budget: 2000 } });
  const first = await call('warm up the server');
  if (first.line.includes('"isError":true')) throw new Error(`resolve failed: ${first.line.slice(0, 300)}`);
  for (let k = 0; k < 50; k++) await call(k % 2 === 0 ? 'warm up the server' : 'install the tool');
  const ms = [];
  for (const q of QUESTIONS) ms.push((await call(q)).ms);
  server.stdin.end();
  await new Promise((r) => server.on('exit', r));
  return median(ms);
}

export const mb = (bytes) => (bytes === null || bytes === undefined ? 'n/a' : `${(bytes / 1e6).toFixed(0)} MB`);
