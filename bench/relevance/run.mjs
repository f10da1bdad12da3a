// `npm run bench:relevance`: scores the relevance dev set (bench/relevance/devset, a copy of
// the project's shared dev set: 197 labelled queries over the aider, serena and repomix docs)
// with engine v0 and engine v1 (whole files and sections), side by side: nDCG@10, MRR and
// Recall@5 per repository and overall, and for small budgets the share of queries whose
// selection holds (a section of) a relevant file. Caches are built by the real CLI into a
// temporary directory; queries go through the same engine code `context resolve` runs.
//
//   node bench/relevance/run.mjs [--per-query] [--json FILE]
//
// Metrics are binary and computed on the full ranking, as the dev set's README defines
// them. For sections, a file's rank is the rank of its best section.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const bin = join(repo, 'bin', 'context');
const devset = join(here, 'devset');
const { openEngine } = await import(join(repo, 'dist', 'core', 'engine', 'engine.js'));

const args = process.argv.slice(2);
const perQuery = args.includes('--per-query');
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const BUDGETS = [2000, 4000];
const HUGE = Number.MAX_SAFE_INTEGER;

const queries = readFileSync(join(devset, 'queries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const repos = [...new Set(queries.map((q) => q.repo))];
const systems = [
  { name: 'v0', args: [] },
  { name: 'v1 file', args: ['--engine', 'v1'] },
  { name: 'v1 section', args: ['--engine', 'v1', '--granularity', 'section'] },
];

const work = mkdtempSync(join(tmpdir(), 'context-relevance-'));
const env = { ...process.env, SOURCE_DATE_EPOCH: '0' };
function build(system, name) {
  const cache = join(work, `${system.name.replace(' ', '-')}-${name}`);
  const r = spawnSync(process.execPath, [bin, 'build', '--sources', join(devset, 'corpus', name), '--cache', cache, ...system.args], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`build ${system.name} ${name} failed: ${r.stderr}`);
  return cache;
}

/** The dev set's ids are lowercased paths; v1 ids are paths as on disk, maybe with #slug. */
const fileOf = (doc) => (doc.path ?? doc.id).split('#')[0].toLowerCase();

function metrics(ranked, relevant) {
  const rel = new Set(relevant);
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (rel.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(10, rel.size); i++) idcg += 1 / Math.log2(i + 2);
  const first = ranked.findIndex((id) => rel.has(id));
  return {
    ndcg: dcg / idcg,
    mrr: first < 0 ? 0 : 1 / (first + 1),
    r5: ranked.slice(0, 5).filter((id) => rel.has(id)).length / rel.size,
  };
}

const rows = [];
const perQueryRows = [];
for (const system of systems) {
  const scores = [];
  for (const name of repos) {
    const engine = openEngine(build(system, name));
    for (const q of queries.filter((x) => x.repo === name)) {
      const full = engine.resolve(q.query, HUGE);
      const files = [];
      for (const d of full.documents) {
        const f = fileOf(d);
        if (!files.includes(f)) files.push(f);
      }
      const m = metrics(files, q.relevant);
      for (const b of BUDGETS) {
        const small = engine.resolve(q.query, b);
        m[`hit${b}`] = small.documents.some((d) => q.relevant.includes(fileOf(d))) ? 1 : 0;
      }
      scores.push({ repo: name, qid: q.qid, ...m });
      if (perQuery) perQueryRows.push({ system: system.name, qid: q.qid, query: q.query, top: files.slice(0, 3), relevant: q.relevant, ...m });
    }
    engine.close();
  }
  for (const set of [...repos, 'all']) {
    const xs = set === 'all' ? scores : scores.filter((s) => s.repo === set);
    const mean = (k) => xs.reduce((s, x) => s + x[k], 0) / xs.length;
    rows.push({ system: system.name, set, queries: xs.length, ndcg10: mean('ndcg'), mrr: mean('mrr'), recall5: mean('r5'), ...Object.fromEntries(BUDGETS.map((b) => [`hit@${b}`, mean(`hit${b}`)])) });
  }
}
rmSync(work, { recursive: true, force: true });

if (perQuery) for (const r of perQueryRows) console.log(JSON.stringify(r));
const f = (x) => x.toFixed(3);
console.log('system       set      queries  nDCG@10  MRR    Recall@5  hit@2000  hit@4000');
for (const r of rows) {
  console.log(
    `${r.system.padEnd(12)} ${r.set.padEnd(8)} ${String(r.queries).padStart(7)}  ${f(r.ndcg10)}    ${f(r.mrr)}  ${f(r.recall5)}     ${f(r['hit@2000'])}     ${f(r['hit@4000'])}`,
  );
}
console.log('hit@B: share of queries whose B-token selection holds a relevant file (v1 section: a section of one).');
console.log('Baselines in the dev set README: v0 nDCG@10 0.416; BM25 (minisearch, content + path) 0.810.');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(rows, null, 2) + '\n');
