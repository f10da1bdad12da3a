// Puts a newly written cache in place atomically. The new cache is written into a temporary
// sibling directory (same file system, so rename is atomic); an existing cache (--force) is
// moved aside only once the new one is whole, and put back if the swap fails. A failure at
// any step removes the temporary directory: a failed build leaves no partial cache.

import { basename, dirname, join } from 'node:path';
import { ContextError, fromOsError } from '../../errors.js';
import * as fs from '../fs.js';

/** io_error unless `cache` is absent or `force` allows replacing it. */
export function checkCacheTarget(cache: string, force: boolean): void {
  if (fs.lstatOrNull(cache) !== null && !force) {
    throw new ContextError('io_error', 'output already exists (use --force to replace it)');
  }
}

/**
 * Calls `write(tempDir)` to fill a fresh temporary directory beside `cache`, then swaps it
 * into place; returns what `write` returned. OS failures become io_error.
 */
export function writeCacheAtomically<T>(cache: string, write: (tempDir: string) => T): T {
  const parent = dirname(cache);
  let temp: string | undefined;
  try {
    fs.mkdir(parent);
    temp = fs.makeTempDir(join(parent, `.${basename(cache)}.tmp-`));
    const result = write(temp);
    if (fs.lstatOrNull(cache) !== null) {
      // --force: move the old cache aside, put the new one in place, then drop the old.
      const old = fs.makeTempDir(join(parent, `.${basename(cache)}.old-`));
      fs.rename(cache, join(old, 'cache'));
      try {
        fs.rename(temp, cache);
      } catch (err) {
        fs.rename(join(old, 'cache'), cache); // put the old cache back: lose nothing
        fs.removeTree(old);
        throw err;
      }
      temp = undefined;
      fs.removeTree(old);
    } else {
      fs.rename(temp, cache);
      temp = undefined;
    }
    return result;
  } catch (err) {
    throw fromOsError(err, 'io_error');
  } finally {
    if (temp !== undefined) fs.removeTree(temp);
  }
}
