// What a build may write over. A build replaces only a cache that this program wrote: its
// target must be absent, an empty directory, or a directory that holds nothing a cache of
// one engine never holds (each engine lists its names: CacheLayout) and whose manifest.json
// that engine's own checks accept. Anything else (a folder of notes, even one with a
// manifest.json that looks like a cache's or is a real one copied there; a cache with a
// file of someone else's added; a file; a symlink) is refused before anything is read or
// written, and so is a target that is the sources folder or holds it, or that is or holds a
// directory the caller protects (the working directory, the server's project root). A target
// inside the sources folder is refused too — every later build of those sources would walk
// through the cache — unless a folder on its way there is hidden (`docs/.context/cache`),
// which no walk of either engine takes a document from (v1 never enters a hidden folder; v0
// takes only `*.md` files, and no cache holds one). Judged on real paths, so neither `..`
// nor a symlinked parent hides the relation.

import { join, relative, sep } from 'node:path';
import { ContextError } from '../../errors.js';
import { isWithinRoots, realPathOfMaybeMissing } from '../confine.js';
import * as fs from '../fs.js';

/**
 * What a cache of one engine can hold, of every format that engine has written, as the
 * target check needs it. Each engine describes its own (../engine/v0/layout.ts,
 * ../engine/v1/layout.ts); the builds hand them all to checkCacheTarget (./staging.ts).
 */
export interface CacheLayout {
  /** The manifest's file name; a cache always holds it. */
  readonly manifest: string;
  /** Every name a cache can hold at its top (the manifest, its data folder, what builds leave there), and what it is. */
  readonly entries: ReadonlyMap<string, 'file' | 'folder'>;
  /** The folder its data lives in, and the names of the files in it (nothing else is ever in it). */
  readonly dataFolder: string;
  readonly dataFile: RegExp;
  /** Whether the manifest's text is one this engine wrote (its own checks of the manifest's shape). */
  readonly isManifest: (text: string) => boolean;
}

export interface TargetGuard {
  /** The sources folder (absolute): the target may not be it or hold it. */
  readonly sources: string;
  /** Directories (absolute) the target may not be or hold: the working directory, a project root. */
  readonly protect: readonly string[];
}

/**
 * Whether the entries of `dir` are all names a cache of `layout` holds, each the kind it
 * is there (a symlink is neither a file nor a folder), the manifest among them, and its
 * data folder (when there) holds only data files: their count, else null.
 */
function ownDataFiles(dir: string, entries: readonly fs.Dirent[], layout: CacheLayout): number | null {
  if (!entries.some((e) => e.name === layout.manifest)) return null;
  for (const e of entries) {
    const kind = layout.entries.get(e.name);
    if (kind === undefined || (kind === 'file' ? !e.isFile() : !e.isDirectory())) return null;
  }
  if (!entries.some((e) => e.name === layout.dataFolder)) return 0;
  const inside = fs.readDir(join(dir, layout.dataFolder));
  return inside.every((e) => e.isFile() && layout.dataFile.test(e.name)) ? inside.length : null;
}

/** The manifest's text, or null when it cannot be read. */
function manifestText(path: string): string | null {
  try {
    return fs.readText(path);
  } catch {
    return null;
  }
}

/**
 * Whether the existing directory `dir` may be replaced: empty, or a cache of one of
 * `layouts` — it holds nothing such a cache never holds, and its manifest passes that
 * engine's checks, or (a damaged cache being repaired: what status advises) its manifest
 * does not but its data folder holds at least one of that engine's data files. A
 * manifest.json alone, whatever it says, makes nothing a cache.
 */
export function isReplaceable(dir: string, layouts: readonly CacheLayout[]): boolean {
  const entries = fs.readDir(dir);
  if (entries.length === 0) return true;
  for (const layout of layouts) {
    const dataFiles = ownDataFiles(dir, entries, layout);
    if (dataFiles === null) continue;
    const text = manifestText(join(dir, layout.manifest));
    if (text !== null && layout.isManifest(text)) return true;
    if (dataFiles > 0) return true;
  }
  return false;
}

/**
 * Whether `cache` lies inside `sources` (by real path) where a walk of the sources would
 * go: under no hidden folder (a name starting with a dot) on the way from the sources.
 */
export function insideWalkedSources(cache: string, sources: string): boolean {
  const realCache = realPathOfMaybeMissing(cache);
  const realSources = realPathOfMaybeMissing(sources);
  if (realCache === null || realSources === null || realCache === realSources) return false;
  const rel = relative(realSources, realCache);
  if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || rel.startsWith(sep)) return false;
  return !rel.split(sep).some((part) => part.startsWith('.'));
}

/**
 * Refuses a target that a build must not touch (io_error, with a reason); returns whether
 * something is there (an existing cache or empty directory). `force` false: anything there
 * is refused as existing; `force` true: only a cache of one of `layouts` (or an empty
 * directory) is replaced.
 */
export function checkTarget(cache: string, force: boolean, guard: TargetGuard | undefined, layouts: readonly CacheLayout[]): boolean {
  const real = realPathOfMaybeMissing(cache);
  if (guard !== undefined) {
    // The target may neither be nor hold the sources, nor a protected directory.
    if (real === null || isWithinRoots(guard.sources, [cache])) {
      throw new ContextError('io_error', 'the cache would replace the sources folder or a folder holding it', 'target_holds_sources');
    }
    if (guard.protect.some((p) => isWithinRoots(p, [cache]))) {
      throw new ContextError('io_error', 'the cache would replace the working directory (or the project root) or a folder holding it', 'target_protected');
    }
    if (insideWalkedSources(cache, guard.sources)) {
      throw new ContextError(
        'io_error',
        `the cache ${cache} would lie inside the sources folder ${guard.sources}, where every build of them walks through it; ` +
          `choose a cache outside ${guard.sources} (or under a hidden folder in it, such as ${join(guard.sources, '.context', 'NAME')})`,
        'target_inside_sources',
      );
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
    replaceable = isReplaceable(cache, layouts);
  } catch {
    replaceable = false;
  }
  if (!replaceable) {
    throw new ContextError('io_error', 'the target is a directory that holds no cache: it is not replaced (remove it yourself, or choose another path)', 'target_not_cache');
  }
  return true;
}
