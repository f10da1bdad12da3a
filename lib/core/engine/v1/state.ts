// The build state of a v1 cache: for each source file, the stat stamp it had when the build
// read it (size, modification and change times in nanoseconds, inode, device). A later
// `build --force` trusts a file whose stamp is unchanged without reading it again, which
// is what makes a rebuild of an unchanged tree cheap; any difference means the file is
// read and matched by content hash. Like git's index, a stamp taken within RACY_NS of the
// state file's own write is not trusted (a file changed in the same clock tick as it was
// read would look unchanged). The state is a hint, never part of the cache's identity:
// it is not hashed, `verify` ignores its contents, and a missing or stale state only
// makes the next build read more.

import { jsonString, parseJson } from '../../../json.js';
import type { BigIntStats } from '../../fs.js';

export const STATE_FILE = 'build-state.json';
const RACY_NS = 2_000_000_000n;

export function stampOf(st: BigIntStats): string {
  return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;
}

/** Compact JSON {"cache_version":…,"sources":[[path, stamp],…]}, assembled flat (10,000+ entries). */
export function stateText(cacheVersion: string, stamps: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (const [path, stamp] of stamps) parts.push(`[${jsonString(path)},${jsonString(stamp)}]`);
  return `{"cache_version":${jsonString(cacheVersion)},"sources":[${parts.join(',')}]}`;
}

/**
 * The trusted stamps of a state file written for `cacheVersion` (its own mtime in ns is
 * `writtenNs`), or an empty map when it belongs to another cache or does not parse.
 */
export function readState(text: string, cacheVersion: string, writtenNs: bigint): Map<string, string> {
  const trusted = new Map<string, string>();
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return trusted;
  }
  if (typeof value !== 'object' || value === null || (value as Record<string, unknown>)['cache_version'] !== cacheVersion) return trusted;
  const sources = (value as Record<string, unknown>)['sources'];
  if (!Array.isArray(sources)) return trusted;
  for (const entry of sources as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') continue;
    const parts = entry[1].split(':');
    if (parts.length !== 5 || !parts.every((p) => /^[0-9]+$/.test(p))) continue;
    const mtime = BigInt(parts[1] as string);
    const ctime = BigInt(parts[2] as string);
    if (mtime + RACY_NS >= writtenNs || ctime + RACY_NS >= writtenNs) continue; // racy: re-read
    trusted.set(entry[0], entry[1]);
  }
  return trusted;
}
