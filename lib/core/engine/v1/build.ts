// `context build --engine v1`: sources -> cache format 2. Every source is read, checked and
// analyzed before anything is written; the cache is then written into a temporary sibling
// and swapped into place (../../cache/staging.ts), so a failed build leaves nothing behind
// and an old cache stays whole until the new one is. Files that cannot be documents (not
// UTF-8, not regular files...) are skipped and reported, so one odd file never stops a
// real tree from building.
//
// Incremental: `--force` over a v1 cache built with the same build_config reuses what the
// old cache already holds. A file whose stat stamp is unchanged (./state.ts) is not read
// again; a file whose bytes still hash to its old version is not analyzed again; only new
// and changed files are. The result is byte for byte the cache a full build writes (the
// index is assembled from units, whatever their origin; packs are cut by the same rule,
// ./packs.ts, and a pack holding exactly the same contents as one of the old cache is
// linked, not written). When nothing changed at all, the cache is left untouched (its
// created_at included) and only the build state is refreshed, if it needs to be.

import { join, relative, sep } from 'node:path';
import { canonical, compareBytes } from '../../../json.js';
import { ContextError, fromOsError } from '../../../errors.js';
import { checkCacheTarget, writeCacheAtomically } from '../../cache/staging.js';
import type { ProgressListener } from '../../cache/progress.js';
import * as fs from '../../fs.js';
import { sha256Hex, versionOf } from '../../hash.js';
import { DEFAULT_EXTENSIONS, listSources, type SkippedSource } from '../../sources/walk.js';
import type { DocumentOrigin, Reuse } from './assemble.js';
import type { BatchItem, BatchResult } from './batch.js';
import { buildConfig, type V1Options } from './config.js';
import {
  computeCacheVersion,
  type FileRecord,
  INDEX_FILE,
  MANIFEST_FILE,
  manifestText,
  packPath,
  PACKS_DIR,
  readManifest,
  readOwnManifest,
  type PackedDocument,
  type V1Manifest,
} from './manifest.js';
import { packKeys, planPacks } from './packs.js';
import type { PreviousIndex } from './previous.js';
import { type BuildState, readState, sourcesLine, STATE_FILE, type StateHeader, stampOf, stateStamps, stateText, trustedAt } from './state.js';

export interface V1BuildOptions {
  readonly sources: string;
  readonly cache: string;
  readonly force: boolean;
  /** The manifest's informational `created_at` (the caller owns the clock). */
  readonly createdAt: string;
  readonly options: V1Options;
  readonly onProgress?: ProgressListener;
  /** Threads to analyze on (1 = this thread only). */
  readonly threads?: number;
}

export interface V1BuildSummary {
  readonly cacheVersion: string;
  readonly documentCount: number;
  readonly unitCount: number;
  readonly skipped: readonly SkippedSource[];
  /** What an incremental build did: documents reused, analyzed anew, and whether it wrote. */
  readonly reused: number;
  readonly analyzed: number;
  readonly unchanged: boolean;
}

/** The sources root as seen from the cache directory, `/`-separated (null if none exists). */
export function sourceRootFrom(cache: string, sources: string): string | null {
  const rel = relative(cache, sources);
  if (rel === '' || /^[a-zA-Z]:/.test(rel) || rel.startsWith(sep)) return rel === '' ? '.' : null;
  return rel.split(sep).join('/');
}

/** The cache being replaced, when it can be reused: format 2 with the same build_config. */
interface OldCache {
  readonly manifest: V1Manifest;
  readonly previous: PreviousIndex;
  readonly oldDocOf: Map<string, number>;
  readonly trustedStamps: Map<string, string>;
  /** The stamps its build state records, when that was written for this very manifest. */
  readonly recordedStamps: ReadonlyMap<string, string> | null;
  readonly sourceRoot: string | null;
  readonly manifestSha256: string;
}

/** The cache's build state (./state.ts), or null. */
function readStateOf(cache: string): BuildState | null {
  try {
    const statePath = join(cache, STATE_FILE);
    const st = fs.statBigOrNull(statePath);
    return st === null ? null : readState(fs.readText(statePath), st.mtimeNs);
  } catch {
    return null;
  }
}

/**
 * Whether the cache is the one `state` was written with and still whole: its manifest hashes
 * to the recorded sha256, index.bin to its record, every pack has its recorded size.
 */
function stateVouches(cache: string, state: BuildState, configSha256: string, sourceRoot: string | null): boolean {
  const h = state.header;
  if (h.configSha256 !== configSha256 || h.sourceRoot !== sourceRoot) return false;
  try {
    return sha256Hex(fs.readFile(join(cache, MANIFEST_FILE))) === h.manifestSha256 && indexAndPacksMatch(cache, h.index, h.packs) !== null;
  } catch {
    return false;
  }
}

/**
 * index.bin's bytes when it has the recorded size and sha256 and every pack is a regular
 * file of its recorded size; null otherwise (packs are checked by size: their contents are
 * hashed when read). Throws only what the file system throws.
 */
function indexAndPacksMatch(cache: string, index: FileRecord, packs: readonly FileRecord[]): Buffer | null {
  const bytes = fs.readFile(join(cache, INDEX_FILE));
  if (bytes.length !== index.bytes || sha256Hex(bytes) !== index.sha256) return null;
  for (const p of packs) {
    const st = fs.statOrNull(join(cache, packPath(p.sha256)));
    if (st === null || !st.isFile() || st.size !== p.bytes) return null;
  }
  return bytes;
}

async function openOldCache(cache: string, configKey: string, state: BuildState | null): Promise<OldCache | null> {
  try {
    // The index modules load only here: a rebuild that changes nothing never opens the old index.
    const [{ IndexReader }, { PreviousIndex }] = await Promise.all([import('../../index/index-format.js'), import('./previous.js')]);
    const manifestBytes = fs.readFile(join(cache, MANIFEST_FILE));
    const manifestSha256 = sha256Hex(manifestBytes);
    // A manifest byte-identical to the one the build state was written with was checked,
    // and had its cache_version computed, by that build: redoing either proves nothing new.
    const vouched = state !== null && state.header.manifestSha256 === manifestSha256;
    const manifest = (vouched ? readOwnManifest : readManifest)(manifestBytes.toString('utf8'));
    if (Array.isArray(manifest) || canonical(manifest.buildConfig) !== configKey) return null;
    if (!(vouched && state.header.cacheVersion === manifest.cacheVersion) && computeCacheVersion(manifest.buildConfig, manifest.documents) !== manifest.cacheVersion) return null;
    const indexBytes = indexAndPacksMatch(cache, manifest.index, manifest.packs);
    if (indexBytes === null) return null;
    const index = new IndexReader(indexBytes);
    if (index.docCount !== manifest.documents.length) return null;
    const mine = state !== null && state.header.cacheVersion === manifest.cacheVersion ? state : null;
    const recorded = mine === null ? null : stateStamps(mine);
    return {
      manifest,
      previous: new PreviousIndex(index),
      oldDocOf: new Map(manifest.documents.map((d, i) => [d.path, i])),
      trustedStamps: recorded?.trusted ?? new Map<string, string>(),
      recordedStamps: recorded?.stamps ?? null,
      sourceRoot: manifest.sourceRoot,
      manifestSha256,
    };
  } catch {
    return null; // anything unusable: a full build, which is always correct
  }
}

export async function buildCacheV1(o: V1BuildOptions): Promise<V1BuildSummary> {
  const sourceStat = fs.statOrNull(o.sources);
  if (sourceStat === null || !sourceStat.isDirectory()) {
    throw new ContextError('io_error', 'sources directory does not exist or is not a directory');
  }
  checkCacheTarget(o.cache, o.force);
  const report = o.onProgress ?? (() => undefined);
  report({ phase: 'scan', files: 0, filesTotal: 0, bytes: 0 });
  const config = buildConfig(o.options);
  const configKey = canonical(config);
  const configSha256 = sha256Hex(configKey);
  const sourceRoot = sourceRootFrom(o.cache, o.sources);
  const state = o.force ? readStateOf(o.cache) : null;
  const listing = listSources(o.sources, {
    extensions: DEFAULT_EXTENSIONS,
    include: o.options.include,
    exclude: o.options.exclude,
    gitignore: true,
  });
  const files = listing.files;

  // Stamps first, before any read: a file changed after its stamp was taken is re-read
  // next time, never trusted with stale contents.
  const stamps = new Map<string, string>();
  const base = o.sources.endsWith(sep) ? o.sources : o.sources + sep; // one join, not 10,000
  const fileOf = (path: string): string => (sep === '/' ? base + path : join(o.sources, path));
  let newestNs = 0n;
  for (const path of files) {
    let st: fs.BigIntStats | null;
    try {
      st = fs.statBigOrNull(fileOf(path));
    } catch (err) {
      throw fromOsError(err, 'io_error');
    }
    if (st === null) throw new ContextError('io_error', `source file vanished during the build: ${path}`);
    stamps.set(path, stampOf(st));
    if (st.mtimeNs > newestNs) newestNs = st.mtimeNs;
    if (st.ctimeNs > newestNs) newestNs = st.ctimeNs;
  }
  // Nothing changed, by the build state's word (every file a document whose stamp equals
  // the recorded one, in order, and all of them trusted) and the cache still the one it was
  // written with: leave it, without even parsing its manifest or the recorded stamps.
  if (
    state !== null && trustedAt(newestNs, state.writtenNs) && state.sources === sourcesLine(stamps) &&
    stateVouches(o.cache, state, configSha256, sourceRoot)
  ) {
    report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: state.header.bytes });
    return {
      cacheVersion: state.header.cacheVersion,
      documentCount: files.length,
      unitCount: state.header.unitCount,
      skipped: [...listing.skipped].sort((a, b) => compareBytes(a.path, b.path)),
      reused: files.length,
      analyzed: 0,
      unchanged: true,
    };
  }

  const old = o.force ? await openOldCache(o.cache, configKey, state) : null;
  const trusted: Extract<DocumentOrigin, { kind: 'previous' }>[] = [];
  const items: BatchItem[] = [];
  for (const path of files) {
    const stamp = stamps.get(path) as string;
    const oldDoc = old?.oldDocOf.get(path);
    if (old !== null && oldDoc !== undefined && old.trustedStamps.get(path) === stamp) {
      const d = old.manifest.documents[oldDoc] as PackedDocument;
      trusted.push({ kind: 'previous', path, version: d.version, bytes: d.bytes, oldDoc });
      continue;
    }
    const previousVersion = oldDoc === undefined ? undefined : old?.manifest.documents[oldDoc]?.version;
    items.push({ path, file: fileOf(path), offset: 0, length: -1, ...(previousVersion === undefined ? {} : { previousVersion }) });
  }

  report({ phase: 'read', files: trusted.length, filesTotal: files.length, bytes: 0 });
  const batches = items.length === 0
    ? []
    : await (await import('./analyze-corpus.js')).analyzeCorpus({ granularity: o.options.granularity, tokenizer: o.options.tokenizer, items, keepContents: true }, o.threads ?? 1);
  // The document list (and so cache_version) is known before any index work: a rebuild
  // that changes nothing stops here.
  const listed = [
    ...trusted.map((t) => ({ path: t.path, version: t.version, bytes: t.bytes, reused: true })),
    ...batches.flatMap((b) => b.documents.filter((d) => d.skip === null).map((d) => ({ path: d.path, version: d.version, bytes: d.bytes, reused: d.unchanged }))),
  ].sort((a, b) => compareBytes(a.path, b.path));
  // The old cache_version was recomputed when it was opened: the same documents, the same version.
  const cacheVersion = old !== null && sameDocuments(listed, old.manifest.documents) ? old.manifest.cacheVersion : computeCacheVersion(config, listed);
  const skipped = [...listing.skipped, ...batches.flatMap((b) => b.documents.filter((d) => d.skip !== null).map((d) => ({ path: d.path, reason: d.skip as string })))];
  skipped.sort((a, b) => compareBytes(a.path, b.path));
  const bytesRead = listed.reduce((n, d) => n + d.bytes, 0);
  const reused = listed.filter((d) => d.reused).length;
  // Stamps of files that did not become documents are not kept: they are read every time.
  const documentStamps = new Map(listed.map((d) => [d.path, stamps.get(d.path) as string]));
  const summary = (unchanged: boolean, unitCount: number): V1BuildSummary => ({
    cacheVersion,
    documentCount: listed.length,
    unitCount,
    skipped,
    reused,
    analyzed: listed.length - reused,
    unchanged,
  });
  if (old !== null && old.manifest.cacheVersion === cacheVersion && old.sourceRoot === sourceRoot) {
    // Same configuration, same documents: the cache already is what a full build would
    // write (bar created_at). Leave it; refresh the stamps so the next build trusts them
    // (unless the state already holds exactly these, all trusted: the steady state).
    const recorded = old.recordedStamps;
    if (!(recorded !== null && recorded.size === documentStamps.size && sameStamps(documentStamps, old.trustedStamps))) {
      const m = old.manifest;
      writeStateQuietly(o.cache, { configSha256, cacheVersion, manifestSha256: old.manifestSha256, sourceRoot, unitCount: old.previous.unitCount, bytes: bytesRead, index: m.index, packs: m.packs }, documentStamps);
    }
    report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: bytesRead });
    return summary(true, old.previous.unitCount);
  }

  report({ phase: 'index', files: files.length, filesTotal: files.length, bytes: bytesRead });
  const reuse: Reuse | null = old === null ? null : { previous: old.previous, oldDocOf: old.oldDocOf, trusted };
  // The analysis and index modules load only when there is something to analyze or
  // assemble: a rebuild that changes nothing never needs them (it starts faster).
  const { assemble } = await import('./assemble.js');
  const corpus = assemble(batches, reuse);

  // The packs (./packs.ts): each planned pack either holds exactly the contents of a pack of
  // the old cache (linked, never read) or is written from the batches' and the old packs'
  // bytes (a reused content re-hashed on the way: the old packs were checked by size only).
  const plan = planPacks(corpus.documents);
  const oldPacks = new Map<string, FileRecord>();
  if (old !== null) {
    packKeys(old.manifest.documents, old.manifest.packs).forEach((key, k) => {
      if (key !== null) oldPacks.set(key, old.manifest.packs[k] as FileRecord);
    });
  }
  // An old pack a rewritten pack takes contents from is read whole, once: a rewritten pack
  // holds nearly all of its old namesake's contents, and one read beats one per content.
  const oldPackBytes = new Map<number, Buffer>();
  const oldContent = (oldDoc: number): Uint8Array => {
    const from = (old as OldCache).manifest.documents[oldDoc] as PackedDocument;
    let pack = oldPackBytes.get(from.pack);
    if (pack === undefined) {
      const record = (old as OldCache).manifest.packs[from.pack] as FileRecord;
      const fd = fs.openRead(join(o.cache, packPath(record.sha256)));
      try {
        pack = fs.readAt(fd, record.bytes, 0);
      } finally {
        fs.closeFile(fd);
      }
      oldPackBytes.set(from.pack, pack);
    }
    const bytes = pack.subarray(from.offset, from.offset + from.bytes);
    if (bytes.length !== from.bytes || versionOf(bytes) !== from.version) throw new ContextError('cache_invalid', `the cache being replaced is damaged: ${from.path} does not hash to its version (delete the cache and build again)`);
    return bytes;
  };
  const packs: FileRecord[] = [];
  /** Each pack of the new cache: its bytes, or null for a pack linked from the old cache. */
  const packWrites: { readonly name: string; readonly bytes: Buffer | null }[] = [];
  try {
    for (const p of plan.packs) {
      const same = oldPacks.get(p.key);
      if (same !== undefined) {
        packs.push(same);
        packWrites.push({ name: packPath(same.sha256), bytes: null });
        continue;
      }
      const chunks = p.firstUse.map((i) => {
        const d = corpus.documents[i] as (typeof corpus.documents)[number];
        if (d.origin.kind === 'batch') {
          const contents = (batches[d.origin.batch] as BatchResult).contents as Uint8Array;
          return contents.subarray(d.contentOffset, d.contentOffset + d.bytes);
        }
        return oldContent(d.origin.oldDoc);
      });
      const bytes = Buffer.concat(chunks, p.bytes);
      const sha256 = sha256Hex(bytes);
      packs.push({ bytes: p.bytes, sha256 });
      packWrites.push({ name: packPath(sha256), bytes });
    }
  } catch (err) {
    throw err instanceof ContextError ? err : fromOsError(err, 'io_error');
  }
  const packed: PackedDocument[] = corpus.documents.map((d, i) => {
    const at = plan.placement[i] as { pack: number; offset: number };
    return { path: d.path, version: d.version, pack: at.pack, offset: at.offset, bytes: d.bytes };
  });
  const index = corpus.index;
  const indexRecord = { bytes: index.length, sha256: sha256Hex(index) };
  const manifest = manifestText({
    cacheVersion,
    buildConfig: config,
    createdAt: o.createdAt,
    sourceRoot,
    documents: packed,
    packs,
    index: indexRecord,
  });
  report({ phase: 'write', files: files.length, filesTotal: files.length, bytes: bytesRead });
  writeCacheAtomically(
    o.cache,
    (temp) => {
      fs.mkdir(join(temp, PACKS_DIR));
      for (const w of packWrites) {
        if (w.bytes === null) fs.linkOrCopy(join(o.cache, w.name), join(temp, w.name));
        else fs.createFile(join(temp, w.name), w.bytes);
      }
      fs.writeFile(join(temp, INDEX_FILE), index);
      fs.writeFile(join(temp, MANIFEST_FILE), manifest);
      fs.writeFile(join(temp, STATE_FILE), stateText({ configSha256, cacheVersion, manifestSha256: sha256Hex(manifest), sourceRoot, unitCount: corpus.unitCount, bytes: bytesRead, index: indexRecord, packs }, documentStamps));
    },
    o.force, // without --force, a cache another build put there meanwhile is not replaced
  );
  report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: bytesRead });
  return summary(false, corpus.unitCount);
}

/** Whether `listed` holds exactly the old manifest's documents (paths and versions, in order). */
function sameDocuments(listed: readonly { path: string; version: string }[], old: readonly PackedDocument[]): boolean {
  if (listed.length !== old.length) return false;
  for (let i = 0; i < listed.length; i++) {
    const a = listed[i] as { path: string; version: string };
    const b = old[i] as PackedDocument;
    if (a.path !== b.path || a.version !== b.version) return false;
  }
  return true;
}

function sameStamps(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, stamp] of a) if (b.get(path) !== stamp) return false;
  return true;
}

/** The build state is a hint: failing to refresh it costs the next build time, nothing else. */
function writeStateQuietly(cache: string, header: StateHeader, stamps: ReadonlyMap<string, string>): void {
  try {
    fs.replaceFile(join(cache, STATE_FILE), stateText(header, stamps));
  } catch {
    // e.g. a read-only cache directory: the cache itself is current and intact.
  }
}
