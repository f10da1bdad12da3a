// v0 selection (specs/core/context_selection.md): score every document, order by score
// descending then id ascending (byte order), then fill the budget greedily, skipping what
// does not fit and going on. Pure: no I/O, and the same inputs give the same value.

import { compareBytes, F32, type Json } from '../../json.js';
import { f32Ratio } from './f32.js';
import { queryTerms } from './text.js';
import type { WordStats } from './corpus.js';

/** A document as selection needs it; word statistics come from a `WordCounter`. */
export interface SelectableDocument {
  readonly id: string;
  readonly version: string;
  readonly content: string;
  /** ceil(UTF-8 bytes of content / 4). */
  readonly tokens: number;
}

/** total_words and per-term whole-word counts for the documents, in document order. */
export type WordCounter = (terms: readonly string[]) => WordStats;

/** The SelectionResult value, fields in the spec's order. */
export function selectDocuments(
  docs: readonly SelectableDocument[],
  query: string,
  budget: number,
  counter: WordCounter,
): Json {
  const terms = queryTerms(query);
  const stats = counter(terms);
  // Duplicate terms count twice (the reference loops over every term for every word).
  const matches = new Float64Array(docs.length);
  for (const term of terms) {
    const counts = stats.termCounts.get(term) as ArrayLike<number>;
    for (let i = 0; i < docs.length; i++) matches[i] = (matches[i] as number) + (counts[i] as number);
  }
  const totalWords = stats.totalWords;
  const scores = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const words = totalWords[i] as number;
    if (words === 0) matches[i] = 0;
    scores[i] = f32Ratio(matches[i] as number, words);
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
      why: { query_terms: terms, term_matches: matches[i] as number, total_words: totalWords[i] as number },
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
