// Keeps verified, loaded caches (engines) in memory for a long-running process (the MCP
// server), and notices when their files change: a directory watch marks an entry dirty, and
// a cheap stat stamp of manifest.json, index.json and documents/ (v0), packs/ (v1)
// (and, when a watch could not be set up, of every file in documents/ or packs/)
// is compared on every use. Either sign of change means a full
// reload, so an answer is always the one the bytes on disk give. A v0 cache is loaded with
// its word index, so a new query costs a lookup, not a scan of every document.

import { join } from 'node:path';
import { compareBytes } from '../../json.js';
import * as fs from '../fs.js';
import { DOCUMENTS_DIR, INDEX_FILE, MANIFEST_FILE } from '../engine/v0/format.js';
import { PACKS_DIR } from '../engine/v1/manifest.js';
import { openEngine, openEngineWhole, type Engine } from '../engine/engine.js';
import { requireCacheDir } from '../store/locate.js';
import { osFailure } from '../../errors.js';

interface Entry {
  readonly stamp: string;
  /** The stamp covers every document file (no directory watch to catch in-place rewrites). */
  readonly deep: boolean;
  readonly cache: Engine;
  dirty: boolean;
  readonly watchers: { close(): void }[];
}

function stampOf(dir: string, deep: boolean): string {
  const parts: string[] = [];
  const names: string[] = [MANIFEST_FILE, INDEX_FILE, DOCUMENTS_DIR, PACKS_DIR];
  if (deep) {
    for (const sub of [DOCUMENTS_DIR, PACKS_DIR]) {
      try {
        for (const name of fs.readDirNames(join(dir, sub)).sort(compareBytes)) names.push(join(sub, name));
      } catch {
        // No such directory to list: its own entry in the stamp already says so.
      }
    }
  }
  for (const name of names) {
    const st = fs.lstatOrNull(join(dir, name));
    parts.push(st === null ? '-' : `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`);
  }
  return parts.join('|');
}

function safeStampOf(dir: string, deep: boolean): string {
  try {
    return stampOf(dir, deep);
  } catch (err) {
    throw osFailure(err, { op: 'examine', role: 'cache', subject: dir });
  }
}

/** A cache directory watched while it loads (CacheMemo.watch). */
interface Watch {
  readonly list: { close(): void }[];
  readonly deep: boolean;
  readonly stamp: string;
  readonly entryRef: { entry?: Entry };
  close(): void;
}

export class CacheMemo {
  private readonly entries = new Map<string, Entry>();
  private readonly capacity: number;

  constructor(capacity = 4) {
    this.capacity = capacity;
  }

  /**
   * The loaded cache at `dir`, reloaded (and re-verified) if anything changed. A v0 (re)load
   * builds the cache's word index in the same pass, so every query, new or repeated, is
   * answered by lookup (docs/cache.md "The in-memory word index").
   */
  get(dir: string): Engine {
    requireCacheDir(dir); // a file or an absent path is cache_missing, as for the CLI
    const hit = this.fresh(dir);
    if (hit !== null) return hit;
    this.drop(dir);
    const watch = this.watch(dir);
    let cache: Engine;
    try {
      cache = openEngine(dir, [], { index: true });
    } catch (err) {
      watch.close();
      throw err;
    }
    return this.hold(dir, watch, cache);
  }

  /**
   * Loads the cache at `dir` ahead of a `get`, reading a large v1 cache's heads on up to
   * `threads` threads (engine.ts openEngineWhole), when no load of it is held. It never
   * fails: whatever goes wrong here, the `get` that follows loads the cache itself and
   * reports it, as always.
   */
  async preload(dir: string, threads: number): Promise<void> {
    const pending = this.loading.get(dir);
    if (pending !== undefined) return pending;
    const load = (async (): Promise<void> => {
      try {
        // Only a cache not held at all: one held is checked (and reloaded if stale) by `get`,
        // whose stamp check would otherwise run twice a call.
        if (this.entries.has(dir)) return;
        requireCacheDir(dir);
        const watch = this.watch(dir);
        let cache: Engine;
        try {
          cache = await openEngineWhole(dir, threads);
        } catch {
          watch.close();
          return;
        }
        // A `get` meanwhile loaded it on its own: keep what is held.
        if (this.entries.has(dir)) {
          watch.close();
          cache.close();
          return;
        }
        this.hold(dir, watch, cache);
      } catch {
        // The `get` that follows reports it.
      }
    })();
    this.loading.set(dir, load);
    try {
      await load;
    } finally {
      this.loading.delete(dir);
    }
  }

  /** Loads under way (preload), by directory. */
  private readonly loading = new Map<string, Promise<void>>();

  /** The entry at `dir` when it is current, its recency refreshed for the LRU bound; else null. */
  private fresh(dir: string): Engine | null {
    const hit = this.entries.get(dir);
    if (hit === undefined || hit.dirty || hit.stamp !== safeStampOf(dir, hit.deep)) return null;
    this.entries.delete(dir);
    this.entries.set(dir, hit);
    return hit.cache;
  }

  /**
   * Watches `dir` before its load, so a change during the load is not missed (the stamp taken
   * now differs afterwards), and marks the entry made after it dirty on any later change.
   */
  private watch(dir: string): Watch {
    const entryRef: { entry?: Entry } = {};
    const markDirty = (): void => {
      if (entryRef.entry !== undefined) entryRef.entry.dirty = true;
    };
    const list: { close(): void }[] = [];
    // A cache has documents/ (v0) or packs/ (v1): with the cache directory, two watches.
    for (const d of [dir, join(dir, DOCUMENTS_DIR), join(dir, PACKS_DIR)]) {
      try {
        list.push(fs.watchDir(d, markDirty));
      } catch {
        // Unwatchable (or absent) directory: the stat stamp still guards this entry.
      }
    }
    // Without both watches, a document or pack rewritten in place shows only in its own stat.
    const deep = list.length < 2;
    return { list, deep, stamp: safeStampOf(dir, deep), entryRef, close: () => list.forEach((w) => w.close()) };
  }

  /** Holds `cache`, loaded under `watch`, as the entry of `dir` (the least recent out past the bound). */
  private hold(dir: string, watch: Watch, cache: Engine): Engine {
    const entry: Entry = { stamp: watch.stamp, deep: watch.deep, cache, dirty: false, watchers: watch.list };
    watch.entryRef.entry = entry;
    this.entries.set(dir, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.drop(oldest);
    }
    return cache;
  }

  /** Forgets the cache at `dir`, if loaded (its watchers stopped, its memory released). */
  forget(dir: string): void {
    this.drop(dir);
  }

  private drop(dir: string): void {
    const e = this.entries.get(dir);
    if (e === undefined) return;
    for (const w of e.watchers) w.close();
    e.cache.close();
    this.entries.delete(dir);
  }

  /**
   * Lets the event loop poll once, so a watch event already queued (a document rewritten
   * just before this request arrived) marks its entry dirty before `get` trusts it. Call it
   * before `get` wherever an answer may follow a change within the same turn.
   */
  settle(): Promise<void> {
    // Two nested immediates: called from the poll phase, a single one would run before the
    // next poll; the second is certain to follow a poll phase, where watch events arrive.
    return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
  }

  /**
   * One slice of idle work for the loaded caches (Engine.prepare, `work` each, most recent
   * first); true when none has anything left. A server calls it between requests.
   */
  prepare(work: number): boolean {
    let done = true;
    for (const e of [...this.entries.values()].reverse()) if (!e.cache.prepare(work)) done = false;
    return done;
  }

  /** Stops every watcher and forgets every cache. */
  close(): void {
    for (const dir of [...this.entries.keys()]) this.drop(dir);
  }
}
