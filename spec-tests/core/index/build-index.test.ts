// Checks lib/core/index/build-index.ts ("one dictionary sorted by UTF-8 byte order, and per
// term the postings in unit order. The result depends only on the units and their terms,
// never on how the work was split between threads") — the property that makes a build on
// worker threads byte-identical to a build on one thread.
import t from 'tap';
import fc from 'fast-check';
import { analyzeText } from '../../../lib/core/analysis/analyzer.js';
import { FIELD_COUNT, TermCounter } from '../../../lib/core/analysis/term-counter.js';
import { buildIndexData, type UnitInput } from '../../../lib/core/index/build-index.js';
import { encodeIndex } from '../../../lib/core/index/index-format.js';

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Units of `texts` (one per text, body field), counted by a new counter at each cut. */
function unitsOf(texts: readonly string[], cuts: readonly number[]): UnitInput[] {
  const units: UnitInput[] = [];
  let counter = new TermCounter();
  texts.forEach((text, i) => {
    if (cuts.includes(i)) counter = new TermCounter();
    counter.count(text, 0);
    counter.count(`doc${i}`, 3);
    units.push({ doc: i, start: 0, end: text.length, tokens: i, words: i, slug: '', trail: [], terms: counter.finishUnit(), dictionary: counter.terms });
  });
  return units;
}

t.test('build-index.ts: the index does not depend on how units were split between counters (property)', async (t) => {
  const word = fc.constantFrom('alpha', 'Beta', 'useState', 'é', '日本', '\uFE20', '\u{10428}', 'x86_64', 'installing', 'zed');
  const texts = fc.array(fc.array(word, { maxLength: 12 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 12 });
  fc.assert(
    fc.property(texts, fc.uniqueArray(fc.nat({ max: 11 }), { maxLength: 4 }), (docs, cuts) => {
      const one = encodeIndex(buildIndexData(docs.length, FIELD_COUNT, unitsOf(docs, [])));
      const split = encodeIndex(buildIndexData(docs.length, FIELD_COUNT, unitsOf(docs, cuts)));
      return Buffer.from(one).equals(Buffer.from(split));
    }),
    { numRuns: 300 },
  );
  t.pass('300 random corpora, split at random points: byte-identical index');
});

t.test('build-index.ts: dictionary in UTF-8 byte order, postings in unit order with per-field counts', async (t) => {
  const docs = ['\u{10428} zed alpha', '\uFE20 alpha alpha', 'zed'];
  // Count the units in reverse order of first use, across two counters, to show order comes from the data.
  const data = buildIndexData(docs.length, FIELD_COUNT, unitsOf(docs, [2]));
  const expectedTerms = [...new Set(docs.flatMap((d, i) => [...analyzeText(d), ...analyzeText(`doc${i}`)]))].sort(byBytes);
  t.same(data.terms, expectedTerms);
  t.ok(data.terms.indexOf('\uFE20') < data.terms.indexOf('\u{10428}'), 'U+FE20 before U+10428 (UTF-8), unlike UTF-16 order (NFKC-stable characters: the analyzer keeps them as they are)');
  const alpha = data.postings[data.terms.indexOf('alpha')];
  t.same(Array.from(alpha?.units ?? []), [0, 1], 'postings list the units holding the term, ascending');
  t.same(Array.from(alpha?.tfs ?? []), [1, 0, 0, 0, 2, 0, 0, 0], 'frequency per field, FIELDS order (body first)');
  const zed = data.postings[data.terms.indexOf('zed')];
  t.same(Array.from(zed?.units ?? []), [0, 2], 'a term counted by two counters still has one postings list');
  t.same(data.units.map((u) => u.lengths), [[3, 0, 0, 1], [3, 0, 0, 1], [1, 0, 0, 1]], 'field lengths per unit');
  t.equal(data.docCount, 3);
});
