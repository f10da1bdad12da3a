// The index of a cache whose units are spread over several packs, each with its own index
// (lib/core/engine/v1/manifest.ts): one numbering of units (pack order, then each pack's
// own), a term's postings gathered from every pack that holds it, and each field's length
// summed over all units. Lengths and postings are integers, so a term's document frequency
// and every field's average are exactly what one index of all the units would give, and
// so are the scores.

import { IndexFormatError } from './bytes.js';
import { type IndexPostings, type IndexReader, UnitRows } from './index-format.js';

const utf8 = new TextEncoder();

/** What ranking and answering read of an index (IndexReader and PackedIndex both offer it). */
export interface UnitIndex {
  readonly unitCount: number;
  readonly fieldCount: number;
  readonly lengthSums: readonly number[];
  unitDoc(u: number): number;
  unitStart(u: number): number;
  unitEnd(u: number): number;
  unitTokens(u: number): number;
  unitWordCount(u: number): number;
  unitLength(u: number, field: number): number;
  unitStrings(u: number): { slug: string; trail: string[] };
  /** The term's postings, units ascending; null when no unit holds it. */
  termPostings(term: string): IndexPostings | null;
}

export class PackedIndex extends UnitRows implements UnitIndex {
  readonly unitCount: number;
  readonly fieldCount: number;
  readonly lengthSums: readonly number[];
  private readonly readers: readonly IndexReader[];
  /** First unit of each pack (and the total at the end). */
  private readonly unitBase: Uint32Array;
  /** The pack of each unit. */
  private readonly packOf: Uint32Array;

  constructor(readers: readonly IndexReader[], fieldCount: number) {
    super();
    this.readers = readers;
    this.fieldCount = fieldCount;
    const words = 5 + fieldCount;
    this.unitBase = new Uint32Array(readers.length + 1);
    const sums = new Array<number>(fieldCount).fill(0);
    readers.forEach((r, k) => {
      if (r.fieldCount !== fieldCount) throw new IndexFormatError('packs index another number of fields');
      this.unitBase[k + 1] = (this.unitBase[k] as number) + r.unitCount;
      for (let f = 0; f < fieldCount; f++) sums[f] = (sums[f] as number) + (r.lengthSums[f] as number);
    });
    this.lengthSums = sums;
    this.unitCount = this.unitBase[readers.length] as number;
    this.packOf = new Uint32Array(this.unitCount);
    // The rows (UnitRows): every pack's, one after the other, each document renumbered in pack order.
    const rows = new Uint32Array(this.unitCount * words);
    let docBase = 0;
    readers.forEach((r, k) => {
      const from = this.unitBase[k] as number;
      this.packOf.fill(k, from, this.unitBase[k + 1] as number);
      const at = from * words;
      rows.set(r.unitRows(), at);
      for (let u = 0; u < r.unitCount; u++) rows[at + u * words] = (rows[at + u * words] as number) + docBase;
      docBase += r.docCount;
    });
    this.rows = rows;
    this.rowWords = words;
  }

  unitStrings(u: number): { slug: string; trail: string[] } {
    const k = this.packOf[u] as number;
    return (this.readers[k] as IndexReader).unitStrings(u - (this.unitBase[k] as number));
  }

  termPostings(term: string): IndexPostings | null {
    const key = utf8.encode(term);
    // Where the term is (pack, dictionary index), and how many postings in all: then one
    // decoding pass straight into the merged arrays, each pack's units numbered after the last.
    const hits: number[] = [];
    let total = 0;
    this.readers.forEach((r, k) => {
      const at = r.findTermBytes(key);
      if (at < 0) return;
      hits.push(k, at);
      total += r.postingCount(at);
    });
    if (hits.length === 0) return null;
    const units = new Uint32Array(total);
    const tfs = new Uint32Array(total * this.fieldCount);
    let at = 0;
    for (let h = 0; h < hits.length; h += 2) {
      const k = hits[h] as number;
      at += (this.readers[k] as IndexReader).postingsInto(hits[h + 1] as number, units, tfs, at, this.unitBase[k] as number);
    }
    return { units, tfs };
  }
}
