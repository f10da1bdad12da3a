// v0 selection (specs/core/context_selection.md): score every document, order by score
// descending then id ascending (byte order), then fill the budget greedily, skipping what
// does not fit and going on. Pure: no I/O, and the same inputs give the same value.

import { compareBytes, F32, type Json } from '../../../json.js';
import { descendingScoreKey, f32Ratio, RANK_BITS } from '../../../f32.js';
import { queryTerms } from '../../analysis/text.js';
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

/** Each document's rank in id byte order, and the document at each rank. */
interface IdOrder {
  readonly rankOf: Uint32Array;
  readonly byRank: Uint32Array;
}

// Ranks are a property of the document array, which a loaded cache keeps for its lifetime:
// computed on its first query, reused by every later one.
const idOrders = new WeakMap<readonly SelectableDocument[], IdOrder>();

/** Ranks by id (byte order); equal ids, which a valid cache never holds, by position. */
function idOrderOf(docs: readonly SelectableDocument[]): IdOrder {
  const known = idOrders.get(docs);
  if (known !== undefined) return known;
  const byRank = Uint32Array.from(docs.keys());
  let sorted = true; // a loaded cache's documents are already in id order
  for (let i = 1; i < docs.length && sorted; i++) sorted = compareBytes((docs[i - 1] as SelectableDocument).id, (docs[i] as SelectableDocument).id) < 0;
  if (!sorted) {
    const order = Array.from(docs.keys());
    order.sort((a, b) => compareBytes((docs[a] as SelectableDocument).id, (docs[b] as SelectableDocument).id) || a - b);
    byRank.set(order);
  }
  const rankOf = new Uint32Array(docs.length);
  byRank.forEach((doc, rank) => (rankOf[doc] = rank));
  const idOrder = { rankOf, byRank };
  idOrders.set(docs, idOrder);
  return idOrder;
}

/** Document indexes by score descending, then id ascending in byte order. */
function selectionOrder(docs: readonly SelectableDocument[], scores: Float64Array): ArrayLike<number> {
  if (docs.length > RANK_BITS) {
    const order = Array.from(docs.keys());
    order.sort((a, b) => {
      const sa = scores[a] as number;
      const sb = scores[b] as number;
      if (sa !== sb) return sb - sa;
      return compareBytes((docs[a] as SelectableDocument).id, (docs[b] as SelectableDocument).id);
    });
    return order;
  }
  const { rankOf, byRank } = idOrderOf(docs);
  const keys = new Float64Array(docs.length);
  // Scores are already binary32 values, >= 0: the keys order them exactly (f32.ts).
  for (let i = 0; i < docs.length; i++) keys[i] = descendingScoreKey(scores[i] as number, rankOf[i] as number);
  keys.sort();
  const order = new Uint32Array(docs.length);
  for (let k = 0; k < docs.length; k++) order[k] = byRank[(keys[k] as number) % RANK_BITS] as number;
  return order;
}

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

  const order = selectionOrder(docs, scores);

  const selected: Json[] = [];
  let used = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k] as number;
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
