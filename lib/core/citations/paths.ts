// Path rules for every path a claim names: `\` becomes `/`, one leading `./` goes, then
// the path is resolved lexically under the root. Absolute, empty or root-itself paths are
// `invalid_path`; anything resolving outside the root is `path_escape`. No I/O here.

import * as nodePath from 'node:path';

export type ResolvedPath =
  | { readonly ok: true; readonly normalizedPath: string; readonly absolutePath: string }
  | { readonly ok: false; readonly reason: 'invalid_path' | 'path_escape' };

/** The separator and `./` clean-up VeriContext applies before resolving. */
export function cleanPath(input: string): string {
  return input.replaceAll('\\', '/').replace(/^\.\//, '');
}

/**
 * Resolves `input` under `rootAbs` (an absolute, resolved root). The normalised path is the
 * relative one with `/` separators: `./a//b/../c.md` becomes `a/c.md`.
 */
export function resolveUnderRoot(rootAbs: string, input: string): ResolvedPath {
  const cleaned = cleanPath(input);
  if (cleaned.length === 0 || cleaned === '.' || cleaned.startsWith('/') || cleaned.includes('\0')) {
    return { ok: false, reason: 'invalid_path' };
  }
  const absolutePath = nodePath.resolve(rootAbs, cleaned);
  const rel = nodePath.relative(rootAbs, absolutePath).split(nodePath.sep).join('/');
  // `a/..` names the root itself: not a path under it, the same as `.`.
  if (rel.length === 0) return { ok: false, reason: 'invalid_path' };
  if (rel === '..' || rel.startsWith('../') || nodePath.isAbsolute(rel)) {
    return { ok: false, reason: 'path_escape' };
  }
  return { ok: true, normalizedPath: rel, absolutePath };
}

/** True when `inner` is `outer` or lies below it (both absolute, resolved). */
export function isWithin(outer: string, inner: string): boolean {
  if (inner === outer) return true;
  const prefix = outer.endsWith('/') ? outer : outer + '/';
  return inner.startsWith(prefix);
}
