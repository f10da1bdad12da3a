// Word statistics of a set of documents for scoring: total_words per document and the
// whole-word count of each query term per document. Term counts are memoized (bounded),
// so a long-lived cache answers repeated terms without rescanning. ASCII documents are
// matched in place by a native case-insensitive regex; others through their full Unicode
// lowercase, computed once on first need.

import { asciiWordMatcher, countAsciiMatches, countTermsLowered, lowercase } from '../../analysis/text.js';

export interface CorpusText {
  readonly content: string;
  /** True when `content` is pure ASCII (lowercasing is then A-Z -> a-z only). */
  readonly ascii: boolean;
}

export interface WordStats {
  readonly totalWords: ArrayLike<number>;
  /** For each distinct term asked for: its count in every document, in document order. */
  readonly termCounts: ReadonlyMap<string, ArrayLike<number>>;
}

export interface TermMatchers {
  readonly terms: readonly string[];
  readonly ascii: readonly (RegExp | null)[];
  /** A term is too long for a regex: ASCII documents are matched word by word as well. */
  readonly wordByWord: boolean;
}

// V8 cannot compile a /i regex of a ~32K-character term ("Regular expression too large",
// at first use), and a query may hold one term of up to 64 KiB.
const MAX_REGEX_TERM = 1024;

export function termMatchers(terms: readonly string[]): TermMatchers {
  const wordByWord = terms.some((t) => t.length > MAX_REGEX_TERM);
  return { terms, ascii: wordByWord ? [] : terms.map(asciiWordMatcher), wordByWord };
}

/**
 * Adds each term's whole-word count in `doc` to `row[k]`. Returns the lowercased text when
 * it had to be computed (non-ASCII documents), so a caller may keep it.
 */
export function countDocumentTerms(
  doc: CorpusText,
  lowered: string | undefined,
  matchers: TermMatchers,
  row: Uint32Array,
): string | undefined {
  if (matchers.terms.length === 0) return lowered;
  if (doc.ascii && !matchers.wordByWord) {
    matchers.ascii.forEach((m, k) => {
      if (m !== null) row[k] = (row[k] as number) + countAsciiMatches(doc.content, m);
    });
    return lowered;
  }
  const lower = lowered ?? lowercase(doc.content);
  countTermsLowered(lower, matchers.terms, row);
  return lower;
}

const MAX_MEMO_TERMS = 4096;

export class ScoringCorpus {
  private readonly texts: readonly CorpusText[];
  private readonly totalWords: Uint32Array;
  private readonly lowered: (string | undefined)[];
  private readonly memo = new Map<string, Uint32Array>();

  /** `totalWords[i]` is the word count of `texts[i]`; `seed` holds counts already taken. */
  constructor(texts: readonly CorpusText[], totalWords: Uint32Array, seed?: ReadonlyMap<string, Uint32Array>) {
    this.texts = texts;
    this.totalWords = totalWords;
    this.lowered = new Array<string | undefined>(texts.length);
    if (seed !== undefined) for (const [t, c] of seed) this.memo.set(t, c);
  }

  /** Word statistics for `terms`; scans only for terms not yet memoized. */
  stats(terms: readonly string[]): WordStats {
    const missing = [...new Set(terms)].filter((t) => !this.memo.has(t));
    if (missing.length > 0) this.scan(missing);
    const termCounts = new Map<string, Uint32Array>();
    for (const t of terms) termCounts.set(t, this.memo.get(t) as Uint32Array);
    return { totalWords: this.totalWords, termCounts };
  }

  private scan(terms: readonly string[]): void {
    const n = this.texts.length;
    const counts = terms.map(() => new Uint32Array(n));
    const matchers = termMatchers(terms);
    const row = new Uint32Array(terms.length);
    for (let i = 0; i < n; i++) {
      row.fill(0);
      this.lowered[i] = countDocumentTerms(this.texts[i] as CorpusText, this.lowered[i], matchers, row);
      for (let k = 0; k < terms.length; k++) (counts[k] as Uint32Array)[i] = row[k] as number;
    }
    if (this.memo.size + terms.length > MAX_MEMO_TERMS) this.memo.clear();
    terms.forEach((t, k) => this.memo.set(t, counts[k] as Uint32Array));
  }
}
