// Resolves a cache name against a cache root with traversal protection (security_model.md
// "Input Validation"): `..`, absolute names and symlinks escaping the root are cache_missing,
// so no name ever reads outside the root. An inaccessible root is io_error. Also the one
// check every engine opens a cache with: the path must be a directory.

import { isAbsolute, join, sep } from 'node:path';
import { ContextError, osFailure } from '../../errors.js';
import * as fs from '../fs.js';

export function locateCache(root: string, name: string): string {
  if (
    name === '' ||
    name === '.' ||
    name.includes('..') ||
    name.includes('\0') ||
    name.startsWith('/') ||
    name.startsWith('\\') ||
    isAbsolute(name)
  ) {
    throw new ContextError('cache_missing');
  }
  // The candidate first, as the reference does: a name under a missing root is missing.
  let real: string;
  try {
    real = fs.realPath(join(root, name));
  } catch {
    throw new ContextError('cache_missing');
  }
  let realRoot: string;
  try {
    realRoot = fs.realPath(root);
  } catch (err) {
    throw osFailure(err, { op: 'examine', role: 'cache_root', subject: root });
  }
  if (real === realRoot || !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    throw new ContextError('cache_missing');
  }
  return real;
}

/** cache_missing unless `dir` is a directory; io_error if it cannot be examined. */
export function requireCacheDir(dir: string): void {
  let st: fs.Stats | null;
  try {
    st = fs.statOrNull(dir);
  } catch (err) {
    throw osFailure(err, { op: 'examine', role: 'cache', subject: dir }, 'cache_missing');
  }
  if (st === null || !st.isDirectory()) throw new ContextError('cache_missing');
}
