// `context status` / `context.status`: is a cache current with its sources? Every source is
// read and hashed (content, never mtime: a `touch` changes nothing, an edit with its mtime
// restored is still found) and compared with the cache's documents by identity: added
// (in the sources only), changed (same identity, another version), removed (in the cache
// only). A rename is one removed and one added. The sources are walked by the rules the
// cache was built with: a v1 cache records them (and where its sources are); a v0 cache
// records neither, so its sources must be given and are walked by v0's rules (*.md, ids
// lowercased).

import { join } from 'node:path';
import { compact, compareBytes, parseJson, type Json } from '../../json.js';
import { ContextError, osFailure } from '../../errors.js';
import * as fs from '../fs.js';
import { versionOf } from '../hash.js';
import { readManifest, termPath } from '../engine/v1/manifest.js';
import { isV1Manifest } from '../engine/v1/manifest.js';
import { readPackHeads } from '../engine/v1/load.js';
import { PackCheck } from '../engine/v1/pack-check.js';
import { readState, STATE_FILE, type BuildState } from '../engine/v1/state.js';
import { DEFAULT_EXTENSIONS, listSources, requireSourcesDir, type SkippedSource } from '../sources/walk.js';
import { documentId, findSources } from '../engine/v0/build.js';
import { examineStructure, throwFirst } from '../engine/v0/check.js';
import { requireCacheDir } from '../store/locate.js';
import { MANIFEST_FILE } from '../engine/v0/format.js';

export interface StatusReport {
  readonly cacheVersion: string;
  readonly engine: 'v0' | 'v1';
  /** The sources as the caller named them, or as the cache records them. */
  readonly sources: string | null;
  /** Null when it cannot be told (a v0 cache, no sources given: see `note`). */
  readonly current: boolean | null;
  readonly note: string | null;
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
  readonly skipped: readonly SkippedSource[];
}

export interface StatusOptions {
  /** The sources directory to compare with (absolute); null: the one the cache records. */
  readonly sources: string | null;
  /** How to name the sources in the report (the caller's spelling). */
  readonly sourcesLabel: string | null;
  /** Refuses a sources directory the caller may not read (the MCP server's roots). */
  readonly allowSources?: (dir: string) => void;
}

function readManifestText(cacheDir: string): string {
  try {
    return fs.readText(join(cacheDir, MANIFEST_FILE));
  } catch (err) {
    throw osFailure(err, { op: 'read', role: 'cache', subject: cacheDir }, 'cache_invalid');
  }
}

function hashOf(sources: string, path: string): { version: string; utf8: boolean } {
  let bytes: Buffer;
  try {
    bytes = fs.readFile(join(sources, path));
  } catch (err) {
    throw osFailure(err, { op: 'read', role: 'sources', subject: sources });
  }
  return { version: versionOf(bytes), utf8: fs.isUtf8(bytes) };
}

function compare(
  cached: ReadonlyMap<string, string>,
  found: ReadonlyMap<string, string>,
): { added: string[]; changed: string[]; removed: string[]; unchanged: number } {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  let unchanged = 0;
  for (const [id, version] of found) {
    const before = cached.get(id);
    if (before === undefined) added.push(id);
    else if (before !== version) changed.push(id);
    else unchanged++;
  }
  for (const id of cached.keys()) if (!found.has(id)) removed.push(id);
  for (const list of [added, changed, removed]) list.sort(compareBytes);
  return { added, changed, removed, unchanged };
}

export function cacheStatus(cacheDir: string, options: StatusOptions): StatusReport {
  requireCacheDir(cacheDir);
  const text = readManifestText(cacheDir);
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    throw new ContextError('cache_invalid', 'manifest.json is not JSON');
  }
  if (isV1Manifest(parsed)) {
    const manifest = readManifest(text);
    if (Array.isArray(manifest)) throw new ContextError('cache_invalid', `manifest: ${manifest[0] ?? 'unusable'}`);
    let sources = options.sources;
    let label = options.sourcesLabel;
    if (sources === null) {
      if (manifest.sourceRoot === null) return unknown(manifest.cacheVersion, 'v1', 'the cache records no sources directory: give one to compare with');
      sources = join(cacheDir, manifest.sourceRoot);
      label = manifest.sourceRoot;
    }
    options.allowSources?.(sources);
    requireSourcesDir(sources);
    const { include, exclude, extensions } = manifest.config.options;
    const listing = listSources(sources, { extensions: extensions ?? DEFAULT_EXTENSIONS, include, exclude, gitignore: true });
    const found = new Map<string, string>();
    const skipped: SkippedSource[] = [...listing.skipped];
    for (const path of listing.files) {
      const h = hashOf(sources, path);
      if (!h.utf8) skipped.push({ path, reason: 'content is not UTF-8' });
      else found.set(path, h.version);
    }
    skipped.sort((a, b) => compareBytes(a.path, b.path));
    const { documents } = readPackHeads(cacheDir, manifest);
    const diff = compare(new Map(documents.map((d) => [d.path, d.version])), found);
    // A damaged pack or term file (not what the manifest records) makes the cache not
    // current, whatever its sources: a rebuild with --force writes it anew.
    const check = new PackCheck(cacheDir, stateOf(cacheDir));
    const damaged = manifest.packs.filter((p) => !check.isIntact(p)).length + manifest.terms.filter((f) => !check.isIntact(f, termPath(f.sha256))).length;
    return {
      cacheVersion: manifest.cacheVersion,
      engine: 'v1',
      sources: label,
      current: damaged === 0 && diff.added.length + diff.changed.length + diff.removed.length === 0,
      note: damaged === 0 ? null : `${damaged === 1 ? 'a pack is' : `${damaged} packs are`} damaged (not the bytes the manifest records): rebuild the cache with --force`,
      ...diff,
      skipped,
    };
  }
  // v0: the manifest is checked as resolve checks it; its sources must be named.
  const structure = examineStructure(cacheDir, throwFirst) as NonNullable<ReturnType<typeof examineStructure>>;
  if (options.sources === null) {
    return unknown(structure.cacheVersion, 'v0', 'a v0 cache does not record its sources: give sources to compare with');
  }
  options.allowSources?.(options.sources);
  requireSourcesDir(options.sources);
  const found = new Map<string, string>();
  const skipped: SkippedSource[] = [];
  for (const rel of findSources(options.sources)) {
    const h = hashOf(options.sources, rel);
    // v0's build refuses such a file; status names it instead of failing.
    if (!h.utf8) skipped.push({ path: rel, reason: 'content is not UTF-8' });
    else found.set(documentId(rel), h.version);
  }
  const diff = compare(new Map(structure.entries.map((e) => [e.id, e.version])), found);
  return {
    cacheVersion: structure.cacheVersion,
    engine: 'v0',
    sources: options.sourcesLabel,
    current: diff.added.length + diff.changed.length + diff.removed.length === 0 && skipped.length === 0,
    note: null,
    ...diff,
    skipped,
  };
}

/** The cache's build state (a hint: its recorded pack stamps spare status hashing packs), or null. */
function stateOf(cacheDir: string): BuildState | null {
  try {
    const path = join(cacheDir, STATE_FILE);
    const st = fs.statBigOrNull(path);
    return st === null ? null : readState(fs.readText(path), st.mtimeNs);
  } catch {
    return null;
  }
}

function unknown(cacheVersion: string, engine: 'v0' | 'v1', note: string): StatusReport {
  return { cacheVersion, engine, sources: null, current: null, note, added: [], changed: [], removed: [], unchanged: 0, skipped: [] };
}

export function statusJson(r: StatusReport): Json {
  return {
    cache_version: r.cacheVersion,
    engine: r.engine,
    sources: r.sources,
    current: r.current,
    note: r.note,
    added: r.added,
    changed: r.changed,
    removed: r.removed,
    unchanged: r.unchanged,
    skipped: r.skipped.map((s) => ({ path: s.path, reason: s.reason })),
  };
}

/** The status text: compact JSON + "\n" (CLI stdout and MCP text alike). */
export function statusText(cacheDir: string, options: StatusOptions): string {
  return compact(statusJson(cacheStatus(cacheDir, options))) + '\n';
}
