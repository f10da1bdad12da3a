// Raw HTML as CommonMark recognises it: the seven kinds of HTML block (start and end
// conditions, tested one line at a time) and inline HTML (tags, comments, processing
// instructions, declarations, CDATA), which heading text drops. Tag names follow
// CommonMark 0.31 as micromark lists them.

import {
  isAsciiAlpha,
  isAsciiAlphanumeric,
  isSpaceOrTab,
  LF,
} from './markdown-chars.js';

/** Type 1: raw text elements, which end at their closing tag rather than a blank line. */
const RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);

/** Type 6: block-level names, which end at a blank line. */
const BLOCK_NAMES = new Set([
  'address', 'article', 'aside', 'base', 'basefont', 'blockquote', 'body', 'caption', 'center',
  'col', 'colgroup', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'head', 'header', 'hr', 'html', 'iframe', 'legend', 'li', 'link', 'main', 'menu',
  'menuitem', 'nav', 'noframes', 'ol', 'optgroup', 'option', 'p', 'param', 'search', 'section',
  'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'title', 'tr', 'track', 'ul',
]);

function tagNameEnd(s: string, pos: number, end: number): number {
  if (pos >= end || !isAsciiAlpha(s.charCodeAt(pos))) return -1;
  let i = pos + 1;
  while (i < end && (isAsciiAlphanumeric(s.charCodeAt(i)) || s.charCodeAt(i) === 0x2d)) i++;
  return i;
}

/**
 * The kind (1-7) of HTML block that starts at `pos` ('<', after at most three spaces of
 * indentation) on a line ending at `end`, or 0. Kind 7 is reported even where it may not
 * interrupt a paragraph; the caller checks that.
 */
export function htmlBlockStart(s: string, pos: number, end: number): number {
  let i = pos + 1;
  const c = s.charCodeAt(i);
  if (c === 0x21) {
    // <!-- (2), <![CDATA[ (5), <!X (4)
    if (s.startsWith('--', i + 1)) return 2;
    if (s.startsWith('[CDATA[', i + 1)) return 5;
    if (isAsciiAlpha(s.charCodeAt(i + 1)) && i + 1 < end) return 4;
    return 0;
  }
  if (c === 0x3f) return 3;
  const closing = c === 0x2f;
  if (closing) i++;
  const nameEnd = tagNameEnd(s, i, end);
  if (nameEnd < 0) return 0;
  const name = s.slice(i, nameEnd).toLowerCase();
  const after = nameEnd < end ? s.charCodeAt(nameEnd) : -1;
  if (!closing && RAW_NAMES.has(name) && (after === -1 || after === 0x3e || isSpaceOrTab(after))) return 1;
  if (
    BLOCK_NAMES.has(name) &&
    (after === -1 || after === 0x3e || isSpaceOrTab(after) || (after === 0x2f && s.charCodeAt(nameEnd + 1) === 0x3e && nameEnd + 1 < end))
  ) {
    return 6;
  }
  // CommonMark's prose excludes pre/script/style/textarea from kind 7, but cmark (GitHub),
  // commonmark.js and micromark all accept `</script>` or `<script/>` alone on a line as
  // kind 7: the implementations agree, so we do too.
  const tagEnd = closing ? scanClosingTag(s, pos, end) : scanOpenTag(s, pos, end);
  if (tagEnd < 0) return 0;
  let j = tagEnd;
  while (j < end && isSpaceOrTab(s.charCodeAt(j))) j++;
  return j === end ? 7 : 0;
}

/** End marks of kinds 2-5, indexed by kind. */
const END_MARKS: readonly string[] = ['', '', '-->', '?>', '>', ']]>'];

/** Whether the line [pos, end) meets the end condition of an HTML block of kind 1-5. */
export function htmlBlockEnds(kind: number, s: string, pos: number, end: number): boolean {
  if (kind === 1) {
    const line = s.slice(pos, end).toLowerCase();
    return line.includes('</pre>') || line.includes('</script>') || line.includes('</style>') || line.includes('</textarea>');
  }
  // The line is searched on its own: an unbounded indexOf would rescan the rest of the
  // document for every line of a long comment.
  const mark = END_MARKS[kind];
  return mark !== undefined && mark !== '' && s.slice(pos, end).includes(mark);
}

/** Spaces, tabs and at most one line ending; returns the index past them. */
function skipTagWhitespace(s: string, pos: number, end: number): number {
  let i = pos;
  let lineEndings = 0;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c === LF) {
      if (++lineEndings > 1) break;
    } else if (!isSpaceOrTab(c)) {
      break;
    }
    i++;
  }
  return i;
}

function isAttributeNameStart(c: number): boolean {
  return isAsciiAlpha(c) || c === 0x5f || c === 0x3a;
}

function isAttributeNameChar(c: number): boolean {
  return isAsciiAlphanumeric(c) || c === 0x5f || c === 0x3a || c === 0x2e || c === 0x2d;
}

/** An open tag `<name attr="v" ... />` at `pos`; returns the index past '>' or -1. */
export function scanOpenTag(s: string, pos: number, end: number): number {
  let i = tagNameEnd(s, pos + 1, end);
  if (i < 0) return -1;
  for (;;) {
    const afterSpace = skipTagWhitespace(s, i, end);
    const c = afterSpace < end ? s.charCodeAt(afterSpace) : -1;
    if (c === 0x3e) return afterSpace + 1;
    if (c === 0x2f) return s.charCodeAt(afterSpace + 1) === 0x3e && afterSpace + 1 < end ? afterSpace + 2 : -1;
    // An attribute needs whitespace before it.
    if (afterSpace === i || !isAttributeNameStart(c)) return -1;
    i = afterSpace + 1;
    while (i < end && isAttributeNameChar(s.charCodeAt(i))) i++;
    const beforeEquals = skipTagWhitespace(s, i, end);
    if (beforeEquals < end && s.charCodeAt(beforeEquals) === 0x3d) {
      const valueStart = skipTagWhitespace(s, beforeEquals + 1, end);
      const q = valueStart < end ? s.charCodeAt(valueStart) : -1;
      if (q === 0x22 || q === 0x27) {
        let close = valueStart + 1;
        while (close < end && s.charCodeAt(close) !== q) close++;
        if (close >= end) return -1;
        i = close + 1;
      } else {
        let j = valueStart;
        while (j < end) {
          const v = s.charCodeAt(j);
          if (v === 0x20 || v === 0x09 || v === LF || v === 0x0d || v === 0x22 || v === 0x27 || v === 0x3d || v === 0x3c || v === 0x3e || v === 0x60) break;
          j++;
        }
        if (j === valueStart) return -1;
        i = j;
      }
    }
  }
}

/** A closing tag `</name >` at `pos`; returns the index past '>' or -1. */
export function scanClosingTag(s: string, pos: number, end: number): number {
  const nameEnd = tagNameEnd(s, pos + 2, end);
  if (nameEnd < 0) return -1;
  const i = skipTagWhitespace(s, nameEnd, end);
  return i < end && s.charCodeAt(i) === 0x3e ? i + 1 : -1;
}

/** The index of `mark` at or after `from`, or -1; a miss is remembered in `absent`. */
function findMark(s: string, mark: string, from: number, absent: Set<string>): number {
  if (absent.has(mark)) return -1;
  const at = s.indexOf(mark, from);
  if (at < 0) absent.add(mark);
  return at;
}

/**
 * Inline HTML at `pos` ('<'): open or closing tag, comment (`<!-->`, `<!--->` or
 * `<!-- … -->`), processing instruction, declaration or CDATA section. Returns the index
 * past it or -1. `absent` carries the closing marks already known missing after an
 * earlier position of the same text (callers scan left to right), so that many unclosed
 * openers cost one search each instead of one per opener.
 */
export function scanInlineHtml(s: string, pos: number, absent: Set<string>): number {
  const end = s.length;
  const c = s.charCodeAt(pos + 1);
  if (c === 0x2f) return scanClosingTag(s, pos, end);
  if (c === 0x21) {
    if (s.startsWith('--', pos + 2)) {
      if (s.startsWith('>', pos + 4)) return pos + 5;
      if (s.startsWith('->', pos + 4)) return pos + 6;
      const close = findMark(s, '-->', pos + 4, absent);
      return close < 0 ? -1 : close + 3;
    }
    if (s.startsWith('[CDATA[', pos + 2)) {
      const close = findMark(s, ']]>', pos + 9, absent);
      return close < 0 ? -1 : close + 3;
    }
    if (isAsciiAlpha(s.charCodeAt(pos + 2))) {
      const close = findMark(s, '>', pos + 2, absent);
      return close < 0 ? -1 : close + 1;
    }
    return -1;
  }
  if (c === 0x3f) {
    const close = findMark(s, '?>', pos + 2, absent);
    return close < 0 ? -1 : close + 2;
  }
  return scanOpenTag(s, pos, end);
}

/** An autolink `<scheme:…>` or `<user@host>` at `pos`; returns the index past '>' or -1. */
export function scanAutolink(s: string, pos: number): number {
  let i = pos + 1;
  // URI: scheme of 2-32 characters, ':', then no whitespace, controls, '<' or '>'.
  if (isAsciiAlpha(s.charCodeAt(i))) {
    let j = i + 1;
    while (j < s.length && j - i < 32) {
      const c = s.charCodeAt(j);
      if (!(isAsciiAlphanumeric(c) || c === 0x2b || c === 0x2e || c === 0x2d)) break;
      j++;
    }
    if (j - i >= 2 && s.charCodeAt(j) === 0x3a) {
      for (let k = j + 1; k < s.length; k++) {
        const c = s.charCodeAt(k);
        if (c === 0x3e) return k + 1;
        if (c <= 0x20 || c === 0x3c || c === 0x7f) break;
      }
    }
  }
  // Email: local part, '@', labels of 1-63 alphanumerics or '-' (not at either end) joined by '.'.
  i = pos + 1;
  const localStart = i;
  while (i < s.length && isEmailLocalChar(s.charCodeAt(i))) i++;
  if (i === localStart || s.charCodeAt(i) !== 0x40) return -1;
  i++;
  for (;;) {
    const labelStart = i;
    while (i < s.length && i - labelStart < 63 && (isAsciiAlphanumeric(s.charCodeAt(i)) || s.charCodeAt(i) === 0x2d)) i++;
    if (i === labelStart || s.charCodeAt(labelStart) === 0x2d || s.charCodeAt(i - 1) === 0x2d) return -1;
    const c = s.charCodeAt(i);
    if (c === 0x3e) return i + 1;
    if (c !== 0x2e) return -1;
    i++;
  }
}

const EMAIL_LOCAL_PUNCTUATION = ".!#$%&'*+/=?^_`{|}~-";

function isEmailLocalChar(c: number): boolean {
  return isAsciiAlphanumeric(c) || (c < 0x80 && EMAIL_LOCAL_PUNCTUATION.includes(String.fromCharCode(c)));
}
