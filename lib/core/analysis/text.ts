// The v0 text rules (specs/core/context_selection.md "Relevance"), matching the reference's
// Rust: `to_lowercase()` (full Unicode lowercase, final sigma included) and
// `split_whitespace()` (Unicode White_Space: U+0085 is whitespace, U+FEFF is not, unlike
// JavaScript's \s). A word matches a term only when equal after lowercasing.

/** Unicode White_Space: the characters Rust's `char::is_whitespace` accepts. */
export function isWhiteSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Full Unicode lowercase, as Rust `str::to_lowercase` (both implement Final_Sigma). */
export function lowercase(text: string): string {
  return text.toLowerCase();
}

/** `split_whitespace()`: the non-empty runs between White_Space characters. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (isWhiteSpace(text.charCodeAt(i))) {
      if (start >= 0) {
        words.push(text.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) words.push(text.slice(start));
  return words;
}

/** Query terms: lowercase, then split; duplicates kept (each counts on its own). */
export function queryTerms(query: string): string[] {
  return splitWords(lowercase(query));
}

/** White_Space as a table (1 = White_Space) over UTF-16 code units: one load per character in hot loops. */
export const WHITE_SPACE_UNITS = new Uint8Array(0x10000);
// The runs isWhiteSpace accepts, set as runs: asking it of all 65,536 code units when the
// module loads cost every process ~4 ms of cold code (a one-shot resolve takes ~170 ms).
// A test holds the table equal to isWhiteSpace on every code unit.
const WHITE_SPACE_RUNS = [
  [0x09, 0x0d], [0x20, 0x20], [0x85, 0x85], [0xa0, 0xa0], [0x1680, 0x1680],
  [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000],
] as const;
for (const [from, to] of WHITE_SPACE_RUNS) WHITE_SPACE_UNITS.fill(1, from, to + 1);
const WHITE = WHITE_SPACE_UNITS;

/**
 * `split_whitespace().count()`. Lowercasing maps whitespace to whitespace and everything
 * else to non-whitespace, so the count is the same before and after `to_lowercase`.
 */
export function countWords(text: string): number {
  let words = 0;
  let prevWhite = 1;
  for (let i = 0; i < text.length; i++) {
    const white = WHITE[text.charCodeAt(i)] as number;
    words += prevWhite & (white ^ 1);
    prevWhite = white;
  }
  return words;
}

/**
 * Whole-word occurrences of each term in `lower` (already lowercased text), added to
 * `counts[k]`: one pass comparing every word with every term.
 */
export function countTermsLowered(lower: string, terms: readonly string[], counts: Uint32Array): void {
  const n = lower.length;
  let i = 0;
  while (i < n) {
    while (i < n && WHITE[lower.charCodeAt(i)] === 1) i++;
    const start = i;
    while (i < n && WHITE[lower.charCodeAt(i)] === 0) i++;
    const len = i - start;
    if (len === 0) break;
    for (let k = 0; k < terms.length; k++) {
      const term = terms[k] as string;
      if (term.length === len && lower.startsWith(term, start)) counts[k] = (counts[k] as number) + 1;
    }
  }
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g;

/**
 * A matcher for `term` as a whole word of pure-ASCII text, case-insensitively: for ASCII,
 * Rust's `to_lowercase` is exactly A-Z -> a-z, which is what a non-Unicode /i regex folds.
 * Lookarounds demand ASCII whitespace (or an end) on both sides. Null when the term has a
 * non-ASCII character, which can never equal a word of ASCII text.
 */
export function asciiWordMatcher(term: string): RegExp | null {
  if (!ASCII_ONLY.test(term)) return null;
  return new RegExp(`(?<![^\\t-\\r ])${term.replace(REGEX_SPECIAL, '\\$&')}(?![^\\t-\\r ])`, 'gi');
}

/** Occurrences of a matcher from `asciiWordMatcher` in pure-ASCII `text`. */
export function countAsciiMatches(text: string, matcher: RegExp): number {
  let count = 0;
  matcher.lastIndex = 0;
  while (matcher.test(text)) count++;
  return count;
}

/** tokens(content) := ceil(UTF-8 byte length / 4). */
export function tokensForBytes(byteLength: number): number {
  return Math.ceil(byteLength / 4);
}
