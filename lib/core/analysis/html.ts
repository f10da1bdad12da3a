// The section structure of an HTML page for sections.ts, and the text of it that is indexed.
// A scanner, not a parser (docs/engine.md "Sources", HTML):
// - a section title is an `<h1>` … `<h6>` element (any case, any attributes) outside
//   `<script>`, `<style>`, `<template>`, `<textarea>`, `<title>` and `<!-- comments -->`;
//   its span runs from `<hN` to its closing tag, and on to the end of that line when only
//   spaces follow; a heading never closed (another opens first, or the page ends) is none.
// - its text is its content without tags, entities `&amp; &lt; &gt; &quot; &#39; &nbsp;`
//   and numeric references decoded, whitespace runs one space, trimmed.
// - its id is its `id` attribute, kept as written; otherwise GitHub's slug of its text
//   (github-slugger), numbered when repeated.
// - `visibleText` is the page with every tag, comment, and script / style / template
//   element replaced by spaces (line endings kept), so offsets stay those of the source:
//   its words are what is indexed, while a unit's content (what is printed and cited) stays
//   the exact slice of the source.
// Linear in the text's length.

import { finishTitles, type RawTitle } from './lines.js';
import type { MarkdownStructure } from './markdown.js';
import { Slugger } from './slugger.js';

export interface HtmlOptions {
  readonly slugs?: boolean;
  readonly headingBytes?: number;
}

/** Elements whose content is not page text, and holds no heading. */
const RAW = new Set(['script', 'style', 'template', 'textarea', 'title']);
const BLOCK_START = new Set(['p', 'div', 'section', 'article', 'ul', 'ol', 'li', 'pre', 'table', 'blockquote', 'dl', 'figure', 'header', 'footer', 'main', 'nav', 'aside', 'details']);

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/g, (m, e: string) => {
    if (e.charCodeAt(0) === 0x23) {
      const cp = e.charCodeAt(1) === 0x78 || e.charCodeAt(1) === 0x58 ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

interface Tag {
  readonly name: string;
  readonly closing: boolean;
  readonly end: number;
  readonly id: string | null;
}

/** The tag starting at `i` (text[i] is `<`), or null when it is no tag. */
function tagAt(text: string, i: number): Tag | null {
  let j = i + 1;
  const closing = text.charCodeAt(j) === 0x2f;
  if (closing) j++;
  const nameStart = j;
  while (j < text.length) {
    const c = text.charCodeAt(j) | 0x20;
    if ((c >= 0x61 && c <= 0x7a) || (j > nameStart && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39)) j++;
    else break;
  }
  if (j === nameStart) return null;
  const name = text.slice(nameStart, j).toLowerCase();
  // To the closing `>`, skipping quoted attribute values.
  let quote = 0;
  const attrStart = j;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) break;
    j++;
  }
  if (j >= text.length) return { name, closing, end: -1, id: null };
  let id: string | null = null;
  if (!closing && name.length === 2 && name.charCodeAt(0) === 0x68) {
    const m = /(?:^|[\s"'])id\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(text.slice(attrStart, j));
    if (m !== null) id = (m[1] ?? m[2] ?? m[3] ?? '').trim() || null;
  }
  return { name, closing, end: j + 1, id };
}

const CLOSING: Readonly<Record<string, RegExp>> = Object.fromEntries([...RAW].map((n) => [n, new RegExp(`</${n}`, 'gi')]));

/** Where `</name` next starts at or after `from` (any case), or -1. */
function closingTag(text: string, name: string, from: number): number {
  const re = CLOSING[name] as RegExp;
  re.lastIndex = from;
  const m = re.exec(text);
  return m === null ? -1 : m.index;
}

/** `s` without its tags (a `<` with no `>` after it is kept, with the rest). */
function stripTags(s: string): string {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    const lt = s.indexOf('<', i);
    if (lt < 0) break;
    const gt = s.indexOf('>', lt);
    if (gt < 0) break;
    out.push(s.slice(i, lt));
    i = gt + 1;
  }
  out.push(s.slice(i));
  return out.join('');
}

export interface HtmlStructure extends MarkdownStructure {
  /** The page with markup and non-text elements blanked (same length, line endings kept). */
  readonly visibleText: string;
}

export function parseHtml(text: string, options: HtmlOptions = {}): HtmlStructure {
  if (typeof text !== 'string') throw new TypeError('parseHtml: text must be a string');
  const visible: string[] = [];
  let copied = 0;
  const blank = (from: number, to: number): void => {
    if (from > copied) visible.push(text.slice(copied, from));
    visible.push(text.slice(from, to).replace(/[^\r\n]/g, ' '));
    copied = to;
  };
  const titles: RawTitle[] = [];
  const blocks: number[] = [];
  let heading: { level: number; start: number; contentStart: number; id: string | null } | null = null;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4);
      const end = close < 0 ? n : close + 3;
      blank(lt, end);
      i = end;
      continue;
    }
    if (text.charCodeAt(lt + 1) === 0x21 || text.charCodeAt(lt + 1) === 0x3f) {
      const close = text.indexOf('>', lt);
      const end = close < 0 ? n : close + 1;
      blank(lt, end);
      i = end;
      continue;
    }
    const tag = tagAt(text, lt);
    if (tag === null) {
      i = lt + 1;
      continue;
    }
    // No `>` to the end of the page: the rest is text (and no later `<` can close either).
    if (tag.end < 0) break;
    if (!tag.closing && RAW.has(tag.name)) {
      const close = closingTag(text, tag.name, tag.end);
      const closeEnd = close < 0 ? n : text.indexOf('>', close) < 0 ? n : text.indexOf('>', close) + 1;
      blank(lt, closeEnd);
      i = closeEnd;
      continue;
    }
    blank(lt, tag.end);
    const isHeading = tag.name.length === 2 && tag.name.charCodeAt(0) === 0x68 && tag.name.charCodeAt(1) >= 0x31 && tag.name.charCodeAt(1) <= 0x36;
    if (isHeading && !tag.closing) {
      heading = { level: tag.name.charCodeAt(1) - 0x30, start: lt, contentStart: tag.end, id: tag.id };
    } else if (isHeading && tag.closing && heading !== null) {
      // The span runs on to the end of the line when only spaces follow.
      let end = tag.end;
      let k = end;
      while (k < n && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k++;
      if (k === n) end = n;
      else if (text.charCodeAt(k) === 0x0a) end = k + 1;
      else if (text.charCodeAt(k) === 0x0d) end = text.charCodeAt(k + 1) === 0x0a ? k + 2 : k + 1;
      const inner = decode(stripTags(text.slice(heading.contentStart, lt))).replace(/\s+/g, ' ').trim();
      titles.push({ level: heading.level, text: inner, idText: inner, id: heading.id, start: heading.start, end });
      blocks.push(heading.start);
      heading = null;
      i = tag.end;
      continue;
    } else if (!tag.closing && BLOCK_START.has(tag.name) && heading === null) {
      blocks.push(lt);
    }
    i = tag.end;
  }
  if (copied < n) visible.push(text.slice(copied));
  const slugger = new Slugger();
  const headings = finishTitles(titles, (t) => slugger.slug(t), { slugs: options.slugs !== false, ...(options.headingBytes === undefined ? {} : { headingBytes: options.headingBytes }) });
  const out: number[] = [];
  for (const b of blocks) if (out.length === 0 || b > (out[out.length - 1] as number)) out.push(b);
  // Character references are markup too: `&amp;` is no word `amp`.
  const visibleText = visible.join('').replace(/&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (m: string) => ' '.repeat(m.length));
  return { frontMatter: null, headings, blocks: out, visibleText };
}
