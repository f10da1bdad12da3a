// The index of a cache whose units are spread over several packs, each with its own index
// (lib/core/engine/v1/manifest.ts): one numbering of units (pack order, then each pack's
// own), a term's postings gathered from every pack that holds it, and each field's length
// summed over all units. Lengths and postings are integers, so a term's document frequency
// and every field's average are exactly what one index of all the units would give, and
// so are the scores.

import { IndexFormatError } from './bytes.js';
import { type IndexPostings, type IndexReader, termHash, UnitRows } from './index-format.js';

const utf8 = new TextEncoder();
/** Postings a PackedIndex keeps for later queries, at most (~20 MB with 4 fields). */
export const POSTINGS_KEPT = 1 << 20;
/**
 * Packs whose term filter (IndexReader.prepareFilter) a lookup builds, at most. A pack
 * without one is searched directly (the same answer); building every pack's at the first
 * lookup made a 100,000-document server's first answer ~0.5 s slower (3,174 packs, 21
 * million terms hashed), where a binary search in each costs a few milliseconds a term.
 */
export const FILTERS_PER_LOOKUP = 64;

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
  /** The unit's slug alone (= unitStrings(u).slug). */
  unitSlug(u: number): string;
  /** The term's postings, units ascending; null when no unit holds it. */
  termPostings(term: string): IndexPostings | null;
  /**
   * The index answers one query and is dropped (a CLI resolve, lib/core/engine/v1/load.ts):
   * what ranking would compute once per unit for later queries is computed where used.
   */
  readonly oneQuery?: boolean;
  /** Prepares lookups of up to `packs` more packs; true when none is left (PackedIndex). */
  prepareLookups?(packs: number): boolean;
}

export class PackedIndex extends UnitRows implements UnitIndex {
  readonly unitCount: number;
  readonly fieldCount: number;
  readonly lengthSums: readonly number[];
  private readonly readers: readonly IndexReader[];
  /** First unit of each pack (and the total at the end). */
  private readonly unitBase: Uint32Array;
  /** First document of each pack (and the total at the end). */
  private readonly docBase: Uint32Array;
  /** The pack of each unit. */
  private readonly packOf: Uint32Array;
  /** Postings of terms asked for before (termPostings), in order of use. */
  private readonly kept = new Map<string, IndexPostings | null>();
  private keptCount = 0;
  /** Packs [0, prepared) have had their lookups prepared (FILTERS_PER_LOOKUP). */
  private prepared = 0;

  /** How many postings are kept now (each term absent from every pack counts as one). */
  get keptPostings(): number {
    return this.keptCount;
  }

  /** Postings kept across termPostings calls, at most (POSTINGS_KEPT unless a test asks for fewer). */
  private readonly keptMax: number;

  readonly oneQuery: boolean;

  constructor(readers: readonly IndexReader[], fieldCount: number, keptMax = POSTINGS_KEPT, oneQuery = false) {
    super();
    this.keptMax = keptMax;
    this.oneQuery = oneQuery;
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
    // The rank columns (UnitRows: tokens and field lengths, 1 + fieldCount per unit) of every
    // pack, one after the other: taken as they are when the packs' lie so in one buffer (a
    // query's, ../engine/v1/segments.ts), else copied.
    const stride = 1 + fieldCount;
    this.rank = joinedRank(readers, this.unitCount * stride) ?? copiedRank(readers, this.unitCount, fieldCount);
    this.rankStride = stride;
    this.tokensAt = 0;
    this.lengthsAt = 1;
  }

  // A unit's document (numbered across the packs, in pack order), offsets and word count:
  // its pack's.
  unitDoc(u: number): number {
    const k = this.packOf[u] as number;
    return (this.readers[k] as IndexReader).unitDoc(u - (this.unitBase[k] as number)) + (this.docBase[k] as number);
  }

  unitStart(u: number): number {
    const k = this.packOf[u] as number;
    return (this.readers[k] as IndexReader).unitStart(u - (this.unitBase[k] as number));
  }

  unitEnd(u: number): number {
    const k = this.packOf[u] as number;
    return (this.readers[k] as IndexReader).unitEnd(u - (this.unitBase[k] as number));
  }

  unitWordCount(u: number): number {
    const k = this.packOf[u] as number;
    return (this.readers[k] as IndexReader).unitWordCount(u - (this.unitBase[k] as number));
  }

  unitStrings(u: number): { slug: string; trail: string[] } {
    const k = this.packOf[u] as number;
    return (this.readers[k] as IndexReader).unitStrings(u - (this.unitBase[k] as number));
  }

  unitSlug(u: number): string {
    const k = this.packOf[u] as number;
    return (this.readers[k] as IndexReader).unitSlug(u - (this.unitBase[k] as number));
  }

  /**
   * The term's postings (shared: read them, never write). Kept for the next query, up to
   * keptMax postings in all, least recently used first out: a long-lived server is
   * asked new questions, but their words come back (a term absent from every pack is kept
   * too, as one).
   */
  termPostings(term: string): IndexPostings | null {
    const kept = this.kept.get(term);
    if (kept !== undefined) {
      this.kept.delete(term); // most recently used last
      this.kept.set(term, kept);
      return kept;
    }
    const found = this.gather(term);
    const size = found === null ? 1 : found.units.length;
    if (size <= this.keptMax / 4) {
      this.kept.set(term, found);
      this.keptCount += size;
      for (const [old, postings] of this.kept) {
        if (this.keptCount <= this.keptMax) break;
        this.kept.delete(old);
        this.keptCount -= postings === null ? 1 : postings.units.length;
      }
    }
    return found;
  }

  /**
   * Builds the term filters of up to `packs` more packs (IndexReader.prepareFilter), what
   * later lookups use: a lookup builds FILTERS_PER_LOOKUP itself, and a server calls this
   * while idle. True once every pack has its filter.
   */
  prepareLookups(packs: number): boolean {
    for (let n = 0; n < packs && this.prepared < this.readers.length; n++) (this.readers[this.prepared++] as IndexReader).prepareFilter();
    return this.prepared >= this.readers.length;
  }

  private gather(term: string): IndexPostings | null {
    const key = utf8.encode(term);
    // Where the term is (pack, dictionary index), and how many postings in all: then one
    // decoding pass straight into the merged arrays, each pack's units numbered after the last.
    const hits: number[] = [];
    let total = 0;
    const hash = termHash(key);
    // Packs [0, prepared) have their filter; a few more get it at each lookup.
    this.prepareLookups(FILTERS_PER_LOOKUP);
    this.readers.forEach((r, k) => {
      if (r.filterReady && !r.mayHold(hash)) return;
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

/** The packs' rank columns as one view, when they lie one after the other in one buffer; else null. */
function joinedRank(readers: readonly IndexReader[], length: number): Uint32Array | null {
  const first = readers[0]?.rankColumns() ?? null;
  if (first === null) return length === 0 ? new Uint32Array(0) : null;
  let end = first.byteOffset;
  for (const r of readers) {
    const c = r.rankColumns();
    if (c === null || c.buffer !== first.buffer || c.byteOffset !== end) return null;
    end += c.byteLength;
  }
  return new Uint32Array(first.buffer, first.byteOffset, length);
}

/** The packs' rank columns copied into one array (from their rows, for packs read whole). */
function copiedRank(readers: readonly IndexReader[], units: number, fields: number): Uint32Array {
  const stride = 1 + fields;
  const rank = new Uint32Array(units * stride);
  let at = 0;
  for (const r of readers) {
    const columns = r.rankColumns();
    if (columns !== null) {
      rank.set(columns, at);
      at += columns.length;
      continue;
    }
    const rows = r.unitRows();
    const words = 5 + fields;
    for (let u = 0; u < r.unitCount; u++, at += stride) {
      rank[at] = rows[u * words + 3] as number;
      for (let f = 0; f < fields; f++) rank[at + 1 + f] = rows[u * words + 5 + f] as number;
    }
  }
  return rank;
}
