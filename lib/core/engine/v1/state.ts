// The build state of a v1 cache: for each source file, the stat stamp it had when the build
// read it (size, modification and change times in nanoseconds, inode, device). A later
// `build --force` trusts a file whose stamp is unchanged without reading it again, which
// is what makes a rebuild of an unchanged tree cheap; any difference means the file is
// read and matched by content hash. Like git's index, a stamp taken within RACY_NS of the
// state file's own write is not trusted (a file changed in the same clock tick as it was
// read would look unchanged). The state is a hint, never part of the cache's identity:
// it is not hashed, `verify` ignores its contents, and a missing or stale state only
// makes the next build read more.

import { jsonString } from '../../../json.js';
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

const STAMP = /^(?:0|[1-9][0-9]*)(?::(?:0|[1-9][0-9]*)){4}$/;

/** a < b for canonical decimal strings (no leading zeros), without BigInt per entry. */
function decimalLess(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

/**
 * The trusted stamps of a state file written for `cacheVersion` (its own mtime in ns is
 * `writtenNs`), and how many stamps it held; none when it belongs to another cache or does
 * not parse.
 */
export function readState(text: string, cacheVersion: string, writtenNs: bigint): { trusted: Map<string, string>; size: number } {
  const trusted = new Map<string, string>();
  const none = { trusted, size: 0 };
  let value: unknown;
  try {
    value = JSON.parse(text); // a hint, never output: the plain parser is enough, and fast
  } catch {
    return none;
  }
  if (typeof value !== 'object' || value === null || (value as Record<string, unknown>)['cache_version'] !== cacheVersion) return none;
  const sources = (value as Record<string, unknown>)['sources'];
  if (!Array.isArray(sources)) return none;
  // Trusted: modified and changed before writtenNs - RACY_NS (git's racy rule).
  const limit = writtenNs - RACY_NS;
  if (limit <= 0n) return { trusted, size: sources.length };
  const bound = limit.toString();
  for (const entry of sources as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') continue;
    const stamp = entry[1];
    if (!STAMP.test(stamp)) continue;
    const a = stamp.indexOf(':');
    const b = stamp.indexOf(':', a + 1);
    const c = stamp.indexOf(':', b + 1);
    if (!decimalLess(stamp.slice(a + 1, b), bound) || !decimalLess(stamp.slice(b + 1, c), bound)) continue; // racy: re-read
    trusted.set(entry[0], stamp);
  }
  return { trusted, size: sources.length };
}
