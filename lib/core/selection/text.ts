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

/** Number of words in already-lowercased text, without building the word list. */
export function countWords(lower: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < lower.length; i++) {
    if (isWhiteSpace(lower.charCodeAt(i))) {
      inWord = false;
    } else if (!inWord) {
      inWord = true;
      count++;
    }
  }
  return count;
}

/**
 * Occurrences of `term` as a whole word of already-lowercased text. Whitespace characters
 * are all single UTF-16 units, so a boundary test on the neighbouring unit is exact.
 */
export function countWord(lower: string, term: string): number {
  if (term.length === 0) return 0;
  let count = 0;
  let from = 0;
  for (;;) {
    const at = lower.indexOf(term, from);
    if (at < 0) return count;
    const end = at + term.length;
    const before = at === 0 || isWhiteSpace(lower.charCodeAt(at - 1));
    const after = end === lower.length || isWhiteSpace(lower.charCodeAt(end));
    if (before && after) {
      count++;
      from = end;
    } else {
      from = at + 1;
    }
  }
}

/** tokens(content) := ceil(UTF-8 byte length / 4). */
export function tokensForBytes(byteLength: number): number {
  return Math.ceil(byteLength / 4);
}
