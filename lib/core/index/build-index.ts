// Assembles the index of a build from its units, whose terms were counted by one or more
// TermCounters (one per build thread, each with its own term ids): one dictionary sorted
// by UTF-8 byte order, and per term the postings in unit order. The result depends only
// on the units and their terms, never on how the work was split between threads.

import { compareBytes } from '../../json.js';
import type { UnitTerms } from '../analysis/term-counter.js';
import type { IndexData, IndexPostings, IndexUnit } from './index-format.js';

export interface UnitInput extends Omit<IndexUnit, 'lengths'> {
  readonly terms: UnitTerms;
  /** The term strings of the counter that counted this unit, by local id. */
  readonly dictionary: readonly string[];
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
      const term = u.dictionary[local] as string;
      let id = globalIds.get(term);
      if (id === undefined) {
        id = terms.length;
        terms.push(term);
        globalIds.set(term, id);
      }
      map[local] = id;
    }
  }
  // Renumber in byte order of the terms.
  const order = terms.map((_, i) => i).sort((a, b) => compareBytes(terms[a] as string, terms[b] as string));
  const rank = new Int32Array(terms.length);
  order.forEach((id, r) => (rank[id] = r));
  for (const map of maps.values()) for (let k = 0; k < map.length; k++) if ((map[k] as number) >= 0) map[k] = rank[map[k] as number] as number;
  return { terms: order.map((id) => terms[id] as string), ranks: maps };
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
  const indexUnits: IndexUnit[] = units.map((u) => ({
    doc: u.doc,
    start: u.start,
    end: u.end,
    tokens: u.tokens,
    words: u.words,
    lengths: u.terms.lengths,
    slug: u.slug,
    trail: u.trail,
  }));
  return { docCount, fieldCount, units: indexUnits, terms, postings };
}
