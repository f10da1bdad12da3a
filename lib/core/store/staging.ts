// Puts a newly written cache in place atomically, for every engine. The new cache is written
// into a temporary sibling directory (same file system, so rename is atomic); an existing
// cache (--force) is moved aside only once the new one is whole, and put back if the swap
// fails. A failure at any step removes the temporary directory: a failed build leaves no
// partial cache. Staging directories carry their owner in their name
// (`.NAME.tmp-<owner>-XXXXXX`, `.NAME.old-<owner>-XXXXXX`), so the next build of the same
// cache removes those of killed builds — and only those (build-owner.ts says how).
// Concurrent builds of one cache never lock each other: whichever swaps first wins; a build
// whose swap collides with another's fails with io_error and leaves the winner in place.

import { basename, dirname, join } from 'node:path';
import { ContextError, errnoOf, osFailure } from '../../errors.js';
import * as fs from '../fs.js';
import { checkTarget, type CacheLayout, type TargetGuard } from './target.js';
import { currentOwner, isOwnerTag, ownerState, type BuildOwner } from './build-owner.js';

const KINDS = ['tmp', 'old'] as const;
type StagingKind = (typeof KINDS)[number];

interface Leftover {
  readonly name: string;
  readonly kind: StagingKind;
  readonly state: 'alive' | 'dead' | 'unknown';
}

/** What a sweep did, for tests and the soak suite. */
export interface SweepReport {
  /** Staging directories of dead builds, removed. */
  readonly removed: number;
  /** A cache a build was killed while swapping, moved back into place. */
  readonly restored: boolean;
  /** Staging directories left alone: a live build's, or an owner that cannot be judged. */
  readonly kept: number;
}

/** `.NAME.KIND-<owner>-` for this process, or the untagged prefix where /proc is absent. */
function stagingPrefix(cache: string, kind: StagingKind, me: BuildOwner | null): string {
  const tag = me === null ? '' : `${me.tag}-`;
  return join(dirname(cache), `.${basename(cache)}.${kind}-${tag}`);
}

/** The staging directories of `cache` (any owner) found beside it, judged. */
function findLeftovers(cache: string, me: BuildOwner): Leftover[] {
  const parent = dirname(cache);
  const base = basename(cache);
  let names: string[];
  try {
    names = fs.readDirNames(parent);
  } catch {
    return []; // no parent yet: nothing to sweep
  }
  const found: Leftover[] = [];
  for (const name of names) {
    for (const kind of KINDS) {
      const prefix = `.${base}.${kind}-`;
      // `<owner>-XXXXXX`: mkdtemp's six characters after the tag.
      if (!name.startsWith(prefix) || name.length < prefix.length + 7) continue;
      const tag = name.slice(prefix.length, -7);
      if (!isOwnerTag(tag) || name[name.length - 7] !== '-') continue;
      const st = fs.lstatOrNull(join(parent, name));
      // Only real directories of this user are judged: under /proc's hidepid another
      // user's live build would look dead.
      const state = st === null || !st.isDirectory() || st.uid !== me.uid ? 'unknown' : ownerState(tag, me);
      found.push({ name, kind, state });
    }
  }
  return found;
}

/**
 * Removes the staging directories that builds of `cache` left when they were killed. A
 * build killed between moving the old cache aside and putting the new one in place left
 * no cache at all: the old one is moved back first (when it is the only candidate and
 * no live build of this cache is under way). Best effort: a failure here never fails a build.
 */
export function sweepLeftovers(cache: string): SweepReport {
  const me = currentOwner();
  if (me === null) return { removed: 0, restored: false, kept: 0 };
  const parent = dirname(cache);
  const leftovers = findLeftovers(cache, me);
  const dead = leftovers.filter((l) => l.state === 'dead');
  let restored = false;
  if (fs.lstatOrNull(cache) === null && leftovers.every((l) => l.state !== 'alive')) {
    const holders = dead.filter((l) => l.kind === 'old' && fs.lstatOrNull(join(parent, l.name, 'cache'))?.isDirectory() === true);
    if (holders.length === 1) {
      try {
        fs.rename(join(parent, (holders[0] as Leftover).name, 'cache'), cache);
        restored = true;
      } catch {
        // Someone else put a cache there first (or restored this one): theirs stands.
      }
    }
  }
  let removed = 0;
  for (const l of dead) {
    try {
      fs.removeTree(join(parent, l.name));
      removed++;
    } catch {
      // Another build is removing it too, or it cannot be removed: not this build's problem.
    }
  }
  return { removed, restored, kept: leftovers.length - dead.length };
}

/**
 * Refuses a target no build may write (./target.ts: not the sources, not a protected
 * directory), sweeps the leftovers of killed builds of `cache`, then: io_error unless
 * `cache` is absent or `force` allows replacing it — and only a cache of one of `layouts`
 * (every engine's, ../engine/layouts.ts) or an empty directory is ever replaced; with no
 * layouts, only an empty directory.
 */
export function checkCacheTarget(cache: string, force: boolean, guard?: TargetGuard, layouts: readonly CacheLayout[] = []): void {
  checkTarget(cache, force, guard, layouts); // before the sweep: a refused target is not touched at all
  sweepLeftovers(cache);
  checkTarget(cache, force, guard, layouts); // the sweep may have put a cache back
}


const COLLIDED = new Set(['ENOTEMPTY', 'EEXIST']);

/**
 * A fresh temporary directory beside `cache`, named as this build's (a killed build's is
 * swept by the next): where writeCacheAtomically fills a cache before it swaps it in. A
 * build may make it earlier and write into it while it works (../engine/v1/early-packs.ts);
 * it then hands it to writeCacheAtomically, or removes it.
 */
export function stageCache(cache: string): string {
  let temp: string | undefined;
  try {
    fs.mkdir(dirname(cache));
    temp = fs.makeTempDir(stagingPrefix(cache, 'tmp', currentOwner()));
    fs.applyUmask(temp); // a cache is readable by whom the umask says, like the files in it
    return temp;
  } catch (err) {
    if (temp !== undefined) fs.removeTree(temp);
    throw osFailure(err, { op: 'create', role: 'cache', subject: cache });
  }
}

/**
 * Calls `write(tempDir)` to fill a fresh temporary directory beside `cache` (or `staged`,
 * one stageCache made, already partly filled), then swaps it into place; returns what
 * `write` returned. OS failures become io_error. `replace` false (a build without --force):
 * a cache that another build put there meanwhile is not replaced; this build fails instead.
 * The temporary directory is gone when this returns or throws: published, or removed.
 */
export function writeCacheAtomically<T>(cache: string, write: (tempDir: string) => T, replace = true, staged?: string): T {
  const parent = dirname(cache);
  const me = currentOwner();
  let temp: string | undefined = staged;
  try {
    temp ??= stageCache(cache);
    const result = write(temp);
    // Durable before visible: the new cache's files and directories reach the disk before
    // the rename that publishes it, and the parent's entry right after (docs/reliability.md).
    fs.syncTree(temp);
    if (fs.lstatOrNull(cache) !== null) {
      if (!replace) throw new ContextError('io_error', 'another build created this cache meanwhile; its cache stands', 'build_collided');
    }
    if (fs.lstatOrNull(cache) !== null && swapIn(cache, temp, me)) {
      temp = undefined;
      fs.syncDir(parent);
      return result;
    }
    try {
      fs.rename(temp, cache);
    } catch (err) {
      if (COLLIDED.has(errnoOf(err) ?? '')) {
        throw new ContextError('io_error', 'another build created this cache at the same moment; its cache stands');
      }
      throw err;
    }
    temp = undefined;
    fs.syncDir(parent);
    return result;
  } catch (err) {
    throw osFailure(err, { op: 'write', role: 'cache', subject: cache });
  } finally {
    if (temp !== undefined) fs.removeTree(temp);
  }
}

/**
 * --force: moves the old cache aside, puts the new one in place, then drops the old.
 * Returns false when the old cache vanished before it could be moved (another build is
 * mid-swap): the caller then places the new cache as into an empty spot.
 */
function swapIn(cache: string, temp: string, me: BuildOwner | null): boolean {
  const old = fs.makeTempDir(stagingPrefix(cache, 'old', me));
  try {
    fs.rename(cache, join(old, 'cache'));
  } catch (err) {
    fs.removeTree(old);
    if (errnoOf(err) === 'ENOENT') return false;
    throw err;
  }
  try {
    fs.rename(temp, cache);
  } catch (err) {
    if (COLLIDED.has(errnoOf(err) ?? '')) {
      // Another build put its cache in place between our two renames: it won, and the
      // cache we moved aside is older than both.
      fs.removeTree(old);
      throw new ContextError('io_error', 'another build replaced this cache at the same moment; its cache stands');
    }
    try {
      fs.rename(join(old, 'cache'), cache); // put the old cache back: lose nothing
    } catch {
      // Cannot put it back now: it stays in the .old- directory, and the next build of
      // this cache, finding no cache and this process gone, moves it back.
      throw err;
    }
    fs.removeTree(old);
    throw err;
  }
  fs.removeTree(old);
  return true;
}

/** A live build of `cache` is staging or swapping beside it (or its owner cannot be told). */
export function buildUnderWay(cache: string): boolean {
  const me = currentOwner();
  const base = basename(cache);
  if (me === null) {
    try {
      return fs.readDirNames(dirname(cache)).some((n) => n.startsWith(`.${base}.tmp-`) || n.startsWith(`.${base}.old-`));
    } catch {
      return false;
    }
  }
  return findLeftovers(cache, me).some((l) => l.state !== 'dead');
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (a swap takes microseconds; waits stay in milliseconds). */
function pause(ms: number): void {
  Atomics.wait(pauseCell, 0, 0, ms);
}

/** The codes a read can fail with while a build swaps the cache under it. */
const SWAP_FAILURES: ReadonlySet<string> = new Set(['cache_missing', 'cache_invalid', 'io_error']);

/**
 * Runs `read` (which locates and reads the cache at `cache`) and, should it fail while a
 * live build of that cache is swapping a new one in, runs it again after a short pause
 * (1, 2, 4 … 256 ms; about half a second at most). Between a build's two renames there is
 * no cache, and a reader that started on the old one may meet the new one's files; either
 * way the failure is transient and the next read sees one whole cache. A failure with no
 * build under way is read once more, at once (the build that caused it may have finished
 * its swap, and removed its staging directories, between the read and the look for them),
 * and then reported.
 */
export function readWhileBuilding<T>(cache: string, read: () => T): T {
  let readAgain = true;
  for (let wait = 1; ; wait *= 2) {
    try {
      return read();
    } catch (err) {
      if (!(err instanceof ContextError) || !SWAP_FAILURES.has(err.code) || wait > 256) throw err;
      if (buildUnderWay(cache)) pause(wait);
      else if (readAgain) readAgain = false;
      else throw err;
    }
  }
}
