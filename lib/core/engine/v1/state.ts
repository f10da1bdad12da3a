// The build state of a v1 cache: for each source file, the stat stamp it had when the build
// read it (size, modification and change times in nanoseconds, inode, device). A later
// `build --force` trusts a file whose stamp is unchanged without reading it again, which
// is what makes a rebuild of an unchanged tree cheap; any difference means the file is
// read and matched by content hash. Like git's index, a stamp taken within RACY_NS of the
// state file's own write is not trusted (a file changed in the same clock tick as it was
// read would look unchanged). It also records what a rebuild that changes nothing needs to
// know without parsing the manifest (StateHeader), ahead of the stamps.
// The state is a hint, never part of the cache's identity:
// it is not hashed, `verify` ignores its contents, and a missing or stale state only
// makes the next build read more.

import { compactPlain, compareBytes, jsonString } from '../../../json.js';
import type { BigIntStats } from '../../fs.js';
import { isCount, isFileRecord } from './manifest.js';

export const STATE_FILE = 'build-state.json';
const RACY_NS = 2_000_000_000n;

export function stampOf(st: BigIntStats): string {
  return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;
}

/**
 * What the state says about the cache it was written with. A rebuild whose every source
 * has a trusted, unchanged stamp needs nothing else: when manifest.json still hashes to
 * `manifestSha256`, the state was written with exactly that manifest, so its paths are the
 * cache's documents, in order; the packs are still checked against their records.
 */
export interface StateHeader {
  /** sha256 of the canonical build_config. */
  readonly configSha256: string;
  readonly cacheVersion: string;
  readonly manifestSha256: string;
  readonly sourceRoot: string | null;
  /** The manifest's label (written only when there is one; a state without it says null). */
  readonly label: string | null;
  readonly unitCount: number;
  /** Total bytes of the documents. */
  readonly bytes: number;
  readonly packs: readonly { readonly bytes: number; readonly sha256: string }[];
  /** The term files (./segments.ts). */
  readonly terms: readonly { readonly bytes: number; readonly sha256: string }[];
}

/**
 * Compact JSON: the header's fields, then last "sources": [[path, stamp], …] in path order,
 * exactly sourcesLine() of the stamps. A rebuild that changes nothing parses the header
 * alone and compares its sources line with the recorded one as a string (./build.ts), not
 * 10,000 parsed entries.
 */
export function stateText(header: StateHeader, paths: readonly string[], stamps: readonly string[]): string {
  const record = (r: { readonly bytes: number; readonly sha256: string }): string => `{"bytes":${r.bytes},"sha256":${jsonString(r.sha256)}}`;
  return (
    `{"config_sha256":${jsonString(header.configSha256)},"cache_version":${jsonString(header.cacheVersion)},` +
    `"manifest_sha256":${jsonString(header.manifestSha256)},"source_root":${header.sourceRoot === null ? 'null' : jsonString(header.sourceRoot)},` +
    (header.label === null ? '' : `"label":${jsonString(header.label)},`) +
    `"unit_count":${header.unitCount},"bytes":${header.bytes},"packs":[${header.packs.map(record).join(',')}],"terms":[${header.terms.map(record).join(',')}]` +
    `${SOURCES_KEY}${sourcesLine(paths, stamps)}}`
  );
}

// Where the header ends: `,"` never occurs inside a JSON string (a quote in one is escaped),
// so the first occurrence is the key itself.
const SOURCES_KEY = ',"sources":';

/** The state's "sources" value: [[path, stamp], …], `paths[i]` stamped `stamps[i]`, in that order. */
export function sourcesLine(paths: readonly string[], stamps: readonly string[]): string {
  return compactPlain(paths.map((p, i) => [p, stamps[i] as string]));
}

/** The stamps a state records, in its (path) order. */
export interface StateStamps {
  readonly paths: string[];
  readonly stamps: string[];
}

export interface BuildState {
  readonly header: StateHeader;
  /** The "sources" value as written: sourcesLine() of the recorded stamps. */
  readonly sources: string;
  /** The state file's own modification time, in ns. */
  readonly writtenNs: bigint;
}

/**
 * Whether stamps whose newest modification or change time is `newestNs` are all trusted
 * by a state written at `writtenNs` (git's racy rule, as trustedTimes applies it per file).
 */
export function trustedAt(newestNs: bigint, writtenNs: bigint): boolean {
  return trustedTimes(newestNs, newestNs, writtenNs);
}

/**
 * Whether a file modified at `mtimeNs` and changed at `ctimeNs` is old enough for a state
 * written at `writtenNs` to trust its stamp: both times before writtenNs - RACY_NS (and
 * that bound after the epoch). Checked on the file's current stat, whose stamp must then
 * equal the recorded one, so the recorded times are these.
 */
export function trustedTimes(mtimeNs: bigint, ctimeNs: bigint, writtenNs: bigint): boolean {
  const limit = writtenNs - RACY_NS;
  return limit > 0n && mtimeNs < limit && ctimeNs < limit;
}

/** The state file's header, its sources unparsed (its own mtime in ns is `writtenNs`); null when it does not parse as one. */
export function readState(text: string, writtenNs: bigint): BuildState | null {
  const at = text.indexOf(SOURCES_KEY);
  if (at < 0 || !text.endsWith('}')) return null;
  let value: unknown;
  try {
    value = JSON.parse(`${text.slice(0, at)}}`); // a hint, never output: the plain parser is enough, and fast
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const packs = v['packs'];
  const terms = v['terms'];
  const sourceRoot = v['source_root'];
  const label = v['label'] ?? null;
  if (
    (label !== null && typeof label !== 'string') ||
    typeof v['config_sha256'] !== 'string' || typeof v['cache_version'] !== 'string' || typeof v['manifest_sha256'] !== 'string' ||
    (sourceRoot !== null && typeof sourceRoot !== 'string') || !isCount(v['unit_count']) || !isCount(v['bytes']) ||
    !Array.isArray(packs) || !packs.every(isFileRecord) || !Array.isArray(terms) || !terms.every(isFileRecord)
  ) {
    return null;
  }
  const header: StateHeader = {
    configSha256: v['config_sha256'],
    cacheVersion: v['cache_version'],
    manifestSha256: v['manifest_sha256'],
    sourceRoot,
    label,
    unitCount: v['unit_count'],
    bytes: v['bytes'],
    packs,
    terms,
  };
  return { header, sources: text.slice(at + SOURCES_KEY.length, -1), writtenNs };
}

/**
 * The stamps of a state's sources line, or null when it does not parse as one (entries
 * [path, stamp] of strings, paths strictly ascending in UTF-8 byte order, as stateText
 * writes them). A recorded stamp is only ever compared with a fresh stampOf() for
 * equality, so an ill-formed one simply matches nothing.
 */
export function stateStamps(state: BuildState): StateStamps | null {
  let sources: unknown;
  try {
    sources = JSON.parse(state.sources);
  } catch {
    return null;
  }
  if (!Array.isArray(sources)) return null;
  const paths: string[] = [];
  const stamps: string[] = [];
  let prev: string | null = null;
  for (const entry of sources as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') return null;
    const path = entry[0];
    if (prev !== null && compareBytes(prev, path) >= 0) return null;
    prev = path;
    paths.push(path);
    stamps.push(entry[1]);
  }
  return { paths, stamps };
}
