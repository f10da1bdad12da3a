// `npm run bench:scale [-- --docs N[,M...]] [--settle MS] [--work DIR] [--keep]`: the
// figures of a large build, beside SQLite FTS5 built from the same files in the same run
// (bench/fts5.py: one table, porter unicode61, one transaction; Python's sqlite3 commits with
// fsync, as `context build` publishes a cache with fsync: neither is turned off here).
//
// The corpus: N real-text Markdown files (default 100,000, ~1 GB; bench/real-corpus.mjs, the
// generator of `npm run bench:real`, run on: every file its own draw of the real pages'
// blocks, its own words and title, so no two are alike; the first 10,000 are bench:real's).
// It is written under DIR (default $TMPDIR/context-bench-scale) and removed at the end
// unless --keep (a kept corpus is reused by the next run of the same size).
//
// For each size, one run of each step, in a fresh process, after `sync` and --settle ms of
// sleep (default 3000: this disk's speed swings for a while after large writes and deletes):
//   build: FTS5, then the default `context build` -> wall clock, peak RSS (bench/measure.mjs
//          says how), bytes on disk (the cache: manifest, packs, build state; FTS5: its file)
//   cold query: a fresh `context resolve` (median of 3), beside the same resolve on a cache of
//          7 of the pages (what any cold start costs) and a fresh FTS5 query
//   warm new-question p50 through `context mcp` (20 questions), beside FTS5 in one process
//   rebuilds --force of the default build: nothing changed; 10 files changed (a line
//          appended to each, taken back at the end) -> % of the full build, peak RSS
// With several sizes, the build's growth from the first to the last is printed too. Targets
// (issue 47) are printed beside the figures; nothing fails on a timing. Never run by CI or a
// test (spec-tests/bench/scale.test.ts runs it at --docs 200 --settle 0 only to see it work).
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COLD_QUERY, QUESTIONS, mb, mcpWarm, median, sleep, timed, treeBytes } from './measure.mjs';
import { generateRealCorpus } from './real-corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const bin = join(repo, 'bin', 'context');
const { values: opts } = parseArgs({
  options: {
    docs: { type: 'string', default: '100000' },
    settle: { type: 'string', default: '3000' },
    work: { type: 'string', default: join(tmpdir(), 'context-bench-scale') },
    keep: { type: 'boolean', default: false },
  },
});
const sizes = opts.docs.split(',').map((s) => Number(s.replace(/_/g, '')));
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) throw new Error(`--docs: whole numbers of at least 10, comma-separated (got ${opts.docs})`);
const settleMs = Number(opts.settle);
const work = opts.work;
mkdirSync(work, { recursive: true });

const fts5 = spawnSync('python3', [join(here, 'fts5.py'), 'build', ':memory:', join(here, 'relevance', 'devset', 'corpus', 'repomix')], { encoding: 'utf8' });
const haveFts5 = fts5.status === 0;
const step = (cmd, args, more = {}) => timed(cmd, args, { settleMs, ...more });
const node = (args, more) => step(process.execPath, args, more);

function markdownFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.md')) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

async function measure(count) {
  const corpus = generateRealCorpus(join(work, `corpus-${count}`), repo, count);
  const files = markdownFiles(corpus);
  const corpusBytes = files.reduce((n, p) => n + statSync(p).size, 0);
  const run = join(work, `run-${count}`);
  rmSync(run, { recursive: true, force: true });
  mkdirSync(run, { recursive: true });
  const cache = join(run, 'caches', 'default');
  const db = join(run, 'docs.db');
  const tiny = join(run, 'tiny');
  for (const p of files.slice(0, 7)) cpSync(p, join(tiny, 'docs', p.slice(corpus.length + 1)));
  timed(process.execPath, [bin, 'build', '--sources', join(tiny, 'docs'), '--cache', join(tiny, 'cache')]);
  sleep(2500); // a stat stamp younger than ~2 s is not trusted (git's racy rule): the no-op rebuild needs the corpus older
  const r = { count, corpusBytes };
  if (haveFts5) {
    const b = step('python3', [join(here, 'fts5.py'), 'build', db, corpus], { peak: true });
    Object.assign(r, { ftsBuild: b.ms, ftsPeak: b.peak, ftsBytes: statSync(db).size });
  }
  const b = node([bin, 'build', '--sources', corpus, '--cache', cache], { peak: true });
  Object.assign(r, { build: b.ms, buildPeak: b.peak, cacheBytes: treeBytes(cache) });
  const cold = [];
  const tinyCold = [];
  const ftsCold = [];
  for (let i = 0; i < 3; i++) {
    cold.push(node([bin, 'resolve', '--cache', cache, '--query', COLD_QUERY, '--budget', '2000']).ms);
    tinyCold.push(node([bin, 'resolve', '--cache', join(tiny, 'cache'), '--query', COLD_QUERY, '--budget', '2000']).ms);
    if (haveFts5) ftsCold.push(step('python3', [join(here, 'fts5.py'), 'query', db, COLD_QUERY]).ms);
  }
  Object.assign(r, { cold: median(cold), tinyCold: median(tinyCold), ftsCold: haveFts5 ? median(ftsCold) : null });
  r.warm = await mcpWarm(bin, join(run, 'caches'), 'default');
  r.ftsWarm = haveFts5 ? JSON.parse(step('python3', [join(here, 'fts5.py'), 'warm', db], { input: QUESTIONS.join('\n') }).stdout).p50_ms : null;
  const noop = node([bin, 'build', '--sources', corpus, '--cache', cache, '--force'], { peak: true });
  Object.assign(r, { noop: noop.ms, noopPeak: noop.peak });
  const edited = Array.from({ length: 10 }, (_, k) => files[(k * 997 + 13) % files.length]);
  const originals = edited.map((p) => readFileSync(p));
  try {
    for (const p of edited) appendFileSync(p, '\nEdited by bench/scale.mjs.\n');
    const edit = node([bin, 'build', '--sources', corpus, '--cache', cache, '--force'], { peak: true });
    Object.assign(r, { edit10: edit.ms, editPeak: edit.peak });
  } finally {
    edited.forEach((p, k) => writeFileSync(p, originals[k]));
  }
  rmSync(run, { recursive: true, force: true });
  if (!opts.keep) rmSync(corpus, { recursive: true, force: true });
  return r;
}

const results = [];
for (const count of sizes) results.push(await measure(count));
if (!opts.keep) rmSync(work, { recursive: true, force: true });

const s = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
const x = (a, b) => (a === null || b === null || b === undefined ? '' : `${(a / b).toFixed(2)}x`);
const pct = (a, b) => `${((100 * a) / b).toFixed(1)} %`;
const met = (ok) => (ok ? 'met' : 'NOT met');
const row = (...cells) => console.log(cells.map((c, i) => String(c ?? '').padEnd(i === 0 ? 34 : 18)).join('').trimEnd());
for (const r of results) {
  console.log(`\nscale: ${r.count} real-text documents, ${(r.corpusBytes / 1e6).toFixed(0)} MB (bench/real-corpus.mjs); one run; wall clock incl. process start`);
  if (!haveFts5) console.log(`  SQLite FTS5 is not available here (python3 with sqlite3 FTS5): ${(fts5.stderr || fts5.error?.message || '').trim().split('\n').pop()}`);
  row('', 'context', 'SQLite FTS5', 'ratio');
  row('build (with fsync)', s(r.build), haveFts5 ? s(r.ftsBuild) : 'n/a', `${x(r.build, r.ftsBuild ?? null)} (target <= 3x)`);
  row('  peak RSS', mb(r.buildPeak), mb(r.ftsPeak ?? null), r.count >= 100_000 ? `(target <= 1.5 GB at 100k: ${met(r.buildPeak !== null && r.buildPeak <= 1.5e9)})` : '');
  row('  bytes on disk', mb(r.cacheBytes), mb(r.ftsBytes ?? null), x(r.cacheBytes, r.ftsBytes ?? null));
  row('cold query (fresh process)', s(r.cold), r.ftsCold === null ? 'n/a' : s(r.ftsCold), x(r.cold, r.ftsCold));
  row('  the same on a 7-page cache', s(r.tinyCold));
  row('warm new-question p50 (mcp)', `${r.warm.toFixed(2)} ms`, r.ftsWarm === null ? 'n/a' : `${r.ftsWarm.toFixed(2)} ms`, x(r.warm, r.ftsWarm));
  row('rebuild, nothing changed', s(r.noop), '', `${pct(r.noop, r.build)} of the build (target <= 2 %)`);
  row('  peak RSS', mb(r.noopPeak));
  row('rebuild, 10 files changed', s(r.edit10), '', `${pct(r.edit10, r.build)} of the build (target <= 4 %)`);
  row('  peak RSS', mb(r.editPeak));
}
if (results.length > 1) {
  const a = results[0];
  const b = results[results.length - 1];
  console.log(`\nbuild growth ${a.count} -> ${b.count} documents: ${(b.build / a.build).toFixed(2)}x the time` +
    `${b.count === 10 * a.count ? ' (target <= 11x)' : ''}, peak RSS ${mb(a.buildPeak)} -> ${mb(b.buildPeak)}`);
}
