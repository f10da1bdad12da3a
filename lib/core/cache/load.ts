// Loads a cache for selection: every invariant checked and every document re-hashed (any
// violation is cache_invalid), then each document's lowercased text, word count and token
// count computed once. A LoadedCache also memoizes per-term match counts across queries.

import { examineCache, throwFirst } from './check.js';
import { countWord, countWords, lowercase, tokensForBytes } from '../selection/text.js';
import type { SelectableDocument, TermCounter } from '../selection/select.js';

export interface LoadedCache {
  readonly cacheVersion: string;
  /** Sorted by id (byte order). */
  readonly documents: readonly SelectableDocument[];
  /** Whole-word counts of a term per document, memoized (bounded) across queries. */
  readonly countTerm: TermCounter;
}

const MAX_MEMO_TERMS = 4096;

export function loadCache(dir: string): LoadedCache {
  const contents = examineCache(dir, throwFirst);
  /* c8 ignore next */
  if (contents === null) throw new Error('unreachable: throwFirst throws');
  const documents: SelectableDocument[] = contents.documents.map((d) => {
    const lower = lowercase(d.content);
    return {
      id: d.id,
      version: d.version,
      content: d.content,
      lower,
      totalWords: countWords(lower),
      tokens: tokensForBytes(Buffer.byteLength(d.content, 'utf8')),
    };
  });
  const memo = new Map<string, Uint32Array>();
  const countTerm: TermCounter = (term) => {
    const hit = memo.get(term);
    if (hit !== undefined) return hit;
    const counts = new Uint32Array(documents.length);
    for (let i = 0; i < documents.length; i++) counts[i] = countWord((documents[i] as SelectableDocument).lower, term);
    if (memo.size >= MAX_MEMO_TERMS) memo.clear();
    memo.set(term, counts);
    return counts;
  };
  return { cacheVersion: contents.cacheVersion, documents, countTerm };
}
