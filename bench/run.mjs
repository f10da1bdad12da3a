// `npm run bench`: builds caches from a generated 10,000-document corpus (~90 MB) and times,
// as a user runs them (fresh processes), each figure beside its baseline in the same run:
//   read + sha256 of the sources, and writing 10,000 files     (what any build pays)
//   v0 build and cold resolve                                   (the reference's contract)
//   v1 build (bytes4, o200k_base), cold resolve                 (issue targets: <= 5x
//                                                                read+hash, <= 300 ms,
//                                                                o200k <= 2x bytes4)
//   v1 rebuilds: nothing changed, 10 files changed              (<= 10 %, <= 15 % of a full build)
// Prints figures; never fails on a timing. Each timed step writes a directory of its own,
// deletions wait until every step is timed, and the disk is synced before each step: this
// VM's writeback of 10,000 written or deleted files otherwise lands on whichever step
// comes next.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const work = join(here, '.work');
const bin = join(here, '..', 'bin', 'context');
const count = Number(process.env.BENCH_DOCS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const query = 'deployment security latency';

const settle = () => spawnSync('sync');
function timed(args) {
  settle();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (ms) => `${ms.toFixed(0)} ms`;
  return `median ${f(median(s))}  (min ${f(s[0])}, max ${f(s[s.length - 1])})`;
};
const pad = (label) => label.padEnd(42);

const corpus = generateCorpus(join(work, 'corpus'), count);
// Incremental rebuilds edit files: they get a copy of the corpus of their own.
const editable = join(work, 'corpus-edit');
rmSync(editable, { recursive: true, force: true });
cpSync(corpus, editable, { recursive: true });
// A build trusts a file's stat stamp only when it is older than ~2 s (git's racy rule);
// a freshly copied corpus waits that long so the no-op figure measures the steady state.
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
sleep(2500);

const cache = join(work, 'cache');
const kinds = ['build', 'write', 'v1', 'v1o200k', 'v1edit'];
const runDir = (kind, i) => join(work, `${kind}-${i}`);
const cleanRuns = () => {
  for (let i = 0; i < runs; i++) for (const kind of kinds) rmSync(runDir(kind, i), { recursive: true, force: true });
};
const t = Object.fromEntries(
  ['node', 'start', 'readHash', 'write', 'build', 'resolve', 'v1', 'v1resolve', 'v1o200k', 'v1full', 'noop', 'edit10'].map((k) => [k, []]),
);
let figures;
cleanRuns();
for (let i = 0; i < runs; i++) {
  t.node.push(timed(['-e', '']).ms);
  t.start.push(timed([bin, '--version']).ms);
  const rh = timed([join(here, 'read-hash.mjs'), corpus]);
  figures = JSON.parse(rh.stdout);
  t.readHash.push(rh.ms);
  t.write.push(timed([join(here, 'write-files.mjs'), runDir('write', i), String(figures.files)]).ms);
  t.build.push(timed([bin, 'build', '--engine', 'v0', '--sources', corpus, '--cache', runDir('build', i)]).ms);
  t.resolve.push(timed([bin, 'resolve', '--cache', runDir('build', i), '--query', query, '--budget', '4000']).ms);
  t.v1.push(timed([bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4', '--sources', corpus, '--cache', runDir('v1', i)]).ms);
  t.v1resolve.push(timed([bin, 'resolve', '--cache', runDir('v1', i), '--query', query, '--budget', '4000']).ms);
  t.v1o200k.push(timed([bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'o200k_base', '--sources', corpus, '--cache', runDir('v1o200k', i)]).ms);
  // Rebuilds of one cache of the editable corpus: full, then nothing changed, then 10 edits.
  const edit = runDir('v1edit', i);
  t.v1full.push(timed([bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4', '--sources', editable, '--cache', edit]).ms);
  t.noop.push(timed([bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4', '--sources', editable, '--cache', edit, '--force']).ms);
  for (let k = 0; k < 10; k++) {
    const n = (i * 10 + k) * 97 % count;
    appendFileSync(join(editable, `area-${String(n % 100).padStart(2, '0')}`, `doc-${String(n).padStart(5, '0')}.md`), `edited in run ${i}\n`);
  }
  const edited = timed([bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4', '--sources', editable, '--cache', edit, '--force']);
  if (!/"analyzed":10,/.test(edited.stdout)) throw new Error(`the 10-edit rebuild did not analyze 10 documents: ${edited.stdout.slice(0, 300)}`);
  t.edit10.push(edited.ms);
}
rmSync(cache, { recursive: true, force: true });
renameSync(runDir('build', 0), cache); // left for bench/mcp-latency.mjs
const v1cache = join(work, 'cache-v1');
rmSync(v1cache, { recursive: true, force: true });
renameSync(runDir('v1', 0), v1cache);
cleanRuns();
rmSync(editable, { recursive: true, force: true });

const ratio = (a, b) => `${(median(a) / median(b)).toFixed(2)}x`;
const pct = (a, b) => `${((100 * median(a)) / median(b)).toFixed(1)} %`;
// The packs' heads (document lists and indexes): what a cold resolve reads and checks.
const size = (dir) => (existsSync(dir) ? JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).files.packs.reduce((n, p) => n + p.head.bytes, 0) : 0);
console.log(`corpus: ${figures.files} documents, ${(figures.bytes / 1e6).toFixed(1)} MB; ${runs} runs; wall clock incl. process start`);
console.log(`${pad('node itself (node -e \'\'):')}${stats(t.node)}   (calibration: this host's speed varies)`);
console.log(`${pad('node start (context --version):')}${stats(t.start)}`);
console.log(`${pad('read + sha256 only (baseline):')}${stats(t.readHash)}`);
console.log(`${pad(`write ${figures.files} files only (baseline):`)}${stats(t.write)}`);
console.log(`${pad('v0 context build:')}${stats(t.build)}`);
console.log(`${pad('v0 context resolve (cold process):')}${stats(t.resolve)}`);
console.log(`${pad('v1 context build:')}${stats(t.v1)}   = ${ratio(t.v1, t.readHash)} read+hash (target <= 5x)`);
console.log(`${pad('v1 context build --tokenizer o200k_base:')}${stats(t.v1o200k)}   = ${ratio(t.v1o200k, t.v1)} the bytes4 build (target <= 2x)`);
console.log(`${pad('v1 context resolve (cold process):')}${stats(t.v1resolve)}   (target <= 300 ms; packs' heads ${(size(v1cache) / 1e6).toFixed(1)} MB)`);
console.log(`${pad('v1 full build (editable corpus):')}${stats(t.v1full)}`);
console.log(`${pad('v1 rebuild --force, nothing changed:')}${stats(t.noop)}   = ${pct(t.noop, t.v1full)} of the full build (target <= 10 %)`);
console.log(`${pad('v1 rebuild --force, 10 files changed:')}${stats(t.edit10)}   = ${pct(t.edit10, t.v1full)} of the full build (target <= 15 %)`);
console.log(`  (query "${query}", budget 4000: every document contains every term, the worst case)`);
