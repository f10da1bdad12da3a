// `npm run bench` (second part): the figures on a corpus that looks like real documentation
// (bench/real-corpus.mjs: 10,000 Markdown files, ~93 MB, ~130k distinct words, 86 % of the
// bytes in files holding non-ASCII), each beside SQLite FTS5 (porter unicode61, one
// transaction; bench/fts5.py, Python's own sqlite3) built from the same files in the same
// run, and beside the floor (read + sha256 of the files) and a bare `node -e ''`:
//   builds: the default `context build`, `--engine v1` (files, bytes4), `--engine v1
//           --tokenizer o200k_base` (files, exact tokens)          -> x FTS5, x the floor;
//           the default build's and FTS5's peak RSS and bytes on disk (bench/measure.mjs)
//   cold query: a fresh `context resolve` vs a fresh FTS5 query    -> x `node -e ''`, beside
//           what bounds it from below: a bare process reading and hashing the cache's pack
//           heads (bench/read-heads.mjs), and the same resolve on a cache of 7 pages
//   warm new-query p50: 20 questions no call asked before, through `context mcp`, vs the
//           same 20 in one FTS5 process
//   rebuilds of the default build: nothing changed, 10 files changed -> % of its full build
// Wall clock of fresh processes, medians of BENCH_RUNS (default 3) interleaved runs; the disk
// is synced before each timed step. Prints figures; never fails on a timing. Without python3
// or its FTS5, the FTS5 column says so and the rest still runs.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLD_QUERY, QUESTIONS, mb, mcpWarm, median, sleep, timed, treeBytes } from './measure.mjs';
import { generateRealCorpus } from './real-corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work', 'real');
const bin = join(repo, 'bin', 'context');
const count = Number(process.env.BENCH_REAL_DOCS ?? 10_000);
const runs = Number(process.env.BENCH_REAL_RUNS ?? process.env.BENCH_RUNS ?? 3);

const node = (args, more) => timed(process.execPath, args, more);
const f = (ms) => `${ms.toFixed(0)} ms`;
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${f(median(s))}  (min ${f(s[0])}, max ${f(s[s.length - 1])})`;
};
const pad = (label) => label.padEnd(46);
const ratio = (a, b) => `${(median(a) / median(b)).toFixed(2)}x`;
const pct = (a, b) => `${((100 * median(a)) / median(b)).toFixed(1)} %`;

const fts5 = spawnSync('python3', [join(here, 'fts5.py'), 'build', ':memory:', join(here, 'relevance', 'devset', 'corpus', 'repomix')], { encoding: 'utf8' });
const haveFts5 = fts5.status === 0;

const corpus = generateRealCorpus(join(work, 'corpus'), repo, count);
const editable = join(work, 'corpus-edit');
rmSync(editable, { recursive: true, force: true });
cpSync(corpus, editable, { recursive: true });
sleep(2500); // a stat stamp younger than ~2 s is not trusted (git's racy rule)

const editPaths = (() => {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.md')) out.push(join(d, e.name));
    }
  };
  walk(editable);
  return out;
})();

// A cache of a few pages: what a cold resolve costs with next to nothing to read or rank
// (Node's start, the CLI, loading the tokenizer), the part no cache format can take away.
const tiny = join(work, 'tiny');
rmSync(tiny, { recursive: true, force: true });
for (const p of editPaths.slice(0, 7)) cpSync(p, join(tiny, 'docs', p.slice(editable.length + 1)));
timed(process.execPath, [bin, 'build', '--sources', join(tiny, 'docs'), '--cache', join(tiny, 'cache')]);

const kinds = ['default', 'v1', 'v1o200k', 'edit', 'fts'];
const runDir = (kind, i) => join(work, `${kind}-${i}`);
const cleanRuns = () => {
  for (let i = 0; i < runs; i++) for (const kind of kinds) rmSync(runDir(kind, i), { recursive: true, force: true });
};
const t = Object.fromEntries(['node', 'readHash', 'fts', 'ftsCold', 'def', 'defCold', 'heads', 'tinyCold', 'v1', 'v1o200k', 'full', 'noop', 'edit10'].map((k) => [k, []]));
let figures;
const peaks = { fts: [], def: [] };
const sizes = { fts: null, def: null };
cleanRuns();
for (let i = 0; i < runs; i++) {
  t.node.push(node(['-e', '']).ms);
  const rh = node([join(here, 'read-hash.mjs'), corpus]);
  figures = JSON.parse(rh.stdout);
  t.readHash.push(rh.ms);
  if (haveFts5) {
    rmSync(runDir('fts', i), { recursive: true, force: true });
    spawnSync('mkdir', ['-p', runDir('fts', i)]);
    const db = join(runDir('fts', i), 'docs.db');
    const b = timed('python3', [join(here, 'fts5.py'), 'build', db, corpus], { peak: true });
    t.fts.push(b.ms);
    peaks.fts.push(b.peak);
    sizes.fts = statSync(db).size;
    t.ftsCold.push(timed('python3', [join(here, 'fts5.py'), 'query', db, COLD_QUERY]).ms);
  }
  const b = node([bin, 'build', '--sources', corpus, '--cache', runDir('default', i)], { peak: true });
  t.def.push(b.ms);
  peaks.def.push(b.peak);
  sizes.def = treeBytes(runDir('default', i));
  t.defCold.push(node([bin, 'resolve', '--cache', runDir('default', i), '--query', COLD_QUERY, '--budget', '2000']).ms);
  t.heads.push(node([join(here, 'read-heads.mjs'), runDir('default', i)]).ms);
  t.tinyCold.push(node([bin, 'resolve', '--cache', join(tiny, 'cache'), '--query', COLD_QUERY, '--budget', '2000']).ms);
  t.v1.push(node([bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4', '--sources', corpus, '--cache', runDir('v1', i)]).ms);
  t.v1o200k.push(node([bin, 'build', '--engine', 'v1', '--granularity', 'file', '--tokenizer', 'o200k_base', '--sources', corpus, '--cache', runDir('v1o200k', i)]).ms);
  const edit = runDir('edit', i);
  t.full.push(node([bin, 'build', '--sources', editable, '--cache', edit]).ms);
  t.noop.push(node([bin, 'build', '--sources', editable, '--cache', edit, '--force']).ms);
  for (let k = 0; k < 10; k++) appendFileSync(editPaths[((i * 10 + k) * 997) % editPaths.length], `\nEdited in run ${i}.\n`);
  t.edit10.push(node([bin, 'build', '--sources', editable, '--cache', edit, '--force']).ms);
}

// Warm new queries: one server, one FTS5 process, the same 20 questions.
const warm = await mcpWarm(bin, work, 'default-0');
const ftsWarm = haveFts5 ? JSON.parse(timed('python3', [join(here, 'fts5.py'), 'warm', join(runDir('fts', 0), 'docs.db')], { input: QUESTIONS.join('\n') }).stdout).p50_ms : null;
const defaultKind = (() => {
  const m = JSON.parse(readFileSync(join(runDir('default', 0), 'manifest.json'), 'utf8'));
  const c = m.build_config ?? {};
  const tok = typeof c.tokenizer === 'object' && c.tokenizer !== null ? c.tokenizer.name : c.tokenizer;
  return c.engine === undefined ? 'engine v0' : `engine ${c.engine}, ${c.granularity ?? 'file'}s, ${tok ?? 'bytes4'}`;
})();
cleanRuns();
rmSync(editable, { recursive: true, force: true });
rmSync(tiny, { recursive: true, force: true });

const vsFts = (xs) => (haveFts5 ? `   = ${ratio(xs, t.fts)} FTS5` : '');
console.log(`\nreal-text corpus: ${figures.files} documents, ${(figures.bytes / 1e6).toFixed(1)} MB (bench/real-corpus.mjs); ${runs} runs; wall clock incl. process start`);
if (!haveFts5) console.log(`  SQLite FTS5 is not available here (python3 with sqlite3 FTS5): ${(fts5.stderr || fts5.error?.message || '').trim().split('\n').pop()}`);
console.log(`${pad("node itself (node -e ''):")}${stats(t.node)}`);
console.log(`${pad('read + sha256 only (the floor):')}${stats(t.readHash)}`);
if (haveFts5) console.log(`${pad('SQLite FTS5 build (one transaction):')}${stats(t.fts)}   = ${ratio(t.fts, t.readHash)} the floor`);
console.log(`${pad(`default context build (${defaultKind}):`)}${stats(t.def)}${vsFts(t.def)} (target <= 3x)`);
console.log(`${pad('context build --engine v1 (files, bytes4):')}${stats(t.v1)}${vsFts(t.v1)} (target <= 1x)`);
console.log(`${pad('  ... --tokenizer o200k_base:')}${stats(t.v1o200k)}   = ${ratio(t.v1o200k, t.v1)} the bytes4 build (target <= 1.3x)`);
const peak = (xs) => (xs.includes(null) ? 'n/a' : mb(median(xs)));
console.log(`${pad('  peak RSS, default build / FTS5 build:')}${peak(peaks.def)} / ${haveFts5 ? peak(peaks.fts) : 'n/a'} (median; bench/measure.mjs)`);
console.log(`${pad('  bytes on disk, default cache / FTS5 file:')}${mb(sizes.def)} / ${mb(sizes.fts)}${haveFts5 ? ` = ${(sizes.def / sizes.fts).toFixed(2)}x` : ''}`);
if (haveFts5) console.log(`${pad('SQLite FTS5 query (cold process):')}${stats(t.ftsCold)}`);
console.log(`${pad('context resolve (cold process, default):')}${stats(t.defCold)}   = ${ratio(t.defCold, t.node)} node -e '' (target <= 2x)`);
console.log(`${pad('  node reading + hashing its pack heads only:')}${stats(t.heads)}   = ${ratio(t.heads, t.node)} node -e '' (bench/read-heads.mjs)`);
console.log(`${pad('  the same resolve on a 7-page cache:')}${stats(t.tinyCold)}   = ${ratio(t.tinyCold, t.node)} node -e ''`);
console.log(`${pad('warm new-question p50, context mcp:')}${warm.toFixed(2)} ms${ftsWarm === null ? '' : `   vs FTS5 in process ${ftsWarm.toFixed(2)} ms = ${(warm / ftsWarm).toFixed(2)}x (target <= 1x)`}`);
console.log(`${pad('default build, full (editable copy):')}${stats(t.full)}`);
console.log(`${pad('  rebuild --force, nothing changed:')}${stats(t.noop)}   = ${pct(t.noop, t.full)} of the full build (target <= 10 %)`);
console.log(`${pad('  rebuild --force, 10 files changed:')}${stats(t.edit10)}   = ${pct(t.edit10, t.full)} of the full build (target <= 15 %)`);
