// The section structure of an AsciiDoc document, as Asciidoctor reads it, for sections.ts:
// the same MarkdownStructure the Markdown reader returns (no front matter). A section reader,
// not a converter; the rules (docs/sources.md "Formats and files", AsciiDoc):
// - a section title is a line at column 0 of 1 to 6 `=` (or Markdown-style `#`, which
//   Asciidoctor also reads), one or more spaces or tabs, then text; a closing run of the same
//   marker after a space is not text (`== Setup ==`). `= Title` (the document title, level 0)
//   is an h1, `==` an h2, … `======` an h6.
// - a title inside a delimited block is none: listing `----`, literal `....`, example `====`,
//   sidebar `****`, quote `____`, passthrough `++++`, comment `////` (4 or more of the
//   character; the block closes at the same line), open `--`, tables `|===`, `,===`, `:===`,
//   `!===`; nor is a `//` comment line. An unclosed block runs to the end of the document.
// - block attribute lines directly before a title: `[[id]]` / `[[id,reftext]]` and `[#id]`
//   (`[#id.role%option]`) give its id, kept as written; `[discrete]` / `[float]` make it a
//   discrete heading, which is not a section. Any other line between them (a blank line
//   too) drops them.
// - otherwise the id is Asciidoctor's: the title lowercased, characters other than letters,
//   digits, `_`, spaces, `.` and `-` removed, runs of spaces, `.` and `-` replaced by the id
//   separator, prefixed by the id prefix (`_` and `_` unless the header sets `:idprefix:` /
//   `:idseparator:`); a taken id gets `_2`, `_3`, … as Asciidoctor numbers them.
// - a two-line title (Asciidoctor still reads them; git's manual is written so): a line of
//   text where a block may start, underlined by a run of `=` (h1), `-`, `~`, `^` or `+`
//   (h5) as long as the text within one character: `NAME` over `----` is a title, not a
//   listing block.
// - an anchor ending a title after a space (` [[id]]`, ` [[id, reftext]]`) gives its id
//   unless its attribute lines gave one; inline anchors are left out of the title's text
//   and of the id made from it (`OPTIONS[[OPTIONS]]`: `OPTIONS`, `_options`).
// Linear in the text's length.

import { finishTitles, isBlank, splitLines, type RawTitle } from './lines.js';
import type { MarkdownStructure } from './markdown.js';

export interface AsciidocOptions {
  readonly slugs?: boolean;
  readonly headingBytes?: number;
}

/** The delimiter text[start, end) is, as a key (`----` of 4+ `-` is `-4`, length kept), or null. */
function delimiter(text: string, start: number, end: number): string | null {
  let e = end;
  while (e > start && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x09)) e--;
  const n = e - start;
  if (n < 2) return null;
  const c = text.charCodeAt(start);
  if (n === 2) return c === 0x2d && text.charCodeAt(start + 1) === 0x2d ? '--' : null;
  if (n === 4 && text.charCodeAt(start + 1) === 0x3d && text.charCodeAt(start + 2) === 0x3d && text.charCodeAt(start + 3) === 0x3d && (c === 0x7c || c === 0x2c || c === 0x3a || c === 0x21)) {
    return text.slice(start, e);
  }
  if (c !== 0x2d && c !== 0x2e && c !== 0x3d && c !== 0x2a && c !== 0x5f && c !== 0x2b && c !== 0x2f) return null;
  if (n < 4) return null;
  for (let i = start + 1; i < e; i++) if (text.charCodeAt(i) !== c) return null;
  return text.slice(start, e);
}

/** Blocks whose content is not parsed as AsciiDoc: only their own delimiter closes them. */
function isVerbatim(key: string): boolean {
  const c = key.charCodeAt(0);
  return c === 0x2d && key !== '--' ? true : c === 0x2e || c === 0x2b || c === 0x2f;
}

const ANCHOR = /^\[\[([\p{L}_:][\p{L}\p{N}_:.-]*)(?:,[^\]]*)?\]\]$/u;
const ID_ATTRIBUTE = /^\[(?:[\p{L}\p{N}_-]*)#([\p{L}_:][\p{L}\p{N}_:-]*)[^\]]*\]$/u;
const DISCRETE = /^\[(?:discrete|float)(?:[,.#%\]]|$)/;
const ATTRIBUTE_LINE = /^\[.*\]$/;
const HEADER_ATTRIBUTE = /^:(idprefix|idseparator):(.*)$/;
/** Attribute lines longer than this are read as text (no id is that long; bounds the regular expressions' work). */
const MAX_ATTRIBUTE_LINE = 4096;

/** A section title line: its level and text, or null. */
function titleOf(line: string): { level: number; text: string } | null {
  const m = line.charCodeAt(0);
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === m) n++;
  if (n > 6 || n >= line.length) return null;
  const sp = line.charCodeAt(n);
  if (sp !== 0x20 && sp !== 0x09) return null;
  let text = line.slice(n).trim();
  if (text === '') return null;
  // A closing run of the same marker, after a space, is not text.
  const closing = ' ' + line.slice(0, n);
  if (text.endsWith(closing) || text.endsWith('\t' + line.slice(0, n))) {
    const rest = text.slice(0, -n).trimEnd();
    if (rest !== '') text = rest;
  }
  return { level: n, text };
}

/** A two-line title's level by its underline's character (Asciidoctor's SETEXT_SECTION_LEVELS, one more: `=` is an h1). */
const UNDERLINE_LEVEL: Readonly<Record<string, number>> = { '=': 1, '-': 2, '~': 3, '^': 4, '+': 5 };
const HAS_ALNUM = /[\p{L}\p{M}\p{Nd}]/u;
const ATTRIBUTE_ENTRY = /^:!?[\p{L}\p{N}_][\p{L}\p{N}_-]*!?:(?:[ \t]|$)/u;

/** End of text[start, end) less trailing spaces and tabs (Asciidoctor reads lines so). */
function trimmedEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x09)) e--;
  return e;
}

/** Code points in text[start, end). */
function codePoints(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    // A low surrogate after a high one ends the code point that one began.
    if (c >= 0xdc00 && c <= 0xdfff && i > start) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) continue;
    }
    n++;
  }
  return n;
}

/**
 * The level of a two-line (underlined) title whose text is text[s1, e1) and underline
 * text[s2, e2), or 0: the underline is one of `=`, `-`, `~`, `^`, `+` repeated, as long as
 * the text within one character (code points, trailing spaces and tabs left out); the text
 * does not start with `.` and holds a letter or digit (Asciidoctor's setext_section_title?).
 */
function underlinedLevel(text: string, s1: number, e1: number, s2: number, e2: number): number {
  const u = trimmedEnd(text, s2, e2);
  if (u === s2) return 0;
  const ch = text[s2] as string;
  const level = UNDERLINE_LEVEL[ch];
  if (level === undefined) return 0;
  const code = text.charCodeAt(s2);
  for (let i = s2 + 1; i < u; i++) if (text.charCodeAt(i) !== code) return 0;
  const t = trimmedEnd(text, s1, e1);
  if (t === s1 || text.charCodeAt(s1) === 0x2e) return 0;
  // Cheap length bounds before counting: a code point is one or two UTF-16 units.
  const underline = u - s2;
  if (t - s1 < underline - 1 || (t - s1) / 2 > underline + 1) return 0;
  if (Math.abs(codePoints(text, s1, t) - underline) >= 2) return 0;
  const line = text.slice(s1, t);
  return HAS_ALNUM.test(line) && !ATTRIBUTE_ENTRY.test(line) ? level : 0;
}

/** An anchor's id, read at a position (sticky): Asciidoctor's `[alpha_:][word-:.]*`. */
const ANCHOR_ID = /[\p{L}_:][\p{L}\p{M}\p{N}\p{Pc}:.-]*/uy;
/** An inline anchor without reference text anywhere in a title: it renders as an empty element. */
const INLINE_ANCHOR = /(?<!\\)\[\[[\p{L}_:][\p{L}\p{M}\p{N}\p{Pc}:.-]*\]\]/gu;

/**
 * The anchor ending a title as Asciidoctor's InlineSectionAnchorRx finds it — the leftmost
 * ` [[id]]` or ` [[id, reftext]]` (a space before it) that ends the title — as its position
 * and id; null when there is none or it is escaped (` \[[id]]`). Each candidate reads only
 * its id's characters, which no other candidate shares: linear in the title's length.
 */
function trailingAnchor(title: string): { at: number; id: string } | null {
  if (!title.endsWith(']]')) return null;
  const last = title.length - 2;
  for (let at = title.indexOf(' ', 0); at >= 0 && at < last; at = title.indexOf(' ', at + 1)) {
    const escaped = title.charCodeAt(at + 1) === 0x5c;
    const open = at + (escaped ? 2 : 1);
    if (title.charCodeAt(open) !== 0x5b || title.charCodeAt(open + 1) !== 0x5b) continue;
    ANCHOR_ID.lastIndex = open + 2;
    const m = ANCHOR_ID.exec(title);
    if (m === null) continue;
    const after = open + 2 + m[0].length;
    const ends = after === last || (title.charCodeAt(after) === 0x2c && after + 1 < last);
    if (!ends) continue;
    return escaped ? null : { at, id: m[0] };
  }
  return null;
}

/**
 * A title's text and the id an anchor at its end gives, other inline anchors (`[[id]]`)
 * left out of the text (`OPTIONS[[OPTIONS]]` reads `OPTIONS`, id `_options`, as Asciidoctor
 * makes it from the converted title, where the anchor is an empty element).
 */
function anchoredTitle(title: string): { text: string; id: string | null } {
  if (!title.includes('[[')) return { text: title, id: null };
  const end = trailingAnchor(title);
  const text = end === null ? title : title.slice(0, end.at).trimEnd();
  const bare = text.includes('[[') ? text.replace(INLINE_ANCHOR, '').replace(/[ \t]{2,}/g, ' ').trim() : text;
  return { text: bare === '' ? text : bare, id: end === null ? null : end.id };
}

/** Asciidoctor's generated section id. */
export function asciidocId(title: string, prefix: string, separator: string): string {
  let id = title.toLowerCase().replace(/<[^>]+>|&(?:[a-z][a-z]+\d{0,2}|#\d\d\d{0,4}|#x[\da-f][\da-f][\da-f]{0,3});|[^ \p{L}\p{N}\p{M}\p{Pc}\-.]+/gu, '');
  if (separator !== '') {
    id = id.replace(/[ .-]+/g, separator);
    if (id.endsWith(separator)) id = id.slice(0, -separator.length);
    if (prefix === '' && id.startsWith(separator)) id = id.slice(separator.length);
  } else id = id.replace(/[ .-]/g, '');
  return prefix + id;
}

export function parseAsciidoc(text: string, options: AsciidocOptions = {}): MarkdownStructure {
  if (typeof text !== 'string') throw new TypeError('parseAsciidoc: text must be a string');
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const { starts, ends, count } = splitLines(text, from);
  const titles: RawTitle[] = [];
  const blocks: number[] = [];
  const open: string[] = [];
  let prefix = '_';
  let separator = '_';
  let anchor: string | null = null;
  let discrete = false;
  let attributesStart = -1;
  let afterBreak = true;
  for (let i = 0; i < count; i++) {
    const s = starts[i] as number;
    const e = ends[i] as number;
    const top = open.length === 0 ? null : (open[open.length - 1] as string);
    if (top !== null && isVerbatim(top)) {
      if (e - s >= top.length && delimiter(text, s, e) === top) {
        open.pop();
        afterBreak = true;
      }
      continue;
    }
    if (isBlank(text, s, e)) {
      afterBreak = true;
      anchor = null;
      discrete = false;
      attributesStart = -1;
      continue;
    }
    const c = text.charCodeAt(s);
    const key = c === 0x2d || c === 0x2e || c === 0x3d || c === 0x2a || c === 0x5f || c === 0x2b || c === 0x2f || c === 0x7c || c === 0x2c || c === 0x3a || c === 0x21 ? delimiter(text, s, e) : null;
    if (key !== null) {
      if (open.length === 0) blocks.push(attributesStart >= 0 ? attributesStart : s);
      if (top === key) open.pop();
      else open.push(key);
      anchor = null;
      discrete = false;
      attributesStart = -1;
      afterBreak = true;
      continue;
    }
    if (open.length > 0) continue;
    const line = text.slice(s, e);
    if (c === 0x2f && line.startsWith('//')) continue;
    if (c === 0x5b && e - s <= MAX_ATTRIBUTE_LINE && ATTRIBUTE_LINE.test(line.trimEnd())) {
      const trimmed = line.trimEnd();
      const a = ANCHOR.exec(trimmed) ?? ID_ATTRIBUTE.exec(trimmed);
      if (a !== null) anchor = a[1] as string;
      if (DISCRETE.test(trimmed)) discrete = true;
      if (attributesStart < 0) attributesStart = s;
      if (afterBreak) blocks.push(s);
      afterBreak = false;
      continue;
    }
    if (c === 0x3a) {
      const h = HEADER_ATTRIBUTE.exec(line);
      if (h !== null && titles.length <= 1) {
        if (h[1] === 'idprefix') prefix = (h[2] as string).trim();
        else separator = (h[2] as string).trim();
      }
    }
    let t = c === 0x3d || c === 0x23 ? titleOf(line) : null;
    // A two-line title stands where a block may start: after a blank line, a block, a title
    // or the block's attribute lines, never inside a paragraph.
    let underlined = false;
    if (t === null && (afterBreak || attributesStart >= 0) && i + 1 < count) {
      const level = underlinedLevel(text, s, e, starts[i + 1] as number, ends[i + 1] as number);
      if (level > 0) {
        t = { level, text: line.trim() };
        underlined = true;
      }
    }
    if (t !== null && !discrete) {
      const title = t.text;
      const start = attributesStart >= 0 ? attributesStart : s;
      if (blocks.length === 0 || (blocks[blocks.length - 1] as number) < start) blocks.push(start);
      if (underlined) i++;
      const named = anchoredTitle(title);
      titles.push({ level: t.level, text: named.text, idText: named.text, id: anchor ?? named.id, start, end: starts[i + 1] as number });
      afterBreak = true;
    } else if (underlined) {
      // A discrete heading: a block, its underline read with it (not a listing's delimiter).
      if (attributesStart < 0) blocks.push(s);
      i++;
      afterBreak = true;
    } else {
      if (afterBreak && attributesStart < 0) blocks.push(s);
      afterBreak = false;
    }
    anchor = null;
    discrete = false;
    attributesStart = -1;
  }
  const made = new Map<string, number>();
  const headings = finishTitles(
    titles,
    (t, taken) => {
      const base = asciidocId(t, prefix, separator);
      // Asciidoctor numbers a repeated id `_2`, `_3`, … with the separator.
      if (!taken.has(base)) return base;
      let n = made.get(base) ?? 2;
      while (taken.has(`${base}${separator === '' ? '_' : separator}${n}`)) n++;
      made.set(base, n + 1);
      return `${base}${separator === '' ? '_' : separator}${n}`;
    },
    { slugs: options.slugs !== false, ...(options.headingBytes === undefined ? {} : { headingBytes: options.headingBytes }) },
  );
  const out: number[] = [];
  for (const b of blocks) if (out.length === 0 || b > (out[out.length - 1] as number)) out.push(b);
  return { frontMatter: null, headings, blocks: out };
}
