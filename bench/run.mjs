// `npm run bench`: builds a cache from a generated 10,000-document corpus (~90 MB) and times
// `context build` and a cold `context resolve` as a user runs them (fresh processes), next
// to a bare read-and-hash of the same files. Prints figures; never fails on a timing.
// Each timed step writes a directory of its own, deletions wait until every step is timed,
// and the disk is synced before each step: this VM's writeback of 10,000 written or deleted
// files otherwise lands on whichever step comes next.
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
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
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (ms) => `${ms.toFixed(0)} ms`;
  return `median ${f(s[Math.floor(s.length / 2)])}  (min ${f(s[0])}, max ${f(s[s.length - 1])})`;
};

const corpus = generateCorpus(join(work, 'corpus'), count);
const cache = join(work, 'cache');
const runDir = (kind, i) => join(work, `${kind}-${i}`);
const cleanRuns = () => {
  for (let i = 0; i < runs; i++) for (const kind of ['build', 'write']) rmSync(runDir(kind, i), { recursive: true, force: true });
};

const nodes = [];
const starts = [];
const readHash = [];
const writes = [];
const builds = [];
const resolves = [];
let figures;
cleanRuns();
// Every run writes to directories of its own and nothing is deleted until all are timed:
// deleting 10,000 files leaves writeback that would otherwise land on the next timed step.
for (let i = 0; i < runs; i++) {
  nodes.push(timed(['-e', '']).ms);
  starts.push(timed([bin, '--version']).ms);
  const rh = timed([join(here, 'read-hash.mjs'), corpus]);
  figures = JSON.parse(rh.stdout);
  readHash.push(rh.ms);
  writes.push(timed([join(here, 'write-files.mjs'), runDir('write', i), String(figures.files)]).ms);
  builds.push(timed([bin, 'build', '--sources', corpus, '--cache', runDir('build', i)]).ms);
  resolves.push(timed([bin, 'resolve', '--cache', runDir('build', i), '--query', query, '--budget', '4000']).ms);
}
rmSync(cache, { recursive: true, force: true });
renameSync(runDir('build', 0), cache); // left for bench/mcp-latency.mjs
cleanRuns();

console.log(`corpus: ${figures.files} documents, ${(figures.bytes / 1e6).toFixed(1)} MB; ${runs} runs; wall clock incl. process start`);
console.log(`node itself (node -e ''):         ${stats(nodes)}   (calibration: this host's speed varies)`);
console.log(`node start (context --version):  ${stats(starts)}`);
console.log(`read + sha256 only (baseline):    ${stats(readHash)}`);
console.log(`write ${figures.files} files only (baseline): ${stats(writes)}`);
console.log(`context build:                    ${stats(builds)}   target <= 2000 ms`);
console.log(`context resolve (cold process):   ${stats(resolves)}   target <= 1000 ms`);
console.log(`  (query "${query}", budget 4000: every document contains every term, the worst case)`);
