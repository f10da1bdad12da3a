// Checks the lookups a long-lived server's index makes query after query
// (lib/core/index/index-format.ts IndexReader.mayHold and unitSlug,
// lib/core/index/packed-index.ts PackedIndex.termPostings): the dictionary filter never
// turns a present term away (no false negatives) and turns most absent ones away; a
// unit's slug alone is its strings' slug; postings kept for later queries are the same
// postings, bounded, whatever the order terms are asked in.
import t from 'tap';
import fc from 'fast-check';
import { encodeIndex, IndexReader, termHash, type IndexData, type IndexPostings } from '../../../lib/core/index/index-format.js';
import { PackedIndex } from '../../../lib/core/index/packed-index.js';

const FIELDS = 4;
const utf8 = new TextEncoder();
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** An index of `units` units over the given terms, unit u holding term i when (u + i) % 3 === 0. */
function indexOf(terms: readonly string[], units: number): Uint8Array {
  const sorted = [...new Set(terms)].sort(byBytes);
  const postings: IndexPostings[] = sorted.map((_, i) => {
    const us = Array.from({ length: units }, (_, u) => u).filter((u) => (u + i) % 3 === 0);
    return { units: Uint32Array.from(us), tfs: Uint32Array.from(us.flatMap((u) => [1 + (u % 2), 0, u % 3, 0])) };
  });
  const data: IndexData = {
    docCount: 1,
    fieldCount: FIELDS,
    units: Array.from({ length: units }, (_, u) => ({ doc: 0, start: u, end: u + 1, tokens: 1, words: 1, lengths: [1, 0, 1, 0], slug: u % 2 === 0 ? '' : `s-${u}`, trail: [`T${u}`] })),
    terms: sorted,
    postings,
  };
  return encodeIndex(data);
}

t.test('mayHold: every term of a dictionary is let through; absent terms mostly are not (~1.4 %)', async (t) => {
  const terms = Array.from({ length: 3000 }, (_, i) => `term${i}${i % 7 === 0 ? 'é' : ''}`);
  const r = new IndexReader(indexOf(terms, 6));
  const missed = terms.filter((term) => !r.mayHold(termHash(utf8.encode(term))));
  t.same(missed, [], 'no present term is turned away');
  let passed = 0;
  const absent = 20000;
  for (let i = 0; i < absent; i++) if (r.mayHold(termHash(utf8.encode(`absent${i}`)))) passed++;
  t.ok(passed / absent < 0.03, `absent terms let through: ${passed} of ${absent}`);
  t.ok(passed > 0, 'a filter, not an exact set: some absent terms pass (and are then looked up)');
  // Any dictionary, any term: no false negative.
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 60 }), (ts) => {
      const reader = new IndexReader(indexOf(ts, 3));
      return ts.every((term) => reader.mayHold(termHash(utf8.encode(term))));
    }),
    { numRuns: 200 },
  );
});

t.test('unitSlug(u) is unitStrings(u).slug, for an IndexReader and a PackedIndex', async (t) => {
  const readers = [new IndexReader(indexOf(['a', 'b'], 5)), new IndexReader(indexOf(['b', 'c'], 4))];
  const packed = new PackedIndex(readers, FIELDS);
  for (let u = 0; u < packed.unitCount; u++) t.equal(packed.unitSlug(u), packed.unitStrings(u).slug, `unit ${u}`);
  t.equal(readers[0]!.unitSlug(1), 's-1');
});

t.test('PackedIndex.termPostings: kept postings equal fresh ones, within the bound, in any order of asking', async (t) => {
  const packs = [
    ['alpha', 'beta', 'gamma', 'delta'],
    ['beta', 'delta', 'eps', 'zeta', 'é'],
    ['alpha', 'zeta', 'eta'],
  ];
  const readers = () => packs.map((terms, k) => new IndexReader(indexOf(terms, 7 + k)));
  const asked = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'é', 'absent', 'theta'];
  const plain = (p: IndexPostings | null): unknown => (p === null ? null : { units: Array.from(p.units), tfs: Array.from(p.tfs) });
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...asked), { minLength: 1, maxLength: 60 }), fc.integer({ min: 4, max: 40 }), (order, keptMax) => {
      const kept = new PackedIndex(readers(), FIELDS, keptMax);
      for (const term of order) {
        // A fresh index keeps nothing yet: what it gathers is the reference.
        const fresh = new PackedIndex(readers(), FIELDS).termPostings(term);
        if (JSON.stringify(plain(kept.termPostings(term))) !== JSON.stringify(plain(fresh))) return false;
        if (kept.keptPostings > keptMax) return false;
      }
      return true;
    }),
    { numRuns: 200 },
  );
  const index = new PackedIndex(readers(), FIELDS, 1000);
  const first = index.termPostings('beta');
  t.equal(index.termPostings('beta'), first, 'asked again: the kept postings themselves');
  t.equal(index.termPostings('absent'), null);
  t.equal(index.keptPostings, (first?.units.length ?? 0) + 1, 'an absent term is kept as one');
  // beta is term 1 of pack 0 (7 units: 2 and 5) and term 0 of pack 1 (8 units: 0, 3, 6).
  t.same(Array.from(index.termPostings('beta')?.units ?? []), [2, 5, 7 + 0, 7 + 3, 7 + 6], 'beta: the units of both packs that hold it, numbered in pack order');
});

t.test('PackedIndex.prepareLookups: filters built a few packs at a time, the same postings before, during and after', async (t) => {
  const { FILTERS_PER_LOOKUP } = await import('../../../lib/core/index/packed-index.js');
  // More packs than one lookup prepares: the first lookups search some packs without a filter.
  const packCount = FILTERS_PER_LOOKUP * 2 + 3;
  const termsOf = (k: number): string[] => [`t${k % 5}`, `u${k % 7}`, 'common', ...(k % 11 === 0 ? ['rare'] : [])];
  const readers = () => Array.from({ length: packCount }, (_, k) => new IndexReader(indexOf(termsOf(k), 2 + (k % 3))));
  const plain = (p: IndexPostings | null): unknown => (p === null ? null : { units: Array.from(p.units), tfs: Array.from(p.tfs) });
  const asked = ['common', 'rare', 't1', 'u6', 'absent', 't4'];
  // The reference: every pack's filter built before any lookup.
  const ready = new PackedIndex(readers(), FIELDS, 0);
  t.equal(ready.prepareLookups(packCount), true, 'every pack prepared: nothing left');
  const reference = asked.map((term) => plain(ready.termPostings(term)));
  const lazy = new PackedIndex(readers(), FIELDS, 0);
  const prepared = (index: PackedIndex): number => (index as unknown as { prepared: number }).prepared;
  t.same(plain(lazy.termPostings('common')), reference[0], 'the first lookup, most packs still without a filter: the same postings');
  t.equal(prepared(lazy), FILTERS_PER_LOOKUP, 'a lookup prepares FILTERS_PER_LOOKUP packs');
  t.equal(lazy.prepareLookups(FILTERS_PER_LOOKUP), false, 'idle work: more packs prepared, some still left');
  t.equal(prepared(lazy), 2 * FILTERS_PER_LOOKUP);
  t.same(asked.map((term) => plain(lazy.termPostings(term))), reference, 'every later lookup, whatever is prepared: the same postings');
  t.equal(lazy.prepareLookups(1), true, 'the lookups finished the preparing');
  t.same(asked.map((term) => plain(lazy.termPostings(term))), reference, 'and after: the same');
});
