// CommonMark block structure, one line at a time, for two purposes: finding the headings at
// the top level of a document (not inside a block quote or list item) with their exact
// line spans, and where its top-level blocks start (where sections may be cut). It follows the reference parsing strategy (commonmark.js / cmark, which
// GitHub uses): containers (block quotes, lists, items) continue or close, leaves (fenced
// and indented code, HTML blocks, paragraphs) take lines, and only a paragraph may become a
// setext heading or continue lazily. Linear: each line is looked at a bounded number of
// times per open container.

import { CR, isSpaceOrTab, LF } from './markdown-chars.js';
import { htmlBlockEnds, htmlBlockStart } from './markdown-html.js';
import { scanDefinitions } from './markdown-references.js';

export interface RawHeading {
  readonly level: number;
  /** Not inside a block quote or list item (nested headings still take part in slug numbering). */
  readonly topLevel: boolean;
  /** Start of the heading's first line (for setext, the first line after any definitions). */
  readonly start: number;
  /** Just past the heading's last line, its line ending included. */
  readonly end: number;
  /** Raw inline content, "\n" line endings: the text inline parsing turns into plain text. */
  readonly content: string;
}

export interface BlockScan {
  readonly headings: readonly RawHeading[];
  /** Where each top-level block starts (the start of its first line), ascending: paragraphs,
   * headings, thematic breaks, code (fenced or indented), HTML blocks, block quotes, lists,
   * and each item of a top-level list. */
  readonly blockStarts: readonly number[];
  /** The normalised labels of every link reference definition in the document. */
  definitionLabels(): Set<string>;
}

const DOCUMENT = 0;
const BLOCK_QUOTE = 1;
const LIST = 2;
const ITEM = 3;
const PARAGRAPH = 4;
const FENCED_CODE = 5;
const INDENTED_CODE = 6;
const HTML_BLOCK = 7;
/** Headings and thematic breaks: leaves that never stay open past their line. */
const ONE_LINE_LEAF = 8;

const CODE_INDENT = 4;

/** What a block start did: nothing, opened a container, opened a leaf that takes lines, or
 * consumed the whole line (heading, thematic break). */
const NO_START = 0;
const CONTAINER_STARTED = 1;
const LEAF_STARTED = 2;
const LINE_DONE = 3;

class Block {
  readonly kind: number;
  hasChild = false;
  // Lists and list items.
  ordered = false;
  /** Bullet character, or the delimiter ('.' or ')') of an ordered list. */
  marker = 0;
  markerOffset = 0;
  padding = 0;
  // Fenced code.
  fenceChar = 0;
  fenceLength = 0;
  fenceOffset = 0;
  // HTML blocks.
  htmlKind = 0;
  // Paragraphs.
  topLevel = false;
  firstLineStart = 0;
  /** Opens with '[': may start with link reference definitions. */
  mayDefine = false;
  /** Where each content line starts (past container markers) and ends, in pairs. */
  spans: number[] = [];

  constructor(kind: number) {
    this.kind = kind;
  }
}

function canContain(parent: number, child: number): boolean {
  if (parent === LIST) return child === ITEM;
  if (parent === DOCUMENT || parent === BLOCK_QUOTE || parent === ITEM) return child !== ITEM;
  return false;
}

function acceptsLines(kind: number): boolean {
  return kind === PARAGRAPH || kind === FENCED_CODE || kind === INDENTED_CODE || kind === HTML_BLOCK;
}

/** Characters that may open a block other than a paragraph (commonmark.js's reMaybeSpecial). */
function maybeSpecial(c: number): boolean {
  return (
    c === 0x23 || c === 0x60 || c === 0x7e || c === 0x2a || c === 0x2b || c === 0x5f || c === 0x3d ||
    c === 0x3c || c === 0x3e || c === 0x2d || (c >= 0x30 && c <= 0x39)
  );
}

function trimStartSpacesTabs(s: string): string {
  let i = 0;
  while (i < s.length && isSpaceOrTab(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}

class BlockScanner {
  private readonly text: string;
  // The current line.
  private lineStart = 0;
  private lineEnd = 0;
  private nextLine = 0;
  private offset = 0;
  private column = 0;
  private nextNonspace = 0;
  private nextNonspaceColumn = 0;
  private indent = 0;
  private indented = false;
  private blank = false;
  private partiallyConsumedTab = false;
  /** The last findNextNonspace scan: its line, where it started, whether it met a tab. */
  private scanLine = -1;
  private scanFrom = 0;
  private scanNoTab = false;
  /** The last thematic-break scan: its line, character, and first other character. */
  private breakLine = -1;
  private breakChar = 0;
  private breakStop = 0;
  /** Where content begins: lines before it (a byte order mark) are skipped. */
  private contentFrom = 0;
  // Open blocks: stack[0] is the document, the last entry the tip.
  private readonly stack: Block[] = [new Block(DOCUMENT)];
  private allClosed = true;
  private lastMatched = 0;
  readonly headings: RawHeading[] = [];
  readonly blockStarts: number[] = [];
  /** Line spans of paragraphs that may open with link reference definitions. */
  private readonly definitionSources: number[][] = [];

  constructor(text: string) {
    this.text = text;
  }

  /** Scans lines from `lineFrom`; the first line's content starts at `from` (past a BOM). */
  scan(lineFrom: number, from: number): void {
    const text = this.text;
    const n = text.length;
    const hasCR = text.indexOf('\r', from) >= 0;
    this.contentFrom = from;
    let pos = lineFrom;
    while (pos < n) {
      let end: number;
      let next: number;
      if (!hasCR) {
        end = text.indexOf('\n', pos);
        if (end < 0) end = next = n;
        else next = end + 1;
      } else {
        end = pos;
        while (end < n) {
          const c = text.charCodeAt(end);
          if (c === LF || c === CR) break;
          end++;
        }
        next = end < n && text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : Math.min(end + 1, n);
      }
      this.lineStart = pos;
      this.lineEnd = end;
      this.nextLine = next;
      this.incorporateLine();
      pos = next;
    }
    while (this.stack.length > 1) this.finalizeTip();
  }

  definitionLabels(): Set<string> {
    const labels = new Set<string>();
    for (const spans of this.definitionSources) scanDefinitions(this.paragraphContent(spans, 0).content, labels);
    return labels;
  }

  private char(i: number): number {
    return i < this.lineEnd ? this.text.charCodeAt(i) : -1;
  }

  private get tip(): Block {
    return this.stack[this.stack.length - 1] as Block;
  }

  private findNextNonspace(): void {
    // Each open container rescans the same indentation: when the previous scan of this
    // line covered the current offset without meeting a tab, its result still holds (deeply
    // nested containers would otherwise cost the square of the indentation).
    if (
      this.scanLine === this.lineStart &&
      this.scanNoTab &&
      this.offset >= this.scanFrom &&
      this.offset <= this.nextNonspace &&
      !this.partiallyConsumedTab
    ) {
      this.nextNonspaceColumn = this.column + (this.nextNonspace - this.offset);
      this.indent = this.nextNonspaceColumn - this.column;
      this.indented = this.indent >= CODE_INDENT;
      return;
    }
    this.scanLine = this.lineStart;
    this.scanFrom = this.offset;
    this.scanNoTab = true;
    let i = this.offset;
    let cols = this.column;
    const end = this.lineEnd;
    const text = this.text;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 0x20) {
        i++;
        cols++;
      } else if (c === 0x09) {
        i++;
        cols += 4 - (cols % 4);
        this.scanNoTab = false;
      } else {
        break;
      }
    }
    this.blank = i === end;
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = cols - this.column;
    this.indented = this.indent >= CODE_INDENT;
  }

  private advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partiallyConsumedTab = false;
  }

  /** Advances `count` characters, or `count` columns (a tab may be consumed in part). */
  private advanceOffset(count: number, columns: boolean): void {
    const text = this.text;
    let left = count;
    while (left > 0 && this.offset < this.lineEnd) {
      if (text.charCodeAt(this.offset) === 0x09) {
        const toTab = 4 - (this.column % 4);
        if (columns) {
          this.partiallyConsumedTab = toTab > left;
          const advance = toTab > left ? left : toTab;
          this.column += advance;
          this.offset += this.partiallyConsumedTab ? 0 : 1;
          left -= advance;
        } else {
          this.partiallyConsumedTab = false;
          this.column += toTab;
          this.offset += 1;
          left -= 1;
        }
      } else {
        this.partiallyConsumedTab = false;
        this.offset += 1;
        this.column += 1;
        left -= 1;
      }
    }
  }

  private incorporateLine(): void {
    this.offset = this.lineStart < this.contentFrom ? this.contentFrom : this.lineStart;
    this.column = 0;
    this.partiallyConsumedTab = false;
    const stack = this.stack;

    // Which open blocks does this line continue?
    let matched = 0;
    for (let i = 1; i < stack.length; i++) {
      this.findNextNonspace();
      const result = this.continueBlock(stack[i] as Block);
      if (result === 2) return; // a closing code fence: the line is used up
      if (result === 1) break;
      matched = i;
    }
    this.allClosed = matched === stack.length - 1;
    this.lastMatched = matched;

    // New block starts, nested into the last matched container.
    let container: Block | null = stack[matched] as Block;
    let matchedLeaf = container.kind !== PARAGRAPH && acceptsLines(container.kind);
    while (!matchedLeaf) {
      this.findNextNonspace();
      if (!this.indented && !maybeSpecial(this.char(this.nextNonspace))) {
        this.advanceNextNonspace();
        break;
      }
      const started = this.startBlock(container as Block);
      if (started === NO_START) {
        this.advanceNextNonspace();
        break;
      }
      if (started === LINE_DONE) {
        container = null;
        matchedLeaf = true;
      } else {
        container = this.tip;
        matchedLeaf = started === LEAF_STARTED;
      }
    }

    // What remains is text: a lazy paragraph continuation, or a line for the container.
    if (!this.allClosed && !this.blank && this.tip.kind === PARAGRAPH) {
      this.addLine(this.tip);
      return;
    }
    this.closeUnmatched();
    if (container === null) return;
    if (acceptsLines(container.kind)) {
      this.addLine(container);
      if (
        container.kind === HTML_BLOCK &&
        container.htmlKind <= 5 &&
        htmlBlockEnds(container.htmlKind, this.text, this.offset, this.lineEnd)
      ) {
        this.finalizeTip();
      }
    } else if (this.offset < this.lineEnd && !this.blank) {
      const paragraph = this.addChild(PARAGRAPH);
      this.advanceNextNonspace();
      paragraph.topLevel = this.stack.length === 2;
      paragraph.firstLineStart = this.lineStart;
      paragraph.mayDefine = this.text.charCodeAt(this.offset) === 0x5b;
      this.addLine(paragraph);
    }
  }

  /** 0: the line continues the block; 1: it does not; 2: it closed a code fence. */
  private continueBlock(block: Block): number {
    switch (block.kind) {
      case BLOCK_QUOTE:
        if (!this.indented && this.char(this.nextNonspace) === 0x3e) {
          this.advanceNextNonspace();
          this.advanceOffset(1, false);
          if (isSpaceOrTab(this.char(this.offset))) this.advanceOffset(1, true);
          return 0;
        }
        return 1;
      case LIST:
        return 0;
      case ITEM:
        if (this.blank) {
          // A list item can begin with at most one blank line.
          if (!block.hasChild) return 1;
          this.advanceNextNonspace();
          return 0;
        }
        if (this.indent >= block.markerOffset + block.padding) {
          this.advanceOffset(block.markerOffset + block.padding, true);
          return 0;
        }
        return 1;
      case PARAGRAPH:
        return this.blank ? 1 : 0;
      case FENCED_CODE:
        return this.continueFence(block);
      case INDENTED_CODE:
        if (this.indent >= CODE_INDENT) this.advanceOffset(CODE_INDENT, true);
        else if (this.blank) this.advanceNextNonspace();
        else return 1;
        return 0;
      case HTML_BLOCK:
        return this.blank && (block.htmlKind === 6 || block.htmlKind === 7) ? 1 : 0;
      default:
        return 1;
    }
  }

  private continueFence(block: Block): number {
    if (this.indent <= 3 && this.char(this.nextNonspace) === block.fenceChar) {
      let i = this.nextNonspace;
      while (i < this.lineEnd && this.text.charCodeAt(i) === block.fenceChar) i++;
      if (i - this.nextNonspace >= block.fenceLength) {
        while (i < this.lineEnd && isSpaceOrTab(this.text.charCodeAt(i))) i++;
        if (i === this.lineEnd) {
          this.finalizeTip();
          return 2;
        }
      }
    }
    // Content lines lose up to the opening fence's indentation.
    let skip = block.fenceOffset;
    while (skip > 0 && isSpaceOrTab(this.char(this.offset))) {
      this.advanceOffset(1, true);
      skip--;
    }
    return 0;
  }

  /** Tries each block start in CommonMark's order at the next non-space character. */
  private startBlock(container: Block): number {
    const nn = this.nextNonspace;
    const c = this.char(nn);
    if (!this.indented) {
      if (c === 0x3e) return this.startBlockQuote();
      if (c === 0x23) {
        const done = this.startAtxHeading();
        if (done !== NO_START) return done;
      }
      if (c === 0x60 || c === 0x7e) {
        const done = this.startFence(c);
        if (done !== NO_START) return done;
      }
      if (c === 0x3c) {
        const done = this.startHtmlBlock(container);
        if (done !== NO_START) return done;
      }
      if ((c === 0x3d || c === 0x2d) && container.kind === PARAGRAPH) {
        const done = this.startSetextHeading(container, c);
        if (done !== NO_START) return done;
      }
      if ((c === 0x2a || c === 0x5f || c === 0x2d) && this.isThematicBreak(c)) {
        this.closeUnmatched();
        this.addOneLineLeaf();
        return LINE_DONE;
      }
    }
    if (!this.indented || container.kind === LIST) {
      const done = this.startListItem(container);
      if (done !== NO_START) return done;
    }
    if (this.indented && this.tip.kind !== PARAGRAPH && !this.blank) {
      this.advanceOffset(CODE_INDENT, true);
      this.closeUnmatched();
      this.addChild(INDENTED_CODE);
      return LEAF_STARTED;
    }
    return NO_START;
  }

  private startBlockQuote(): number {
    this.advanceNextNonspace();
    this.advanceOffset(1, false);
    if (isSpaceOrTab(this.char(this.offset))) this.advanceOffset(1, true);
    this.closeUnmatched();
    this.addChild(BLOCK_QUOTE);
    return CONTAINER_STARTED;
  }

  private startAtxHeading(): number {
    const text = this.text;
    const start = this.nextNonspace;
    let i = start;
    while (i < this.lineEnd && text.charCodeAt(i) === 0x23) i++;
    const level = i - start;
    if (level > 6 || (i < this.lineEnd && !isSpaceOrTab(text.charCodeAt(i)))) return NO_START;
    while (i < this.lineEnd && isSpaceOrTab(text.charCodeAt(i))) i++;
    this.closeUnmatched();
    const topLevel = this.addOneLineLeaf();
    // The closing sequence: #s preceded by a space or tab (or nothing), then spaces or tabs.
    let end = this.lineEnd;
    while (end > i && isSpaceOrTab(text.charCodeAt(end - 1))) end--;
    let hashes = end;
    while (hashes > i && text.charCodeAt(hashes - 1) === 0x23) hashes--;
    if (hashes < end && (hashes === i || isSpaceOrTab(text.charCodeAt(hashes - 1)))) end = hashes;
    this.headings.push({ level, topLevel, start: this.lineStart, end: this.nextLine, content: text.slice(i, end) });
    return LINE_DONE;
  }

  private startFence(fenceChar: number): number {
    const text = this.text;
    const start = this.nextNonspace;
    let i = start;
    while (i < this.lineEnd && text.charCodeAt(i) === fenceChar) i++;
    const length = i - start;
    if (length < 3) return NO_START;
    // A backtick fence's info string may not contain a backtick.
    if (fenceChar === 0x60) {
      for (let j = i; j < this.lineEnd; j++) if (text.charCodeAt(j) === 0x60) return NO_START;
    }
    this.closeUnmatched();
    const fence = this.addChild(FENCED_CODE);
    fence.fenceChar = fenceChar;
    fence.fenceLength = length;
    fence.fenceOffset = this.indent;
    this.advanceNextNonspace();
    this.advanceOffset(length, false);
    return LEAF_STARTED;
  }

  private startHtmlBlock(container: Block): number {
    const kind = htmlBlockStart(this.text, this.nextNonspace, this.lineEnd);
    if (kind === 0) return NO_START;
    // Kind 7 cannot interrupt a paragraph, lazily continued ones included.
    if (kind === 7 && (container.kind === PARAGRAPH || (!this.allClosed && !this.blank && this.tip.kind === PARAGRAPH))) {
      return NO_START;
    }
    this.closeUnmatched();
    this.addChild(HTML_BLOCK).htmlKind = kind;
    return LEAF_STARTED;
  }

  private startSetextHeading(paragraph: Block, c: number): number {
    const text = this.text;
    let i = this.nextNonspace;
    while (i < this.lineEnd && text.charCodeAt(i) === c) i++;
    while (i < this.lineEnd && isSpaceOrTab(text.charCodeAt(i))) i++;
    if (i !== this.lineEnd) return NO_START;
    this.closeUnmatched();
    // Link reference definitions at the paragraph's start are not heading text; a
    // paragraph made only of definitions is no heading (the underline stays text).
    const read = this.paragraphContent(paragraph.spans, paragraph.firstLineStart);
    let content = read.content;
    let start = paragraph.firstLineStart;
    if (paragraph.mayDefine) {
      const consumed = scanDefinitions(content, null);
      if (consumed >= content.length) return NO_START;
      if (consumed > 0) {
        let line = 0;
        for (let k = 0; k < consumed; k++) if (content.charCodeAt(k) === LF) line++;
        start = read.lineStarts[line] as number;
        content = content.slice(consumed);
      }
    }
    this.stack.pop();
    if (paragraph.mayDefine) this.definitionSources.push(paragraph.spans);
    this.headings.push({ level: c === 0x3d ? 1 : 2, topLevel: paragraph.topLevel, start, end: this.nextLine, content });
    return LINE_DONE;
  }

  private isThematicBreak(c: number): boolean {
    // A line of nested list markers ("- - - - x") asks this once per marker: the first
    // character that is neither `c` nor a space, found once per line, answers them all.
    if (this.breakLine !== this.lineStart || this.breakChar !== c || this.nextNonspace > this.breakStop) {
      let i = this.nextNonspace;
      while (i < this.lineEnd) {
        const d = this.text.charCodeAt(i);
        if (d !== c && !isSpaceOrTab(d)) break;
        i++;
      }
      this.breakLine = this.lineStart;
      this.breakChar = c;
      this.breakStop = i;
    }
    if (this.breakStop < this.lineEnd) return false;
    let count = 0;
    for (let i = this.nextNonspace; i < this.lineEnd && count < 3; i++) if (this.text.charCodeAt(i) === c) count++;
    return count >= 3;
  }

  private startListItem(container: Block): number {
    if (this.indent >= CODE_INDENT) return NO_START;
    const text = this.text;
    const nn = this.nextNonspace;
    const c = this.char(nn);
    let ordered = false;
    let marker: number;
    let markerLength: number;
    const interrupts = container.kind === PARAGRAPH;
    if (c === 0x2a || c === 0x2b || c === 0x2d) {
      marker = c;
      markerLength = 1;
    } else if (c >= 0x30 && c <= 0x39) {
      let i = nn;
      while (i < this.lineEnd && i - nn < 9 && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
      const d = this.char(i);
      if (d !== 0x2e && d !== 0x29) return NO_START;
      // Only a list starting at 1 may interrupt a paragraph.
      if (interrupts && Number(text.slice(nn, i)) !== 1) return NO_START;
      ordered = true;
      marker = d;
      markerLength = i - nn + 1;
    } else {
      return NO_START;
    }
    const afterMarker = nn + markerLength;
    const next = this.char(afterMarker);
    if (next !== -1 && !isSpaceOrTab(next)) return NO_START;
    if (interrupts) {
      // An empty list item cannot interrupt a paragraph.
      let j = afterMarker;
      while (j < this.lineEnd && isSpaceOrTab(text.charCodeAt(j))) j++;
      if (j === this.lineEnd) return NO_START;
    }
    const markerOffset = this.indent;
    this.advanceNextNonspace();
    this.advanceOffset(markerLength, true);
    const spacesStartColumn = this.column;
    const spacesStartOffset = this.offset;
    do {
      this.advanceOffset(1, true);
    } while (this.column - spacesStartColumn < 5 && isSpaceOrTab(this.char(this.offset)));
    const blankItem = this.char(this.offset) === -1;
    const spacesAfterMarker = this.column - spacesStartColumn;
    let padding: number;
    if (spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem) {
      // Content indented 5+ columns is indented code: the item's content starts one column in.
      padding = markerLength + 1;
      this.column = spacesStartColumn;
      this.offset = spacesStartOffset;
      if (isSpaceOrTab(this.char(this.offset))) this.advanceOffset(1, true);
    } else {
      padding = markerLength + spacesAfterMarker;
    }
    this.closeUnmatched();
    const tip = this.tip;
    if (tip.kind !== LIST || tip.ordered !== ordered || tip.marker !== marker) {
      const list = this.addChild(LIST);
      list.ordered = ordered;
      list.marker = marker;
    }
    const item = this.addChild(ITEM);
    item.ordered = ordered;
    item.marker = marker;
    item.markerOffset = markerOffset;
    item.padding = padding;
    return CONTAINER_STARTED;
  }

  private closeUnmatched(): void {
    if (this.allClosed) return;
    while (this.stack.length - 1 > this.lastMatched) this.finalizeTip();
    this.allClosed = true;
  }

  private finalizeTip(): void {
    const block = this.stack.pop() as Block;
    if (block.kind === PARAGRAPH && block.mayDefine) this.definitionSources.push(block.spans);
  }

  /** Closes blocks that cannot hold `kind`, then opens it under the tip. */
  private addChild(kind: number): Block {
    while (!canContain(this.tip.kind, kind)) this.finalizeTip();
    if (this.stack.length === 1 || (this.stack.length === 2 && kind === ITEM)) this.markBlockStart();
    this.tip.hasChild = true;
    const block = new Block(kind);
    this.stack.push(block);
    return block;
  }

  /** Places a heading or thematic break; returns whether it sits at the top level. */
  private addOneLineLeaf(): boolean {
    while (!canContain(this.tip.kind, ONE_LINE_LEAF)) this.finalizeTip();
    if (this.stack.length === 1) this.markBlockStart();
    this.tip.hasChild = true;
    return this.stack.length === 1;
  }

  /** A top-level block (or top-level list item) starts on the current line. */
  private markBlockStart(): void {
    const starts = this.blockStarts;
    if (starts.length === 0 || (starts[starts.length - 1] as number) < this.lineStart) starts.push(this.lineStart);
  }

  private addLine(block: Block): void {
    // A partly consumed tab leaves columns of spaces: leading whitespace of a paragraph
    // line is not content, so the span may start anywhere before the first non-space.
    if (block.kind === PARAGRAPH) block.spans.push(this.offset, this.lineEnd);
  }

  /**
   * A paragraph's content: its lines without leading spaces or tabs, joined by "\n", and
   * where each line starts in the text (the first at `firstLineStart`; exact for top-level
   * paragraphs, whose lines carry no container markers).
   */
  private paragraphContent(spans: readonly number[], firstLineStart: number): { content: string; lineStarts: number[] } {
    const lines: string[] = [];
    const lineStarts: number[] = [];
    for (let k = 0; k < spans.length; k += 2) {
      const start = spans[k] as number;
      let lineStart = start;
      if (k === 0) lineStart = firstLineStart;
      else while (lineStart > 0 && isSpaceOrTab(this.text.charCodeAt(lineStart - 1))) lineStart--;
      lineStarts.push(lineStart);
      lines.push(trimStartSpacesTabs(this.text.slice(start, spans[k + 1] as number)));
    }
    return { content: lines.join('\n'), lineStarts };
  }
}

/**
 * Scans the document's blocks from the line starting at `lineFrom` (past any front matter)
 * to its end; content starts at `from`, which skips a byte order mark on that line.
 */
export function scanBlocks(text: string, lineFrom: number, from: number): BlockScan {
  const scanner = new BlockScanner(text);
  scanner.scan(lineFrom, from);
  return { headings: scanner.headings, blockStarts: scanner.blockStarts, definitionLabels: () => scanner.definitionLabels() };
}
