// `node bench/mcp-latency.mjs`: latency of `tools/call context.resolve` through the spawned
// stdio server (`bin/context mcp`) on the benchmark cache (bench/.work/cache, 10,000 documents,
// built by bench/run.mjs, or here if missing): the first call (load + verify) and repeated
// calls on the unchanged cache. Prints figures; never fails on a timing (target p50 <= 10 ms).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const work = join(here, '.work');
const bin = join(here, '..', 'bin', 'context');
const cache = join(work, 'cache');
const count = Number(process.env.BENCH_DOCS ?? 10_000);
const repeats = Number(process.env.BENCH_CALLS ?? 200);

if (!existsSync(join(here, '..', 'dist', 'cli', 'main.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
if (!existsSync(join(cache, 'manifest.json'))) {
  const corpus = generateCorpus(join(work, 'corpus'), count);
  console.log(`building ${cache} from ${count} generated documents ...`);
  const r = spawnSync(process.execPath, [bin, 'build', '--sources', corpus, '--cache', cache], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
}

const server = spawn(process.execPath, [bin, 'mcp', '--cache-root', work], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: server.stdout });
const pending = new Map();
lines.on('line', (line) => {
  const id = /^\{"jsonrpc":"2.0","id":(\d+),/.exec(line)?.[1];
  const done = pending.get(Number(id));
  if (done !== undefined) {
    pending.delete(Number(id));
    done(line);
  }
});

let nextId = 0;
function request(method, params) {
  const id = nextId++;
  const t0 = process.hrtime.bigint();
  return new Promise((resolve) => {
    pending.set(id, (line) => resolve({ line, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
}
const resolveCall = (query, budget = 4000) =>
  request('tools/call', { name: 'context.resolve', arguments: { cache: 'cache', query, budget } });

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), min: s[0], max: s[s.length - 1] };
}
const fmt = ({ p50, p90, p99, min, max }) =>
  `p50 ${p50.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (min ${min.toFixed(2)}, max ${max.toFixed(2)})`;

await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
server.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

const first = await resolveCall('deployment security latency');
if (first.line.includes('"isError":true')) {
  console.error(`first call failed: ${first.line.slice(0, 300)}`);
}
const same = [];
for (let i = 0; i < repeats; i++) same.push((await resolveCall('deployment security latency')).ms);
const queries = ['cache token budget', 'the a of', 'server protocol agent tool', 'retry timeout backoff', 'zzz-no-match'];
const novel = [];
const varied = [];
for (let i = 0; i < repeats; i++) {
  const { ms } = await resolveCall(queries[i % queries.length]);
  (i < queries.length ? novel : varied).push(ms);
}
const small = [];
for (let i = 0; i < repeats; i++) small.push((await resolveCall('deployment security latency', 10)).ms);

server.stdin.end();
await new Promise((r) => server.on('exit', r));

const bytes = Buffer.byteLength(first.line);
console.log(`context.resolve through the stdio server, cache ${cache} (${count} documents)`);
console.log(`first call (load + verify + select):      ${first.ms.toFixed(0)} ms   (reply ${(bytes / 1e6).toFixed(2)} MB)`);
console.log(`repeated, same query, budget 4000 (x${repeats}): ${fmt(stats(same))}`);
console.log(`first call of each of 5 new queries:       ${novel.map((ms) => ms.toFixed(0)).join(', ')} ms`);
console.log(`repeated, those 5 queries, budget 4000 (x${varied.length}): ${fmt(stats(varied))}`);
console.log(`repeated, same query, budget 10   (x${repeats}): ${fmt(stats(small))}`);
console.log('target for repeated calls on an unchanged cache: p50 <= 10 ms');
