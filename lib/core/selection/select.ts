// v0 selection (specs/core/context_selection.md): score every document, order by score
// descending then id ascending (byte order), then fill the budget greedily, skipping what
// does not fit and going on. Pure: no I/O, and the same inputs give the same value.

import { compareBytes, F32, type Json } from '../../json.js';
import { f32Ratio } from './f32.js';
import { countWord, queryTerms } from './text.js';

/** A document ready for selection: its lowercased text and word count precomputed. */
export interface SelectableDocument {
  readonly id: string;
  readonly version: string;
  readonly content: string;
  /** `content` lowercased (Rust `to_lowercase`). */
  readonly lower: string;
  /** `split_whitespace()` count of `lower`. */
  readonly totalWords: number;
  /** ceil(UTF-8 bytes of content / 4). */
  readonly tokens: number;
}

/**
 * Whole-word occurrence counts of one term in every document, in document order. A loaded
 * cache may memoize these; the default scans each document's lowercased text.
 */
export type TermCounter = (term: string) => ArrayLike<number>;

export function scanTermCounter(docs: readonly SelectableDocument[]): TermCounter {
  return (term) => docs.map((d) => countWord(d.lower, term));
}

/** The SelectionResult value, fields in the spec's order. */
export function selectDocuments(
  docs: readonly SelectableDocument[],
  query: string,
  budget: number,
  counter: TermCounter = scanTermCounter(docs),
): Json {
  const terms = queryTerms(query);
  // Duplicate terms count twice (the reference loops over every term for every word).
  const multiplicity = new Map<string, number>();
  for (const t of terms) multiplicity.set(t, (multiplicity.get(t) ?? 0) + 1);
  const matches = new Float64Array(docs.length);
  for (const [term, times] of multiplicity) {
    const counts = counter(term);
    for (let i = 0; i < docs.length; i++) matches[i] = (matches[i] as number) + (counts[i] as number) * times;
  }
  const scores = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as SelectableDocument;
    if (doc.totalWords === 0) matches[i] = 0;
    scores[i] = f32Ratio(matches[i] as number, doc.totalWords);
  }

  const order = Array.from(docs.keys());
  order.sort((a, b) => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    if (sa !== sb) return sb - sa;
    return compareBytes((docs[a] as SelectableDocument).id, (docs[b] as SelectableDocument).id);
  });

  const selected: Json[] = [];
  let used = 0;
  for (const i of order) {
    const doc = docs[i] as SelectableDocument;
    if (used + doc.tokens > budget) continue; // skipped, never truncated
    used += doc.tokens;
    selected.push({
      id: doc.id,
      version: doc.version,
      content: doc.content,
      score: new F32(scores[i] as number),
      tokens: doc.tokens,
      why: { query_terms: terms, term_matches: matches[i] as number, total_words: doc.totalWords },
    });
  }
  return {
    documents: selected,
    selection: {
      query,
      budget,
      tokens_used: used,
      documents_considered: docs.length,
      documents_selected: selected.length,
      documents_excluded_by_budget: docs.length - selected.length,
    },
  };
}
