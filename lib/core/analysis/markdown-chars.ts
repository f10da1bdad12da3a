// Character classes of the CommonMark grammar, on UTF-16 code units and code points.
// ASCII classes are exact table lookups; the two Unicode classes (whitespace and
// punctuation, used only to decide emphasis flanking) follow micromark, the oracle we test
// against: whitespace is JavaScript `\s`, punctuation is general category P or S.

export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;

export function isSpaceOrTab(c: number): boolean {
  return c === SPACE || c === TAB;
}

export function isLineEnding(c: number): boolean {
  return c === LF || c === CR;
}

/** A line of a text: [start, end) its characters, `next` where the line after it starts. */
export interface Line {
  readonly start: number;
  readonly end: number;
  readonly next: number;
}

/** The line starting at `start`: up to LF, CR or CRLF (one line ending), or the text's end. */
export function lineAt(text: string, start: number): Line {
  let end = start;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    if (c === LF || c === CR) break;
    end++;
  }
  let next = end;
  if (end < text.length) next = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
  return { start, end, next };
}

/** Whether text[start, end) holds nothing but spaces and tabs. */
export function isBlankSpan(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpaceOrTab(text.charCodeAt(i))) return false;
  return true;
}

/** Space, tab or line ending: the whitespace that separates parts of links and tags. */
export function isMarkdownWhitespace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

/** ASCII punctuation: !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ (the characters a backslash escapes). */
export function isAsciiPunctuation(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

export function isAsciiAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isAsciiAlphanumeric(c: number): boolean {
  return isAsciiAlpha(c) || isAsciiDigit(c);
}

export function isAsciiHexDigit(c: number): boolean {
  return isAsciiDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** ASCII control characters (C0 and DEL), which a raw link destination may not contain. */
export function isAsciiControl(c: number): boolean {
  return c < 0x20 || c === 0x7f;
}

const UNICODE_WHITESPACE = /\s/;
const UNICODE_PUNCTUATION = /\p{P}|\p{S}/u;

/** Whitespace for emphasis flanking (`cp` -1 stands for the start or end of the text). */
export function isUnicodeWhitespace(cp: number): boolean {
  if (cp < 0) return true;
  if (cp < 0x80) return cp === SPACE || (cp >= 0x09 && cp <= 0x0d);
  return UNICODE_WHITESPACE.test(String.fromCodePoint(cp));
}

/** Punctuation for emphasis flanking: general category P (punctuation) or S (symbol). */
export function isUnicodePunctuation(cp: number): boolean {
  if (cp < 0) return false;
  if (cp < 0x80) return isAsciiPunctuation(cp);
  return UNICODE_PUNCTUATION.test(String.fromCodePoint(cp));
}

/** The code point that ends just before `pos` (a surrogate pair read whole), or -1 at the start. */
export function codePointBefore(s: string, pos: number): number {
  if (pos <= 0) return -1;
  const low = s.charCodeAt(pos - 1);
  if (low >= 0xdc00 && low <= 0xdfff && pos >= 2) {
    const high = s.charCodeAt(pos - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

/** The code point that starts at `pos`, or -1 at the end. */
export function codePointAt(s: string, pos: number): number {
  if (pos >= s.length) return -1;
  return s.codePointAt(pos) ?? -1;
}
