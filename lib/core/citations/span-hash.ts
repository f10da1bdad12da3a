// Span hashing: lines START..END (1-based, inclusive) joined with `\n`, hashed with
// SHA-256 over their UTF-8 bytes; HASH8 is the digest's first 8 hex digits. A range is
// valid only when 1 <= START <= END <= line count.

import { sha256Hex } from '../hash.js';

export type SpanHash =
  | { readonly ok: true; readonly sha256Full: string; readonly hash8: string }
  | { readonly ok: false; readonly reason: 'range_invalid' };

export function isValidRange(lineCount: number, startLine: number, endLine: number): boolean {
  return (
    Number.isSafeInteger(startLine) &&
    Number.isSafeInteger(endLine) &&
    startLine >= 1 &&
    startLine <= endLine &&
    endLine <= lineCount
  );
}

export function hash8Of(sha256Full: string): string {
  return sha256Full.slice(0, 8);
}

export function hashLineSpan(lines: readonly string[], startLine: number, endLine: number): SpanHash {
  if (!isValidRange(lines.length, startLine, endLine)) return { ok: false, reason: 'range_invalid' };
  const sha256Full = sha256Hex(lines.slice(startLine - 1, endLine).join('\n'));
  return { ok: true, sha256Full, hash8: hash8Of(sha256Full) };
}
