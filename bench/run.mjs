// `npm run bench`: builds a cache from a generated 10,000-document corpus (~90 MB) and times
// `context build` and a cold `context resolve` as a user runs them (fresh processes), next
// to a bare read-and-hash of the same files. Prints figures; never fails on a timing.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const work = join(here, '.work');
const bin = join(here, '..', 'bin', 'context');
const count = Number(process.env.BENCH_DOCS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);

// Settle the disk before each timed step: writeback left by the previous step (deleting or
// writing 10,000 files) otherwise lands on the next one and swamps the figures.
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
const fmt = (ms) => `${ms.toFixed(0)} ms`;

const corpus = generateCorpus(join(work, 'corpus'), count);
const cache = join(work, 'cache');

const readHash = [];
const builds = [];
const resolves = [];
let figures;
for (let i = 0; i < runs; i++) {
  const rh = timed([join(here, 'read-hash.mjs'), corpus]);
  figures = JSON.parse(rh.stdout);
  readHash.push(rh.ms);
  rmSync(cache, { recursive: true, force: true });
  builds.push(timed([bin, 'build', '--sources', corpus, '--cache', cache]).ms);
  resolves.push(timed([bin, 'resolve', '--cache', cache, '--query', 'deployment security latency', '--budget', '4000']).ms);
}
const empty = timed([bin, '--version']).ms;

console.log(`corpus: ${figures.files} documents, ${(figures.bytes / 1e6).toFixed(1)} MB (${runs} runs, median, wall clock incl. process start)`);
console.log(`node start (context --version):  ${fmt(empty)}`);
console.log(`read + sha256 only (baseline):    ${fmt(median(readHash))}`);
console.log(`context build:                    ${fmt(median(builds))}   (target <= 2000 ms)`);
console.log(`context resolve (cold process):   ${fmt(median(resolves))}   (target <= 1000 ms)`);
