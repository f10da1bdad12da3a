// Assembles the index of a build from its units, whose terms were counted by one or more
// TermCounters (one per build thread, each with its own term ids): one dictionary sorted
// by UTF-8 byte order, and per term the postings in unit order. The result depends only
// on the units and their terms, never on how the work was split between threads.
//
// buildIndexData states it plainly (per-term arrays; encodeIndex writes them) and is the
// reference; a build writes its packs with encodeUnits — the dictionaries of its batches
// sorted once (TermOrder), the postings in flat arrays — which must give the very same
// bytes (spec-tests/core/index/build-index.test.ts holds them equal).

import { sortByBytes } from '../../json.js';
import type { UnitTerms } from '../analysis/term-counter.js';
import { encodeIndexFlat, type IndexData, type IndexPostings, type IndexUnit } from './index-format.js';

export interface UnitInput extends Omit<IndexUnit, 'lengths'> {
  readonly terms: UnitTerms;
  /** The term strings of the counter that counted this unit, by local id. */
  readonly dictionary: readonly string[];
}

/** `term`'s number among `terms` (first seen, first numbered), added when new. */
function intern(ids: Map<string, number>, terms: string[], term: string): number {
  let id = ids.get(term);
  if (id === undefined) {
    id = terms.length;
    terms.push(term);
    ids.set(term, id);
  }
  return id;
}

/**
 * The distinct terms of `units`, sorted by UTF-8 byte order, and per dictionary (counter)
 * the map from its local term ids to their index in that order (-1: not used by a unit).
 */
export function sortedTerms(units: readonly UnitInput[]): { terms: string[]; ranks: Map<readonly string[], Int32Array> } {
  // Local ids -> global ids, per dictionary (a few per build).
  const globalIds = new Map<string, number>();
  const terms: string[] = [];
  const maps = new Map<readonly string[], Int32Array>();
  for (const u of units) {
    let map = maps.get(u.dictionary);
    if (map === undefined) {
      map = new Int32Array(u.dictionary.length).fill(-1);
      maps.set(u.dictionary, map);
    }
    for (const local of u.terms.termIds) {
      if ((map[local] as number) >= 0) continue;
      map[local] = intern(globalIds, terms, u.dictionary[local] as string);
    }
  }
  // Renumber in byte order of the terms (sorted natively: sortByBytes).
  const sorted = sortByBytes([...terms]);
  const rank = new Int32Array(terms.length);
  sorted.forEach((term, r) => (rank[globalIds.get(term) as number] = r));
  for (const map of maps.values()) for (let k = 0; k < map.length; k++) if ((map[k] as number) >= 0) map[k] = rank[map[k] as number] as number;
  return { terms: sorted, ranks: maps };
}

/** A unit as the index stores it. */
function indexUnitOf(u: UnitInput): IndexUnit {
  return { doc: u.doc, start: u.start, end: u.end, tokens: u.tokens, words: u.words, lengths: u.terms.lengths, slug: u.slug, trail: u.trail };
}

export function buildIndexData(docCount: number, fieldCount: number, units: readonly UnitInput[]): IndexData {
  const { terms, ranks: maps } = sortedTerms(units);
  const counts = new Uint32Array(terms.length);
  for (const u of units) {
    const map = maps.get(u.dictionary) as Int32Array;
    for (const local of u.terms.termIds) {
      const t = map[local] as number;
      counts[t] = (counts[t] as number) + 1;
    }
  }
  const postingUnits = Array.from(counts, (n) => new Uint32Array(n));
  const postingTfs = Array.from(counts, (n) => new Uint32Array(n * fieldCount));
  const filled = new Uint32Array(terms.length);
  units.forEach((u, unitNo) => {
    const map = maps.get(u.dictionary) as Int32Array;
    const { termIds, tfs } = u.terms;
    for (let k = 0; k < termIds.length; k++) {
      const t = map[termIds[k] as number] as number;
      const at = filled[t] as number;
      (postingUnits[t] as Uint32Array)[at] = unitNo;
      (postingTfs[t] as Uint32Array).set(tfs.subarray(k * fieldCount, (k + 1) * fieldCount), at * fieldCount);
      filled[t] = at + 1;
    }
  });
  const postings: IndexPostings[] = postingUnits.map((unitsOf, t) => ({ units: unitsOf, tfs: postingTfs[t] as Uint32Array }));
  return { docCount, fieldCount, units: units.map(indexUnitOf), terms, postings };
}

/**
 * The UTF-8 byte order of every term of a build's dictionaries (one per analysed batch),
 * sorted once: each pack's index then puts its terms in order by number, instead of
 * comparing its strings again (a build of 10,000 real-text files sorted 2 million terms
 * pack by pack, 151,000 distinct).
 */
export class TermOrder {
  /** Every distinct term, in UTF-8 byte order. */
  readonly terms: readonly string[];
  private readonly ranks = new Map<readonly string[], Int32Array>();
  /** Per term (by rank): its number in the index being built, or -1 (reset after each use). */
  private readonly slots: Int32Array;

  /**
   * The order of `dictionaries`' terms; or, with `ranked`, of one dictionary whose terms'
   * ranks among `ranked.terms` (sorted by UTF-8 bytes) are known already (`ranked.ranks`,
   * by local id: TermCounter.byteRanks).
   */
  constructor(dictionaries: readonly (readonly string[])[], ranked?: { readonly terms: readonly string[]; readonly ranks: Int32Array }) {
    if (ranked !== undefined) {
      if (dictionaries.length !== 1 || ranked.ranks.length !== (dictionaries[0] as readonly string[]).length) throw new Error('TermOrder: ranks are given for one dictionary, one per term');
      this.ranks.set(dictionaries[0] as readonly string[], ranked.ranks);
      this.terms = ranked.terms;
      this.slots = new Int32Array(ranked.terms.length).fill(-1);
      return;
    }
    const ids = new Map<string, number>();
    const distinct: string[] = [];
    const locals: Int32Array[] = [];
    for (const dictionary of dictionaries) {
      const local = new Int32Array(dictionary.length);
      for (let k = 0; k < dictionary.length; k++) {
        local[k] = intern(ids, distinct, dictionary[k] as string);
      }
      locals.push(local);
    }
    const sorted = sortByBytes([...distinct]);
    const rank = new Int32Array(distinct.length);
    sorted.forEach((term, r) => (rank[ids.get(term) as number] = r));
    dictionaries.forEach((dictionary, i) => {
      const local = locals[i] as Int32Array;
      for (let k = 0; k < local.length; k++) local[k] = rank[local[k] as number] as number;
      this.ranks.set(dictionary, local);
    });
    this.terms = sorted;
    this.slots = new Int32Array(sorted.length).fill(-1);
  }

  /** The rank of each term of `dictionary` (by local id), if it is one of this order's. */
  ranksOf(dictionary: readonly string[]): Int32Array | undefined {
    return this.ranks.get(dictionary);
  }

  /**
   * The distinct terms of `units` in byte order, and per unit the number of each of its
   * terms among them (`termOf(unit index, k)` for its k-th term). Null when a unit's
   * dictionary is not one of this order's.
   */
  termsOf(units: readonly UnitInput[]): { terms: string[]; numbers: Int32Array[] } | null {
    const perUnit: Int32Array[] = [];
    for (const u of units) {
      const ranks = this.ranks.get(u.dictionary);
      if (ranks === undefined) return null;
      perUnit.push(ranks);
    }
    const slots = this.slots;
    const used: number[] = [];
    units.forEach((u, i) => {
      const ranks = perUnit[i] as Int32Array;
      for (const local of u.terms.termIds) {
        const r = ranks[local] as number;
        if (slots[r] === -1) {
          slots[r] = 0;
          used.push(r);
        }
      }
    });
    const inOrder = Int32Array.from(used).sort();
    const terms: string[] = new Array<string>(inOrder.length);
    for (let n = 0; n < inOrder.length; n++) {
      const r = inOrder[n] as number;
      slots[r] = n;
      terms[n] = this.terms[r] as string;
    }
    const numbers = units.map((u, i) => {
      const ranks = perUnit[i] as Int32Array;
      const ids = u.terms.termIds;
      const out = new Int32Array(ids.length);
      for (let k = 0; k < ids.length; k++) out[k] = slots[ranks[ids[k] as number] as number] as number;
      return out;
    });
    for (let n = 0; n < inOrder.length; n++) slots[inOrder[n] as number] = -1;
    return { terms, numbers };
  }
}

/**
 * The index bytes of `units` (each unit's `doc` its document's number), exactly
 * encodeIndex(buildIndexData(docCount, fieldCount, units)), built without a postings array
 * per term. With `order` (the build's dictionaries sorted once) the terms are put in order
 * by number; without it, or for units of another dictionary, as sortedTerms does.
 */
export function encodeUnits(docCount: number, fieldCount: number, units: readonly UnitInput[], order?: TermOrder): Uint8Array {
  let ordered = order === undefined ? null : order.termsOf(units);
  if (ordered === null) {
    const { terms, ranks } = sortedTerms(units);
    ordered = {
      terms,
      numbers: units.map((u) => {
        const map = ranks.get(u.dictionary) as Int32Array;
        return Int32Array.from(u.terms.termIds, (local) => map[local] as number);
      }),
    };
  }
  const { terms, numbers } = ordered;
  const starts = postingStarts(terms.length, numbers);
  const total = starts[terms.length] as number;
  const postingUnits = new Uint32Array(total);
  const postingTfs = new Uint32Array(total * fieldCount);
  const filled = starts.slice(0, terms.length);
  for (let unitNo = 0; unitNo < units.length; unitNo++) {
    scatterUnit(unitNo, numbers[unitNo] as Int32Array, (units[unitNo] as UnitInput).terms.tfs, fieldCount, filled, postingUnits, postingTfs);
  }
  return encodeIndexFlat(docCount, fieldCount, units.map(indexUnitOf), terms, { starts, units: postingUnits, tfs: postingTfs });
}

// encodeUnits's loops are functions of their own: a loop that runs long is optimized while it
// runs (on-stack replacement), and code made then for the whole function has seen nothing of
// what follows the loop, so it was dropped there on every call and made again (6 times in a
// thread's half of the real-text corpus); each loop alone is optimized once.

/** Where each term's postings start when every term's are put back to back (term t's: starts[t] to starts[t + 1]). */
function postingStarts(termCount: number, numbers: readonly Int32Array[]): Uint32Array {
  const starts = new Uint32Array(termCount + 1);
  for (const ids of numbers) countPostings(ids, starts);
  runningSum(starts);
  return starts;
}

/** Adds one to starts[t + 1] for each term t in `ids`. */
function countPostings(ids: Int32Array, starts: Uint32Array): void {
  for (let k = 0; k < ids.length; k++) {
    const at = (ids[k] as number) + 1;
    starts[at] = (starts[at] as number) + 1;
  }
}

/** Each entry of `a` made the sum of itself and all before it. */
function runningSum(a: Uint32Array): void {
  for (let t = 1; t < a.length; t++) a[t] = (a[t] as number) + (a[t - 1] as number);
}

/** Puts unit `unitNo`'s postings (its terms `ids`, their frequencies `tfs`) where `filled` says each term's next one goes. */
function scatterUnit(unitNo: number, ids: Int32Array, tfs: Uint32Array, fieldCount: number, filled: Uint32Array, postingUnits: Uint32Array, postingTfs: Uint32Array): void {
  for (let k = 0; k < ids.length; k++) {
    const t = ids[k] as number;
    const at = filled[t] as number;
    filled[t] = at + 1;
    postingUnits[at] = unitNo;
    for (let f = 0; f < fieldCount; f++) postingTfs[at * fieldCount + f] = tfs[k * fieldCount + f] as number;
  }
}
