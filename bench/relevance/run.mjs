// `npm run bench:relevance`: two dev sets, side by side.
//
// 1. Answers (bench/relevance/devset2: 69 questions over the Node.js manual, the undici API
//    reference and the Next.js guides, each with its answering page and a verbatim passage).
//    Each question is asked as a user asks it, `context resolve --cache C --query Q
//    --budget 2000` with no other flag, through the very CLI code `bin/context` runs (its
//    bundle, in this process, so the bytes are the CLI's stdout). Per set and overall:
//    the passage inside the answer, the right page inside it, the right page first, the
//    share of the answer's tokens that come from wrong pages, and what the printed answer
//    costs in o200k_base tokens. For three builds: the default (`context build` without
//    flags, whatever engine that is today), `--engine v0`, and `--engine v1 --granularity
//    section --tokenizer o200k_base`. Metric definitions: bench/relevance/devset2/README.md.
// 2. Ranking (bench/relevance/devset: 197 labelled queries over the aider, serena and
//    repomix docs): nDCG@10, MRR and Recall@5 per repository and overall, and for small
//    budgets the share of queries whose selection holds (a section of) a relevant file,
//    for the same three builds and v1 files / v1 sections (bytes4). Queries go through the
//    same engine code `context resolve` runs.
//
// Caches are built by the real CLI (`bin/context build`) into a temporary directory.
//
//   node bench/relevance/run.mjs [--per-query] [--json FILE] [--budget N] [--only answers|ranking]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const bin = join(repo, 'bin', 'context');
const require = createRequire(import.meta.url);
const { openEngine } = await import(join(repo, 'dist', 'core', 'engine', 'engine.js'));
const { loadBundle } = await import(join(repo, 'bin', 'load-bundle.mjs'));
const { main } = loadBundle().exports;
const o200k = require('gpt-tokenizer/cjs/encoding/o200k_base');
const ORDINARY = { disallowedSpecial: new Set() };
const countO200k = (text) => (text === '' ? 0 : o200k.countTokens(text, ORDINARY));

const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const perQuery = args.includes('--per-query');
const jsonOut = flag('--json');
const only = flag('--only');
const ANSWER_BUDGET = Number(flag('--budget') ?? 2000);
const BUDGETS = [2000, 4000];
const HUGE = Number.MAX_SAFE_INTEGER;

/** The builds compared. `default` passes no flag at all: it is whatever `context build` writes. */
const BUILDS = [
  { name: 'default', args: [] },
  { name: 'v0', args: ['--engine', 'v0'] },
  { name: 'v1 sec o200k', args: ['--engine', 'v1', '--granularity', 'section', '--tokenizer', 'o200k_base'] },
];
const RANKING_EXTRA = [
  { name: 'v1 file', args: ['--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4'] },
  { name: 'v1 section', args: ['--engine', 'v1', '--granularity', 'section', '--tokenizer', 'bytes4'] },
];

const work = mkdtempSync(join(tmpdir(), 'context-relevance-'));
const env = { ...process.env, SOURCE_DATE_EPOCH: '0' };
function build(system, corpus, name) {
  const cache = join(work, `${system.name.replaceAll(' ', '-')}-${name}`);
  const r = spawnSync(process.execPath, [bin, 'build', '--sources', corpus, '--cache', cache, ...system.args], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`build ${system.name} ${name} failed: ${r.stderr}`);
  return cache;
}

/** What the manifest says the build is (so "default" is named for what it was on this run). */
function describe(cache) {
  const m = JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8'));
  const c = m.build_config ?? {};
  const engine = c.engine ?? (String(c.version ?? '') === '1' || c.version === undefined ? 'v0' : `format ${c.version}`);
  const sections = c.sections === undefined ? undefined : `sections ${JSON.stringify(c.sections)}`;
  return [engine, c.granularity, c.tokenizer, sections].filter((x) => x !== undefined).join(' ');
}

/** `context resolve` as a user types it: the CLI's own code, its stdout bytes. */
async function resolveCli(cache, query, budget) {
  let out = '';
  let err = '';
  const io = { stdout: (s) => (out += s), stderr: (s) => (err += s), env: {}, cwd: repo };
  const code = await main(['resolve', '--cache', cache, '--query', query, '--budget', String(budget)], io);
  if (code !== 0) throw new Error(`resolve failed (${code}): ${err}`);
  return out;
}

const norm = (s) => s.replace(/\s+/gu, ' ').trim();
/** A selected entry's file: v0 ids are lowercased paths, v1 entries carry `path` (maybe with #slug). */
const fileOf = (doc) => String(doc.path ?? doc.id).split('#')[0].toLowerCase();

// ---------------------------------------------------------------- 1. answers (devset2)

async function answers() {
  const dir = join(here, 'devset2');
  const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const sets = [...new Set(questions.map((q) => q.set))];
  const rows = [];
  const perQueryRows = [];
  const described = {};
  for (const system of BUILDS) {
    const scores = [];
    for (const set of sets) {
      const cache = build(system, join(dir, 'corpus', set), `ans-${set}`);
      described[system.name] = describe(cache);
      const engine = openEngine(cache);
      for (const q of questions.filter((x) => x.set === set)) {
        const right = new Set([q.page, ...(q.also ?? [])].map((p) => p.toLowerCase()));
        const printed = await resolveCli(cache, q.query, ANSWER_BUDGET);
        const docs = JSON.parse(printed).documents;
        const passage = norm(q.passage);
        const onPage = docs.filter((d) => right.has(fileOf(d)));
        const inUnit = docs.some((d) => norm(String(d.content)).includes(passage));
        // A passage cut across two selected units of its page still counts, read in the
        // answer's order.
        const inJoin = onPage.length > 1 && norm(onPage.map((d) => String(d.content)).join('\n')).includes(passage);
        let total = 0;
        let wrong = 0;
        for (const d of docs) {
          const n = countO200k(String(d.content));
          total += n;
          if (!right.has(fileOf(d))) wrong += n;
        }
        // Diagnostics from the unbudgeted ranking (the same engine code): where the entry
        // holding the passage ranks, and whether the budget cut it (it ranks above the
        // answer's last entry, or the answer is empty, and it is not in the answer).
        const full = engine.resolve(q.query, HUGE).documents;
        const passageRank = full.findIndex((d) => right.has(fileOf(d)) && norm(String(d.content)).includes(passage));
        const lastId = docs.length === 0 ? undefined : docs[docs.length - 1].id;
        const lastRank = lastId === undefined ? -1 : full.findIndex((d) => d.id === lastId);
        const found = inUnit || inJoin;
        const s = {
          set,
          qid: q.qid,
          passage: found ? 1 : 0,
          top3: passageRank >= 0 && passageRank < 3 ? 1 : 0,
          cut: !found && passageRank >= 0 && (docs.length === 0 || passageRank < (lastRank < 0 ? docs.length : lastRank)) ? 1 : 0,
          page: onPage.length > 0 ? 1 : 0,
          first: docs.length > 0 && right.has(fileOf(docs[0])) ? 1 : 0,
          wrong: total > 0 ? wrong / total : null,
          empty: docs.length === 0 ? 1 : 0,
          printed: countO200k(printed),
        };
        scores.push(s);
        if (perQuery) {
          perQueryRows.push({ build: system.name, ...s, passage_rank: passageRank, query: q.query, expected_page: q.page, top: docs.slice(0, 3).map((d) => String(d.path ?? d.id)) });
        }
      }
      engine.close();
    }
    for (const set of [...sets, 'all']) {
      const xs = set === 'all' ? scores : scores.filter((s) => s.set === set);
      const sum = (k) => xs.reduce((a, x) => a + x[k], 0);
      const nonEmpty = xs.filter((x) => x.wrong !== null);
      rows.push({
        build: system.name,
        set,
        questions: xs.length,
        passage: sum('passage'),
        page: sum('page'),
        first: sum('first'),
        wrong_share: nonEmpty.length === 0 ? null : nonEmpty.reduce((a, x) => a + x.wrong, 0) / nonEmpty.length,
        empty: sum('empty'),
        passage_top3_unbudgeted: sum('top3'),
        passage_cut_by_budget: sum('cut'),
        printed_mean: sum('printed') / xs.length,
        printed_max: Math.max(...xs.map((x) => x.printed)),
      });
    }
  }
  if (perQuery) for (const r of perQueryRows) console.log(JSON.stringify(r));
  const pct = (n, d) => `${String(n).padStart(3)}/${String(d).padEnd(3)} ${((100 * n) / d).toFixed(0).padStart(3)}%`;
  console.log(`Answers: bench/relevance/devset2, \`context resolve --budget ${ANSWER_BUDGET}\` (no other flag)`);
  for (const b of BUILDS) console.log(`  ${b.name.padEnd(13)} = context build ${b.args.join(' ') || '(no flags)'}: ${described[b.name]}`);
  console.log('build         set      passage in answer  right page in it   right page first   wrong-page tokens  empty  printed o200k mean/max  | passage top-3 unbudgeted  cut by budget');
  for (const r of rows) {
    const w = r.wrong_share === null ? '  -  ' : r.wrong_share.toFixed(3);
    console.log(
      `${r.build.padEnd(13)} ${r.set.padEnd(8)} ${pct(r.passage, r.questions)}      ${pct(r.page, r.questions)}     ${pct(r.first, r.questions)}     ${w}              ${String(r.empty).padStart(3)}    ${r.printed_mean.toFixed(0).padStart(5)} / ${String(r.printed_max).padStart(5)}      | ${pct(r.passage_top3_unbudgeted, r.questions)}              ${String(r.passage_cut_by_budget).padStart(3)}`,
    );
  }
  console.log('wrong-page tokens: mean over non-empty answers of the share of o200k tokens in selected entries from other pages.');
  console.log('printed: o200k tokens of the whole stdout. Diagnostics (not user-facing): the entry holding the passage in the top 3 of the');
  console.log('unbudgeted ranking; cut by budget: that entry ranks above the answer\'s last entry (or the answer is empty) and is not in it.');
  console.log('');
  return { builds: described, rows };
}

// ---------------------------------------------------------------- 2. ranking (devset)

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

function ranking() {
  const devset = join(here, 'devset');
  const queries = readFileSync(join(devset, 'queries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const repos = [...new Set(queries.map((q) => q.repo))];
  const rows = [];
  const perQueryRows = [];
  for (const system of [...BUILDS, ...RANKING_EXTRA]) {
    const scores = [];
    for (const name of repos) {
      const engine = openEngine(build(system, join(devset, 'corpus', name), `rank-${name}`));
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
  if (perQuery) for (const r of perQueryRows) console.log(JSON.stringify(r));
  const f = (x) => x.toFixed(3);
  console.log('Ranking: bench/relevance/devset (197 queries, whole-file labels)');
  console.log('system        set      queries  nDCG@10  MRR    Recall@5  hit@2000  hit@4000');
  for (const r of rows) {
    console.log(
      `${r.system.padEnd(13)} ${r.set.padEnd(8)} ${String(r.queries).padStart(7)}  ${f(r.ndcg10)}    ${f(r.mrr)}  ${f(r.recall5)}     ${f(r['hit@2000'])}     ${f(r['hit@4000'])}`,
    );
  }
  console.log('hit@B: share of queries whose B-token selection holds a relevant file (sections: a section of one).');
  console.log('Baselines in the dev set README: v0 nDCG@10 0.416; BM25 (minisearch, content + path) 0.810.');
  return rows;
}

try {
  const out = {};
  if (only !== 'ranking') out.answers = await answers();
  if (only !== 'answers') out.ranking = ranking();
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(out, null, 2) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
