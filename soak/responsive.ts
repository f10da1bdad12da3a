// A server that stays responsive (issue 44 item 3): one `context mcp` gets a genuinely slow
// context.resolve — the whole of a large generated v1 cache asked for with a budget that
// takes every unit, seconds of o200k counting and megabytes of answer — and, while it runs,
// pings sent on a fixed schedule (open loop: each ping's latency is its reply's arrival
// minus its own sending, never hidden behind the previous ping's wait), then a resolve of
// another, small cache. The slow reply must be the CLI's answer byte for byte, the pings
// and the other resolve must be answered before it; the pings' p50/p99/max latency is
// printed (measured, not judged: the machine is shared).

import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildOrThrow } from './builds.js';
import { contextArgv, minimalEnv, runContext } from './child.js';
import { writeCorpus } from './corpus.js';
import { thousands, type Report } from './figures.js';
import type { WorkDir } from './workdir.js';

export interface ResponsiveOptions {
  /** Documents of the large corpus (~9 KB each). */
  readonly documents: number;
  readonly pings: number;
  /** Milliseconds between two pings. */
  readonly pingEveryMs: number;
}

// Words every generated document holds many of (soak/corpus.ts), so every unit matches.
const SLOW_QUERY = 'deployment security latency cache build index query budget token rollback release server';
// Seconds of selection and o200k counting, a ~5 MB answer (a larger one mostly measures the pipe).
const SLOW_BUDGET = 1_000_000;

interface Arrival {
  /** When its last byte arrived, and its first. */
  readonly at: number;
  readonly began: number;
  readonly line: string;
}

/** A raw line client: every reply's arrival time, by id. */
function startServer(root: string, cwd: string): {
  send(message: unknown): number;
  reply(id: number): Promise<Arrival>;
  close(): Promise<number | null>;
} {
  const { command, args } = contextArgv(['mcp', '--cache-root', root]);
  const child = spawn(command, args, { cwd, env: minimalEnv(cwd), stdio: ['pipe', 'pipe', 'ignore'] });
  const arrived = new Map<number, Arrival>();
  const waiting = new Map<number, (a: Arrival) => void>();
  let pending: Buffer[] = [];
  let began = 0;
  child.stdout.on('data', (b: Buffer) => {
    const at = performance.now();
    if (pending.length === 0) began = at;
    let start = 0;
    for (let nl = b.indexOf(10); nl >= 0; nl = b.indexOf(10, start)) {
      pending.push(b.subarray(start, nl));
      const line = Buffer.concat(pending).toString('utf8');
      pending = [];
      start = nl + 1;
      const id = Number(/^\{"jsonrpc":"2.0","id":(\d+),/.exec(line)?.[1] ?? NaN);
      const a = { at, began, line };
      began = at;
      const w = waiting.get(id);
      if (w !== undefined) {
        waiting.delete(id);
        w(a);
      } else arrived.set(id, a);
    }
    if (start < b.length) pending.push(Buffer.from(b.subarray(start)));
  });
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    send(message) {
      child.stdin.write(JSON.stringify(message) + '\n');
      return performance.now();
    },
    reply(id) {
      const a = arrived.get(id);
      if (a !== undefined) return Promise.resolve(a);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
}

/** Before the slow reply's first byte arrives, the server is handing it over (ms). */
const HANDOVER_MS = 100;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

export async function responsiveSoak(work: WorkDir, report: Report, options: ResponsiveOptions): Promise<void> {
  const suite = 'responsive';
  const base = work.path('responsive');
  const root = join(base, 'caches');
  mkdirSync(root, { recursive: true });
  writeCorpus(join(base, 'large'), { documents: options.documents, bytes: 9000, seed: 41, marker: 'largecorpus' });
  writeCorpus(join(base, 'small'), { documents: 20, bytes: 2000, seed: 42, marker: 'smallcorpus' });
  await buildOrThrow('v1', join(base, 'large'), join(root, 'large'), false, base);
  await buildOrThrow('v1', join(base, 'small'), join(root, 'small'), false, base);

  // The answer the CLI prints: the slow reply must carry exactly these bytes.
  const cli = await runContext(['resolve', '--cache', join(root, 'large'), '--query', SLOW_QUERY, '--budget', String(SLOW_BUDGET)], {
    cwd: base,
    env: minimalEnv(base),
    timeoutMs: 600_000,
    keepStdout: 1024 * 1024 * 1024,
  });
  if (cli.code !== 0) throw new Error(`resolve of the large cache: ${cli.stderr}`);
  report.measure(suite, `the slow request: ${thousands(options.documents)} documents, budget ${thousands(SLOW_BUDGET)}; the CLI answers in ${(cli.ms / 1000).toFixed(1)} s, ${(cli.stdout.length / 1e6).toFixed(1)} MB`);

  const server = startServer(root, base);
  server.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } } });
  await server.reply(0);
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // Both caches loaded and the server warm first: what is measured is the slow call itself.
  server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'context.resolve', arguments: { cache: 'large', query: 'warm', budget: 100 } } });
  server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'context.resolve', arguments: { cache: 'small', query: 'warm', budget: 100 } } });
  await Promise.all([server.reply(1), server.reply(2)]);

  const SLOW = 3;
  const slowSent = server.send({ jsonrpc: '2.0', id: SLOW, method: 'tools/call', params: { name: 'context.resolve', arguments: { cache: 'large', query: SLOW_QUERY, budget: SLOW_BUDGET } } });
  const slowReply = server.reply(SLOW);
  await sleep(20);
  // Another cache's resolve while the slow one runs.
  const otherSent = server.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'context.resolve', arguments: { cache: 'small', query: 'deployment rollback', budget: 2000 } } });
  const other = server.reply(4);
  const pings: Promise<{ sent: number; at: number }>[] = [];
  for (let i = 0; i < options.pings; i++) {
    const id = 1000 + i;
    const sent = server.send({ jsonrpc: '2.0', id, method: 'ping' });
    pings.push(server.reply(id).then((a) => ({ sent, at: a.at })));
    await sleep(options.pingEveryMs);
  }
  const answered = await Promise.all(pings);
  const slow = await slowReply;
  const otherAt = (await other).at;
  const code = await server.close();

  const text = (JSON.parse(slow.line) as { result?: { content?: { text?: string }[] } }).result?.content?.[0]?.text;
  report.check(suite, text === cli.stdout, `the slow reply's text is the CLI's answer byte for byte (${thousands(cli.stdout.length)} bytes), after ${((slow.at - slowSent) / 1000).toFixed(1)} s`);
  report.check(suite, code === 0, `server exit ${code ?? 'signal'} after stdin closed`);
  // Judged: what overtook the slow call (timings are measured, not judged: the machine is
  // shared). A ping sent once the server is handing the slow reply over (the last moments
  // before its first byte arrives here) waits for that line: those are left out.
  const during = answered.filter((p) => p.sent < slow.began - HANDOVER_MS);
  const first = during.filter((p) => p.at < slow.at);
  report.check(suite, during.length > 0 && first.length === during.length, `pings sent while the slow request ran answered before its reply: ${thousands(first.length)} of ${thousands(during.length)} (${thousands(options.pings - during.length)} sent later than ${HANDOVER_MS} ms before it began to arrive)`);
  report.check(suite, otherAt < slow.at, `another cache's resolve, sent 20 ms into the slow request, answered before it`);
  const latencies = answered.map((p) => p.at - p.sent).sort((a, b) => a - b);
  const p50 = percentile(latencies, 0.5);
  const p99 = percentile(latencies, 0.99);
  const max = latencies[latencies.length - 1] ?? NaN;
  report.measure(suite, `${thousands(options.pings)} pings every ${options.pingEveryMs} ms from 20 ms into the slow request: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
  report.measure(suite, `another cache's resolve during the slow request: answered in ${(otherAt - otherSent).toFixed(1)} ms`);
}
