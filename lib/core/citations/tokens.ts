// The two token grammars (citation and structure claim): the exact regexes VeriContext
// uses, parsing in order of appearance, and rendering. A rendered token always parses
// back to the same parts; `isCitablePath`/`isClaimablePath` say when that is possible.

import type { StructureKind } from './reasons.js';

/** `[[vctx:PATH#LSTART-LEND@HASH8]]` (seed 002 / issue 4 "The format"). */
export const CITATION_PATTERN = /\[\[vctx:([^#\]]+)#L([0-9]+)-L([0-9]+)@([a-f0-9]{8})\]\]/g;

/** `[[vctx-KIND:PATH]]`, KIND one of exists | exists-file | exists-dir | missing. */
export const STRUCTURE_PATTERN = /\[\[vctx-(exists|exists-file|exists-dir|missing):([^\]]+)\]\]/g;

export interface CitationToken {
  /** The token exactly as it appears in the text. */
  readonly raw: string;
  /** The path as written (not yet normalised). */
  readonly path: string;
  /** Line numbers as written; very long digit strings become unsafe (range_invalid). */
  readonly startLine: number;
  readonly endLine: number;
  readonly hash8: string;
}

export interface StructureToken {
  readonly raw: string;
  readonly kind: StructureKind;
  readonly path: string;
}

/** Every citation token in `text`, in order of appearance. */
export function parseCitations(text: string): CitationToken[] {
  const found: CitationToken[] = [];
  // matchAll clones the pattern, so the shared /g regex keeps no state between calls.
  for (const m of text.matchAll(CITATION_PATTERN)) {
    found.push({
      raw: m[0],
      path: m[1] as string,
      startLine: Number(m[2]),
      endLine: Number(m[3]),
      hash8: m[4] as string,
    });
  }
  return found;
}

/** Every structure-claim token in `text`, in order of appearance. */
export function parseStructureClaims(text: string): StructureToken[] {
  const found: StructureToken[] = [];
  for (const m of text.matchAll(STRUCTURE_PATTERN)) {
    found.push({ raw: m[0], kind: m[1] as StructureKind, path: m[2] as string });
  }
  return found;
}

export function renderCitation(path: string, startLine: number, endLine: number, hash8: string): string {
  return `[[vctx:${path}#L${startLine}-L${endLine}@${hash8}]]`;
}

export function renderStructureClaim(kind: StructureKind, path: string): string {
  return `[[vctx-${kind}:${path}]]`;
}

/** A citation token can carry this path only if it holds neither `#` nor `]`. */
export function isCitablePath(path: string): boolean {
  return !path.includes('#') && !path.includes(']');
}

/** A structure claim can carry this path only if it holds no `]`. */
export function isClaimablePath(path: string): boolean {
  return !path.includes(']');
}
