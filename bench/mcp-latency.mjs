// `node bench/mcp-latency.mjs`: latency of `tools/call context.resolve` through the spawned
// stdio server (`bin/context mcp`) on the benchmark cache (bench/.work/cache, 10,000 documents,
// built by bench/run.mjs, or here if missing): the first call (load + verify + word index),
// 20 new distinct queries, and repeated calls on the unchanged cache. Then, in this process,
// the baseline for new queries (the same 20 answered by scanning, as before the index) and
// the index's build time and size; then the same series on the v1 cache (bench/.work/cache-v1).
// Prints figures; never fails on a timing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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
  const r = spawnSync(process.execPath, [bin, 'build', '--engine', 'v0', '--sources', corpus, '--cache', cache], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
}

// Calibration: this host's speed drifts with whatever else runs on its 2 cores.
const nodeStarts = [];
for (let i = 0; i < 3; i++) {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '']);
  nodeStarts.push(Number(process.hrtime.bigint() - t0) / 1e6);
}

// The v1 cache of the same corpus (bench/run.mjs leaves it as bench/.work/cache-v1).
const cacheV1 = join(work, 'cache-v1');
if (!existsSync(join(cacheV1, 'manifest.json'))) {
  const corpus = generateCorpus(join(work, 'corpus'), count);
  console.log(`building ${cacheV1} (engine v1) from ${count} generated documents ...`);
  const r = spawnSync(process.execPath, [bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4', '--sources', corpus, '--cache', cacheV1], { encoding: 'utf8' });
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
const resolveCall = (query, budget = 4000, name = 'cache') =>
  request('tools/call', { name: 'context.resolve', arguments: { cache: name, query, budget } });

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: at(0.5), p90: at(0.9), p95: at(0.95), p99: at(0.99), min: s[0], max: s[s.length - 1] };
}
const fmt = ({ p50, p90, p99, min, max }) =>
  `p50 ${p50.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (min ${min.toFixed(2)}, max ${max.toFixed(2)})`;
const fmt95 = ({ p50, p95, min, max }) => `p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (min ${min.toFixed(2)}, max ${max.toFixed(2)})`;

// 2 x 20 queries no call has asked before, none sharing a term with another or with the
// warm-up query: the corpus's vocabulary (bench/corpus.mjs) three words at a time, some
// capitalized; the second set uses the words with the trailing period that ends each line of
// the corpus, so its terms are new as well.
const WARM = 'deployment security latency';
const VOCAB = (
  'cache budget token query context engine document selection score manifest index version hash build ' +
  'resolve inspect verify server protocol agent tool network storage throughput replica cluster config ' +
  'policy access audit log metric trace span error retry timeout backoff queue worker schedule batch ' +
  'stream the a of to and in is for on with as by at from that this be are it or'
).split(' ');
const querySet = (suffix) =>
  Array.from({ length: 20 }, (_, q) =>
    VOCAB.slice(3 * q, 3 * q + 3)
      .map((w, k) => (k === 1 && q % 2 === 0 ? w.toUpperCase() : w) + suffix)
      .join(' '),
  );
const AFTER_LOAD = querySet('');
const NEW_QUERIES = querySet('.');
await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
server.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

const first = await resolveCall(WARM);
if (first.line.includes('"isError":true')) {
  console.error(`first call failed: ${first.line.slice(0, 300)}`);
}
// Right after the first call: the server's code is not yet optimized by the JIT.
const afterLoad = [];
for (const q of AFTER_LOAD) afterLoad.push((await resolveCall(q)).ms);
const same = [];
for (let i = 0; i < repeats; i++) same.push((await resolveCall(WARM)).ms);
// A warm server (it has answered 220 calls), asked 20 queries whose terms it has never seen.
const fresh = [];
const freshReplies = [];
for (const q of NEW_QUERIES) {
  const { ms, line } = await resolveCall(q);
  fresh.push(ms);
  freshReplies.push(line);
}
const queries = ['cache token budget', 'the a of', 'server protocol agent tool', 'retry timeout backoff', 'zzz-no-match'];
const novel = [];
const varied = [];
for (let i = 0; i < repeats; i++) {
  const { ms } = await resolveCall(queries[i % queries.length]);
  (i < queries.length ? novel : varied).push(ms);
}
const small = [];
for (let i = 0; i < repeats; i++) small.push((await resolveCall('deployment security latency', 10)).ms);

// The same in the v1 cache: its first call (load + verify), 20 queries right after it, 200
// calls of the warm-up query, then the 20 new distinct queries on the warm server.
const v1First = await resolveCall(WARM, 4000, 'cache-v1');
if (v1First.line.includes('"isError":true')) console.error(`v1 first call failed: ${v1First.line.slice(0, 300)}`);
const v1AfterLoad = [];
for (const q of AFTER_LOAD) v1AfterLoad.push((await resolveCall(q, 4000, 'cache-v1')).ms);
const v1Same = [];
for (let i = 0; i < repeats; i++) v1Same.push((await resolveCall(WARM, 4000, 'cache-v1')).ms);
const v1Fresh = [];
for (const q of NEW_QUERIES) v1Fresh.push((await resolveCall(q, 4000, 'cache-v1')).ms);

server.stdin.end();
await new Promise((r) => server.on('exit', r));

// In this process, with the server gone (2 cores): the same 20 new queries answered by the
// scan that served them before the index (the baseline), by the index, and the index itself.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);
const { loadCache } = await dist('core/engine/v0/load.js');
const { selectDocuments } = await dist('core/engine/v0/select.js');
const { compact } = await dist('json.js');
const heap = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const loads = { scan: [], index: [] };
const heaps = { scan: [], index: [] };
let scanCache, indexCache;
for (let round = 0; round < 3; round++) {
  scanCache = indexCache = undefined;
  const h0 = heap();
  let t0 = process.hrtime.bigint();
  scanCache = loadCache(cache);
  loads.scan.push(ms(t0));
  const h1 = heap();
  t0 = process.hrtime.bigint();
  indexCache = loadCache(cache, { index: true });
  loads.index.push(ms(t0));
  heaps.scan.push(h1 - h0);
  heaps.index.push(heap() - h1);
}
const answer = (loaded, q) => compact(selectDocuments(loaded.documents, q, 4000, loaded.countWords)) + '\n';
const timedAnswers = (loaded) =>
  NEW_QUERIES.map((q) => {
    const t0 = process.hrtime.bigint();
    const text = answer(loaded, q);
    return { ms: ms(t0), text };
  });
const viaScan = timedAnswers(scanCache);
const viaIndex = timedAnswers(indexCache);
const mismatches = NEW_QUERIES.filter((_, i) => viaScan[i].text !== viaIndex[i].text || !freshReplies[i].includes(JSON.stringify(viaScan[i].text))).length;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const index = indexCache.index;

const bytes = Buffer.byteLength(first.line);
console.log(`context.resolve through the stdio server, cache ${cache} (${count} documents)`);
console.log(`calibration, node -e '' (median of 3):   ${median(nodeStarts).toFixed(0)} ms   (76 ms on a quiet host)`);
console.log(`first call (load + verify + index + select): ${first.ms.toFixed(0)} ms   (reply ${(bytes / 1e6).toFixed(2)} MB)`);
console.log(`20 new queries right after the first call: ${fmt95(stats(afterLoad))}   (JIT still cold)`);
console.log(`20 new distinct queries, warm server:     ${fmt95(stats(fresh))}   target p50 <= 10 ms`);
console.log(`  baseline, the same 20 by scanning (in process, no index): ${fmt95(stats(viaScan.map((r) => r.ms)))}`);
console.log(`  the same 20 by the index (in process, no stdio):          ${fmt95(stats(viaIndex.map((r) => r.ms)))}`);
console.log(`  replies identical to the scan's, byte for byte:          ${mismatches === 0 ? 'yes' : `NO, ${mismatches} differ`}`);
console.log(`repeated, same query, budget 4000 (x${repeats}): ${fmt(stats(same))}`);
console.log(`first call of 5 more queries (terms seen): ${novel.map((ms) => ms.toFixed(0)).join(', ')} ms`);
console.log(`repeated, those 5 queries, budget 4000 (x${varied.length}): ${fmt(stats(varied))}`);
console.log(`repeated, same query, budget 10   (x${repeats}): ${fmt(stats(small))}`);
console.log('target for repeated calls on an unchanged cache: p50 <= 10 ms');
console.log(`engine v1 (cache-v1, the same ${count} documents):`);
console.log(`  first call (load + verify):               ${v1First.ms.toFixed(0)} ms`);
console.log(`  20 new queries right after the first call: ${fmt95(stats(v1AfterLoad))}   (JIT still cold)`);
console.log(`  repeated, same query (x${repeats}):            ${fmt95(stats(v1Same))}`);
console.log(`  20 new distinct queries, warm server:      ${fmt95(stats(v1Fresh))}   target p50 <= 5 ms, p95 <= 20 ms`);
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
console.log(
  `word index (in process, 3 loads each): load without index median ${median(loads.scan).toFixed(0)} ms, ` +
    `with index ${median(loads.index).toFixed(0)} ms (+${(median(loads.index) - median(loads.scan)).toFixed(0)} ms to build it)`,
);
console.log(
  `  ${index.wordCount} words, ${index.postingCount} postings: ${mb(index.byteSize)} of typed arrays; ` +
    `heap + array buffers of a loaded cache ${mb(median(heaps.scan))} without index, ${mb(median(heaps.index))} with`,
);
if (mismatches > 0) process.exitCode = 1;
