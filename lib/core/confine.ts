// Whether a path lies within one of a set of allowed roots, judged on real paths: the
// nearest existing ancestor of the path is resolved through every symlink, so neither
// `..` nor a symlink that leaves a root can reach outside. Used by the MCP server, which
// may touch only its project root (or the client's MCP roots) and its cache root.

import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import * as fs from './fs.js';

function inside(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}

/** The real path of `abs`: its nearest existing ancestor resolved, plus the rest. */
export function realPathOfMaybeMissing(abs: string): string | null {
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(fs.realPath(existing), ...rest.reverse());
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return null; // ELOOP, EACCES...: cannot judge
      const up = dirname(existing);
      if (up === existing) return null;
      rest.push(existing.slice(up.length).replace(/^\/+/, ''));
      existing = up;
    }
  }
}

/**
 * True when absolute `target` lies within (or is) one of the absolute `roots`, both taken
 * through their real paths. A path that cannot be resolved (a loop, no permission) is not.
 */
export function isWithinRoots(target: string, roots: readonly string[]): boolean {
  if (target.includes('\0')) return false;
  const real = realPathOfMaybeMissing(target);
  if (real === null) return false;
  return roots.some((root) => {
    const realRoot = realPathOfMaybeMissing(root);
    return realRoot !== null && inside(realRoot, real);
  });
}
