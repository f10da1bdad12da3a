// Where a cited span sits now: every window of the same number of lines whose HASH8 equals
// the citation's, in ascending line order. Deterministic and bounded: at most
// MAX_MOVED_SPANS matches, and hashing stops after MAX_SCAN_CHARS characters of window text.

import { sha256Hex } from '../hash.js';
import { hash8Of } from './span-hash.js';

export interface LineSpan {
  readonly startLine: number;
  readonly endLine: number;
}

export const MAX_MOVED_SPANS = 10;
export const MAX_SCAN_CHARS = 64 * 1024 * 1024;

/**
 * Windows of `endLine - startLine + 1` lines hashing to `hash8`, other than the cited one.
 * Nothing is searched for a malformed range (START < 1 or START > END).
 */
export function findMovedSpans(lines: readonly string[], startLine: number, endLine: number, hash8: string): LineSpan[] {
  if (!Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine)) return [];
  if (startLine < 1 || startLine > endLine) return [];
  const width = endLine - startLine + 1;
  if (width > lines.length) return [];
  // offsets[i] = where line i+1 starts in the joined text; a window is one slice of it.
  const text = lines.join('\n');
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  const found: LineSpan[] = [];
  let scanned = 0;
  for (let first = 1; first + width - 1 <= lines.length; first++) {
    if (first === startLine) continue;
    const last = first + width - 1;
    const from = offsets[first - 1] as number;
    const to = (offsets[last - 1] as number) + (lines[last - 1] as string).length;
    scanned += to - from;
    if (scanned > MAX_SCAN_CHARS) break;
    if (hash8Of(sha256Hex(text.slice(from, to))) === hash8) {
      found.push({ startLine: first, endLine: last });
      if (found.length === MAX_MOVED_SPANS) break;
    }
  }
  return found;
}
