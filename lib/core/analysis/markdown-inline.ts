// The plain text of a heading as GitHub renders it: CommonMark inline parsing (code spans,
// emphasis by the delimiter algorithm, links and images, autolinks, raw HTML, escapes and
// character references) plus GFM strikethrough, keeping only the text a reader sees.
// Line breaks inside a setext heading render as "\n" (soft and hard alike).

import {
  codePointAt,
  codePointBefore,
  isAsciiPunctuation,
  isUnicodePunctuation,
  isUnicodeWhitespace,
  LF,
} from './markdown-chars.js';
import { scanAutolink, scanInlineHtml } from './markdown-html.js';
import {
  normalizeLabel,
  scanCharacterReference,
  scanLinkDestination,
  scanLinkLabel,
  scanLinkTitle,
  skipWhitespace,
} from './markdown-references.js';

export interface HeadingText {
  /** What the heading shows, image alt text included, trimmed. */
  readonly text: string;
  /**
   * What GitHub makes the anchor from: the element's text content, where an image
   * contributes nothing (its alt is an attribute), trimmed.
   */
  readonly anchorText: string;
}

const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const ASTERISK = 0x2a;
const UNDERSCORE = 0x5f;
const TILDE = 0x7e;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const BANG = 0x21;
const LESS_THAN = 0x3c;
const AMPERSAND = 0x26;
/** Nesting limit of parentheses in an inline link destination (micromark's, as cmark's). */
const DESTINATION_DEPTH = 32;

const SPECIAL = new Uint8Array(128);
for (const c of [LF, BACKSLASH, BACKTICK, ASTERISK, UNDERSCORE, TILDE, OPEN_BRACKET, CLOSE_BRACKET, BANG, LESS_THAN, AMPERSAND]) {
  SPECIAL[c] = 1;
}

interface Delimiter {
  readonly piece: number;
  readonly cc: number;
  count: number;
  readonly orig: number;
  readonly canOpen: boolean;
  readonly canClose: boolean;
  prev: Delimiter | null;
  next: Delimiter | null;
}

interface Bracket {
  readonly piece: number;
  readonly image: boolean;
  active: boolean;
  readonly prevDelimiter: Delimiter | null;
  /** Index in the source just past '[' (the start of the link text). */
  readonly index: number;
  /** A later '[' was seen: the text cannot be a shortcut or collapsed reference label. */
  bracketAfter: boolean;
  readonly prev: Bracket | null;
}

class InlineRenderer {
  private readonly s: string;
  private readonly definitions: ReadonlySet<string>;
  private readonly pieces: string[] = [];
  /** Whether each piece is plain source text (trailing spaces before a line break go). */
  private readonly plain: boolean[] = [];
  /** Pieces inside an image: alt text, absent from the anchor text. */
  private readonly hidden: boolean[] = [];
  private delimiters: Delimiter | null = null;
  private brackets: Bracket | null = null;
  /** Backtick run lengths with no closing run left in the text. */
  private readonly unclosedTicks = new Set<number>();
  /** Closing marks of inline HTML (`-->`, `?>`, …) with no occurrence left in the text. */
  private readonly absentMarks = new Set<string>();

  constructor(s: string, definitions: ReadonlySet<string>) {
    this.s = s;
    this.definitions = definitions;
  }

  render(): HeadingText {
    const s = this.s;
    let pos = 0;
    while (pos < s.length) {
      const c = s.charCodeAt(pos);
      if (c >= 128 || SPECIAL[c] === 0) {
        let end = pos + 1;
        while (end < s.length) {
          const d = s.charCodeAt(end);
          if (d < 128 && SPECIAL[d] === 1) break;
          end++;
        }
        this.push(s.slice(pos, end), true);
        pos = end;
        continue;
      }
      switch (c) {
        case LF:
          pos = this.lineBreak(pos + 1);
          break;
        case BACKSLASH:
          pos = this.backslash(pos);
          break;
        case BACKTICK:
          pos = this.codeSpan(pos);
          break;
        case ASTERISK:
        case UNDERSCORE:
        case TILDE:
          pos = this.delimiterRun(pos, c);
          break;
        case OPEN_BRACKET:
          this.pushBracket(pos + 1, false);
          this.push('[', false);
          pos += 1;
          break;
        case BANG:
          if (s.charCodeAt(pos + 1) === OPEN_BRACKET) {
            this.pushBracket(pos + 2, true);
            this.push('![', false);
            pos += 2;
          } else {
            this.push('!', true);
            pos += 1;
          }
          break;
        case CLOSE_BRACKET:
          pos = this.closeBracket(pos);
          break;
        case LESS_THAN:
          pos = this.angle(pos);
          break;
        default: {
          // AMPERSAND
          const ref = scanCharacterReference(s, pos);
          if (ref === null) {
            this.push('&', true);
            pos += 1;
          } else {
            this.push(ref.value, false);
            pos = ref.end;
          }
        }
      }
    }
    this.processEmphasis(null);
    let text = '';
    let anchorText = '';
    for (let i = 0; i < this.pieces.length; i++) {
      const piece = this.pieces[i] as string;
      text += piece;
      if (this.hidden[i] !== true) anchorText += piece;
    }
    return { text: finish(text), anchorText: finish(anchorText) };
  }

  private push(piece: string, plain: boolean): void {
    this.pieces.push(piece);
    this.plain.push(plain);
  }

  /** A line ending inside the heading: trailing spaces before it and indentation after it go. */
  private lineBreak(after: number): number {
    const last = this.pieces.length - 1;
    if (last >= 0 && this.plain[last] === true) {
      const piece = this.pieces[last] as string;
      let end = piece.length;
      while (end > 0 && (piece.charCodeAt(end - 1) === 0x20 || piece.charCodeAt(end - 1) === 0x09)) end--;
      this.pieces[last] = piece.slice(0, end);
    }
    this.push('\n', false);
    return this.skipIndentation(after);
  }

  private skipIndentation(from: number): number {
    let pos = from;
    while (pos < this.s.length && (this.s.charCodeAt(pos) === 0x20 || this.s.charCodeAt(pos) === 0x09)) pos++;
    return pos;
  }

  private backslash(pos: number): number {
    const next = this.s.charCodeAt(pos + 1);
    if (next === LF) {
      // A hard line break: renders <br /> and the line ending, so "\n" as text. Unlike a
      // bare line ending, it leaves the spaces before it alone.
      this.push('\n', false);
      return this.skipIndentation(pos + 2);
    }
    if (isAsciiPunctuation(next)) {
      this.push(this.s.charAt(pos + 1), false);
      return pos + 2;
    }
    this.push('\\', true);
    return pos + 1;
  }

  private codeSpan(pos: number): number {
    const s = this.s;
    let runEnd = pos;
    while (runEnd < s.length && s.charCodeAt(runEnd) === BACKTICK) runEnd++;
    const length = runEnd - pos;
    if (!this.unclosedTicks.has(length)) {
      let i = runEnd;
      while (i < s.length) {
        if (s.charCodeAt(i) !== BACKTICK) {
          i++;
          continue;
        }
        const closeStart = i;
        while (i < s.length && s.charCodeAt(i) === BACKTICK) i++;
        if (i - closeStart === length) {
          let content = s.slice(runEnd, closeStart).replace(/\n/g, ' ');
          if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content)) {
            content = content.slice(1, -1);
          }
          this.push(content, false);
          return i;
        }
      }
      this.unclosedTicks.add(length);
    }
    this.push(s.slice(pos, runEnd), true);
    return runEnd;
  }

  private delimiterRun(pos: number, cc: number): number {
    const s = this.s;
    let end = pos;
    while (end < s.length && s.charCodeAt(end) === cc) end++;
    const count = end - pos;
    const run = s.slice(pos, end);
    // GFM strikethrough takes one or two tildes; a longer run is text.
    if (cc === TILDE && count > 2) {
      this.push(run, true);
      return end;
    }
    const before = codePointBefore(s, pos);
    const after = codePointAt(s, end);
    const afterSpace = isUnicodeWhitespace(after);
    const afterPunct = isUnicodePunctuation(after);
    const beforeSpace = isUnicodeWhitespace(before);
    const beforePunct = isUnicodePunctuation(before);
    const leftFlanking = !afterSpace && (!afterPunct || beforeSpace || beforePunct);
    const rightFlanking = !beforeSpace && (!beforePunct || afterSpace || afterPunct);
    let canOpen: boolean;
    let canClose: boolean;
    if (cc === UNDERSCORE) {
      canOpen = leftFlanking && (!rightFlanking || beforePunct);
      canClose = rightFlanking && (!leftFlanking || afterPunct);
    } else {
      canOpen = leftFlanking;
      canClose = rightFlanking;
    }
    this.push(run, false);
    if (canOpen || canClose) {
      const delimiter: Delimiter = {
        piece: this.pieces.length - 1,
        cc,
        count,
        orig: count,
        canOpen,
        canClose,
        prev: this.delimiters,
        next: null,
      };
      if (this.delimiters !== null) this.delimiters.next = delimiter;
      this.delimiters = delimiter;
    }
    return end;
  }

  private pushBracket(index: number, image: boolean): void {
    if (this.brackets !== null) this.brackets.bracketAfter = true;
    this.brackets = {
      piece: this.pieces.length,
      image,
      active: true,
      prevDelimiter: this.delimiters,
      index,
      bracketAfter: false,
      prev: this.brackets,
    };
  }

  private closeBracket(pos: number): number {
    const s = this.s;
    const opener = this.brackets;
    if (opener === null) {
      this.push(']', true);
      return pos + 1;
    }
    if (!opener.active) {
      this.brackets = opener.prev;
      this.push(']', true);
      return pos + 1;
    }
    const after = pos + 1;
    const defined = this.definitions.size > 0 && this.definitions.has(normalizeLabel(s.slice(opener.index, pos)));
    let end = -1;
    const next = s.charCodeAt(after);
    if (next === 0x28) {
      end = this.resourceEnd(after);
      if (end < 0 && defined) end = after;
    } else if (next === OPEN_BRACKET) {
      const labelEnd = scanLinkLabel(s, after);
      if (labelEnd >= 0) {
        if (this.definitions.has(normalizeLabel(s.slice(after + 1, labelEnd - 1)))) end = labelEnd;
      } else if (defined) {
        // `[]` makes a collapsed reference; anything else that is not a label leaves a
        // shortcut reference (cmark and commonmark.js; micromark drops the link here).
        end = s.charCodeAt(after + 1) === CLOSE_BRACKET ? after + 2 : after;
      }
    } else if (defined) {
      end = after;
    }
    if (end < 0) {
      this.brackets = opener.prev;
      this.push(']', true);
      return pos + 1;
    }
    // A link or image: its brackets and destination vanish, its text stays (and is not the
    // plain text that spaces before a line ending are trimmed from).
    this.processEmphasis(opener.prevDelimiter);
    this.pieces[opener.piece] = '';
    this.push('', false);
    if (opener.image) {
      for (let i = opener.piece; i < this.pieces.length; i++) this.hidden[i] = true;
    }
    this.brackets = opener.prev;
    if (!opener.image) {
      // Links cannot contain links: earlier link openers can no longer match.
      for (let b = this.brackets; b !== null; b = b.prev) if (!b.image) b.active = false;
    }
    return end;
  }

  /** `(destination "title")` after a link text, at `pos` ('('); the index past ')' or -1. */
  private resourceEnd(pos: number): number {
    const s = this.s;
    let i = skipWhitespace(s, pos + 1);
    if (s.charCodeAt(i) === 0x29) return i + 1;
    const destEnd = scanLinkDestination(s, i, DESTINATION_DEPTH);
    if (destEnd < 0) return -1;
    i = skipWhitespace(s, destEnd);
    if (i > destEnd) {
      const titleEnd = scanLinkTitle(s, i);
      if (titleEnd >= 0) i = skipWhitespace(s, titleEnd);
    }
    return s.charCodeAt(i) === 0x29 ? i + 1 : -1;
  }

  private angle(pos: number): number {
    const s = this.s;
    const autolinkEnd = scanAutolink(s, pos);
    if (autolinkEnd >= 0) {
      this.push(s.slice(pos + 1, autolinkEnd - 1), false);
      return autolinkEnd;
    }
    const htmlEnd = scanInlineHtml(s, pos, this.absentMarks);
    if (htmlEnd >= 0) {
      // Raw HTML shows no text of its own, but it is not text either: spaces before it
      // stay even when a line ending follows it.
      this.push('', false);
      return htmlEnd;
    }
    this.push('<', true);
    return pos + 1;
  }

  private removeDelimiter(d: Delimiter): void {
    if (d.prev !== null) d.prev.next = d.next;
    if (d.next !== null) d.next.prev = d.prev;
    else this.delimiters = d.prev;
  }

  /** CommonMark's "process emphasis" over the delimiters above `bottom`, removing them all. */
  private processEmphasis(bottom: Delimiter | null): void {
    const openersBottom = new Map<number, Delimiter | null>();
    let closer = this.delimiters;
    while (closer !== null && closer.prev !== bottom) closer = closer.prev;
    while (closer !== null) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = closer.cc === TILDE ? closer.cc * 8 + closer.orig : closer.cc * 8 + (closer.canOpen ? 4 : 0) + (closer.orig % 3);
      const floor = openersBottom.has(key) ? (openersBottom.get(key) ?? null) : bottom;
      let opener = closer.prev;
      let found = false;
      while (opener !== null && opener !== bottom && opener !== floor) {
        if (opener.cc === closer.cc && opener.canOpen) {
          if (closer.cc === TILDE) {
            if (opener.orig === closer.orig) {
              found = true;
              break;
            }
          } else {
            const oddMatch =
              (closer.canOpen || opener.canClose) && closer.orig % 3 !== 0 && (opener.orig + closer.orig) % 3 === 0;
            if (!oddMatch) {
              found = true;
              break;
            }
          }
        }
        opener = opener.prev;
      }
      const oldCloser = closer;
      if (found && opener !== null) {
        const use = closer.cc === TILDE ? closer.count : closer.count >= 2 && opener.count >= 2 ? 2 : 1;
        opener.count -= use;
        closer.count -= use;
        this.pieces[opener.piece] = (this.pieces[opener.piece] as string).slice(use);
        this.pieces[closer.piece] = (this.pieces[closer.piece] as string).slice(use);
        // Delimiters between opener and closer can no longer match: they stay as text.
        opener.next = closer;
        closer.prev = opener;
        if (opener.count === 0) this.removeDelimiter(opener);
        if (closer.count === 0) {
          const after = closer.next;
          this.removeDelimiter(closer);
          closer = after;
        }
      } else {
        closer = closer.next;
        openersBottom.set(key, oldCloser.prev);
        if (!oldCloser.canOpen) this.removeDelimiter(oldCloser);
      }
    }
    while (this.delimiters !== null && this.delimiters !== bottom) this.removeDelimiter(this.delimiters);
  }
}

function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** NUL renders as U+FFFD; leading and trailing ASCII whitespace go (GitHub strips it). */
function finish(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(text.charCodeAt(end - 1))) end--;
  const trimmed = text.slice(start, end);
  return trimmed.includes('\0') ? trimmed.replaceAll('\0', '\ufffd') : trimmed;
}

/**
 * The text of a heading's raw content (ATX: the line after the opening sequence, closing
 * sequence removed; setext: the paragraph lines joined by "\n"), given the normalised
 * labels of the document's link reference definitions.
 */
export function renderHeadingText(content: string, definitions: ReadonlySet<string>): HeadingText {
  return new InlineRenderer(content, definitions).render();
}
