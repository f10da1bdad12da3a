// Whether a v1 cache's packs are whole, cheaply: a pack whose stat stamp is the one the build
// state recorded when it was written (or last hashed) was not written since and is not
// read; any other is hashed whole and compared with its name. Used by a rebuild before it
// reuses a pack (a damaged one is never carried into the new cache) and by status (a cache
// with a damaged pack is not current). Damage without a write (the disk's own) is found by
// `verify`, which hashes everything.

import { join } from 'node:path';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { type FileRecord, packPath } from './manifest.js';
import { type BuildState, packStampOf } from './state.js';

/** Exactly `length` bytes from the start of `path`. */
function readWhole(path: string, length: number): Buffer {
  const fd = fs.openRead(path);
  try {
    return fs.readAt(fd, length, 0);
  } finally {
    fs.closeFile(fd);
  }
}

/**
 * The packs of a cache found intact (by a rebuild about to reuse them, or by status), by name, with their
 * stamps. A pack is intact when its stamp is the one the build state recorded (it was not
 * written since it was last known whole) or, failing that, when its bytes hash to its name.
 * So a rebuild reads no pack it need not, yet never reuses a damaged one.
 */
export class PackCheck {
  private readonly intact = new Map<string, string>();
  private readonly cache: string;
  private readonly recorded: ReadonlyMap<string, string>;
  /** Packs hashed whole (their stamps were not the recorded ones). */
  hashed = 0;

  constructor(cache: string, state: BuildState | null) {
    this.cache = cache;
    const recorded = new Map<string, string>();
    for (const p of state?.header.packs ?? []) if (p.stamp !== undefined) recorded.set(p.sha256, p.stamp);
    this.recorded = recorded;
  }

  /** The pack's current stamp when it is intact, else null. */
  stampIfIntact(record: FileRecord): string | null {
    const known = this.intact.get(record.sha256);
    if (known !== undefined) return known;
    const name = packPath(record.sha256);
    let stamp: string;
    try {
      const st = fs.statBigOrNull(join(this.cache, name));
      if (st === null || !st.isFile() || st.size !== BigInt(record.bytes)) return null;
      stamp = packStampOf(st); // taken before the bytes: a write after it changes the stamp
      if (this.recorded.get(record.sha256) !== stamp) {
        this.hashed++;
        if (sha256Hex(readWhole(join(this.cache, name), record.bytes)) !== record.sha256) return null;
      }
    } catch {
      return null;
    }
    this.intact.set(record.sha256, stamp);
    return stamp;
  }
}
