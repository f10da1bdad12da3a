// Where a cited span sits now: every window of the same number of lines whose HASH8 equals
// the citation's, ascending, at most MAX_MOVED_SPANS. Each (file, width) is hashed once per
// verification and only its first MAX_SCAN_CHARS characters of windows, so cost is bounded.

import { sha256Hex } from '../hash.js';
import { hash8Of } from './span-hash.js';

export interface LineSpan {
  readonly startLine: number;
  readonly endLine: number;
}

export const MAX_MOVED_SPANS = 10;
export const MAX_SCAN_CHARS = 64 * 1024 * 1024;

/** HASH8 -> first lines of the windows (ascending) of `width` lines that hash to it. */
export type WindowIndex = ReadonlyMap<string, readonly number[]>;

export function indexWindows(lines: readonly string[], width: number, maxScan = MAX_SCAN_CHARS): WindowIndex {
  const index = new Map<string, number[]>();
  // offsets[i] = where line i+1 starts in the joined text; a window is one slice of it.
  const text = lines.join('\n');
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  let scanned = 0;
  for (let first = 1; first + width - 1 <= lines.length; first++) {
    const last = first + width - 1;
    const from = offsets[first - 1] as number;
    const to = (offsets[last - 1] as number) + (lines[last - 1] as string).length;
    scanned += to - from;
    if (scanned > maxScan) break;
    const key = hash8Of(sha256Hex(text.slice(from, to)));
    const starts = index.get(key);
    if (starts === undefined) index.set(key, [first]);
    else starts.push(first);
  }
  return index;
}

/** Memoises window indexes per (file, width) for one verification. */
export class MovedSpanFinder {
  private readonly indexes = new Map<string, WindowIndex>();

  /**
   * Windows of `endLine - startLine + 1` lines of `file` hashing to `hash8`, other than the
   * cited one. Nothing is searched for a malformed range (START < 1 or START > END).
   */
  find(file: string, lines: readonly string[], startLine: number, endLine: number, hash8: string): LineSpan[] {
    if (!Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine)) return [];
    if (startLine < 1 || startLine > endLine) return [];
    const width = endLine - startLine + 1;
    if (width > lines.length) return [];
    const key = `${width}\0${file}`;
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = indexWindows(lines, width);
      this.indexes.set(key, index);
    }
    return (index.get(hash8) ?? [])
      .filter((first) => first !== startLine)
      .slice(0, MAX_MOVED_SPANS)
      .map((first) => ({ startLine: first, endLine: first + width - 1 }));
  }
}

/** One-off search (no memo): the same answer MovedSpanFinder gives. */
export function findMovedSpans(lines: readonly string[], startLine: number, endLine: number, hash8: string): LineSpan[] {
  return new MovedSpanFinder().find('', lines, startLine, endLine, hash8);
}
