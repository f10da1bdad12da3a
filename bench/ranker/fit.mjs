// `npm run fit-ranker`: fits the weights of a re-ranker over engine v1's best candidates
// (features: lib/core/engine/v1/rerank.ts; docs/engine.md "Re-ranking the best candidates:
// measured, not shipped") on the project's labelled questions and reports leave-one-doc-set-out
// figures. Not shipped: the held-out gain is smaller than the spread between folds. The same
// data gives the same output: the caches are built by the real CLI with SOURCE_DATE_EPOCH=0,
// the search is a fixed coordinate ascent over a fixed grid, ties keep the earlier value, and
// nothing random is drawn.
//
// Questions (21 doc sets): bench/relevance/devset (aider, serena, repomix: 197 commit-subject
// queries, relevant files), devset2 (nodejs, undici, nextjs), devset3 (fastify, npm, bun),
// devset4 (rst-flask, html-pytest), devset5 (date-fns, markdownlint, pino), devset6 (Sphinx's
// HTML manual), devset7 (git's AsciiDoc manual), devset8 (Rust by Example), devset9 (vitest,
// sqlmodel) and devset10 (pydantic, mkdocs-material) (questions with their answering page). Objective: mean nDCG@10 of the pages in answer order
// (a page counts once, where its first unit stands), every question weighing the same.
//
//   node bench/ranker/fit.mjs [--candidates N] [--json FILE]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const { openV1 } = await import(join(repo, 'dist', 'core', 'engine', 'v1', 'load.js'));
const { rerankCandidates } = await import(join(repo, 'dist', 'core', 'engine', 'v1', 'resolve.js'));
const { FEATURES, bonusOf } = await import(join(repo, 'dist', 'core', 'engine', 'v1', 'rerank.js'));

const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const CANDIDATE_CHOICES = flag('--candidates') === undefined ? [10, 20, 30, 50] : [Number(flag('--candidates'))];
const MAX_CANDIDATES = Math.max(...CANDIDATE_CHOICES);
const TAIL = 40;
/** The values a weight may take, in thousandths of the best unit's score. */
const GRID = [0, 25, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 1500];
const PASSES = 4;

// ---------------------------------------------------------------- the questions

const rel = join(repo, 'bench', 'relevance');
const lines = (file) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const SETS = [];
for (const q of lines(join(rel, 'devset', 'queries.jsonl'))) SETS.push({ devset: 'devset', set: q.repo, corpus: join(rel, 'devset', 'corpus', q.repo), query: q.query, relevant: q.relevant.map((p) => p.toLowerCase()) });
for (const d of ['devset2', 'devset3', 'devset4', 'devset5', 'devset6', 'devset7', 'devset8', 'devset9', 'devset10']) {
  for (const q of lines(join(rel, d, 'questions.jsonl'))) SETS.push({ devset: d, set: q.set, corpus: join(rel, d, 'corpus', q.set), query: q.query, relevant: [q.page, ...(q.also ?? [])].map((p) => p.toLowerCase()) });
}
const setNames = [...new Set(SETS.map((q) => q.set))];

// ---------------------------------------------------------------- caches and candidates

const work = mkdtempSync(join(tmpdir(), 'context-fit-'));
const env = { ...process.env, SOURCE_DATE_EPOCH: '0' };
const caches = new Map();
for (const set of setNames) {
  const corpus = SETS.find((q) => q.set === set).corpus;
  const cache = join(work, set);
  const r = spawnSync(process.execPath, [join(repo, 'bin', 'context'), 'build', '--sources', corpus, '--cache', cache], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`build ${set}: ${r.stderr}`);
  caches.set(set, openV1(cache));
}
const data = SETS.map((q) => {
  const { candidates, rest } = rerankCandidates(caches.get(q.set), q.query, MAX_CANDIDATES, TAIL);
  return { ...q, candidates: candidates.map((c) => ({ page: c.path.toLowerCase(), base: c.base, features: c.features })), rest: rest.map((p) => p.toLowerCase()) };
});
for (const c of caches.values()) c.close();
rmSync(work, { recursive: true, force: true });

// ---------------------------------------------------------------- scoring

function ndcg10(pages, relevant) {
  const want = new Set(relevant);
  const seen = new Set();
  let dcg = 0;
  let rank = 0;
  for (const p of pages) {
    if (seen.has(p)) continue;
    seen.add(p);
    if (want.has(p)) dcg += 1 / Math.log2(rank + 2);
    if (++rank === 10) break;
  }
  let idcg = 0;
  for (let i = 0; i < Math.min(10, want.size); i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/** The pages of a question's answer order when its best `n` candidates are re-ranked with `weights`. */
function pagesOf(q, weights, n) {
  const head = q.candidates.slice(0, n);
  const top = head.length === 0 ? 0 : head[0].base;
  const scored = head.map((c, k) => ({ c, k, score: Math.fround(c.base + bonusOf({ candidates: n, weights }, top, c.features)) }));
  scored.sort((a, b) => b.score - a.score || a.k - b.k);
  return [...scored.map((s) => s.c.page), ...q.candidates.slice(n).map((c) => c.page), ...q.rest];
}

const first = (q, pages) => (q.relevant.includes(pages[0]) ? 1 : 0);
function evaluate(qs, weights, n) {
  let sum = 0;
  let firsts = 0;
  for (const q of qs) {
    const pages = pagesOf(q, weights, n);
    sum += ndcg10(pages, q.relevant);
    firsts += first(q, pages);
  }
  return { ndcg: qs.length === 0 ? 0 : sum / qs.length, first: firsts, questions: qs.length };
}

/** Coordinate ascent over GRID, features in FEATURES order, PASSES passes: deterministic. */
function fit(qs, n) {
  const weights = FEATURES.map(() => 0);
  let best = evaluate(qs, weights, n).ndcg;
  for (let pass = 0; pass < PASSES; pass++) {
    let moved = false;
    for (let i = 0; i < weights.length; i++) {
      const was = weights[i];
      let keep = was;
      for (const v of GRID) {
        if (v === was) continue;
        weights[i] = v;
        const s = evaluate(qs, weights, n).ndcg;
        if (s > best + 1e-12) {
          best = s;
          keep = v;
          moved = true;
        }
      }
      weights[i] = keep;
    }
    if (!moved) break;
  }
  return weights;
}

// ---------------------------------------------------------------- folds

const zero = FEATURES.map(() => 0);
const f3 = (x) => x.toFixed(3);
const report = { candidates: {}, folds: {} };
let chosen = null;
for (const n of CANDIDATE_CHOICES) {
  const rows = [];
  for (const held of setNames) {
    const train = data.filter((q) => q.set !== held);
    const test = data.filter((q) => q.set === held);
    const w = fit(train, n);
    const before = evaluate(test, zero, n);
    const after = evaluate(test, w, n);
    rows.push({ held, questions: test.length, before: before.ndcg, after: after.ndcg, firstBefore: before.first, firstAfter: after.first, weights: w });
  }
  const mean = (k) => rows.reduce((s, r) => s + r[k], 0) / rows.length;
  const deltas = rows.map((r) => r.after - r.before);
  const meanDelta = deltas.reduce((s, d) => s + d, 0) / deltas.length;
  const spread = Math.sqrt(deltas.reduce((s, d) => s + (d - meanDelta) ** 2, 0) / deltas.length);
  // Held-out figures pooled over every question (each question scored by the fold that held it out).
  const pooled = { before: 0, after: 0, firstBefore: 0, firstAfter: 0, questions: 0 };
  for (const r of rows) {
    pooled.before += r.before * r.questions;
    pooled.after += r.after * r.questions;
    pooled.firstBefore += r.firstBefore;
    pooled.firstAfter += r.firstAfter;
    pooled.questions += r.questions;
  }
  console.log(`candidates ${n}: leave-one-doc-set-out nDCG@10 (pages), before -> after (fitted on the other ${setNames.length - 1} sets)`);
  for (const r of rows) console.log(`  ${r.held.padEnd(11)} ${String(r.questions).padStart(4)} q  ${f3(r.before)} -> ${f3(r.after)}  (${r.after - r.before >= 0 ? '+' : ''}${f3(r.after - r.before)})  right page first ${r.firstBefore} -> ${r.firstAfter}`);
  console.log(`  mean over folds ${f3(mean('before'))} -> ${f3(mean('after'))}; fold deltas: mean ${f3(meanDelta)}, spread (std) ${f3(spread)}; pooled over ${pooled.questions} questions ${f3(pooled.before / pooled.questions)} -> ${f3(pooled.after / pooled.questions)}, right page first ${pooled.firstBefore} -> ${pooled.firstAfter}`);
  report.folds[n] = rows;
  report.candidates[n] = { meanDelta, spread, pooledBefore: pooled.before / pooled.questions, pooledAfter: pooled.after / pooled.questions };
  if (chosen === null || pooled.after / pooled.questions > report.candidates[chosen].pooledAfter + 1e-12) chosen = n;
}

// ---------------------------------------------------------------- the shipped weights

const weights = fit(data, chosen);
const all = evaluate(data, weights, chosen);
console.log(`chosen: ${chosen} candidates (best pooled held-out nDCG@10); fitted on all ${data.length} questions: nDCG@10 ${f3(evaluate(data, zero, chosen).ndcg)} -> ${f3(all.ndcg)}`);
console.log(`weights (thousandths of the best score): ${FEATURES.map((f, i) => `${f} ${weights[i]}`).join(', ')}`);
const flagJson = flag('--json');
if (flagJson !== undefined) writeFileSync(flagJson, JSON.stringify({ ...report, chosen, weights: Object.fromEntries(FEATURES.map((f, i) => [f, weights[i]])) }, null, 2) + '\n');
