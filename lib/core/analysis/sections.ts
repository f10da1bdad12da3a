// Sections: a Markdown document cut into addressable parts, the rules of docs/engine.md
// "Markdown structure and sections":
// - cut before each top-level heading of level <= splitLevel; text before the first one is
//   a leading part (slug '', trail []);
// - trail = the texts of the section's heading and its enclosing headings of any level;
// - a section under minBytes (UTF-8) joins the one before it (keeping that one's slug and
//   trail); then a first section still under minBytes, or a whitespace-only leading part,
//   takes in the one after it and keeps its own slug and trail;
// - the sections tile the text: concatenating their slices gives the document back.

import { ContextError } from '../../errors.js';
import type { Heading, MarkdownStructure } from './markdown.js';

export interface SectionOptions {
  /** Split at headings of level <= splitLevel (the engine uses 2). */
  readonly splitLevel: number;
  /** A section whose UTF-8 size is below this joins a neighbour (the engine uses 512 bytes). */
  readonly minBytes: number;
}

export interface Section {
  /** UTF-16 offsets; sections tile the text: first.start = 0, each end = next start, last.end = text.length. */
  readonly start: number;
  readonly end: number;
  /** The slug of the heading the section starts with; '' for a leading part before any split heading. */
  readonly slug: string;
  /** Heading texts from the top level down to the section's own heading (ancestors of any level, e.g. [h1, h2]); [] for a leading part. */
  readonly trail: readonly string[];
  /** Texts of every heading inside [start, end), own heading included, in order (ranking uses them). */
  readonly headings: readonly string[];
}

interface Part {
  start: number;
  end: number;
  readonly slug: string;
  readonly trail: readonly string[];
  /** Index of the first heading inside the part, and one past the last. */
  firstHeading: number;
  endHeading: number;
  bytes: number;
}

/** UTF-8 length of text[start, end): a lone surrogate counts 3 bytes, as its U+FFFD would. */
export function utf8Length(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    } else bytes += 3;
  }
  return bytes;
}

function isWhitespaceOnly(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x0b && c !== 0xfeff) return false;
  }
  return true;
}

function checkOptions(options: SectionOptions): void {
  const { splitLevel, minBytes } = options;
  if (!Number.isInteger(splitLevel) || splitLevel < 1 || splitLevel > 6) {
    throw new ContextError('internal_error', 'splitSections: splitLevel must be an integer from 1 to 6');
  }
  if (!Number.isSafeInteger(minBytes) || minBytes < 0) {
    throw new ContextError('internal_error', 'splitSections: minBytes must be a non-negative integer');
  }
}

function checkStructure(text: string, headings: readonly Heading[]): void {
  let previousEnd = 0;
  for (const h of headings) {
    if (!(h.start >= previousEnd && h.end > h.start && h.end <= text.length)) {
      throw new ContextError('internal_error', 'splitSections: the structure does not belong to this text');
    }
    previousEnd = h.end;
  }
}

/**
 * Cuts `text` into sections at its top-level headings of level <= splitLevel, then merges:
 * every section under minBytes joins the one before it (which keeps its slug and trail);
 * a first section still under minBytes (or whitespace only) joins the one after it, and
 * the merged section keeps the first part's slug and trail. Always at least one section.
 */
export function splitSections(text: string, structure: MarkdownStructure, options: SectionOptions): Section[] {
  checkOptions(options);
  const headings = structure.headings;
  checkStructure(text, headings);

  // Parts: a leading part (if any text precedes the first split heading), then one part
  // per split heading. The trail is the chain of enclosing headings of any level.
  const parts: Part[] = [];
  const ancestors: Heading[] = [];
  let leadingEnd = text.length;
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i] as Heading;
    while (ancestors.length > 0 && (ancestors[ancestors.length - 1] as Heading).level >= h.level) ancestors.pop();
    ancestors.push(h);
    if (h.level > options.splitLevel) continue;
    if (parts.length === 0) leadingEnd = h.start;
    else (parts[parts.length - 1] as Part).end = h.start;
    parts.push({
      start: h.start,
      end: text.length,
      slug: h.slug,
      trail: ancestors.map((a) => a.text),
      firstHeading: i,
      endHeading: i,
      bytes: 0,
    });
  }
  if (leadingEnd > 0 || parts.length === 0) {
    parts.unshift({ start: 0, end: leadingEnd, slug: '', trail: [], firstHeading: 0, endHeading: 0, bytes: 0 });
  }
  // Which headings each part holds (headings are in document order, like the parts).
  let next = 0;
  for (const part of parts) {
    while (next < headings.length && (headings[next] as Heading).start < part.start) next++;
    part.firstHeading = next;
    while (next < headings.length && (headings[next] as Heading).start < part.end) next++;
    part.endHeading = next;
    part.bytes = utf8Length(text, part.start, part.end);
  }

  // Small sections join the section before them.
  const merged: Part[] = [];
  for (const part of parts) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && part.bytes < options.minBytes) {
      previous.end = part.end;
      previous.endHeading = part.endHeading;
      previous.bytes += part.bytes;
    } else {
      merged.push(part);
    }
  }
  // The first section has nothing before it: if small, it takes in the one after it. The
  // one after was at least minBytes, so one merge suffices.
  const first = merged[0] as Part;
  const second = merged[1];
  if (second !== undefined && (first.bytes < options.minBytes || (first.slug === '' && isWhitespaceOnly(text, first.start, first.end)))) {
    first.end = second.end;
    first.endHeading = second.endHeading;
    first.bytes += second.bytes;
    merged.splice(1, 1);
  }

  return merged.map((part) => ({
    start: part.start,
    end: part.end,
    slug: part.slug,
    trail: part.trail,
    headings: headings.slice(part.firstHeading, part.endHeading).map((h) => h.text),
  }));
}
