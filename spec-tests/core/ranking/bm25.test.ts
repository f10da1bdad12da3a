// Checks docs/engine.md "What is ranked" (BM25 per field, weighted and added; idf(t) =
// ln(1 + (N − df + 0.5)/(df + 0.5)); avg_f the mean field length over all units) and "Scores
// are the same on every machine" (query terms in UTF-8 byte order, fields in FIELDS order,
// postings in unit order) against lib/core/ranking/bm25.ts, on a tiny index written by hand:
// every score is recomputed here from the formula, once with Math.log (to within 1e-14)
// and once with the same operations in the documented order (to the bit).
import t from 'tap';
import { encodeIndex, IndexReader, type IndexData } from '../../../lib/core/index/index-format.js';
import { explainUnit, idfOf, rankUnits, type RankingParams } from '../../../lib/core/ranking/bm25.js';
import { ln } from '../../../lib/core/ranking/ln.js';

// Fields: body, headings, title, path (docs/engine.md's table, FIELDS order).
const PARAMS: RankingParams = { k1: 1.2, b: 0.75, weights: [1, 0.75, 1.5, 2.5] };

// Three units. Field lengths (body, headings, title, path):
//   u0: 4 1 0 2      u1: 2 0 1 1      u2: 6 2 0 1      sums 12 3 1 4, N = 3
// Postings (tf per field):
//   "apple": u0 body 2, path 1; u2 body 1, headings 1
//   "fig":   u0 body 1
//   "pear":  u1 body 1, title 1
const INDEX: IndexData = {
  docCount: 3,
  fieldCount: 4,
  units: [
    { doc: 0, start: 0, end: 0, tokens: 10, words: 4, lengths: [4, 1, 0, 2], slug: '', trail: [] },
    { doc: 1, start: 0, end: 0, tokens: 5, words: 2, lengths: [2, 0, 1, 1], slug: '', trail: [] },
    { doc: 2, start: 0, end: 0, tokens: 20, words: 6, lengths: [6, 2, 0, 1], slug: '', trail: [] },
  ],
  terms: ['apple', 'fig', 'pear'],
  postings: [
    { units: Uint32Array.from([0, 2]), tfs: Uint32Array.from([2, 0, 0, 1, 1, 1, 0, 0]) },
    { units: Uint32Array.from([0]), tfs: Uint32Array.from([1, 0, 0, 0]) },
    { units: Uint32Array.from([1]), tfs: Uint32Array.from([1, 0, 1, 0]) },
  ],
};
const reader = new IndexReader(encodeIndex(INDEX));
const N = 3;
const AVG = [12 / 3, 3 / 3, 1 / 3, 4 / 3];
const LEN = INDEX.units.map((u) => u.lengths);

/** One field's share, exactly as docs/engine.md writes it: w · idf · (tf·(k1+1) / (tf + k1·(1 − b + b·len/avg))). */
function share(log: (x: number) => number, df: number, f: number, tf: number, len: number): number {
  const idf = log(1 + (N - df + 0.5) / (df + 0.5));
  const { k1, b } = PARAMS;
  return (PARAMS.weights[f] as number) * idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / (AVG[f] as number))));
}

// The unit scores for the query "apple fig pear", summed term by term (byte order), field by field.
function expected(log: (x: number) => number): number[] {
  const u0 = [share(log, 2, 0, 2, 4), share(log, 2, 3, 1, 2), share(log, 1, 0, 1, 4)];
  const u1 = [share(log, 1, 0, 1, 2), share(log, 1, 2, 1, 1)];
  const u2 = [share(log, 2, 0, 1, 6), share(log, 2, 1, 1, 2)];
  return [u0, u1, u2].map((parts) => parts.reduce((s, x) => s + x, 0));
}

t.test('bm25.ts: the formula of docs/engine.md, recomputed by hand', async (t) => {
  const ranked = rankUnits(reader, ['apple', 'fig', 'pear'], PARAMS);
  t.same([...ranked.units].sort(), [0, 1, 2], 'every unit holding a query term is ranked');
  const byMathLog = expected(Math.log);
  for (let u = 0; u < 3; u++) {
    const got = ranked.scores[u] as number;
    t.ok(Math.abs(got - (byMathLog[u] as number)) <= 1e-14 * (byMathLog[u] as number), `unit ${u}: ${got} ≈ ${byMathLog[u]} (Math.log)`);
  }
  t.same(Array.from(ranked.scores), expected(ln), 'bit-exact with the documented order of operations and ln');
  // Spot check one number fully by hand: u1's "pear" in title, idf = ln(1 + 2.5/1.5) = ln(8/3).
  const titleShare = 1.5 * Math.log(8 / 3) * ((1 * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 1) / (1 / 3))));
  t.ok(Math.abs(share(Math.log, 1, 2, 1, 1) - titleShare) < 1e-15, 'title share of "pear" in u1 = 1.5·ln(8/3)·2.2/(1 + 1.2·2.5)');
});

t.test('bm25.ts: normalizations computed where needed, ahead of need (prepareNorms) or not kept at all (oneQuery): the same bits', async (t) => {
  const { prepareNorms } = await import('../../../lib/core/ranking/bm25.js');
  const reference = Array.from(rankUnits(new IndexReader(encodeIndex(INDEX)), ['apple', 'fig', 'pear'], PARAMS).scores);
  t.same(reference, expected(ln), 'a fresh index, normalized as its postings need');
  // Prepared one unit at a time, asked between: the same scores at every step.
  const prepared = new IndexReader(encodeIndex(INDEX));
  t.same(Array.from(rankUnits(prepared, ['fig'], PARAMS).scores).length, 3);
  const steps: boolean[] = [];
  for (let k = 0; k < 3; k++) {
    steps.push(prepareNorms(prepared, PARAMS, 1));
    t.same(Array.from(rankUnits(prepared, ['apple', 'fig', 'pear'], PARAMS).scores), reference, `after ${k + 1} unit(s) prepared`);
  }
  t.same(steps, [false, false, true], 'one unit a step, done after the third (of 3)');
  t.equal(prepareNorms(prepared, PARAMS, 5), true, 'nothing left');
  // An index that answers one query keeps nothing: the same scores.
  const once = Object.assign(new IndexReader(encodeIndex(INDEX)), { oneQuery: true });
  t.same(Array.from(rankUnits(once, ['apple', 'fig', 'pear'], PARAMS).scores), reference, 'oneQuery: the same bits');
  // Other ranking constants are another table: k1 changed, every score follows the formula.
  const other = { ...PARAMS, k1: 0.9 };
  const fresh = Array.from(rankUnits(new IndexReader(encodeIndex(INDEX)), ['apple'], other).scores);
  t.same(Array.from(rankUnits(prepared, ['apple'], other).scores), fresh, 'a prepared table is for its own k1 and b only');
});

t.test('bm25.ts: idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)); a term in every unit still scores > 0', async (t) => {
  t.equal(idfOf(3, 2), ln(1 + 1.5 / 2.5));
  t.equal(idfOf(3, 3), ln(1 + 0.5 / 3.5));
  t.ok(idfOf(3, 3) > 0, 'never negative (the "1 +" of the BM25+ style idf)');
  t.ok(idfOf(1000, 1) > idfOf(1000, 10), 'rarer terms weigh more');
});

t.test('bm25.ts: terms absent from the dictionary are ignored; no term, no match', async (t) => {
  const ranked = rankUnits(reader, ['banana', 'fig'], PARAMS);
  t.same(Array.from(ranked.units), [0]);
  t.same(ranked.found.map((f) => f.term), ['fig']);
  t.same(Array.from(ranked.scores).slice(1), [0, 0], 'units without a match score 0');
  const none = rankUnits(reader, [], PARAMS);
  t.same(Array.from(none.units), [], 'an empty query matches nothing');
});

t.test('bm25.ts explainUnit: each term\'s frequencies per field and its share; shares add up to the score', async (t) => {
  const ranked = rankUnits(reader, ['apple', 'fig', 'pear'], PARAMS);
  const m0 = explainUnit(reader, ranked, 0, PARAMS);
  t.same(m0.map((m) => [m.term, m.tfs]), [['apple', [2, 0, 0, 1]], ['fig', [1, 0, 0, 0]]]);
  t.equal(m0[0]?.score, share(ln, 2, 0, 2, 4) + share(ln, 2, 3, 1, 2), 'apple\'s share: body + path');
  t.equal(m0[1]?.score, share(ln, 1, 0, 1, 4));
  for (let u = 0; u < 3; u++) {
    const total = explainUnit(reader, ranked, u, PARAMS).reduce((s, m) => s + m.score, 0);
    t.ok(Math.abs(total - (ranked.scores[u] as number)) <= 1e-15 * total, `unit ${u}: shares add up to the score`);
  }
  t.same(explainUnit(reader, ranked, 1, PARAMS).map((m) => m.term), ['pear'], 'terms absent from the unit are omitted');
});

t.test('bm25.ts: scores follow the recorded constants (k1, b, weights)', async (t) => {
  const flat = rankUnits(reader, ['apple'], { k1: 1.2, b: 0, weights: [1, 0, 0, 0] });
  // b = 0: no length normalisation; body only: u0 tf 2, u2 tf 1, same idf.
  const idf = ln(1 + 1.5 / 2.5);
  t.equal(flat.scores[0], idf * ((2 * 2.2) / (2 + 1.2)));
  t.equal(flat.scores[2], idf * ((1 * 2.2) / (1 + 1.2)));
  const pathOnly = rankUnits(reader, ['apple'], { k1: 1.2, b: 0.75, weights: [0, 0, 0, 1] });
  t.equal(pathOnly.scores[2], 0, 'a unit matching only in zero-weight fields scores 0');
  t.same([...pathOnly.units].sort(), [0, 2], '...and still counts as matched');
});
