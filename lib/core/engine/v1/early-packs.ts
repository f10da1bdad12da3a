// A full build's packs, written while the analysis runs. The threads that analyse a full
// build's chunks also make their packs (./packs.ts packsWithin); each pack is written into
// the cache's staging directory (../../store/staging.ts stageCache) as soon as its chunk
// comes back, and its flush to disk started on libuv's threads (fs.flushSoon), so that the
// fsync that publishes the cache (writeCacheAtomically's syncTree, which alone vouches for
// durability) finds them on disk already, instead of writing ~170 MB at the end while the
// other core idles. The build then writes only what was not written here (a pack it made
// itself), removes any pack written here that the cache does not list (a chunk's first pack,
// when the chunk did not begin a pack: ./build.ts), and hands the directory to
// writeCacheAtomically; a build that fails first removes it (`discard`).

import { join } from 'node:path';
import { osFailure } from '../../../errors.js';
import * as fs from '../../fs.js';
import { stageCache } from '../../store/staging.js';
import { PACKS_DIR } from './manifest.js';

export interface PackFile {
  /** Its path in the cache (manifest.ts packPath). */
  readonly name: string;
  /** Its bytes: the head, then each content, written one after the other. */
  readonly chunks: readonly Uint8Array[];
}

export class EarlyPacks {
  /** The staging directory: the cache, as it is being written. */
  readonly dir: string;
  readonly #written = new Set<string>();
  readonly #flushes: Promise<void>[] = [];
  #failure: unknown = null;
  #handedOver = false;

  /**
   * The packs of a new `cache`, written into a staging directory made by `stage` (which calls
   * the `make` it is given, and may decline: null), or by stageCache itself (`stage` null).
   * Null: no directory, the build writes at the end.
   */
  static open(cache: string, stage: ((make: () => string) => string | null) | null): EarlyPacks | null {
    const make = (): string => stageCache(cache);
    const dir = stage === null ? make() : stage(make);
    return dir === null ? null : new EarlyPacks(dir, cache);
  }

  /** The cache being built (what a failure names). */
  private readonly cache: string;

  private constructor(dir: string, cache: string) {
    this.dir = dir;
    this.cache = cache;
    try {
      fs.mkdir(join(this.dir, PACKS_DIR));
    } catch (err) {
      fs.removeTree(this.dir);
      throw osFailure(err, { op: 'create', role: 'cache', subject: this.cache });
    }
  }

  /** Writes `files` (a chunk's packs). Never throws: a failure stops the writing and is thrown by `settle`. */
  add(files: readonly PackFile[]): void {
    for (const f of files) {
      if (this.#failure !== null) return;
      if (this.#written.has(f.name)) continue;
      const path = join(this.dir, f.name);
      try {
        fs.createFileFrom(path, f.chunks);
      } catch (err) {
        this.#failure = err;
        return;
      }
      this.#written.add(f.name);
      this.#flushes.push(fs.flushSoon(path));
    }
  }

  /** Whether the pack `name` was written here. */
  has(name: string): boolean {
    return this.#written.has(name);
  }

  /** Waits for every flush started; then throws the first write failure, if any (io_error). */
  async settle(): Promise<void> {
    await Promise.all(this.#flushes);
    this.#flushes.length = 0;
    if (this.#failure !== null) throw osFailure(this.#failure, { op: 'write', role: 'cache', subject: this.cache });
  }

  /** Removes each pack written here that is not among `listed` (the cache's pack names). */
  prune(listed: ReadonlySet<string>): void {
    for (const name of this.#written) if (!listed.has(name)) fs.removeFile(join(this.dir, name));
  }

  /** The directory, handed to writeCacheAtomically (which publishes or removes it). */
  handOver(): string {
    this.#handedOver = true;
    return this.dir;
  }

  /** Removes the directory unless it was handed over (a build that failed before publishing). */
  async discard(): Promise<void> {
    if (this.#handedOver) return;
    await Promise.all(this.#flushes); // no flush still holds a file of it open
    fs.removeTree(this.dir);
  }
}
