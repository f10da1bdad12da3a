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
let latest: TermCounter | null = null;
/** The counter unitsOf made last. */
const lastCounter = (): TermCounter => latest as TermCounter;

function unitsOf(texts: readonly string[], cuts: readonly number[]): UnitInput[] {
  const units: UnitInput[] = [];
  let counter = new TermCounter();
  latest = counter;
  texts.forEach((text, i) => {
    if (cuts.includes(i)) latest = counter = new TermCounter();
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

// "Both cores busy to the end … the final merge cheap (dictionaries sorted once, compared as
// bytes)" (Builds at native speed on real text, What to build item 2): a build sorts its
// dictionaries once (TermOrder) and writes each pack's index from flat postings
// (encodeUnits). Every byte must be the reference's, encodeIndex(buildIndexData(...)): with
// the order, without it, and for units of a dictionary the order does not hold (an old
// pack's units in an incremental build), one order serving many indexes in turn.
t.test('build-index.ts: encodeUnits with a TermOrder writes the reference bytes (property)', async (t) => {
  const { encodeUnits, TermOrder } = await import('../../../lib/core/index/build-index.js');
  const word = fc.constantFrom('alpha', 'Beta', 'useState', 'é', '日本', '\uFE20', '\u{10428}', '\ud800', 'x86_64', 'installing', 'zed', 'a', 'ab', 'b');
  const texts = fc.array(fc.array(word, { maxLength: 12 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 14 });
  let checked = 0;
  fc.assert(
    fc.property(texts, fc.uniqueArray(fc.nat({ max: 13 }), { maxLength: 4 }), fc.nat({ max: 13 }), fc.boolean(), (docs, cuts, from, foreign) => {
      const units = unitsOf(docs, cuts);
      const dictionaries = [...new Set(units.map((u) => u.dictionary))];
      // A foreign dictionary is left out of the order: those units take the fallback path.
      const order = new TermOrder(foreign ? dictionaries.slice(1) : dictionaries);
      const reference = (list: UnitInput[]): Buffer => Buffer.from(encodeIndex(buildIndexData(list.length, FIELD_COUNT, list)));
      // Two indexes in turn from one order (as packs are), each renumbered from 0.
      const first = units.slice(0, from).map((u, doc) => ({ ...u, doc }));
      const second = units.slice(from).map((u, doc) => ({ ...u, doc }));
      for (const list of [first, second, units]) {
        const fast = Buffer.from(encodeUnits(list.length, FIELD_COUNT, list, order));
        if (!fast.equals(reference(list))) return false;
        if (!Buffer.from(encodeUnits(list.length, FIELD_COUNT, list)).equals(reference(list))) return false;
        checked++;
      }
      return true;
    }),
    { numRuns: 300, seed: 24 },
  );
  t.equal(checked, 900, '300 random corpora, three indexes each, with and without the order: byte-identical to the reference');
});

// The same, with the order a thread gives its own counter (TermCounter.byteRanks): the
// packs a build makes beside the analysis (lib/core/engine/v1/packs.ts packsWithin) order
// each chunk's terms by their ranks among the thread's terms, sorted once per chunk.
t.test('build-index.ts: encodeUnits with a counter\'s own byte ranks writes the reference bytes (property)', async (t) => {
  const { encodeUnits, TermOrder } = await import('../../../lib/core/index/build-index.js');
  const word = fc.constantFrom('alpha', 'Beta', 'useState', 'é', '日本', '\uFE20', '\u{10428}', '\ud800', 'x86_64', 'installing', 'zed', 'a', 'ab', 'b');
  const texts = fc.array(fc.array(word, { maxLength: 12 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 14 });
  let checked = 0;
  fc.assert(
    fc.property(texts, fc.nat({ max: 13 }), (docs, from) => {
      const units = unitsOf(docs, []);
      const dictionary = (units[0] as UnitInput).dictionary;
      const counterOrder = new TermOrder([dictionary], lastCounter().byteRanks());
      const reference = (list: UnitInput[]): Buffer => Buffer.from(encodeIndex(buildIndexData(list.length, FIELD_COUNT, list)));
      for (const list of [units.slice(0, from), units.slice(from)].map((l) => l.map((u, doc) => ({ ...u, doc })))) {
        if (!Buffer.from(encodeUnits(list.length, FIELD_COUNT, list, counterOrder)).equals(reference(list))) return false;
        checked++;
      }
      return true;
    }),
    { numRuns: 300, seed: 24 },
  );
  t.equal(checked, 600, '300 random corpora, two indexes each from one order: byte-identical to the reference');
  t.throws(() => new TermOrder([['a', 'b']], { terms: ['a', 'b'], ranks: new Int32Array(1) }), /one per term/, 'ranks must cover the dictionary');
});

t.test('build-index.ts: TermOrder sorts every dictionary\'s terms once, by UTF-8 bytes, and ranks them per dictionary', async (t) => {
  const { TermOrder } = await import('../../../lib/core/index/build-index.js');
  const one = ['zed', '\u{10428}', 'alpha'];
  const two = ['\uFE20', 'alpha', 'beta'];
  const order = new TermOrder([one, two]);
  t.same(order.terms, ['alpha', 'beta', 'zed', '\uFE20', '\u{10428}'], 'distinct, in UTF-8 byte order (U+FE20 before U+10428, unlike UTF-16 order)');
  t.same(Array.from(order.ranksOf(one) ?? []), [2, 4, 0], 'the rank of each local term');
  t.same(Array.from(order.ranksOf(two) ?? []), [3, 0, 1]);
  t.equal(order.ranksOf(['alpha']), undefined, 'another dictionary (even with the same terms) is not in the order');
});
