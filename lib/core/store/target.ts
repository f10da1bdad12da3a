// What a build may write over. A build replaces only a cache: its target must be absent, an
// empty directory, or a directory holding a cache's manifest (either engine). Anything else
// (a folder of notes, a file, a symlink) is refused before anything is read or written, and
// so is a target that is the sources folder or holds it, or that is or holds a directory
// the caller protects (the working directory, the server's project root). Judged on real
// paths, so neither `..` nor a symlinked parent hides the relation.

import { join } from 'node:path';
import { ContextError } from '../../errors.js';
import { parseJson } from '../../json.js';
import { isWithinRoots, realPathOfMaybeMissing } from '../confine.js';
import * as fs from '../fs.js';

/** The names a cache of either engine holds at its top (v0: manifest, index, documents; v1: manifest, packs, build state). */
const CACHE_ENTRIES: ReadonlySet<string> = new Set(['manifest.json', 'index.json', 'documents', 'packs', 'build-state.json', 'build-state.json.tmp']);

export interface TargetGuard {
  /** The sources folder (absolute): the target may not be it or hold it. */
  readonly sources: string;
  /** Directories (absolute) the target may not be or hold: the working directory, a project root. */
  readonly protect: readonly string[];
}

/** Whether `manifest.json` in `dir` reads as a cache manifest: a JSON object with a string cache_version. */
function holdsCacheManifest(dir: string): boolean {
  const path = join(dir, 'manifest.json');
  const st = fs.lstatOrNull(path);
  if (st === null || !st.isFile()) return false;
  try {
    const value = parseJson(fs.readText(path)) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>)['cache_version'] === 'string';
  } catch {
    return false;
  }
}

/**
 * Whether the existing directory `dir` may be replaced: empty, or a cache — its manifest
 * reads as one, or (a damaged cache being repaired) it holds a manifest.json, a cache's
 * data folder (documents/ or packs/) and nothing but the names a cache holds. A folder
 * holding only some other program's manifest.json is not a cache.
 */
export function isReplaceable(dir: string): boolean {
  const names = fs.readDirNames(dir);
  if (names.length === 0) return true;
  if (holdsCacheManifest(dir)) return true;
  const dataFolder = names.some((n) => (n === 'documents' || n === 'packs') && fs.lstatOrNull(join(dir, n))?.isDirectory() === true);
  return names.includes('manifest.json') && dataFolder && names.every((n) => CACHE_ENTRIES.has(n));
}

/**
 * Refuses a target that a build must not touch (io_error, with a reason); returns whether
 * something is there (an existing cache or empty directory). `force` false: anything there
 * is refused as existing.
 */
export function checkTarget(cache: string, force: boolean, guard: TargetGuard | undefined): boolean {
  const real = realPathOfMaybeMissing(cache);
  if (guard !== undefined) {
    // The target may neither be nor hold the sources, nor a protected directory.
    if (real === null || isWithinRoots(guard.sources, [cache])) {
      throw new ContextError('io_error', 'the cache would replace the sources folder or a folder holding it', 'target_holds_sources');
    }
    if (guard.protect.some((p) => isWithinRoots(p, [cache]))) {
      throw new ContextError('io_error', 'the cache would replace the working directory (or the project root) or a folder holding it', 'target_protected');
    }
  }
  const st = fs.lstatOrNull(cache);
  if (st === null) return false;
  if (!force) throw new ContextError('io_error', 'output already exists (use --force to replace it)', 'cache_exists');
  if (!st.isDirectory()) {
    throw new ContextError('io_error', `the target is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}, not a cache: it is not replaced`, 'target_not_cache');
  }
  let replaceable: boolean;
  try {
    replaceable = isReplaceable(cache);
  } catch {
    replaceable = false;
  }
  if (!replaceable) {
    throw new ContextError('io_error', 'the target is a directory that holds no cache: it is not replaced (remove it yourself, or choose another path)', 'target_not_cache');
  }
  return true;
}
