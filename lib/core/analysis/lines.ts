// Shared by the section readers of formats other than Markdown (rst.ts, asciidoc.ts,
// plain-text.ts): the lines of a text with their offsets, and the last step every reader
// takes, from raw titles to the Heading records sections.ts reads (texts bounded, slugs
// unique in the document). Pure and linear.

import { flatString } from './flat-string.js';
import { boundedHeading, utf8Prefix, type Heading } from './markdown.js';

export interface Lines {
  /** UTF-16 offset where line i starts; starts[count] = text.length. */
  readonly starts: Int32Array | number[];
  /** UTF-16 offset where line i's content ends (before its line ending). */
  readonly ends: Int32Array | number[];
  readonly count: number;
}

/** The lines of `text` (LF, CRLF or a lone CR end a line), from offset `from`. */
export function splitLines(text: string, from = 0): Lines {
  const starts: number[] = [];
  const ends: number[] = [];
  let i = from;
  const n = text.length;
  while (i < n) {
    starts.push(i);
    let j = i;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 0x0a || c === 0x0d) break;
      j++;
    }
    ends.push(j);
    if (j < n && text.charCodeAt(j) === 0x0d && j + 1 < n && text.charCodeAt(j + 1) === 0x0a) i = j + 2;
    else i = j < n ? j + 1 : j;
  }
  const count = starts.length;
  starts.push(n);
  return { starts, ends, count };
}

/** Whether text[start, end) is only spaces and tabs. */
export function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** Columns of leading whitespace (a tab advances to the next multiple of 8, as docutils and Asciidoctor expand it). */
export function indentOf(text: string, start: number, end: number): number {
  let col = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) col++;
    else if (c === 0x09) col = col + 8 - (col % 8);
    else return col;
  }
  return col;
}

export interface RawTitle {
  readonly level: number;
  /** The title's text as shown (trimmed). */
  readonly text: string;
  /** The text an id is made from when the document names none. */
  readonly idText: string;
  /** An id the document gives the section (an rST target, an AsciiDoc anchor), or null. */
  readonly id: string | null;
  readonly start: number;
  readonly end: number;
}

export interface TitleOptions {
  /** Compute ids (false: every slug is ''). */
  readonly slugs: boolean;
  /** The most UTF-8 bytes a title's text (and the text its id is made from) keeps. */
  readonly headingBytes?: number;
}

/**
 * Headings from raw titles: texts bounded as Markdown's are (markdown.ts boundedHeading), ids
 * made by `makeId` unless the document names one, an id already taken numbered `id-1`, `-2`,
 * … (as Markdown custom ids are), never holding a `~` (sections.ts uses it for pieces).
 */
export function finishTitles(titles: readonly RawTitle[], makeId: (text: string, taken: ReadonlySet<string>) => string, options: TitleOptions): Heading[] {
  const max = options.headingBytes;
  if (max !== undefined && !(max >= 4)) throw new RangeError('headingBytes must be at least 4');
  const taken = new Set<string>();
  const next = new Map<string, number>();
  const headings: Heading[] = [];
  for (const t of titles) {
    const text = flatString(max === undefined ? t.text : boundedHeading(t.text, max));
    let slug = '';
    if (options.slugs) {
      slug = t.id !== null ? t.id.replace(/~/g, '-') : makeId(max === undefined ? t.idText : utf8Prefix(t.idText, max), taken);
      if (taken.has(slug)) {
        // Where to look next for a free number, per id: a thousand repeated titles cost a
        // thousand steps, not half a million.
        let n = next.get(slug) ?? 1;
        while (taken.has(`${slug}-${n}`)) n++;
        next.set(slug, n + 1);
        slug = `${slug}-${n}`;
      }
      taken.add(slug);
    }
    headings.push({ level: t.level, text, slug, start: t.start, end: t.end });
  }
  return headings;
}
