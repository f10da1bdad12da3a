// Verification, fail-closed, of a document under the root, inline text, or a folder of
// Markdown: every citation is re-hashed, then every structure claim re-checked, each in
// order of appearance; a failed citation whose span now sits elsewhere says where (movedTo).

import type { Reason } from './reasons.js';
import { MovedSpanFinder, type LineSpan } from './moved-span.js';
import { listMarkdownFiles } from './markdown-files.js';
import { normalizeLineEndings } from './read-text.js';
import { hashLineSpan } from './span-hash.js';
import { checkStructure } from './structure.js';
import { parseCitations, parseStructureClaims, renderCitation, type CitationToken } from './tokens.js';
import type { Workspace } from './workspace.js';

export interface MovedSpan extends LineSpan {
  /** The corrected token: same path and HASH8, the new line numbers. */
  readonly citation: string;
}

export interface ClaimCheck {
  readonly claim: string;
  readonly kind: 'citation' | 'structure';
  readonly ok: boolean;
  readonly reason?: Reason;
  /** Only on a failed citation whose span was found at other lines. */
  readonly movedTo?: readonly MovedSpan[];
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly total: number;
  readonly okCount: number;
  readonly failCount: number;
  readonly results: readonly ClaimCheck[];
}

export interface FileReport {
  readonly path: string;
  /** Set when the file itself could not be read (then `report` is empty and failed). */
  readonly reason?: Reason;
  readonly report: VerifyReport;
}

export type VerifyOutput =
  | { readonly shape: 'document'; readonly report: VerifyReport }
  | { readonly shape: 'directory'; readonly ok: boolean; readonly totals: VerifyReport; readonly files: readonly FileReport[] }
  | { readonly shape: 'refused'; readonly reason: Reason };

/** Exactly one of the two inputs (checked by the request parser). */
export type VerifyInput = { readonly inPath: string; readonly text?: undefined } | { readonly inPath?: undefined; readonly text: string };

function checkCitation(ws: Workspace, finder: MovedSpanFinder, token: CitationToken): ClaimCheck {
  const fail = (reason: Reason, movedTo?: readonly MovedSpan[]): ClaimCheck =>
    movedTo === undefined || movedTo.length === 0
      ? { claim: token.raw, kind: 'citation', ok: false, reason }
      : { claim: token.raw, kind: 'citation', ok: false, reason, movedTo };
  const resolved = ws.resolve(token.path);
  if (!resolved.ok) return fail(resolved.reason);
  const placement = ws.place(resolved.absolutePath);
  if (placement === 'escape') return fail('path_escape');
  if (placement === 'absent') return fail('file_missing');
  if (placement === 'io_error') return fail('io_error');
  const file = ws.readText(resolved.absolutePath);
  if (!file.ok) return fail(file.reason);
  const span = hashLineSpan(file.lines, token.startLine, token.endLine);
  const reason: Reason | null = !span.ok ? 'range_invalid' : span.hash8 !== token.hash8 ? 'hash_mismatch' : null;
  if (reason === null) return { claim: token.raw, kind: 'citation', ok: true };
  const moved = finder.find(resolved.absolutePath, file.lines, token.startLine, token.endLine, token.hash8).map((s) => ({
    startLine: s.startLine,
    endLine: s.endLine,
    citation: renderCitation(resolved.normalizedPath, s.startLine, s.endLine, token.hash8),
  }));
  return fail(reason, moved);
}

function summarize(results: readonly ClaimCheck[]): VerifyReport {
  const okCount = results.filter((r) => r.ok).length;
  const failCount = results.length - okCount;
  return { ok: failCount === 0, total: results.length, okCount, failCount, results };
}

/** Verifies every token in `text` (line endings normalised first). */
export function verifyText(ws: Workspace, text: string, finder = new MovedSpanFinder()): VerifyReport {
  const doc = normalizeLineEndings(text);
  const results: ClaimCheck[] = parseCitations(doc).map((token) => checkCitation(ws, finder, token));
  for (const token of parseStructureClaims(doc)) {
    const check = checkStructure(ws, token.kind, token.path);
    results.push(
      check.ok
        ? { claim: token.raw, kind: 'structure', ok: true }
        : { claim: token.raw, kind: 'structure', ok: false, reason: check.reason },
    );
  }
  return summarize(results);
}

const EMPTY_FAILED: VerifyReport = { ok: false, total: 0, okCount: 0, failCount: 0, results: [] };

function verifyDirectory(ws: Workspace, dirPath: string, dirAbs: string): VerifyOutput {
  let files;
  try {
    files = listMarkdownFiles(ws.fs, dirPath, dirAbs);
  } catch (err) {
    // An OS failure anywhere in the walk (no `code`: a bug, which must surface as one).
    if (typeof (err as { code?: unknown } | null)?.code !== 'string') throw err;
    return { shape: 'refused', reason: 'io_error' };
  }
  const finder = new MovedSpanFinder();
  const reports: FileReport[] = files.map((file) => {
    const read = ws.readText(file.absolutePath);
    return read.ok
      ? { path: file.path, report: verifyText(ws, read.text, finder) }
      : { path: file.path, reason: read.reason, report: EMPTY_FAILED };
  });
  const totals = summarize(reports.flatMap((r) => r.report.results));
  const ok = reports.every((r) => r.report.ok);
  return { shape: 'directory', ok, totals, files: reports };
}

/** Verifies a document under the root (a file, or a directory of Markdown) or inline text. */
export function verifyWorkspace(ws: Workspace, input: VerifyInput): VerifyOutput {
  if (input.inPath === undefined) return { shape: 'document', report: verifyText(ws, input.text) };
  const resolved = ws.resolve(input.inPath);
  if (!resolved.ok) return { shape: 'refused', reason: resolved.reason };
  const placement = ws.place(resolved.absolutePath);
  if (placement === 'escape') return { shape: 'refused', reason: 'path_escape' };
  if (placement === 'absent') return { shape: 'refused', reason: 'file_missing' };
  if (placement === 'io_error') return { shape: 'refused', reason: 'io_error' };
  if (ws.kindOf(resolved.absolutePath) === 'dir') {
    return verifyDirectory(ws, resolved.normalizedPath, resolved.absolutePath);
  }
  const doc = ws.readText(resolved.absolutePath);
  if (!doc.ok) return { shape: 'refused', reason: doc.reason };
  return { shape: 'document', report: verifyText(ws, doc.text) };
}
