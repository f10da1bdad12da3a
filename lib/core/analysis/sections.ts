// Sections: a Markdown document cut into addressable units that fit, the rules of
// docs/sources.md "Markdown structure and sections" and "Units that fit":
// - sections tile the document's body, the text after its front matter (no section holds
//   front matter); cut before each top-level heading of level <= splitLevel; text before the first
//   one is a leading part, named by the page (section-name.ts): slug '', trail [its
//   front-matter title, else its first line of text], or [] when it has neither;
// - with a cap (maxBytes), a part over it is cut at its deeper headings (the shallowest
//   level inside it first, then deeper), then what is still over it at the starts of
//   top-level blocks, then inside one block at line starts, then inside one line at a code
//   point boundary: no section is over the cap;
// - trail = the texts of the section's heading and its enclosing headings of any level;
// - a section under minBytes (UTF-8) joins the one before it (keeping that one's slug and
//   trail) when the joined unit stays within mergeMaxBytes (and the cap); a heading's small
//   introduction before its first sub-heading, a first section, or one that could not join,
//   takes in the one after it (keeping its own slug and trail) under the same limit; a
//   whitespace-only leading part too; a small leading part takes in the first heading's
//   section up to the cap, past mergeMaxBytes, and (without a front-matter title) takes that
//   heading's trail: a banner or a directive line is no unit and no name of its own;
// - ids: a heading's section has its slug; when its text is cut at blocks, the k-th piece is
//   `slug~k` (k >= 2), whether or not the first piece merged away; no slug holds a `~`; the
//   leading part's k-th piece is `name~k`, name the slug of its name (`~k` without one),
//   numbered after the headings' ids so that it never takes one of theirs;
// - the sections tile the body: concatenating their slices gives the text after the front
//   matter back (the whole text when there is none).

import { ContextError } from '../../errors.js';
import { bodyStartOf, type Heading, type MarkdownStructure } from './markdown.js';
import { leadingName } from './section-name.js';
import { slugOf } from './slugger.js';

export interface SectionOptions {
  /** Split at headings of level <= splitLevel (the engine uses 2). */
  readonly splitLevel: number;
  /** A section whose UTF-8 size is below this joins a neighbour (the engine uses 512 bytes). */
  readonly minBytes: number;
  /** No section over this many UTF-8 bytes (at least 4, one code point); omitted: no cap. */
  readonly maxBytes?: number;
  /** Small sections merge only while the joined unit stays within this many UTF-8 bytes
   * (and within maxBytes); omitted: up to the cap (the engine uses 1,024). */
  readonly mergeMaxBytes?: number;
}

export interface Section {
  /** UTF-16 offsets; sections tile the body: first.start = the front matter's end (0 without
   * one), each end = next start, last.end = text.length. */
  readonly start: number;
  readonly end: number;
  /** Unique within the document: the slug of the heading the section belongs to, with `~N`
   * (N >= 2) on the second and later sections of one slug; for the leading part before any
   * heading '', then `name~N` (name: the slug of its trail's name; `~N` without one). */
  readonly slug: string;
  /** Heading texts from the top level down to the section's own heading (ancestors of any
   * level, e.g. [h1, h2]); for a leading part, [its name] (front-matter title, else first
   * line of text) or [] without one. */
  readonly trail: readonly string[];
  /** Whether the section is (a piece of) the leading part: its trail names the page, it is no heading. */
  readonly leading: boolean;
  /** Texts of every heading inside [start, end), own heading included, in order (ranking uses them). */
  readonly headings: readonly string[];
}

interface Part {
  start: number;
  end: number;
  /** The heading slug the part is addressed by (before `~N`), and its trail. */
  readonly slug: string;
  trail: readonly string[];
  /** Index of the heading the part starts with, or -1 (leading text, or a piece cut from inside a heading's text). */
  readonly own: number;
  /** The text a heading has before its first sub-heading, cut off by a heading cut. */
  readonly lead: boolean;
  bytes: number;
  /** Small: takes in the part after it if both fit. */
  wantsNext: boolean;
  /** 1 for a heading's (or the leading text's) first piece, k for its k-th when cut at blocks. */
  readonly piece: number;
  /** A piece of the text before the first split heading. */
  readonly leading: boolean;
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
  const { splitLevel, minBytes, maxBytes, mergeMaxBytes } = options;
  if (!Number.isInteger(splitLevel) || splitLevel < 1 || splitLevel > 6) {
    throw new ContextError('internal_error', 'splitSections: splitLevel must be an integer from 1 to 6');
  }
  if (!Number.isSafeInteger(minBytes) || minBytes < 0) {
    throw new ContextError('internal_error', 'splitSections: minBytes must be a non-negative integer');
  }
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 4)) {
    throw new ContextError('internal_error', 'splitSections: maxBytes must be an integer of at least 4');
  }
  if (mergeMaxBytes !== undefined && (!Number.isSafeInteger(mergeMaxBytes) || mergeMaxBytes < 0)) {
    throw new ContextError('internal_error', 'splitSections: mergeMaxBytes must be a non-negative integer');
  }
}

function checkStructure(text: string, structure: MarkdownStructure): void {
  const bodyStart = bodyStartOf(structure);
  if (!(Number.isSafeInteger(bodyStart) && bodyStart >= 0 && bodyStart <= text.length)) {
    throw new ContextError('internal_error', 'splitSections: the structure does not belong to this text');
  }
  let previousEnd = bodyStart;
  for (const h of structure.headings) {
    if (!(h.start >= previousEnd && h.end > h.start && h.end <= text.length)) {
      throw new ContextError('internal_error', 'splitSections: the structure does not belong to this text');
    }
    previousEnd = h.end;
  }
  let previous = bodyStart - 1;
  for (const b of structure.blocks) {
    if (!(b > previous && b <= text.length)) throw new ContextError('internal_error', 'splitSections: the structure does not belong to this text');
    previous = b;
  }
}

/** First index in the ascending `values` whose value is >= `at`. */
function lowerBound(values: readonly number[], at: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class Cutter {
  private readonly headingStarts: number[];
  constructor(
    private readonly text: string,
    private readonly headings: readonly Heading[],
    private readonly trails: readonly (readonly string[])[],
    private readonly blocks: readonly number[],
    private readonly cap: number,
    private readonly minBytes: number,
    private readonly out: Part[],
  ) {
    this.headingStarts = headings.map((h) => h.start);
  }

  /** Emits `part` if it fits, else its pieces: at deeper headings, then blocks, lines, code points. */
  refine(part: Part): void {
    if (part.bytes <= this.cap) {
      this.out.push(part);
      return;
    }
    // Headings inside the part other than its own; cut at the shallowest level among them.
    const from = lowerBound(this.headingStarts, part.start);
    const to = lowerBound(this.headingStarts, part.end);
    let level = 7;
    for (let i = from; i < to; i++) {
      if (i !== part.own && (this.headings[i] as Heading).level < level) level = (this.headings[i] as Heading).level;
    }
    if (level === 7) {
      this.cutBlocks(part);
      return;
    }
    let start = part.start;
    let slug = part.slug;
    let trail = part.trail;
    let own = part.own;
    // Only the text before the first cut heading is still the leading part's.
    let leading = part.leading;
    for (let i = from; i <= to; i++) {
      const h = i < to ? (this.headings[i] as Heading) : null;
      if (h !== null && (i === part.own || h.level !== level)) continue;
      const end = h === null ? part.end : h.start;
      if (end > start) {
        const lead = h !== null && start === part.start;
        const bytes = utf8Length(this.text, start, end);
        this.refine({ start, end, slug, trail, own, lead: lead || (start === part.start && part.lead), bytes, wantsNext: false, piece: 1, leading });
      }
      if (h !== null) {
        start = h.start;
        slug = h.slug;
        trail = this.trails[i] as readonly string[];
        own = i;
        leading = false;
      }
    }
  }

  /**
   * Cuts a heading-less stretch into pieces of at most `cap` bytes, each as long as it can
   * be: ending at the last top-level block start that fits (unless that piece would be under
   * minBytes and a later line start fits), else (one block over the cap) the last line
   * start, else (one line over the cap) the last code point that fits.
   */
  private cutBlocks(part: Part): void {
    const { text, cap, blocks } = this;
    let pos = part.start;
    let left = part.bytes;
    let piece = 1;
    while (pos < part.end) {
      let cut = part.end;
      let bytes = left;
      if (left > cap) {
        // The longest prefix of whole code points within the cap; the line starts met on the
        // way, and which of them start a top-level block (block starts are line starts).
        let i = pos;
        let size = 0;
        let lineStart = -1;
        let lineBytes = 0;
        let block = -1;
        let blockBytes = 0;
        let b = lowerBound(blocks, pos + 1);
        for (;;) {
          const c = text.charCodeAt(i);
          let width = 1;
          let n = 1;
          if (c >= 0x80) {
            if (c < 0x800) n = 2;
            else if (c >= 0xd800 && c <= 0xdbff && i + 1 < part.end) {
              const d = text.charCodeAt(i + 1);
              if (d >= 0xdc00 && d <= 0xdfff) {
                n = 4;
                width = 2;
              } else n = 3;
            } else n = 3;
          }
          if (size + n > cap) break;
          size += n;
          i += width;
          if (c === 0x0a || (c === 0x0d && text.charCodeAt(i) !== 0x0a)) {
            lineStart = i;
            lineBytes = size;
            while (b < blocks.length && (blocks[b] as number) < i) b++;
            if (blocks[b] === i) {
              block = i;
              blockBytes = size;
            }
          }
        }
        // A block start that would leave a piece under minBytes (a heading and a short
        // intro before a long code block) gives way to a later line start: the intro stays
        // with the start of what it introduces.
        if (block > pos && (blockBytes >= this.minBytes || lineStart <= block)) {
          cut = block;
          bytes = blockBytes;
        } else if (lineStart > pos) {
          cut = lineStart;
          bytes = lineBytes;
        } else {
          cut = i;
          bytes = size;
        }
      }
      this.out.push({ start: pos, end: cut, slug: part.slug, trail: part.trail, own: piece === 1 ? part.own : -1, lead: false, bytes, wantsNext: false, piece, leading: part.leading });
      piece++;
      left -= bytes;
      pos = cut;
    }
  }
}

/**
 * Cuts the body of `text` (what follows its front matter) into sections at its top-level
 * headings of level <= splitLevel, cuts any section over maxBytes finer (deeper headings,
 * blocks, lines, code points), then merges small neighbours without going over
 * mergeMaxBytes (nor maxBytes), then gives each section its unique id.
 * Always at least one section.
 */
export function splitSections(text: string, structure: MarkdownStructure, options: SectionOptions): Section[] {
  checkOptions(options);
  checkStructure(text, structure);
  const headings = structure.headings;
  const cap = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const minBytes = options.minBytes;

  // Trails: the chain of enclosing headings of any level, for every heading.
  const trails: (readonly string[])[] = [];
  const ancestors: Heading[] = [];
  for (const h of headings) {
    while (ancestors.length > 0 && (ancestors[ancestors.length - 1] as Heading).level >= h.level) ancestors.pop();
    ancestors.push(h);
    trails.push(ancestors.map((a) => a.text));
  }

  // Top parts: a leading part (if any text precedes the first split heading), then one part
  // per split heading. They tile the body: front matter is no section's content.
  const bodyStart = bodyStartOf(structure);
  const leadingPart = (end: number): Part => {
    const name = leadingName(text, bodyStart, structure.frontMatter?.title ?? null, headings);
    return { ...part(bodyStart, end, '', name === null ? [] : [name], -1), leading: true };
  };
  const top: Part[] = [];
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i] as Heading;
    if (h.level > options.splitLevel) continue;
    if (top.length === 0 && h.start > bodyStart) top.push(leadingPart(h.start));
    else if (top.length > 0) (top[top.length - 1] as Part).end = h.start;
    top.push(part(h.start, text.length, h.slug, trails[i] as readonly string[], i));
  }
  if (top.length === 0) top.push(leadingPart(text.length));

  // Cut what is over the cap.
  const parts: Part[] = [];
  const cutter = new Cutter(text, headings, trails, structure.blocks, cap, minBytes, parts);
  for (const p of top) {
    p.bytes = utf8Length(text, p.start, p.end);
    cutter.refine(p);
  }

  // Merge small neighbours, left to right, never over the merge limit (nor the cap; the
  // small leading part taking in the first heading's section: never over the cap).
  const merged: Part[] = [];
  const mergeLimit = Math.min(cap, options.mergeMaxBytes ?? Number.POSITIVE_INFINITY);
  const fits = (a: Part, b: Part): boolean => a.bytes + b.bytes <= mergeLimit;
  const absorb = (into: Part, p: Part): void => {
    into.end = p.end;
    into.bytes += p.bytes;
  };
  const titled = (structure.frontMatter?.title ?? '').trim() !== '';
  const firstHeadingStart = top.length > 1 && (top[0] as Part).leading ? (top[1] as Part).start : -1;
  for (const p of parts) {
    let previous = merged[merged.length - 1];
    if (previous !== undefined && previous.wantsNext) {
      // The small leading part before a page's first heading (a banner, a badge line, a
      // directive) is nothing on its own: it takes in that heading's section within the cap,
      // even past the merge limit, and is named by that heading (when it shows text), unless
      // the front matter's title names the page.
      const firstHeading = previous.leading && previous.piece === 1 && p.own >= 0 && p.piece === 1 && previous.end === firstHeadingStart;
      if (fits(previous, p) || (firstHeading && previous.bytes + p.bytes <= cap)) {
        if (firstHeading && !titled && p.trail.every((t) => t !== '')) previous.trail = p.trail;
        absorb(previous, p);
        previous.wantsNext = previous.bytes < minBytes;
        continue;
      }
      previous.wantsNext = false;
      // It could not take in this one: then it joins the one before it, if that fits.
      const before = merged[merged.length - 2];
      if (before !== undefined && previous.bytes < minBytes && fits(before, previous)) {
        absorb(before, previous);
        merged.pop();
        previous = before;
      }
    }
    if (previous !== undefined && p.bytes < minBytes && !p.lead && fits(previous, p)) {
      absorb(previous, p);
      continue;
    }
    const leadingBlank = merged.length === 0 && p.leading && p.piece === 1 && isWhitespaceOnly(text, p.start, p.end);
    p.wantsNext = p.bytes < minBytes || leadingBlank;
    merged.push(p);
  }
  // A part still wanting the next at the end could not join the one before it either (a
  // small part is only left wanting when that did not fit, and a heading's introduction is
  // followed by its sub-headings' parts, more than the cap together).

  // Ids, and the headings inside each section. The k-th piece of a heading's text is
  // slug~k (a piece merged into a neighbour has no id of its own). Heading slugs are unique
  // and hold no '~', so heading ids can only meet when the leading part ('') and a heading
  // whose slug is '' (an emoji-only heading) both exist: a taken id becomes slug~N, N one
  // above the largest N given to that slug so far. The leading part's first piece is ''; its
  // k-th is name~k (name: the slug of its name, '' without one), given after every other id
  // so that it never takes a heading's: a taken one, or one not above the previous leading
  // piece's, becomes name~N with the next N free.
  const seen = new Set<string>();
  const largest = new Map<string, number>();
  const ids: string[] = merged.map((p) => {
    if (p.leading && p.piece > 1) return '';
    let n = p.piece;
    let id = n === 1 ? p.slug : `${p.slug}~${n}`;
    while (seen.has(id)) {
      n = Math.max(n, largest.get(p.slug) ?? 1) + 1;
      id = `${p.slug}~${n}`;
    }
    seen.add(id);
    largest.set(p.slug, Math.max(n, largest.get(p.slug) ?? 1));
    return id;
  });
  let leadingN = 1;
  merged.forEach((p, i) => {
    if (!(p.leading && p.piece > 1)) return;
    const base = p.trail.length === 0 ? '' : slugOf(p.trail[0] as string);
    let n = Math.max(p.piece, leadingN + 1);
    while (seen.has(`${base}~${n}`)) n++;
    ids[i] = `${base}~${n}`;
    seen.add(ids[i] as string);
    leadingN = n;
  });
  let next = 0;
  return merged.map((p, i) => {
    const first = next;
    while (next < headings.length && (headings[next] as Heading).start < p.end) next++;
    return {
      start: p.start,
      end: p.end,
      slug: ids[i] as string,
      trail: p.trail,
      headings: headings.slice(first, next).map((h) => h.text),
      leading: p.leading,
    };
  });
}

function part(start: number, end: number, slug: string, trail: readonly string[], own: number): Part {
  return { start, end, slug, trail, own, lead: false, bytes: 0, wantsNext: false, piece: 1, leading: false };
}
