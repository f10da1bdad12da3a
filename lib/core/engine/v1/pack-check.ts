// Whether a v1 cache's packs are whole, cheaply. The build state is written after every
// pack of its cache, in a later tick of the file clock (./build.ts waits for one), so a pack
// last modified before the state file was not written since the build that wrote or checked
// it, and is not read; any other pack (modified at the state's time or later — a write in the
// same clock tick as the state shares its time — or no state at all) is hashed whole and
// compared with its name. Used by
// a rebuild before it reuses a pack (a damaged one is never carried into the new cache) and
// by status (a cache with a damaged pack is not current). Damage without a write (the
// disk's own), or a write whose modification time was set back, is found by `verify`,
// which hashes everything.

import { join } from 'node:path';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { type FileRecord, packPath } from './manifest.js';
import type { BuildState } from './state.js';

/** Exactly `length` bytes from the start of `path`. */
function readWhole(path: string, length: number): Buffer {
  const fd = fs.openRead(path);
  try {
    return fs.readAt(fd, length, 0);
  } finally {
    fs.closeFile(fd);
  }
}

/** The packs of a cache found intact (by a rebuild about to reuse them, or by status). */
export class PackCheck {
  private readonly intact = new Set<string>();
  private readonly cache: string;
  /** When the cache's build state was written (ns), or null without one. */
  private readonly writtenNs: bigint | null;
  /** Packs hashed whole (modified at or after the state's time, or no state). */
  hashed = 0;

  constructor(cache: string, state: BuildState | null) {
    this.cache = cache;
    this.writtenNs = state?.writtenNs ?? null;
  }

  /**
   * Whether the pack of `record` (or the file at cache-relative `name`: a term file) is a
   * regular file of its size, written before the state or hashing to its name.
   */
  isIntact(record: FileRecord, name = packPath(record.sha256)): boolean {
    if (this.intact.has(record.sha256)) return true;
    const path = join(this.cache, name);
    try {
      const st = fs.statBigOrNull(path);
      if (st === null || !st.isFile() || st.size !== BigInt(record.bytes)) return false;
      if (this.writtenNs === null || st.mtimeNs >= this.writtenNs) {
        this.hashed++;
        if (sha256Hex(readWhole(path, record.bytes)) !== record.sha256) return false;
      }
    } catch {
      return false;
    }
    this.intact.add(record.sha256);
    return true;
  }
}
