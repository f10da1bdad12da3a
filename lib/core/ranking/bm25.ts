// Ranking for engine v1: BM25 per field, the field scores weighted and added (the dev set
// preferred this to classic BM25F's single saturation; docs/engine.md has the figures).
//
//   score(u) = sum over query terms t (distinct, in UTF-8 byte order)
//                sum over fields f (FIELDS order) with tf > 0
//                  w_f * idf(t) * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len_f(u)) / avg_f)))
//   idf(t)   = ln(1 + (N - df + 0.5) / (df + 0.5)),  N units, df units holding t in any field
//
// Evaluated in binary64 in exactly that order with `ln` from ./ln.ts, so every machine gets
// the same bits; the printed score is that value rounded to binary32 (as v0 prints scores).
//
// A stopword term (../analysis/analyzer.ts isStopTerm: it reaches here only in a query made
// of stopwords alone) never scores through the path field: `why` does not pull in `why.md`.
// A unit it matches only there is not matched by it.

import { isStopTerm } from '../analysis/analyzer.js';
import { FIELDS } from '../analysis/term-counter.js';
import type { UnitIndex } from '../index/packed-index.js';
import { ln } from './ln.js';
import type { ProximityParams } from './proximity.js';

/** The field a stopword term never scores through. */
const PATH_FIELD = FIELDS.indexOf('path');

export interface RankingParams {
  readonly k1: number;
  readonly b: number;
  /** Weight per field, in FIELDS order. */
  readonly weights: readonly number[];
  /** The best units read again for their query terms close together (./proximity.ts); null: BM25 alone. */
  readonly proximity?: ProximityParams | null;
}

/** One query term's share of a unit's score. */
export interface TermMatch {
  readonly term: string;
  /** Frequency in each field, FIELDS order. */
  readonly tfs: readonly number[];
  readonly score: number;
}

export interface RankedUnits {
  /** Matching units (score > 0), in no particular order. */
  readonly units: Uint32Array;
  /** Score of every unit (0 where nothing matched), indexed by unit number. */
  readonly scores: Float64Array;
  /** The query terms found in the dictionary, with their postings, for explanations. */
  readonly found: readonly FoundTerm[];
}

export interface FoundTerm {
  readonly term: string;
  readonly idf: number;
  readonly units: Uint32Array;
  readonly tfs: Uint32Array;
  /** The field this term does not score through (a stopword's path), or -1. */
  readonly skip: number;
}

/** Whether posting k's only nonzero frequency is in field `only`. */
function onlyIn(tfs: Uint32Array, k: number, fields: number, only: number): boolean {
  for (let f = 0; f < fields; f++) if (f !== only && (tfs[k * fields + f] as number) > 0) return false;
  return true;
}

export function idfOf(unitCount: number, df: number): number {
  return ln(1 + (unitCount - df + 0.5) / (df + 0.5));
}

function fieldScore(p: RankingParams, f: number, idf: number, tf: number, len: number, avg: number): number {
  const k1 = p.k1;
  return (p.weights[f] as number) * idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - p.b + (p.b * len) / avg)));
}

// The length normalization k1 * (1 - b + (b * len_f(u)) / avg_f) depends on the unit and
// the field only, not on the query: kept per loaded index (a long-lived server then spends a
// query on its postings alone), each unit's computed the first time a posting needs it (NaN
// until then: a first question at 100,000 documents normalizes the units it matches, not all
// 960,000), and evaluated exactly as fieldScore evaluates it, so every score keeps its bits.
const normCache = new WeakMap<UnitIndex, { k1: number; b: number; norms: Float64Array; filled: number }>();

function normEntry(index: UnitIndex, params: RankingParams): { k1: number; b: number; norms: Float64Array; filled: number } {
  const known = normCache.get(index);
  if (known !== undefined && known.k1 === params.k1 && known.b === params.b) return known;
  const entry = { k1: params.k1, b: params.b, norms: new Float64Array(index.unitCount * index.fieldCount).fill(NaN), filled: 0 };
  normCache.set(index, entry);
  return entry;
}

function normsOf(index: UnitIndex, params: RankingParams): Float64Array {
  return normEntry(index, params).norms;
}

/**
 * Computes the normalization of up to `units` more units ahead of need (what rankUnits
 * computes the first time a posting needs it, with the same operations): idle work for a
 * long-lived server (Engine.prepare). True once every unit has it.
 */
export function prepareNorms(index: UnitIndex, params: RankingParams, units: number): boolean {
  const entry = normEntry(index, params);
  const n = index.unitCount;
  const fields = index.fieldCount;
  const avg = index.lengthSums.map((sum) => (n === 0 || sum === 0 ? 1 : sum / n));
  const { k1, b } = params;
  const norms = entry.norms;
  const end = Math.min(n, entry.filled + units);
  for (let u = entry.filled; u < end; u++) {
    for (let f = 0; f < fields; f++) {
      const at = u * fields + f;
      if (norms[at] !== norms[at]) norms[at] = k1 * (1 - b + (b * index.unitLength(u, f)) / (avg[f] as number));
    }
  }
  entry.filled = end;
  return end >= n;
}

/** Scores every unit holding at least one of `terms` (distinct, sorted by UTF-8 bytes). */
export function rankUnits(index: UnitIndex, terms: readonly string[], params: RankingParams): RankedUnits {
  const n = index.unitCount;
  const fields = index.fieldCount;
  const avg = index.lengthSums.map((sum) => (n === 0 || sum === 0 ? 1 : sum / n));
  // An index loaded for this query alone keeps no normalization for later ones.
  const norms = index.oneQuery === true ? null : normsOf(index, params);
  const { k1, b } = params;
  const saturation = params.k1 + 1;
  const weightIdf = new Float64Array(fields);
  const scores = new Float64Array(n);
  const hit = new Uint8Array(n);
  const matched: number[] = [];
  const found: FoundTerm[] = [];
  for (const term of terms) {
    const postings = index.termPostings(term);
    if (postings === null) continue;
    const { units, tfs } = postings;
    const idf = idfOf(n, units.length);
    const skip = isStopTerm(term) ? PATH_FIELD : -1;
    found.push({ term, idf, units, tfs, skip });
    for (let f = 0; f < fields; f++) weightIdf[f] = (params.weights[f] as number) * idf;
    for (let k = 0; k < units.length; k++) {
      const u = units[k] as number;
      if (skip >= 0 && onlyIn(tfs, k, fields, skip)) continue;
      let s = scores[u] as number;
      for (let f = 0; f < fields; f++) {
        if (f === skip) continue;
        const tf = tfs[k * fields + f] as number;
        // = fieldScore(params, f, idf, tf, len, avg), the same operations in the same order
        if (tf > 0) {
          // = fieldScore's k1 * (1 - b + (b * len) / avg), kept (norms) or not
          let norm = norms === null ? NaN : (norms[u * fields + f] as number);
          if (norm !== norm) {
            norm = k1 * (1 - b + (b * index.unitLength(u, f)) / (avg[f] as number));
            if (norms !== null) norms[u * fields + f] = norm;
          }
          s += (weightIdf[f] as number) * ((tf * saturation) / (tf + norm));
        }
      }
      scores[u] = s;
      if (hit[u] === 0) {
        hit[u] = 1;
        matched.push(u);
      }
    }
  }
  return { units: Uint32Array.from(matched), scores, found };
}

/**
 * Each found term's frequencies and score share in unit `u`, in the fields it scores
 * through (terms absent from them omitted; a stopword's path frequency reads 0).
 */
export function explainUnit(index: UnitIndex, ranked: RankedUnits, u: number, params: RankingParams): TermMatch[] {
  const n = index.unitCount;
  const fields = index.fieldCount;
  const matches: TermMatch[] = [];
  for (const t of ranked.found) {
    const k = lowerBound(t.units, u);
    if (k >= t.units.length || t.units[k] !== u) continue;
    if (t.skip >= 0 && onlyIn(t.tfs, k, fields, t.skip)) continue;
    const tfs: number[] = [];
    let score = 0;
    for (let f = 0; f < fields; f++) {
      const tf = f === t.skip ? 0 : (t.tfs[k * fields + f] as number);
      tfs.push(tf);
      const sum = index.lengthSums[f] as number;
      const avg = n === 0 || sum === 0 ? 1 : sum / n;
      if (tf > 0) score += fieldScore(params, f, t.idf, tf, index.unitLength(u, f), avg);
    }
    matches.push({ term: t.term, tfs, score });
  }
  return matches;
}

function lowerBound(a: Uint32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
