// Turns a caller's scope string into a directory under the project root, or refuses it.
// Backslashes become slashes first; a scope that resolves outside the root — lexically
// (`..`, an absolute path) or through a symlink — is path traversal and never read.

import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { realPath } from '../fs.js';

/** The scope as callers see it echoed: Windows separators turned into `/`. */
export function normalizeScope(scope: string): string {
  return scope.replace(/\\/g, '/');
}

/** True when absolute `target` is `root` or lies below it (lexically). */
export function isInside(root: string, target: string): boolean {
  if (target === root) return true;
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The absolute directory for `scope` under the absolute `root`, or null for traversal.
 * When both exist, their real paths must nest too, so a symlink cannot lead outside.
 */
export function resolveScope(root: string, scope: string): string | null {
  const base = resolve(root);
  const normalized = normalizeScope(scope);
  const target = normalized === '.' ? base : resolve(base, normalized);
  if (!isInside(base, target)) return null;
  let realBase: string;
  let realTarget: string;
  try {
    realBase = realPath(base);
    realTarget = realPath(target);
  } catch {
    // Something along the way does not exist (or cannot be read): nothing outside the
    // root can be reached through it, and the caller reports the scope as missing.
    return target;
  }
  return isInside(realBase, realTarget) ? target : null;
}

/** The `/`-separated scope of `dir` relative to `root` (`.` for the root itself). */
export function scopeOf(root: string, dir: string): string {
  const rel = relative(root, dir);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/** The absolute directory of a `/`-separated scope known to be inside `root`. */
export function dirOf(root: string, scope: string): string {
  return scope === '.' ? root : join(root, ...scope.split('/'));
}
