// Checks docs/engine.md "What is ranked" (order by the printed binary32 score descending,
// then id in UTF-8 byte order) for lib/core/engine/v1/order.ts's UnitQueue, which takes
// units lazily from a heap instead of sorting every match: for random scores with many
// ties, random ids and both tie paths (string comparison, and the rank table used once a
// group of 256+ ties appears), it yields exactly the fully sorted order. And resolve.ts's
// compareUnitIds, the comparison a query hands it, agrees with comparing the ids' bytes.
import t from 'tap';
import fc from 'fast-check';
import { UnitQueue } from '../../../../lib/core/engine/v1/order.js';
import { compareUnitIds, unitId } from '../../../../lib/core/engine/v1/resolve.js';
import type { V1Cache } from '../../../../lib/core/engine/v1/load.js';
import { byBytes } from './fixture.js';

t.test('UnitQueue yields the order a full sort by (binary32 score desc, id asc) gives', async (t) => {
  let runs = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 700 }),
      fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (count, palette, seed) => {
        // Scores drawn from a small palette: ties are the rule, not the exception.
        let x = seed;
        const rand = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
        const unitCount = count + 5;
        const scores = new Float64Array(unitCount);
        const ids: string[] = [];
        for (let u = 0; u < unitCount; u++) {
          scores[u] = palette[Math.floor(rand() * palette.length)] as number;
          ids.push(`${['b', 'B', 'é', 'a/x', '\u{1F600}'][Math.floor(rand() * 5)]}${Math.floor(rand() * 1e6)}-${u}.md`);
        }
        const units = Uint32Array.from({ length: count }, (_, i) => (i * 7 + 3) % unitCount).filter((u, i, all) => all.indexOf(u) === i);
        const ranks = new Uint32Array(unitCount);
        Array.from(ids.keys()).sort((a, b) => byBytes(ids[a] as string, ids[b] as string)).forEach((u, r) => (ranks[u] = r));
        const queue = new UnitQueue(units, scores, (a, b) => byBytes(ids[a] as string, ids[b] as string), () => ranks);
        const got: number[] = [];
        for (let u = queue.next(); u >= 0; u = queue.next()) got.push(u);
        const f32 = (u: number): number => Math.fround(scores[u] as number);
        const expected = Array.from(units).sort((a, b) => f32(b) - f32(a) || byBytes(ids[a] as string, ids[b] as string));
        runs++;
        return got.length === expected.length && got.every((u, i) => u === expected[i]) && queue.next() === -1;
      },
    ),
    { seed: 20261123, numRuns: 200 },
  );
  t.equal(runs, 200, 'every generated case held');
});

t.test('compareUnitIds orders units as their ids compare in byte order, paths that begin others included', async (t) => {
  // Paths in byte order (as a manifest lists them), several beginning others and followed by
  // characters below, at and above '#': "a b" < "a#x" but "a" < "a b".
  const paths = ['a', 'a b', 'a!', 'a"q', 'a#', 'a$', 'a-b', 'a.md', 'a.md b', 'a.md b c', 'a.md!', 'a/b', 'aa', 'aaa', 'b', 'é', '\u{1F600}'].sort(byBytes);
  let runs = 0;
  fc.assert(
    fc.property(
      fc.array(fc.record({ doc: fc.integer({ min: 0, max: paths.length - 1 }), slug: fc.constantFrom('', 'x', 'x~2', 'a', ' ', '!', 'é') }), { minLength: 2, maxLength: 40 }),
      (units) => {
        const cache = {
          manifest: { documents: paths.map((path) => ({ path })) },
          index: { unitDoc: (u: number) => units[u]!.doc, unitSlug: (u: number) => units[u]!.slug },
        } as unknown as V1Cache;
        const idOf = (u: number): string => unitId(paths[units[u]!.doc]!, units[u]!.slug);
        const compare = compareUnitIds(cache, idOf);
        for (let a = 0; a < units.length; a++) {
          for (let b = 0; b < units.length; b++) {
            if (idOf(a) === idOf(b)) continue; // one unit twice: ids are distinct in a cache
            if (Math.sign(compare(a, b)) !== Math.sign(byBytes(idOf(a), idOf(b)))) return false;
          }
        }
        runs++;
        return true;
      },
    ),
    { seed: 20261126, numRuns: 300 },
  );
  t.equal(runs, 300, 'every generated case held');
});
