// Producing tokens: a citation for a line span of a file under the root (the file is read
// and hashed), and a structure claim for a path (only normalised, never checked). A token
// is produced only if it parses back to the same path; otherwise `invalid_path`.

import type { Reason, StructureKind } from './reasons.js';
import { hashLineSpan } from './span-hash.js';
import { isCitablePath, isClaimablePath, renderCitation, renderStructureClaim } from './tokens.js';
import { resolveUnderRoot } from './paths.js';
import type { Workspace } from './workspace.js';

export type CiteResult =
  | { readonly ok: true; readonly citation: string; readonly sha256Full: string }
  | { readonly ok: false; readonly reason: Reason };

export type ClaimResult =
  | { readonly ok: true; readonly claim: string; readonly kind: StructureKind; readonly normalizedPath: string }
  | { readonly ok: false; readonly reason: Reason };

/** `[[vctx:PATH#LSTART-LEND@HASH8]]` for lines START..END of `path` as they are now. */
export function citeSpan(ws: Workspace, path: string, startLine: number, endLine: number): CiteResult {
  const resolved = ws.resolve(path);
  if (!resolved.ok) return resolved;
  if (!isCitablePath(resolved.normalizedPath)) return { ok: false, reason: 'invalid_path' };
  const placement = ws.place(resolved.absolutePath);
  if (placement === 'escape') return { ok: false, reason: 'path_escape' };
  if (placement === 'absent') return { ok: false, reason: 'file_missing' };
  if (placement === 'io_error') return { ok: false, reason: 'io_error' };
  const file = ws.readText(resolved.absolutePath);
  if (!file.ok) return file;
  const span = hashLineSpan(file.lines, startLine, endLine);
  if (!span.ok) return span;
  return {
    ok: true,
    citation: renderCitation(resolved.normalizedPath, startLine, endLine, span.hash8),
    sha256Full: span.sha256Full,
  };
}

/**
 * `[[vctx-KIND:PATH]]` with PATH normalised. An `exists-dir` claim keeps a trailing `/`
 * when the path was given with one (as VeriContext: the path as given, before `\` -> `/`).
 */
export function claimPath(rootAbs: string, kind: StructureKind, path: string): ClaimResult {
  const resolved = resolveUnderRoot(rootAbs, path);
  if (!resolved.ok) return resolved;
  let normalizedPath = resolved.normalizedPath;
  if (kind === 'exists-dir' && path.endsWith('/') && !normalizedPath.endsWith('/')) normalizedPath += '/';
  if (!isClaimablePath(normalizedPath)) return { ok: false, reason: 'invalid_path' };
  return { ok: true, claim: renderStructureClaim(kind, normalizedPath), kind, normalizedPath };
}
