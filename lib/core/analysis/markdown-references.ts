// The link syntax of CommonMark that decides what heading text looks like: link labels,
// destinations and titles (shared by inline links and link reference definitions), the
// definitions themselves, character references (`&amp;`, `&#35;`) and label normalisation.
// Every scanner works on a string whose line endings are "\n" and returns the index just
// past what it recognised, or -1; none backtracks more than one construct.

import { characterEntities } from 'character-entities';
import {
  isAsciiAlpha,
  isAsciiAlphanumeric,
  isAsciiControl,
  isAsciiDigit,
  isAsciiHexDigit,
  isSpaceOrTab,
  LF,
} from './markdown-chars.js';

const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LABEL_MAX = 999;

/** Skips spaces, tabs and line endings (a paragraph's content holds no blank line). */
export function skipWhitespace(s: string, pos: number): number {
  let i = pos;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== LF) break;
  }
  return i;
}

function skipSpacesAndTabs(s: string, pos: number): number {
  let i = pos;
  while (i < s.length && isSpaceOrTab(s.charCodeAt(i))) i++;
  return i;
}

/**
 * A link label at `pos` (which holds '['): up to 999 characters, no unescaped bracket inside,
 * at least one character that is not whitespace. Returns the index past ']' or -1.
 */
export function scanLinkLabel(s: string, pos: number): number {
  if (s.charCodeAt(pos) !== OPEN_BRACKET) return -1;
  let seen = false;
  let size = 0;
  for (let i = pos + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === CLOSE_BRACKET) return seen ? i + 1 : -1;
    if (c === OPEN_BRACKET) return -1;
    if (++size > LABEL_MAX) return -1;
    if (c !== 0x20 && c !== 0x09 && c !== LF) seen = true;
    if (c === BACKSLASH) {
      const next = s.charCodeAt(i + 1);
      if (next === OPEN_BRACKET || next === CLOSE_BRACKET || next === BACKSLASH) {
        i++;
        size++;
      }
    }
  }
  return -1;
}

/**
 * A link destination at `pos`: `<...>` (no line ending, no unescaped '<' or '>'), or a raw
 * run without spaces or ASCII controls whose unescaped parentheses balance, nested at most
 * `maxDepth` deep. Returns the index past it or -1. A raw destination is never empty.
 */
export function scanLinkDestination(s: string, pos: number, maxDepth: number): number {
  const first = s.charCodeAt(pos);
  if (first === 0x3c) {
    for (let i = pos + 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x3e) return i + 1;
      if (c === 0x3c || c === LF) return -1;
      if (c === BACKSLASH) {
        const next = s.charCodeAt(i + 1);
        if (next === 0x3c || next === 0x3e || next === BACKSLASH) i++;
      }
    }
    return -1;
  }
  if (pos >= s.length || first === 0x20 || first === 0x29 || isAsciiControl(first)) return -1;
  let depth = 0;
  let i = pos;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (depth === 0 && (c === 0x29 || c === 0x20 || c === LF)) break;
    if (c === 0x28) {
      if (depth >= maxDepth) return -1;
      depth++;
    } else if (c === 0x29) {
      depth--;
    } else if (c === 0x20 || isAsciiControl(c)) {
      return -1;
    } else if (c === BACKSLASH) {
      const next = s.charCodeAt(i + 1);
      if (next === 0x28 || next === 0x29 || next === BACKSLASH) i++;
    }
  }
  return depth === 0 ? i : -1;
}

/**
 * A link title at `pos`: "…", '…' or (…), escapes allowed, line endings allowed (a
 * paragraph holds no blank line). Returns the index past the closing mark or -1.
 */
export function scanLinkTitle(s: string, pos: number): number {
  const open = s.charCodeAt(pos);
  let close: number;
  if (open === 0x22 || open === 0x27) close = open;
  else if (open === 0x28) close = 0x29;
  else return -1;
  for (let i = pos + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === close) return i + 1;
    if (c === BACKSLASH) {
      const next = s.charCodeAt(i + 1);
      if (next === close || next === BACKSLASH) i++;
    }
  }
  return -1;
}

/** Spaces and tabs, then the end of the line (its "\n" consumed) or of the text; else -1. */
function scanLineEnd(s: string, pos: number): number {
  const i = skipSpacesAndTabs(s, pos);
  if (i >= s.length) return i;
  return s.charCodeAt(i) === LF ? i + 1 : -1;
}

/** The label of a definition or reference, normalised as CommonMark matches them. */
export function normalizeLabel(raw: string): string {
  return raw
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase();
}

/**
 * One link reference definition at `pos` (the start of a line of paragraph content):
 * `[label]: destination "optional title"`, nothing else on the title's (or destination's)
 * last line. Returns the normalised label and the index past its line, or null.
 */
export function scanDefinition(s: string, pos: number): { label: string; end: number } | null {
  const start = skipSpacesAndTabs(s, pos);
  const labelEnd = scanLinkLabel(s, start);
  if (labelEnd < 0 || s.charCodeAt(labelEnd) !== 0x3a) return null;
  const destStart = skipWhitespace(s, labelEnd + 1);
  const destEnd = scanLinkDestination(s, destStart, Number.POSITIVE_INFINITY);
  if (destEnd < 0) return null;
  const label = normalizeLabel(s.slice(start + 1, labelEnd - 1));
  // A title must be separated from the destination by whitespace; when the title line
  // carries anything after the title, the definition ends at the destination instead.
  const titleStart = skipWhitespace(s, destEnd);
  if (titleStart > destEnd) {
    const titleEnd = scanLinkTitle(s, titleStart);
    if (titleEnd >= 0) {
      const end = scanLineEnd(s, titleEnd);
      if (end >= 0) return { label, end };
    }
  }
  const end = scanLineEnd(s, destEnd);
  return end >= 0 ? { label, end } : null;
}

/** The labels of the definitions that open a paragraph's content, and where they stop. */
export function scanDefinitions(content: string, labels: Set<string> | null): number {
  let pos = 0;
  while (pos < content.length) {
    const def = scanDefinition(content, pos);
    if (def === null) break;
    labels?.add(def.label);
    pos = def.end;
  }
  return pos;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * A character reference at `pos` ('&'): named (HTML5 list), decimal or hexadecimal.
 * Returns the decoded text and the index past ';', or null. Code point 0, surrogates and
 * values above U+10FFFF decode to U+FFFD, as CommonMark says.
 */
export function scanCharacterReference(s: string, pos: number): { value: string; end: number } | null {
  let i = pos + 1;
  if (s.charCodeAt(i) === 0x23) {
    i++;
    const hex = s.charCodeAt(i) === 0x78 || s.charCodeAt(i) === 0x58;
    if (hex) i++;
    const digitsStart = i;
    const max = hex ? 6 : 7;
    while (i < s.length && i - digitsStart < max && (hex ? isAsciiHexDigit(s.charCodeAt(i)) : isAsciiDigit(s.charCodeAt(i)))) i++;
    if (i === digitsStart || s.charCodeAt(i) !== 0x3b) return null;
    const code = Number.parseInt(s.slice(digitsStart, i), hex ? 16 : 10);
    const valid = code !== 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return { value: valid ? String.fromCodePoint(code) : '\ufffd', end: i + 1 };
  }
  const nameStart = i;
  if (!isAsciiAlpha(s.charCodeAt(i))) return null;
  while (i < s.length && i - nameStart < 32 && isAsciiAlphanumeric(s.charCodeAt(i))) i++;
  if (s.charCodeAt(i) !== 0x3b) return null;
  const name = s.slice(nameStart, i);
  if (!hasOwn.call(characterEntities, name)) return null;
  return { value: characterEntities[name] as string, end: i + 1 };
}
