// Closed pipes and failing writes (issue 11 item 7): every command with its stdout closed
// early (`| head`) keeps its own exit code and prints nothing on stderr; with stdout on a
// full device (/dev/full) it exits 6 with one io_error line; never a stack trace. Plus
// `resolve | head -c N` at seeded cut points, and the MCP server losing its stdout.

import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { buildOrThrow } from './builds.js';
import { contextArgv, hasStackTrace, minimalEnv, runContext, REPO } from './child.js';
import { prng, writeCorpus } from './corpus.js';
import type { Report } from './figures.js';
import type { WorkDir } from './workdir.js';

const SUITE = 'pipes';

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs with stdout on a pipe whose reader leaves after `keep` bytes (0: at once). */
function runHead(args: readonly string[], cwd: string, keep: number, input?: string): Promise<Ended> {
  const { command, args: argv } = contextArgv(args);
  return new Promise((resolve) => {
    const child = spawn(command, argv, { cwd, env: minimalEnv(cwd), stdio: ['pipe', 'pipe', 'pipe'] });
    let got = 0;
    let stderr = '';
    if (keep === 0) child.stdout.destroy();
    else
      child.stdout.on('data', (b: Buffer) => {
        got += b.length;
        if (got >= keep) child.stdout.destroy();
      });
    child.stderr.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

/** Runs with stdout on /dev/full (every write: ENOSPC). */
function runFull(args: readonly string[], cwd: string): Promise<Ended> {
  const { command, args: argv } = contextArgv(args);
  return new Promise((resolve) => {
    const full = openSync('/dev/full', 'w');
    const child = spawn(command, argv, { cwd, env: minimalEnv(cwd), stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

export async function pipesSoak(work: WorkDir, report: Report, options: { cutTrials: number }): Promise<void> {
  const base = work.path('pipes');
  writeCorpus(join(base, 'docs'), { documents: 400, bytes: 6000, seed: 71, marker: 'pipecorpus' });
  await buildOrThrow('v0', join(base, 'docs'), join(base, 'caches', 'c'), false, base);
  const cache = join(base, 'caches', 'c');
  const project = join(REPO, 'conformance', 'scopes', 'project');
  const ws = join(REPO, 'conformance', 'citations', 'ws');
  const commands: { name: string; args: string[]; cwd: string }[] = [
    { name: 'resolve (2.4 MB of output)', args: ['resolve', '--cache', cache, '--query', 'pipecorpus', '--budget', '100000000'], cwd: base },
    { name: 'resolve --format pretty', args: ['resolve', '--cache', cache, '--query', 'deployment', '--budget', '5000', '--format', 'pretty'], cwd: base },
    { name: 'resolve, missing cache (exit 4)', args: ['resolve', '--cache', join(base, 'none'), '--query', 'x', '--budget', '1'], cwd: base },
    { name: 'inspect', args: ['inspect', '--cache', cache], cwd: base },
    { name: 'verify', args: ['verify', '--cache', cache], cwd: base },
    { name: 'list-caches', args: ['list-caches', '--root', join(base, 'caches')], cwd: base },
    { name: 'cite', args: ['cite', '--root', ws, '--path', 'src/calc.py', '--start-line', '1', '--end-line', '2'], cwd: base },
    { name: 'claim', args: ['claim', '--root', ws, '--kind', 'exists', '--path', 'docs'], cwd: base },
    { name: 'verify-claims', args: ['verify-claims', '--root', ws, '--in-path', 'docs'], cwd: base },
    { name: 'verify-claims, failing (exit 8)', args: ['verify-claims', '--root', ws, '--in-path', 'stale'], cwd: base },
    { name: 'scopes', args: ['scopes'], cwd: project },
    { name: 'freshness', args: ['freshness', '--scope', 'src'], cwd: project },
    { name: 'show', args: ['show', '--scope', 'src'], cwd: project },
    { name: '--help', args: ['--help'], cwd: base },
    { name: '--version', args: ['--version'], cwd: base },
    { name: 'build', args: ['build', '--sources', join(base, 'docs'), '--cache', join(base, 'scratch'), '--force'], cwd: base },
  ];
  let closedOk = 0;
  let fullOk = 0;
  const closedBad: string[] = [];
  const fullBad: string[] = [];
  for (const c of commands) {
    const normal = await runContext(c.args, { cwd: c.cwd, env: minimalEnv(base) });
    const closed = await runHead(c.args, c.cwd, 0);
    if (closed.code === normal.code && closed.signal === null && closed.stderr === normal.stderr && !hasStackTrace(closed.stderr)) closedOk++;
    else closedBad.push(`${c.name}: exit ${closed.code ?? closed.signal ?? '?'} (normally ${normal.code ?? '?'}) ${closed.stderr.slice(0, 100)}`);
    const full = await runFull(c.args, c.cwd);
    const line = 'error: io_error: I/O error occurred (cannot write the output to standard output: no space left on the device (ENOSPC); free space on the device it goes to, or send it elsewhere (a pipe, another file), then run the command again)\n';
    const expectedCode = normal.code === 0 ? 6 : normal.code;
    if (full.code === expectedCode && full.stderr === normal.stderr + line && !hasStackTrace(full.stderr)) fullOk++;
    else fullBad.push(`${c.name}: exit ${full.code ?? full.signal ?? '?'} ${JSON.stringify(full.stderr.slice(0, 100))}`);
  }
  report.check(SUITE, closedBad.length === 0, `stdout closed before the first byte, ${commands.length} commands: own exit code and stderr unchanged in ${closedOk}${closedBad.length > 0 ? `; not in: ${closedBad.slice(0, 3).join(' | ')}` : ''}`);
  report.check(SUITE, fullBad.length === 0, `stdout on a full device (/dev/full), ${commands.length} commands: exit 6 (or the command's own failure code) and one io_error line in ${fullOk}${fullBad.length > 0 ? `; not in: ${fullBad.slice(0, 3).join(' | ')}` : ''}`);

  // `resolve | head -c N` at seeded cut points within its 2.4 MB of output.
  const rand = prng(72);
  let cutOk = 0;
  const cutBad: string[] = [];
  for (let i = 0; i < options.cutTrials; i++) {
    const keep = 1 + Math.floor(rand() * 2_400_000);
    const r = await runHead((commands[0] as { args: string[] }).args, base, keep);
    if (r.code === 0 && r.signal === null && r.stderr === '') cutOk++;
    else cutBad.push(`cut at ${keep}: exit ${r.code ?? r.signal ?? '?'} ${r.stderr.slice(0, 100)}`);
  }
  report.check(SUITE, cutBad.length === 0, `resolve | head -c N at ${options.cutTrials} seeded cut points: exit 0 with nothing on stderr in ${cutOk}${cutBad.length > 0 ? `; not in: ${cutBad.slice(0, 3).join(' | ')}` : ''}`);

  // The MCP server whose client stops reading.
  const init = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}\n';
  const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context.resolve","arguments":{"cache":"c","query":"pipecorpus","budget":100000000}}}\n';
  const server = await runHead(['mcp', '--cache-root', join(base, 'caches')], base, 0, init + call.repeat(5));
  report.check(SUITE, server.code === 0 && server.stderr === '', `MCP server with its stdout closed: exit ${server.code ?? server.signal ?? '?'}, stderr ${JSON.stringify(server.stderr.slice(0, 100))}`);
}
