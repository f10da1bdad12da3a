// Features for re-ranking engine v1's best candidates (docs/engine.md "Re-ranking the best
// candidates: measured, not shipped"): the best `candidates` units of the BM25 + proximity
// order would be given a bonus from features the index already holds, with weights fitted on
// the dev sets (bench/ranker/fit.mjs, `npm run fit-ranker`), and put in order of their new
// scores. Measured, the held-out gain did not clear the spread between folds, so resolve does
// not use it yet; the features and the bonus are kept as the fitting script computes them. Every feature lies in [0, 1] and is kept as a multiple of
// 1/1024 (an integer), every weight is a non-negative integer in thousandths, so a unit's
// bonus is `top × Σ wᵢ·qᵢ / (1000 × 1024)`: an exact integer sum, one division and one
// multiplication by the best unit's score, the same bits on every machine. A bonus is never
// negative, so no unit below the candidates passes one of them: the order stays printed
// score descending, then id.

import { analyzeText } from '../../analysis/analyzer.js';
import type { FoundTerm, RankedUnits, RankingParams, TermMatch } from '../../ranking/bm25.js';
import { explainUnit } from '../../ranking/bm25.js';
import type { V1Cache } from './load.js';
import type { DocumentList } from './manifest.js';

/**
 * The features, in the order weights are listed. Each is a share in [0, 1]:
 * - coverage: the idf-weighted share of the query's terms the unit holds (any field);
 * - page_coverage: the same for the union of the page's candidate units;
 * - heading_coverage: the share the unit's own heading (its trail's last heading) holds;
 * - title_coverage: the share the page's title or path holds (the title and path fields);
 * - page_best: the page's best candidate score over the best unit's score;
 * - not_intro: 1 unless the unit starts its file (an intro, or a whole headingless page);
 * - shallow: 1 for a top-level heading, 1/2 for its sub-heading, 1/4 deeper;
 * - not_news: 1 unless a path word says blog, news, changelog, release or announcement;
 * - not_errors: 1 unless a path word says error or troubleshooting;
 * - reference: 1 when a path word says api or reference;
 * - guide: 1 when a path word says guide, tutorial, getting-started or how-to;
 * - length: the unit's tokens over 256, at most 1.
 */
export const FEATURES = [
  'coverage',
  'page_coverage',
  'heading_coverage',
  'title_coverage',
  'page_best',
  'not_intro',
  'shallow',
  'not_news',
  'not_errors',
  'reference',
  'guide',
  'length',
] as const;
export type Feature = (typeof FEATURES)[number];

/** A feature's value is an integer number of 1/FEATURE_ONE. */
export const FEATURE_ONE = 1024;
/** A weight is an integer number of 1/WEIGHT_ONE of the best unit's score. */
export const WEIGHT_ONE = 1000;

export interface RerankParams {
  /** How many of the best units are re-ranked. */
  readonly candidates: number;
  /** Non-negative integers, one per FEATURES entry (thousandths). */
  readonly weights: readonly number[];
}

/** One candidate unit: its base score and its quantized features (FEATURES order). */
export interface Candidate {
  readonly unit: number;
  readonly base: number;
  readonly features: readonly number[];
}

const NEWS = new Set(['blog', 'blogs', 'news', 'changelog', 'changelogs', 'changes', 'release', 'releases', 'announcement', 'announcements', 'announcing']);
const ERRORS = new Set(['error', 'errors', 'troubleshoot', 'troubleshooting']);
const REFERENCE = new Set(['api', 'apis', 'reference', 'references', 'ref']);
const GUIDE = new Set(['guide', 'guides', 'tutorial', 'tutorials', 'getting', 'howto', 'how']);

const quantize = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * FEATURE_ONE);

/** The words of a path: lower-cased runs of ASCII letters and digits. */
function pathWords(path: string): string[] {
  return path.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
}

/**
 * The features of each of `head` (units in their current order), whose scores `scoreOf`
 * gives (BM25 plus proximity). `matchesOf` explains a unit's matches (memoized by the caller).
 */
export function candidateFeatures(
  cache: V1Cache,
  ranked: RankedUnits,
  head: readonly number[],
  scoreOf: (u: number) => number,
  matchesOf: (u: number) => readonly TermMatch[],
): Candidate[] {
  const { index, manifest } = cache;
  const found: readonly FoundTerm[] = ranked.found;
  const idf = new Map(found.map((t) => [t.term, t.idf]));
  let idfSum = 0;
  for (const t of found) idfSum += t.idf;
  const share = (terms: Iterable<string>): number => {
    if (idfSum <= 0) return 0;
    let s = 0;
    for (const t of terms) s += idf.get(t) ?? 0;
    return s / idfSum;
  };
  const TITLE = 2;
  const PATH = 3;
  const held = head.map((u) => matchesOf(u));
  // The terms each page's candidate units hold, and its best candidate score.
  const pageTerms = new Map<number, Set<string>>();
  const pageBest = new Map<number, number>();
  head.forEach((u, k) => {
    const doc = index.unitDoc(u);
    let terms = pageTerms.get(doc);
    if (terms === undefined) pageTerms.set(doc, (terms = new Set()));
    for (const m of held[k] as readonly TermMatch[]) terms.add(m.term);
    pageBest.set(doc, Math.max(pageBest.get(doc) ?? 0, scoreOf(u)));
  });
  const top = head.length === 0 ? 0 : scoreOf(head[0] as number);

  return head.map((u, k) => {
    const doc = index.unitDoc(u);
    const matches = held[k] as readonly TermMatch[];
    const path = manifest.documents.at(doc).path;
    const words = pathWords(path);
    const trail = index.unitStrings(u).trail;
    const heading = trail[trail.length - 1];
    const headingTerms = heading === undefined ? [] : [...new Set(analyzeText(heading))].filter((t) => idf.has(t));
    const depth = trail.length;
    const values: Record<Feature, number> = {
      coverage: share(matches.map((m) => m.term)),
      page_coverage: share(pageTerms.get(doc) as Set<string>),
      heading_coverage: share(headingTerms),
      title_coverage: share(matches.filter((m) => (m.tfs[TITLE] ?? 0) > 0 || (m.tfs[PATH] ?? 0) > 0).map((m) => m.term)),
      page_best: top > 0 ? (pageBest.get(doc) as number) / top : 0,
      not_intro: index.unitStart(u) === 0 ? 0 : 1,
      shallow: depth <= 1 ? 1 : depth === 2 ? 0.5 : 0.25,
      not_news: words.some((w) => NEWS.has(w)) ? 0 : 1,
      not_errors: words.some((w) => ERRORS.has(w)) ? 0 : 1,
      reference: words.some((w) => REFERENCE.has(w)) ? 1 : 0,
      guide: words.some((w) => GUIDE.has(w)) ? 1 : 0,
      length: index.unitTokens(u) / 256,
    };
    return { unit: u, base: scoreOf(u), features: FEATURES.map((f) => quantize(values[f])) };
  });
}

/** The bonus of a candidate: top × Σ wᵢ·qᵢ / (WEIGHT_ONE × FEATURE_ONE), never negative. */
export function bonusOf(params: RerankParams, top: number, features: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < features.length; i++) sum += (params.weights[i] ?? 0) * (features[i] as number);
  return (top * sum) / (WEIGHT_ONE * FEATURE_ONE);
}

/** For the fitting script: every matched unit's matches, explained (as resolve explains them). */
export function explainer(cache: V1Cache, ranked: RankedUnits, params: RankingParams): (u: number) => readonly TermMatch[] {
  const memo = new Map<number, readonly TermMatch[]>();
  return (u) => {
    let m = memo.get(u);
    if (m === undefined) memo.set(u, (m = explainUnit(cache.index, ranked, u, params)));
    return m;
  };
}
