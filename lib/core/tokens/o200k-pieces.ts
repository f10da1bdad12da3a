// Where o200k_base's split pattern cuts text, read from char codes for ASCII.
//
// A BPE encoding first cuts text into pieces with a regular expression and encodes each piece
// alone. o200k_base's pattern (as gpt-tokenizer 4.0.0 and tiktoken write it; O200K_PATTERN
// below) has seven alternatives, tried in order at each position:
//
//   1. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?
//   2. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:…the same…))?
//   3. \p{N}{1,3}
//   4.  ?[^\s\p{L}\p{N}]+[\r\n/]*
//   5. \s*[\r\n]+
//   6. \s+(?!\S)
//   7. \s+
//
// Every character is matched by one of them, so the pieces tile the text and each starts where
// the last ended. For ASCII the classes are small (letters A-Z and a-z, digits 0-9, \s the six
// characters \t \n \v \f \r and space; no marks, no title-case or other letters), and what the
// alternatives match reduces to a few runs, worked out in `pieceEnd` below; a character outside
// ASCII of the same classes (a cased letter, punctuation, white space) is read as those are
// (see `wideKind`). Wherever the decision depends on another character outside ASCII (a
// letter of both sets, a mark, a number, a surrogate), `pieceEnd` answers -1 and the caller
// asks the pattern itself at that position: the result is the pattern's, character for
// character, and the pattern runs only where the text holds such characters. The tokenizer's
// own pattern must be O200K_PATTERN for this scan to be used (count.ts checks it); property
// tests compare the cuts with the pattern's on random text built from what each alternative
// cares about, and on every code unit below U+10000 in each place a piece can hold it.

/** o200k_base's split pattern, as the scan below reads it. */
export const O200K_PATTERN =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

// Character kinds for ASCII (0-127).
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const SPACE = 4; // \t \v \f and space: \s, and not a line break
const BREAK = 5; // \r \n
const OTHER = 6; // everything else: punctuation, symbols, control characters

const KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  KIND[c] =
    c >= 65 && c <= 90 ? UPPER
    : c >= 97 && c <= 122 ? LOWER
    : c >= 48 && c <= 57 ? DIGIT
    : c === 10 || c === 13 ? BREAK
    : c === 9 || c === 11 || c === 12 || c === 32 ? SPACE
    : OTHER;
}

// Outside ASCII the pattern's classes are Unicode's, and most characters still fall in one of
// the kinds above: an upper-case or title-case letter (Lu, Lt) is in alternatives 1 and 2's
// first set only, as A-Z are (UPPER); a lower-case letter (Ll) in their second set only, as
// a-z are (LOWER); a character that is no letter, mark or number is what ASCII punctuation
// is (OTHER), and one of \s what a tab is (SPACE; \r and \n are ASCII). Those are read here
// too (Latin, Greek and Cyrillic letters, typographic quotes, dashes, arrows, no-break
// spaces), each code unit classed once by the runtime's own regular expression, so by the
// pattern's Unicode tables. Letters of both sets (Lm, Lo), marks, numbers and surrogates are
// left to the pattern: -1. (One expression with a group per class: in a one-shot resolve,
// compiling four expressions took ~8 ms.)
const CLASSES = /^(?:([\p{Lu}\p{Lt}])|(\p{Ll})|([\p{L}\p{M}\p{N}])|(\s))$/u;
const PATTERN_DECIDES = 7;
/** Per code unit from 128: 0 not classed yet, else its kind or PATTERN_DECIDES. */
const WIDE = new Uint8Array(0x10000);

function wideKind(c: number): number {
  let kind = WIDE[c]!;
  if (kind === 0) {
    if (c >= 0xd800 && c <= 0xdfff) kind = PATTERN_DECIDES;
    else {
      const m = CLASSES.exec(String.fromCharCode(c));
      kind = m === null ? OTHER : m[1] !== undefined ? UPPER : m[2] !== undefined ? LOWER : m[3] !== undefined ? PATTERN_DECIDES : SPACE;
    }
    WIDE[c] = kind;
  }
  return kind === PATTERN_DECIDES ? -1 : kind;
}

/** The kind of the character at `i`, 0 past the end, -1 where the pattern decides (above). */
function kindAt(s: string, i: number): number {
  if (i >= s.length) return 0;
  const c = s.charCodeAt(i);
  return c < 128 ? KIND[c]! : wideKind(c);
}

/**
 * After a run of letters ending at `k`: the contraction alternatives 1 and 2 take next
 * ('s 'd 'm 't 'll 've 're, either case), or none. Characters outside ASCII never match
 * these, so they need no fallback here.
 */
function contractionEnd(s: string, k: number): number {
  // (No character is read past the end: optimized code reading one there is dropped and made
  // again, three times in a build thread's half of the real corpus.)
  const n = s.length;
  if (k >= n || s.charCodeAt(k) !== 39) return k; // '
  const a = k + 1 < n ? s.charCodeAt(k + 1) | 32 : 32; // lower-cased when a letter
  if (a === 115 || a === 100 || a === 109 || a === 116) return k + 2; // s d m t
  const b = k + 2 < n ? s.charCodeAt(k + 2) | 32 : 32;
  if ((a === 108 && b === 108) || (a === 118 && b === 101) || (a === 114 && b === 101)) return k + 3; // ll ve re
  return k;
}

/** Letters from `i` (which holds one): the upper-case run, then the lower-case run, then a contraction. */
function lettersEnd(s: string, i: number): number {
  let k = i;
  let kind = kindAt(s, k);
  while (kind === UPPER) kind = kindAt(s, ++k);
  while (kind === LOWER) kind = kindAt(s, ++k);
  // A character outside ASCII here could be a letter or mark the runs would take.
  if (kind < 0) return -1;
  return contractionEnd(s, k);
}

/**
 * Where the piece that starts at `p` (< s.length) ends, or -1 when that depends on a character
 * outside ASCII. The same as the end of O200K_PATTERN's match at `p` whenever it is not -1.
 */
export function pieceEnd(s: string, p: number): number {
  const first = kindAt(s, p);
  if (first < 0) return -1;
  if (first === UPPER || first === LOWER) return lettersEnd(s, p); // alternative 1 or 2
  const second = kindAt(s, p + 1);
  if (first !== BREAK && first !== DIGIT) {
    // One character that is not a letter, digit or line break may lead letters (1 or 2).
    if (second < 0) return -1;
    if (second === UPPER || second === LOWER) return lettersEnd(s, p + 1);
  }
  if (first === DIGIT) {
    // 3: up to three digits.
    if (second !== DIGIT) return second < 0 ? -1 : p + 1;
    const third = kindAt(s, p + 2);
    if (third < 0) return -1;
    return third === DIGIT ? p + 3 : p + 2;
  }
  // 4: an optional space, then punctuation, then line breaks and slashes.
  let q = -1;
  if (first === OTHER) q = p;
  else if (s.charCodeAt(p) === 32 && second === OTHER) q = p + 1;
  if (q >= 0) {
    let kind = kindAt(s, q);
    while (kind === OTHER) kind = kindAt(s, ++q);
    if (kind < 0) return -1;
    for (; q < s.length; q++) {
      const c = s.charCodeAt(q);
      if (c !== 10 && c !== 13 && c !== 47) break;
    }
    return q;
  }
  // 5-7: a run of white space (first is SPACE or BREAK here).
  let end = p;
  let lastBreak = -1;
  let kind = first;
  while (kind === SPACE || kind === BREAK) {
    if (kind === BREAK) lastBreak = end;
    kind = kindAt(s, ++end);
  }
  if (kind < 0) return -1; // the run could go on with white space outside ASCII
  if (lastBreak >= 0) return lastBreak + 1; // 5: through the run's last line break
  if (end === s.length) return end; // 6: the whole run, at the end of the text
  if (end - p >= 2) return end - 1; // 6: all but the last, which leads what follows
  return end; // 7
}
