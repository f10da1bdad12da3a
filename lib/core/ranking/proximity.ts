// Proximity for engine v1: the question's words close together in a unit.
//
// BM25 scores each term of a unit on its own; a section that repeats an API's name twenty
// times outranks the paragraph where the question's words stand side by side. So the best
// few units by BM25 are read again and each gains
//
//   bonus(u) = weight * max over windows of `window` consecutive words of u's text
//                         (sum of idf(t) over the distinct query terms t in the window)
//
// The window slides over the unit's text analysed as a query is (../analysis/analyzer.ts
// forEachTermAt: stemmed, code words whole and split, one position per raw token); the
// idfs are BM25's (./bm25.ts), and each window's sum is taken over its terms in query
// order (UTF-8 byte order), so every machine gets the same bits. Parameters:
// docs/engine.md "Proximity".

export interface ProximityParams {
  /** Words (raw-token positions) in a window. */
  readonly window: number;
  /** What one unit of summed idf adds to a score. */
  readonly weight: number;
  /** How many of the best units by BM25 are read again. */
  readonly candidates: number;
}

/** The best window of a unit: its summed idf and the query terms in it (indexes into the query's terms, ascending). */
export interface Window {
  readonly score: number;
  readonly terms: readonly number[];
}

export const NO_WINDOW: Window = { score: 0, terms: [] };

/**
 * The best window of a unit whose query-term occurrences are `at` (positions, ascending)
 * and `which` (the term of each, an index into `idfs`): of the windows of `window`
 * consecutive positions, the one whose distinct query terms have the highest summed idf;
 * the earliest such window on a tie.
 */
export function bestWindow(at: readonly number[], which: readonly number[], idfs: readonly number[], window: number): Window {
  if (at.length === 0) return NO_WINDOW;
  const counts = new Uint32Array(idfs.length);
  let best = NO_WINDOW;
  const sumOf = (): number => {
    let s = 0;
    for (let k = 0; k < idfs.length; k++) if ((counts[k] as number) > 0) s += idfs[k] as number;
    return s;
  };
  // The windows that matter end at an occurrence: [at[j] - window + 1, at[j]] holds i..j.
  let i = 0;
  for (let j = 0; j < at.length; j++) {
    const added = which[j] as number;
    counts[added] = (counts[added] as number) + 1;
    // Several terms of one token share its position: the window is judged at its last.
    if (j + 1 < at.length && at[j + 1] === at[j]) continue;
    while ((at[i] as number) <= (at[j] as number) - window) {
      const gone = which[i++] as number;
      counts[gone] = (counts[gone] as number) - 1;
    }
    const score = sumOf();
    if (score > best.score) {
      const terms: number[] = [];
      for (let k = 0; k < idfs.length; k++) if ((counts[k] as number) > 0) terms.push(k);
      best = { score, terms };
    }
  }
  return best;
}
