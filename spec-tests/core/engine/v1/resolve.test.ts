// Checks docs/engine.md "What is ranked" (BM25 per field; "A unit that matches no query term
// is never selected"; order by the printed binary32 score, then id in UTF-8 byte order;
// greedy skip-and-continue budget), "Scores are the same on every machine" (printed as v0
// prints binary32) and "The answer" (every v0 field, name and order, then the additions)
// against lib/core/engine/v1/resolve.ts, on a built cache whose scores this test computes
// by hand from the documented formula.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { buildCache } from '../../../../lib/core/engine/v0/build.js';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { loadCache } from '../../../../lib/core/engine/v0/load.js';
import { verifyCache } from '../../../../lib/core/engine/v0/verify.js';
import { openEngine } from '../../../../lib/core/engine/engine.js';
import { FILLER_FLOOR, resolveV1 } from '../../../../lib/core/engine/v1/resolve.js';
import type { V1Cache } from '../../../../lib/core/engine/v1/load.js';
import { documentList } from '../../../../lib/core/engine/v1/manifest.js';
import { encodeIndex, IndexReader } from '../../../../lib/core/index/index-format.js';
import { queryTermsV1 } from '../../../../lib/core/analysis/analyzer.js';
import { FIELDS } from '../../../../lib/core/analysis/term-counter.js';
import { rankUnits } from '../../../../lib/core/ranking/bm25.js';
import { ln } from '../../../../lib/core/ranking/ln.js';
import { formatF32 } from '../../../../lib/f32.js';
import { compact } from '../../../../lib/json.js';
import { buildV1, byBytes, CREATED_AT, FILE_OPTIONS, matchFields, type Match, versionOf } from './fixture.js';

interface Doc {
  id: string;
  version: string;
  content: string;
  score: number;
  tokens: number;
  why: { query_terms: string[]; term_matches: number; total_words: number; matches: Match[] };
  path: string;
  trail?: string[];
}
interface Answer {
  documents: Doc[];
  selection: Record<string, unknown>;
}
const answerOf = (text: string): Answer => JSON.parse(text) as Answer;
/** The answer in content scope (v0's budget rule), which these tests check; answer scope is v1's default. */
const contentText = (cache: string, query: unknown, budget: unknown): string => resolveText(cache, query, budget, 'json', undefined, 'content', true);
/** The printed score strings, in order (JSON.parse would hide how they are printed). */
const printedScores = (text: string): string[] => [...text.matchAll(/"score":([^,}]+)/g)].map((m) => m[1] as string);

// The hand-checked corpus. Terms (analyzer rules): kiwi, fig, plum, lime, noth, here, at, all;
// path words one, two, three, sub, kiwi, nomatch. N = 5 units.
const CORPUS = {
  'one.md': 'kiwi kiwi fig',
  'two.md': 'kiwi plum plum lime',
  'three.md': 'lime',
  'sub': { 'kiwi.md': 'plum' },
  'nomatch.md': 'nothing here at all',
};
const K1 = 1.2;
const B = 0.75;
const N = 5;
const AVG_BODY = (3 + 4 + 1 + 1 + 4) / N;
const AVG_PATH = (1 + 1 + 1 + 2 + 1) / N;
const share = (w: number, df: number, tf: number, len: number, avg: number): number =>
  w * ln(1 + (N - df + 0.5) / (df + 0.5)) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg)));
// Query "Kiwi lime": terms kiwi (df 3: one, two in body; sub/kiwi in path), lime (df 2).
const EXPECTED: Record<string, { score: number; matches: [string, Record<string, number>, number][] }> = {
  'one.md': { score: share(1, 3, 2, 3, AVG_BODY), matches: [['kiwi', { body: 2 }, share(1, 3, 2, 3, AVG_BODY)]] },
  'two.md': {
    score: share(1, 3, 1, 4, AVG_BODY) + share(1, 2, 1, 4, AVG_BODY),
    matches: [['kiwi', { body: 1 }, share(1, 3, 1, 4, AVG_BODY)], ['lime', { body: 1 }, share(1, 2, 1, 4, AVG_BODY)]],
  },
  'three.md': { score: share(1, 2, 1, 1, AVG_BODY), matches: [['lime', { body: 1 }, share(1, 2, 1, 1, AVG_BODY)]] },
  'sub/kiwi.md': { score: share(2.5, 3, 1, 2, AVG_PATH), matches: [['kiwi', { path: 1 }, share(2.5, 3, 1, 2, AVG_PATH)]] },
};
const tokensOf = (s: string): number => Math.ceil(Buffer.byteLength(s, 'utf8') / 4);
const contentOf = (id: string): string => (id === 'sub/kiwi.md' ? CORPUS.sub['kiwi.md'] : ((CORPUS as Record<string, unknown>)[id] as string));
/** Expected order: binary32 score descending, then id in UTF-8 byte order. */
const ORDER = Object.keys(EXPECTED).sort((a, b) => Math.fround(EXPECTED[b]!.score) - Math.fround(EXPECTED[a]!.score) || byBytes(a, b));

/** The corpus cache at <testdir>/cache; `extra` adds trees beside it (one testdir per test). */
async function corpusCache(t: Test, extra: Record<string, Record<string, string>> = {}): Promise<{ cache: string; dir: string }> {
  const dir = t.testdir({ src: CORPUS, ...extra });
  await buildV1(join(dir, 'src'), join(dir, 'cache'));
  return { cache: join(dir, 'cache'), dir };
}

t.test('engine.md "What is ranked": scores, order and why of a hand-computed corpus', async (t) => {
  const { cache } = await corpusCache(t);
  const text = contentText(cache, 'Kiwi lime', 100000);
  const a = answerOf(text);
  t.same(a.documents.map((d) => d.id), ORDER, 'score desc (binary32), then id');
  t.notOk(a.documents.some((d) => d.id === 'nomatch.md'), 'a unit matching no query term is never selected, whatever the budget');
  // Printed scores in text order: each document's, then each of its matches'.
  const printed = printedScores(text);
  let at = 0;
  a.documents.forEach((d) => {
    const e = EXPECTED[d.id]!;
    t.equal(Math.fround(d.score), Math.fround(e.score), `${d.id}: score = binary32 of the documented formula`);
    t.equal(printed[at], formatF32(Math.fround(e.score)), `${d.id}: printed as v0 prints binary32 (${printed[at]})`);
    e.matches.forEach(([, , s], k) => t.equal(printed[at + 1 + k], formatF32(Math.fround(s)), `${d.id}: share ${k} printed as binary32`));
    at += 1 + d.why.matches.length;
    t.same(d.why.matches.map((m) => [m.term, matchFields(m), Math.fround(m.score)]), e.matches.map(([term, fields, s]) => [term, fields, Math.fround(s)]), `${d.id}: matches per term and field, each share as binary32`);
    t.equal(d.content, contentOf(d.id), `${d.id}: the whole file`);
    t.equal(d.version, versionOf(contentOf(d.id)));
    t.equal(d.tokens, tokensOf(contentOf(d.id)), `${d.id}: tokens = ceil(bytes / 4)`);
    t.same(d.why.query_terms, ['kiwi', 'lime'], 'v0\'s query_terms: lowercased, split on whitespace');
    t.equal(d.why.term_matches, d.why.matches.reduce((n, m) => n + (matchFields(m)['body'] ?? 0), 0), 'term_matches: occurrences in the body field');
    t.equal(d.why.total_words, contentOf(d.id).split(' ').length, 'total_words: whitespace-separated words');
    t.equal(d.path, d.id, 'file granularity: id = path as on disk');
    t.equal(d.trail, undefined, 'no trail in a file cache');
  });
  t.same(a.selection, {
    query: 'Kiwi lime',
    budget: 100000,
    tokens_used: ORDER.reduce((n, id) => n + tokensOf(contentOf(id)), 0),
    documents_considered: 5,
    documents_selected: 4,
    documents_excluded_by_budget: 0,
    documents_matched: 4,
    engine: 'v1',
    granularity: 'file',
    tokenizer: 'bytes4',
    terms: ['kiwi', 'lime'],
  }, 'the analyzed terms once, in the selection');
});

t.test('engine.md "The answer": every v0 field with its v0 name in v0 order, the additions after them', async (t) => {
  const { cache } = await corpusCache(t, { heading: { 'a.md': '# Kiwi\n\nkiwi text\n' } });
  const a = answerOf(contentText(cache, 'kiwi', 100000));
  const d = a.documents[0]!;
  t.same(Object.keys(d), ['id', 'version', 'content', 'score', 'tokens', 'why', 'path']);
  t.same(Object.keys(d.why), ['query_terms', 'term_matches', 'total_words', 'matches']);
  for (const m of d.why.matches) {
    const keys = Object.keys(m);
    t.same([keys[0], keys[keys.length - 1]], ['term', 'score'], `${m.term}: the term first, its share last`);
    t.same(keys.slice(1, -1), FIELDS.filter((f) => keys.includes(f)), `${m.term}: between them the fields that hold it, FIELDS order`);
  }
  t.same(Object.keys(a.selection), [
    'query', 'budget', 'tokens_used', 'documents_considered', 'documents_selected', 'documents_excluded_by_budget',
    'documents_matched', 'engine', 'granularity', 'tokenizer', 'terms',
  ]);
  t.same(Object.keys(a), ['documents', 'selection']);
  const dir = join(cache, '..');
  await buildV1(join(dir, 'heading'), join(dir, 'sections'), { granularity: 'section' });
  const s = answerOf(contentText(join(dir, 'sections'), 'kiwi', 1000)).documents[0]!;
  t.same(Object.keys(s), ['id', 'version', 'content', 'score', 'tokens', 'why', 'path', 'trail'], 'sections add trail last');
  t.same([s.id, s.path, s.trail], ['a.md#kiwi', 'a.md', ['Kiwi']]);
});

t.test('engine.md: the budget is filled greedily in order, skipping what does not fit, and after a skip no filler; tokens_used is the sum', async (t) => {
  const { cache } = await corpusCache(t);
  const tokens = Object.fromEntries(ORDER.map((id) => [id, tokensOf(contentOf(id))]));
  // engine.md "No filler": once a unit was skipped, a unit under half the best score is not taken.
  const floor = FILLER_FLOOR * Math.fround(EXPECTED[ORDER[0]!]!.score);
  t.equal(FILLER_FLOOR, 0.5, 'the floor the docs state');
  let skippedThenSelected = 0;
  let fillerRefused = 0;
  for (let budget = 0; budget <= 12; budget++) {
    const want: string[] = [];
    let used = 0;
    let skipped = false;
    for (const id of ORDER) {
      if (skipped && Math.fround(EXPECTED[id]!.score) < floor) {
        if (used + (tokens[id] as number) <= budget) fillerRefused++;
        break;
      }
      if (used + (tokens[id] as number) > budget) {
        skipped = true;
        continue; // skip, never truncate, go on
      }
      used += tokens[id] as number;
      want.push(id);
    }
    const a = answerOf(contentText(cache, 'kiwi lime', budget));
    t.same(a.documents.map((d) => d.id), want, `budget ${budget}`);
    t.equal(a.selection['tokens_used'], used, `budget ${budget}: tokens_used`);
    t.ok(used <= budget, 'never over the budget');
    t.equal(a.selection['documents_excluded_by_budget'], 4 - want.length, 'matched units that did not fit');
    t.ok(a.documents.every((d) => d.content === contentOf(d.id)), 'nothing truncated');
    const last = ORDER.indexOf(want[want.length - 1] ?? '');
    if (ORDER.slice(0, last).some((id) => !want.includes(id))) skippedThenSelected++;
  }
  t.ok(skippedThenSelected > 0, `skip-and-continue happened (${skippedThenSelected} budgets select a unit after skipping one)`);
  t.equal(fillerRefused, 0, 'every unit here scores over half the best: the floor changes nothing');
});

t.test('engine.md: budget 0, an empty query, a query matching nothing', async (t) => {
  const { cache } = await corpusCache(t);
  const zero = answerOf(contentText(cache, 'kiwi', 0));
  t.same(zero.documents, []);
  t.same([zero.selection['tokens_used'], zero.selection['documents_matched'], zero.selection['documents_excluded_by_budget']], [0, 3, 3]);
  for (const query of ['', '   ', '😀 …', 'zzz-unknown']) {
    const text = contentText(cache, query, 1000);
    const a = answerOf(text);
    t.same(a.documents, [], `${JSON.stringify(query)}: nothing selected`);
    t.same(a.selection, { query, budget: 1000, tokens_used: 0, documents_considered: 5, documents_selected: 0, documents_excluded_by_budget: 0, documents_matched: 0, engine: 'v1', granularity: 'file', tokenizer: 'bytes4', terms: queryTermsV1(query) });
  }
  // A zero-token unit (an empty file matching by its path) fits a zero budget, as in v0's pseudo-code.
  const dir = t.testdir({ src: { 'kiwi.md': '', 'other.md': 'kiwi' } });
  await buildV1(join(dir, 'src'), join(dir, 'cache'));
  const empty = answerOf(contentText(join(dir, 'cache'), 'kiwi', 0));
  t.same(empty.documents.map((d) => [d.id, d.tokens, d.content]), [['kiwi.md', 0, '']]);
});

t.test('engine.md: ties in score are broken by id in UTF-8 byte order', async (t) => {
  // Texts that differ (a repeated text would answer once: "Repeated text") and tie: one
  // other word each, besides the query's.
  const tied = (word: string): string => `tied ${word} kiwi`;
  const paths = ['b/x.md', 'B/x.md', 'é.md', 'z.md', '\uFFFD.md', '\u{1F600}.md', 'a b.md'];
  const dir = t.testdir({ src: { b: { 'x.md': tied('apple') }, B: { 'x.md': tied('berry') }, 'é.md': tied('cherry'), 'z.md': tied('grape'), '\uFFFD.md': tied('lemon'), '\u{1F600}.md': tied('mango'), 'a b.md': tied('peach') } });
  await buildV1(join(dir, 'src'), join(dir, 'cache'));
  const a = answerOf(contentText(join(dir, 'cache'), 'kiwi', 1000));
  t.equal(new Set(a.documents.map((d) => d.score)).size, 1, 'all tied');
  t.same(a.documents.map((d) => d.id), [...paths].sort(byBytes));
  t.ok(a.documents.findIndex((d) => d.id === '\uFFFD.md') < a.documents.findIndex((d) => d.id === '\u{1F600}.md'), 'U+FFFD before U+1F600');
});

t.test('engine.md: with hundreds of tied units (the rank-table path) the order is still score, then id in byte order', async (t) => {
  // 300 files with the same words tie; 20 with an extra "kiwi" score higher. Names mix case,
  // digits and non-ASCII so that byte order differs from the build's unit order. Both the
  // string comparison (few ties) and the cached rank table (>= 256 ties) must give this.
  const files: Record<string, string> = {};
  // Each text differs in one word of letters (a repeated text would answer once).
  const word = (i: number): string => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26) % 26)}`;
  for (let i = 0; i < 300; i++) files[`${['Z', 'a', 'é', 'b'][i % 4]}${String((i * 7919) % 1000).padStart(3, '0')}.md`] = `tied kiwi ${word(i)}`;
  for (let i = 0; i < 20; i++) files[`hot-${i}.md`] = `kiwi kiwi ${word(i)}`;
  const dir = t.testdir({ src: files });
  await buildV1(join(dir, 'src'), join(dir, 'cache'));
  const engine = openEngine(join(dir, 'cache'));
  for (let round = 0; round < 2; round++) {
    const a = JSON.parse(compact(engine.resolve('kiwi', 100000))) as Answer; // scores as printed
    const expected = [...a.documents]
      .map((d) => ({ id: d.id, score: d.score }))
      .sort((x, y) => (y.score !== x.score ? y.score - x.score : byBytes(x.id, y.id)))
      .map((d) => d.id);
    t.equal(a.documents.length, 320, `round ${round}: every file selected`);
    t.same(a.documents.map((d) => d.id), expected, `round ${round}: score descending, then id in byte order`);
    t.equal(new Set(a.documents.slice(20).map((d) => d.score)).size, 1, 'the 300 are tied');
  }
  const few = JSON.parse(compact(engine.resolve('kiwi', 30))) as Answer; // few candidates fit; same order rule
  t.ok(few.documents.every((d, i, all) => i === 0 || (all[i - 1] as Doc).score >= d.score));
  engine.close();
});

t.test('engine.md: order uses the printed binary32 value — binary64 differences below it fall back to the id', async (t) => {
  // Two units that differ only in body length (L + 1 vs L): their binary64 scores differ by
  // ~1e-10 relative, far below binary32's resolution. The longer one (lower binary64 score)
  // has the smaller id, so only a binary32 comparison puts it first.
  const L = 4_000_000_000;
  const index = new IndexReader(
    encodeIndex({
      docCount: 2,
      fieldCount: 4,
      units: [
        { doc: 0, start: 0, end: 1, tokens: 1, words: 1, lengths: [L + 1, 0, 0, 1], slug: '', trail: [] },
        { doc: 1, start: 0, end: 1, tokens: 1, words: 1, lengths: [L, 0, 0, 1], slug: '', trail: [] },
      ],
      terms: ['x'],
      postings: [{ units: Uint32Array.from([0, 1]), tfs: Uint32Array.from([1, 0, 0, 0, 1, 0, 0, 0]) }],
    }),
  );
  const ranking = { k1: 1.2, b: 0.75, weights: [1, 0.75, 1.5, 2.5] };
  const raw = rankUnits(index, ['x'], ranking).scores;
  t.ok((raw[0] as number) < (raw[1] as number), 'binary64: a.md scores lower');
  t.equal(Math.fround(raw[0] as number), Math.fround(raw[1] as number), 'binary32: equal');
  const doc = (path: string) => ({ path, version: versionOf('x'), pack: 0, offset: 0, bytes: 1 });
  const cache: V1Cache = {
    manifest: {
      cacheVersion: versionOf('test'),
      buildConfig: {},
      config: { options: FILE_OPTIONS, ranking },
      createdAt: CREATED_AT,
      sourceRoot: null,
      label: null,
      documentCount: 2,
      documents: documentList([doc('a.md'), doc('b.md')]),
      packs: [{ bytes: 1, sha256: '', documents: 2, units: 2, head: { bytes: 0, sha256: '' } }],
      terms: [],
    },
    index,
    terms: null,
    text: (d: number) => (d === 0 ? 'x' : 'X'), // two texts: one repeated would answer once
    close: () => undefined,
  };
  const answer = resolveV1(cache, 'x', 10) as unknown as Answer;
  t.same(answer.documents.map((d) => d.id), ['a.md', 'b.md'], 'tie in the printed value: id order');
});

t.test('engine.md: invalid budgets and queries are refused exactly as v0 refuses them', async (t) => {
  const { cache: v1, dir } = await corpusCache(t, { v0src: { 'a.md': 'kiwi' } });
  buildCache({ sources: join(dir, 'v0src'), cache: join(dir, 'v0'), force: false, createdAt: CREATED_AT });
  const v0 = join(dir, 'v0');
  const codeOf = (cache: string, query: unknown, budget: unknown): string => {
    try {
      resolveText(cache, query, budget);
      return 'ok';
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    }
  };
  const cases: [unknown, unknown, string][] = [
    ['kiwi', -1, 'invalid_budget'],
    ['kiwi', 1.5, 'invalid_budget'],
    ['kiwi', '10', 'invalid_budget'],
    ['kiwi', null, 'invalid_budget'],
    ['kiwi', 2 ** 53, 'invalid_budget'],
    ['kiwi', Number.NaN, 'invalid_budget'],
    [42, 10, 'invalid_query'],
    [null, 10, 'invalid_query'],
    ['\uD800 lone', 10, 'invalid_query'],
    ['x'.repeat(64 * 1024 + 1), 10, 'invalid_query'],
    [42, -1, 'invalid_budget'],
    ['x'.repeat(64 * 1024), 10, 'ok'],
    ['kiwi', 2 ** 53 - 1, 'ok'],
  ];
  for (const [query, budget, code] of cases) {
    const label = `${typeof query === 'string' ? `${query.length}-char query` : String(query)}, budget ${String(budget)}`;
    t.equal(codeOf(v1, query, budget), code, `v1: ${label}`);
    t.equal(codeOf(v0, query, budget), code, `v0: ${label}`);
  }
  t.equal(codeOf(join(dir, 'missing'), 'kiwi', 10), 'cache_missing');
});

t.test('cache-format.md: a v0 reader refuses a format-2 cache as cache_invalid; openEngine picks by build_config', async (t) => {
  const { cache: v1, dir } = await corpusCache(t, { v0src: { 'a.md': 'kiwi' } });
  t.throws(() => loadCache(v1), { code: 'cache_invalid' }, 'lib/core/engine/v0/load.ts loadCache');
  const report = verifyCache(v1);
  t.equal(report.valid, false, 'v0 verify: invalid');
  t.equal(report.checks.find((c) => c.name === 'manifest')?.ok, false, 'its manifest check names the cause');
  buildCache({ sources: join(dir, 'v0src'), cache: join(dir, 'v0'), force: false, createdAt: CREATED_AT });
  const e0 = openEngine(join(dir, 'v0'));
  const e1 = openEngine(v1);
  t.same([e0.name, e1.name], ['v0', 'v1']);
  t.match(e1.cacheVersion, /^sha256:[0-9a-f]{64}$/);
  e0.close();
  e1.close();
});
