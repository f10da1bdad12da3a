// Issue 44 item 3, "a server that stays responsive": a slow context.resolve (every unit of a
// large generated cache, a budget that takes them all: seconds of token counting, megabytes
// of answer) runs off the server's protocol loop, so a ping sent after it is answered first
// and within a bound generous for a loaded 2-core machine; a cancellation of the slow call
// still works (no reply, the server answers at once, the cache answers again); and past the
// cap on requests in flight, a request gets the documented -32010 at once. On the real
// server (bin/context: the resolve worker runs from the compiled bundle).
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { compact, type Json } from '../../lib/json.js';
import { BUSY, MAX_IN_FLIGHT } from '../../lib/mcp/session.js';
import { writeCorpus } from '../../soak/corpus.js';
import { contextCommand, hostEnv } from './spawn-server.js';

t.setTimeout(600_000);

const QUERY = 'deployment security latency cache build index query budget token rollback release server';
const SLOW = { cache: 'large', query: QUERY, budget: 100_000_000 };
const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

const root = t.testdir({ caches: {} });
writeCorpus(join(root, 'large-src'), { documents: 1500, bytes: 9000, seed: 44, marker: 'largecorpus' });
const build = contextCommand(['build', '--sources', join(root, 'large-src'), '--cache', join(root, 'caches', 'large')]);
const built = spawnSync(build.command, build.args, { encoding: 'utf8', env: hostEnv() });
if (built.status !== 0) throw new Error(built.stderr);

interface Reply {
  readonly id: Json;
  readonly at: number;
  readonly line: string;
}

/** The real server over pipes: each reply with its arrival time. */
function server(): { send(message: Json): number; reply(id: number): Promise<Reply>; close(): Promise<Reply[]> } {
  const { command, args } = contextCommand(['mcp', '--cache-root', join(root, 'caches')]);
  const child = spawn(command, args, { env: hostEnv(), stdio: ['pipe', 'pipe', 'inherit'] });
  const replies: Reply[] = [];
  const waiting = new Map<number, (r: Reply) => void>();
  let rest: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => {
    const at = performance.now();
    let start = 0;
    for (let nl = b.indexOf(10); nl >= 0; nl = b.indexOf(10, start)) {
      rest.push(b.subarray(start, nl));
      const line = Buffer.concat(rest).toString('utf8');
      rest = [];
      start = nl + 1;
      const id = (JSON.parse(line) as { id: Json }).id;
      const r = { id, at, line };
      replies.push(r);
      if (typeof id === 'number') waiting.get(id)?.(r);
    }
    if (start < b.length) rest.push(Buffer.from(b.subarray(start)));
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    send(message) {
      child.stdin.write(compact(message) + '\n');
      return performance.now();
    },
    reply(id) {
      const seen = replies.find((r) => r.id === id);
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiting.set(id, resolve));
    },
    async close() {
      child.stdin.end();
      await exited;
      return replies;
    },
  };
}

const resolveCall = (id: number, args: Json): Json => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'context.resolve', arguments: args } });
const ping = (id: number): Json => ({ jsonrpc: '2.0', id, method: 'ping' });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function started(): Promise<ReturnType<typeof server>> {
  const s = server();
  s.send(INIT);
  await s.reply(0);
  // The cache loaded (and the worker started) first: what follows measures the slow call.
  s.send(resolveCall(1, { cache: 'large', query: 'warm', budget: 10 }));
  await s.reply(1);
  return s;
}

t.test('a ping sent after a slow resolve is answered before it, within 1 s', async (t) => {
  const s = await started();
  const slowSent = s.send(resolveCall(2, SLOW));
  await sleep(200);
  const pingSent = s.send(ping(3));
  const pinged = await s.reply(3);
  const slow = await s.reply(2);
  await s.close();
  t.ok(pinged.at < slow.at, `the ping's reply came first (ping after ${(pinged.at - pingSent).toFixed(0)} ms, the slow reply after ${(slow.at - slowSent).toFixed(0)} ms)`);
  t.ok(pinged.at - pingSent < 1000, 'the ping was answered within 1 s');
  t.equal(pinged.line, '{"jsonrpc":"2.0","id":3,"result":{}}');
  t.ok(slow.at - slowSent > 1000, 'the slow call took more than 1 s (the test is meaningful)');
  t.match(slow.line, /^\{"jsonrpc":"2\.0","id":2,"result":\{"content":\[\{"text":"\{\\"documents\\"/, 'the slow call answered');
});

t.test(`past ${MAX_IN_FLIGHT} requests in flight, a request gets -32010 at once`, async (t) => {
  const s = await started();
  s.send(resolveCall(2, SLOW));
  // Each waits behind the slow call on its cache, so each stays in flight.
  const extra = MAX_IN_FLIGHT + 8;
  for (let i = 0; i < extra; i++) s.send(resolveCall(100 + i, { cache: 'large', query: 'rollback', budget: 10 }));
  const lastSent = s.send(ping(3));
  const pinged = await s.reply(3);
  const busyIds = Array.from({ length: extra - (MAX_IN_FLIGHT - 1) }, (_, k) => 100 + MAX_IN_FLIGHT - 1 + k);
  const busy = await Promise.all(busyIds.map((id) => s.reply(id)));
  const replies = await s.close();
  const slow = replies.find((r) => r.id === 2);
  t.ok(slow !== undefined && busy.every((b) => b.at <= (slow as Reply).at), `the ${busyIds.length} requests past the cap were answered before the slow call`);
  t.ok(pinged.at - lastSent < 1000, 'a ping after them is answered within 1 s');
  t.same(
    busy.map((b) => b.line),
    busyIds.map((id) => compact({ jsonrpc: '2.0', id, error: { code: BUSY.code, message: BUSY.message } })),
    'each is -32010 with the documented message',
  );
  t.equal(BUSY.code, -32010);
  const answered = replies.filter((r) => typeof r.id === 'number' && r.id >= 100 && r.id < 100 + MAX_IN_FLIGHT - 1);
  t.equal(answered.length, MAX_IN_FLIGHT - 1, 'those within the cap were all answered');
  t.ok(answered.every((r) => r.line.includes('"result":{"content"')), 'with results');
});

t.test('cancelling the slow resolve: no reply, the server answers at once, the cache answers again', async (t) => {
  const s = await started();
  s.send(resolveCall(2, SLOW));
  await sleep(300);
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'test' } });
  const pingSent = s.send(ping(3));
  const pinged = await s.reply(3);
  t.ok(pinged.at - pingSent < 1000, `a ping after the cancellation is answered within 1 s (${(pinged.at - pingSent).toFixed(0)} ms)`);
  const againSent = s.send(resolveCall(4, { cache: 'large', query: 'rollback', budget: 50 }));
  const again = await s.reply(4);
  t.ok(again.at - againSent < 5000, `a new resolve of the same cache is answered without waiting for the cancelled one (${(again.at - againSent).toFixed(0)} ms)`);
  t.match(again.line, /"result":\{"content":\[\{"text":"\{\\"documents\\"/);
  const replies = await s.close();
  t.notOk(replies.some((r) => r.id === 2), 'the cancelled call got no reply');
});
