// What an incremental build reuses from the cache it replaces: each old document's units,
// with their term frequencies recovered from the old index by inverting its postings once
// (O(postings), typed arrays). A reused unit is indistinguishable from a freshly analyzed
// one, which is why an incremental build writes exactly the bytes a full build writes.

import { FIELD_COUNT, type UnitTerms } from '../../analysis/term-counter.js';
import type { IndexReader } from '../../index/index-format.js';
import type { UnitInput } from '../../index/build-index.js';

export class PreviousIndex {
  /** The old pack's index, read. */
  readonly index: IndexReader;
  /** First unit of each old document (and the unit count at the end). */
  private readonly firstUnit: Uint32Array;
  private inverted: { dictionary: string[]; offsets: Uint32Array; termIds: Uint32Array; tfs: Uint32Array } | null = null;

  constructor(index: IndexReader) {
    this.index = index;
    this.firstUnit = index.firstUnits();
  }

  get unitCount(): number {
    return this.index.unitCount;
  }

  /** How many units old document `oldDoc` has. */
  unitCountOf(oldDoc: number): number {
    return (this.firstUnit[oldDoc + 1] as number) - (this.firstUnit[oldDoc] as number);
  }

  /** The units of old document `oldDoc`, renumbered as document `doc` of the new cache. */
  unitsOf(oldDoc: number, doc: number): UnitInput[] {
    const inv = this.invert();
    const out: UnitInput[] = [];
    const index = this.index;
    for (let u = this.firstUnit[oldDoc] as number; u < (this.firstUnit[oldDoc + 1] as number); u++) {
      const s = inv.offsets[u] as number;
      const e = inv.offsets[u + 1] as number;
      const lengths: number[] = [];
      for (let f = 0; f < FIELD_COUNT; f++) lengths.push(index.unitLength(u, f));
      const terms: UnitTerms = {
        termIds: inv.termIds.subarray(s, e),
        tfs: inv.tfs.subarray(s * FIELD_COUNT, e * FIELD_COUNT),
        lengths,
      };
      const { slug, trail } = index.unitStrings(u);
      out.push({
        doc,
        start: index.unitStart(u),
        end: index.unitEnd(u),
        tokens: index.unitTokens(u),
        words: index.unitWordCount(u),
        slug,
        trail,
        terms,
        dictionary: inv.dictionary,
      });
    }
    return out;
  }

  /** Postings turned around: per unit, its terms (dictionary indexes) and frequencies. */
  private invert(): { dictionary: string[]; offsets: Uint32Array; termIds: Uint32Array; tfs: Uint32Array } {
    if (this.inverted !== null) return this.inverted;
    const index = this.index;
    const dictionary: string[] = [];
    const lists = [];
    const counts = new Uint32Array(index.unitCount + 1);
    for (let t = 0; t < index.termCount; t++) {
      dictionary.push(index.term(t));
      const p = index.postings(t);
      lists.push(p);
      for (const u of p.units) counts[u + 1] = (counts[u + 1] as number) + 1;
    }
    const offsets = new Uint32Array(index.unitCount + 1);
    for (let u = 0; u < index.unitCount; u++) offsets[u + 1] = (offsets[u] as number) + (counts[u + 1] as number);
    const total = offsets[index.unitCount] as number;
    const termIds = new Uint32Array(total);
    const tfs = new Uint32Array(total * FIELD_COUNT);
    const fill = offsets.slice(0, index.unitCount);
    lists.forEach((p, t) => {
      for (let k = 0; k < p.units.length; k++) {
        const u = p.units[k] as number;
        const at = fill[u] as number;
        termIds[at] = t;
        tfs.set(p.tfs.subarray(k * FIELD_COUNT, (k + 1) * FIELD_COUNT), at * FIELD_COUNT);
        fill[u] = at + 1;
      }
    });
    this.inverted = { dictionary, offsets, termIds, tfs };
    return this.inverted;
  }
}
