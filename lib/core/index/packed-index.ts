// The index of a cache whose units are spread over several packs, each with its own index
// (lib/core/engine/v1/manifest.ts): one numbering of units (pack order, then each pack's
// own), a term's postings gathered from every pack that holds it, and each field's length
// summed over all units. Lengths and postings are integers, so a term's document frequency
// and every field's average are exactly what one index of all the units would give, and
// so are the scores.

import { IndexFormatError } from './bytes.js';
import type { IndexPostings, IndexReader } from './index-format.js';

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

export class PackedIndex implements UnitIndex {
  readonly unitCount: number;
  readonly fieldCount: number;
  readonly lengthSums: readonly number[];
  private readonly readers: readonly IndexReader[];
  /** First unit and first document of each pack (and the totals at the end). */
  private readonly unitBase: Uint32Array;
  private readonly docBase: Uint32Array;
  /** The pack of each unit. */
  private readonly packOf: Uint32Array;

  constructor(readers: readonly IndexReader[], fieldCount: number) {
    this.readers = readers;
    this.fieldCount = fieldCount;
    this.unitBase = new Uint32Array(readers.length + 1);
    this.docBase = new Uint32Array(readers.length + 1);
    const sums = new Array<number>(fieldCount).fill(0);
    readers.forEach((r, k) => {
      if (r.fieldCount !== fieldCount) throw new IndexFormatError('packs index another number of fields');
      this.unitBase[k + 1] = (this.unitBase[k] as number) + r.unitCount;
      this.docBase[k + 1] = (this.docBase[k] as number) + r.docCount;
      for (let f = 0; f < fieldCount; f++) sums[f] = (sums[f] as number) + (r.lengthSums[f] as number);
    });
    this.lengthSums = sums;
    this.unitCount = this.unitBase[readers.length] as number;
    this.packOf = new Uint32Array(this.unitCount);
    readers.forEach((_, k) => this.packOf.fill(k, this.unitBase[k] as number, this.unitBase[k + 1] as number));
  }

  private reader(u: number): IndexReader {
    return this.readers[this.packOf[u] as number] as IndexReader;
  }

  private local(u: number): number {
    return u - (this.unitBase[this.packOf[u] as number] as number);
  }

  unitDoc(u: number): number {
    return (this.docBase[this.packOf[u] as number] as number) + this.reader(u).unitDoc(this.local(u));
  }

  unitStart(u: number): number {
    return this.reader(u).unitStart(this.local(u));
  }

  unitEnd(u: number): number {
    return this.reader(u).unitEnd(this.local(u));
  }

  unitTokens(u: number): number {
    return this.reader(u).unitTokens(this.local(u));
  }

  unitWordCount(u: number): number {
    return this.reader(u).unitWordCount(this.local(u));
  }

  unitLength(u: number, field: number): number {
    return this.reader(u).unitLength(this.local(u), field);
  }

  unitStrings(u: number): { slug: string; trail: string[] } {
    return this.reader(u).unitStrings(this.local(u));
  }

  termPostings(term: string): IndexPostings | null {
    const parts: { base: number; p: IndexPostings }[] = [];
    let total = 0;
    this.readers.forEach((r, k) => {
      const at = r.findTerm(term);
      if (at < 0) return;
      const p = r.postings(at);
      parts.push({ base: this.unitBase[k] as number, p });
      total += p.units.length;
    });
    if (parts.length === 0) return null;
    const units = new Uint32Array(total);
    const tfs = new Uint32Array(total * this.fieldCount);
    let at = 0;
    for (const { base, p } of parts) {
      for (let i = 0; i < p.units.length; i++) units[at + i] = base + (p.units[i] as number);
      tfs.set(p.tfs, at * this.fieldCount);
      at += p.units.length;
    }
    return { units, tfs };
  }
}
