// Checks docs/engine.md "Queries as people write them" ("Answers that fit, by default", What to
// build item 4: "English stopwords and question words do not score on their own and never
// match the path field (a query made only of them still works); code tokens are kept whole as
// well as split") against lib/core/ranking/bm25.ts on a hand-written index, and end to end on
// a built v1 cache: the issue's own failure ("why" matching why.md through its path), a
// stopword-only query, and code tokens found whole.
import t from 'tap';
import { join } from 'node:path';
import { openEngine } from '../../../lib/core/engine/engine.js';
import { encodeIndex, IndexReader, type IndexData } from '../../../lib/core/index/index-format.js';
import { explainUnit, idfOf, rankUnits, type RankingParams } from '../../../lib/core/ranking/bm25.js';
import { compact } from '../../../lib/json.js';
import { buildV1 } from '../engine/v1/fixture.js';

const PARAMS: RankingParams = { k1: 1.2, b: 0.75, weights: [1, 0.75, 1.5, 2.5] };

// Fields body, headings, title, path. Three units, every field length 2.
//   "the"     (a stopword): u0 body 1 + path 1; u2 path 1
//   "undefin" (a word):     u1 body 1; u2 path 1
//   "whi"     (a stopword): u0 path 1; u1 body 1
const INDEX: IndexData = {
  docCount: 3,
  fieldCount: 4,
  units: [0, 1, 2].map((doc) => ({ doc, start: 0, end: 0, tokens: 1, words: 2, lengths: [2, 2, 2, 2], slug: '', trail: [] })),
  terms: ['the', 'undefin', 'whi'],
  postings: [
    { units: Uint32Array.from([0, 2]), tfs: Uint32Array.from([1, 0, 0, 1, 0, 0, 0, 1]) },
    { units: Uint32Array.from([1, 2]), tfs: Uint32Array.from([1, 0, 0, 0, 0, 0, 0, 1]) },
    { units: Uint32Array.from([0, 1]), tfs: Uint32Array.from([0, 0, 0, 1, 1, 0, 0, 0]) },
  ],
};
const reader = new IndexReader(encodeIndex(INDEX));
// All lengths equal their average: the length normalisation is k1 · 1.
const shareOf = (w: number, df: number, tf: number): number => w * idfOf(3, df) * ((tf * 2.2) / (tf + 1.2));

t.test('item 4: a stopword never scores through the path field; a unit matched only there is not matched', async (t) => {
  const why = rankUnits(reader, ['whi'], PARAMS);
  t.same([...why.units], [1], 'why.md (u0, "whi" in its path only) is not matched');
  t.equal(why.scores[0], 0);
  t.equal(why.scores[1], shareOf(1, 2, 1), 'the body match scores as any term');
  const the = rankUnits(reader, ['the'], PARAMS);
  t.same([...the.units], [0], 'u2 holds "the" in its path only');
  t.equal(the.scores[0], shareOf(1, 2, 1), 'u0: the body share alone, its path share left out');
  const m = explainUnit(reader, the, 0, PARAMS);
  t.same(m.map((x) => [x.term, x.tfs]), [['the', [1, 0, 0, 0]]], 'why.matches: the path frequency reads 0');
  t.equal(m[0]?.score, the.scores[0], 'the share is the score');
  t.same(explainUnit(reader, the, 2, PARAMS), [], 'nothing to explain where it did not score');
});

t.test('item 4: other terms still score through the path field', async (t) => {
  const r = rankUnits(reader, ['undefin'], PARAMS);
  t.same([...r.units], [1, 2]);
  t.equal(r.scores[2], shareOf(2.5, 2, 1), 'u2: its path share');
});

t.test('item 4 end to end: "why is my X undefined" does not pull in why.md; stopword-only and code queries work', async (t) => {
  const dir = t.testdir({
    src: {
      'why.md': '# About\n\nWe started this project to make builds reproducible for everyone.\n',
      'guide': {
        'errors.md': '# Errors\n\n## Undefined values\n\nWhen a variable reads undefined, x was never assigned before the call.\n',
        'rc.md': '# Shared ownership\n\nUse `Rc<T>` to share a value; call `Rc::clone(&a)` for another pointer.\n',
        'islands.md': '# Islands\n\nAdd `client:load` to hydrate a component at once; `client:idle` waits.\n',
        'rust.md': '# Errors in Rust\n\nThe `?` operator returns the error early. Why early? Less nesting.\n',
      },
      'the-end.md': 'Nothing but filler words here.\n',
    },
  });
  await buildV1(join(dir, 'src'), join(dir, 'cache'));
  const engine = openEngine(join(dir, 'cache'));
  t.teardown(() => engine.close());
  // Each entry with the answer's scoring terms (selection.terms, printed once for all) and its own matched terms.
  const ask = (q: string): { id: string; terms: string[]; matched: string[] }[] => {
    const answer = JSON.parse(compact(engine.resolve(q, 100000))) as { documents: { id: string; why: { matches: { term: string }[] } }[]; selection: { terms: string[] } };
    return answer.documents.map((d) => ({ id: d.id, terms: answer.selection.terms, matched: d.why.matches.map((m) => m.term) }));
  };

  const undefinedQ = ask('why is my X undefined');
  t.same(undefinedQ.map((d) => d.id), ['guide/errors.md'], 'only the answer: why.md is not matched through its path');
  t.same(undefinedQ[0]?.terms, ['undefin', 'x'], 'selection.terms lists the scoring terms');

  const why = ask('why');
  t.same(why.map((d) => d.id), ['guide/rust.md'], 'a stopword-only query still answers, from the text that holds it...');
  t.same(why[0]?.terms, ['whi']);
  t.notOk(why.some((d) => d.id === 'why.md'), '...never through the path field: why.md holds "why" only in its path');
  t.equal(ask('why this project')[0]?.id, 'why.md', 'a query with content words finds it by its text');
  t.notOk(ask('the').some((d) => d.id === 'the-end.md'), '"the": the-end.md holds it only in its path');

  t.same(ask('Rc<T>')[0], { id: 'guide/rc.md', terms: ['rc', 'rc<t>'], matched: ['rc', 'rc<t>'] }, 'Rc<T> found whole');
  t.same(ask('client:load')[0], { id: 'guide/islands.md', terms: ['client', 'client:load', 'load'], matched: ['client', 'client:load', 'load'] }, 'client:load found whole');
  t.same(ask('client:idle').map((d) => d.id), ['guide/islands.md'], 'client:idle too');
  t.same(ask('Rc::clone')[0]?.matched, ['clone', 'rc', 'rc::clone'], 'Rc::clone whole: the text has `Rc::clone(&a)`');
  t.same(ask('what does ? do').map((d) => d.id), ['guide/rust.md'], '? standing alone in code is a term');
  t.same(ask('what does ? do')[0]?.terms, ['?'], '...and the only scoring term of that query');
});
