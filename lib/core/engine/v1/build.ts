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
// index is assembled from units, whatever their origin). When nothing changed at all, the
// cache is left untouched (its created_at included) and only the build state is refreshed.

import { join, relative, sep } from 'node:path';
import { canonical, compareBytes } from '../../../json.js';
import { ContextError, fromOsError } from '../../../errors.js';
import { checkCacheTarget, writeCacheAtomically } from '../../cache/staging.js';
import type { ProgressListener } from '../../cache/progress.js';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { IndexReader } from '../../index/index-format.js';
import { DEFAULT_EXTENSIONS, listSources, type SkippedSource } from '../../sources/walk.js';
import type { DocumentOrigin, Reuse } from './assemble.js';
import type { BatchItem, BatchResult } from './batch.js';
import { buildConfig, type V1Options } from './config.js';
import {
  computeCacheVersion,
  INDEX_FILE,
  MANIFEST_FILE,
  manifestText,
  PACK_FILE,
  readManifest,
  type PackedDocument,
  type V1Manifest,
} from './manifest.js';
import { PreviousIndex } from './previous.js';
import { readState, STATE_FILE, stampOf, stateText } from './state.js';

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
  readonly sourceRoot: string | null;
}

function openOldCache(cache: string, configKey: string): OldCache | null {
  try {
    const manifest = readManifest(fs.readText(join(cache, MANIFEST_FILE)));
    if (Array.isArray(manifest) || canonical(manifest.buildConfig) !== configKey) return null;
    if (computeCacheVersion(manifest.buildConfig, manifest.documents) !== manifest.cacheVersion) return null;
    const indexBytes = fs.readFile(join(cache, INDEX_FILE));
    if (indexBytes.length !== manifest.index.bytes || sha256Hex(indexBytes) !== manifest.index.sha256) return null;
    const index = new IndexReader(indexBytes);
    if (index.docCount !== manifest.documents.length) return null;
    const pack = fs.statOrNull(join(cache, PACK_FILE));
    if (pack === null || !pack.isFile() || pack.size !== manifest.pack.bytes) return null;
    const statePath = join(cache, STATE_FILE);
    const stateStat = fs.statBigOrNull(statePath);
    const trustedStamps = stateStat === null ? new Map<string, string>() : readState(fs.readText(statePath), manifest.cacheVersion, stateStat.mtimeNs);
    return {
      manifest,
      previous: new PreviousIndex(index),
      oldDocOf: new Map(manifest.documents.map((d, i) => [d.path, i])),
      trustedStamps,
      sourceRoot: manifest.sourceRoot,
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
  const old = o.force ? openOldCache(o.cache, canonical(config)) : null;
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
  const trusted: Extract<DocumentOrigin, { kind: 'previous' }>[] = [];
  const items: BatchItem[] = [];
  for (const path of files) {
    const file = join(o.sources, path);
    let st: fs.BigIntStats | null;
    try {
      st = fs.statBigOrNull(file);
    } catch (err) {
      throw fromOsError(err, 'io_error');
    }
    if (st === null) throw new ContextError('io_error', `source file vanished during the build: ${path}`);
    const stamp = stampOf(st);
    stamps.set(path, stamp);
    const oldDoc = old?.oldDocOf.get(path);
    if (old !== null && oldDoc !== undefined && old.trustedStamps.get(path) === stamp) {
      const d = old.manifest.documents[oldDoc] as PackedDocument;
      trusted.push({ kind: 'previous', path, version: d.version, bytes: d.bytes, oldDoc });
      continue;
    }
    const previousVersion = oldDoc === undefined ? undefined : old?.manifest.documents[oldDoc]?.version;
    items.push({ path, file, offset: 0, length: -1, ...(previousVersion === undefined ? {} : { previousVersion }) });
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
  const cacheVersion = computeCacheVersion(config, listed);
  const sourceRoot = sourceRootFrom(o.cache, o.sources);
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
    // write (bar created_at). Leave it; refresh the stamps so the next build trusts them.
    writeStateQuietly(o.cache, cacheVersion, documentStamps);
    report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: bytesRead });
    return summary(true, old.previous.unitCount);
  }

  report({ phase: 'index', files: files.length, filesTotal: files.length, bytes: bytesRead });
  const reuse: Reuse | null = old === null ? null : { previous: old.previous, oldDocOf: old.oldDocOf, trusted };
  // The analysis and index modules load only when there is something to analyze or
  // assemble: a rebuild that changes nothing never needs them (it starts faster).
  const { assemble } = await import('./assemble.js');
  const corpus = assemble(batches, reuse);

  // documents.pack: each distinct content once, in path order of first use.
  let oldPack: Buffer | null = null;
  const placed = new Map<string, { offset: number; bytes: number }>();
  const chunks: Uint8Array[] = [];
  let packSize = 0;
  const packed: PackedDocument[] = corpus.documents.map((d) => {
    let at = placed.get(d.version);
    if (at === undefined) {
      at = { offset: packSize, bytes: d.bytes };
      placed.set(d.version, at);
      if (d.origin.kind === 'batch') {
        const contents = (batches[d.origin.batch] as BatchResult).contents as Uint8Array;
        chunks.push(contents.subarray(d.contentOffset, d.contentOffset + d.bytes));
      } else {
        oldPack ??= readOldPack(o.cache);
        const from = (old as OldCache).manifest.documents[d.origin.oldDoc] as PackedDocument;
        chunks.push(oldPack.subarray(from.offset, from.offset + from.bytes));
      }
      packSize += d.bytes;
    }
    return { path: d.path, version: d.version, offset: at.offset, bytes: at.bytes };
  });
  const pack = Buffer.concat(chunks, packSize);
  const index = corpus.index;
  const manifest = manifestText({
    cacheVersion,
    buildConfig: config,
    createdAt: o.createdAt,
    sourceRoot,
    documents: packed,
    pack: { bytes: pack.length, sha256: sha256Hex(pack) },
    index: { bytes: index.length, sha256: sha256Hex(index) },
  });
  report({ phase: 'write', files: files.length, filesTotal: files.length, bytes: bytesRead });
  writeCacheAtomically(
    o.cache,
    (temp) => {
      fs.writeFile(join(temp, PACK_FILE), pack);
      fs.writeFile(join(temp, INDEX_FILE), index);
      fs.writeFile(join(temp, MANIFEST_FILE), manifest);
      fs.writeFile(join(temp, STATE_FILE), stateText(cacheVersion, documentStamps));
    },
    o.force, // without --force, a cache another build put there meanwhile is not replaced
  );
  report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: bytesRead });
  return summary(false, corpus.unitCount);
}

function readOldPack(cache: string): Buffer {
  try {
    return fs.readFile(join(cache, PACK_FILE));
  } catch (err) {
    throw fromOsError(err, 'io_error');
  }
}

/** The build state is a hint: failing to refresh it costs the next build time, nothing else. */
function writeStateQuietly(cache: string, cacheVersion: string, stamps: ReadonlyMap<string, string>): void {
  try {
    fs.replaceFile(join(cache, STATE_FILE), stateText(cacheVersion, stamps));
  } catch {
    // e.g. a read-only cache directory: the cache itself is current and intact.
  }
}
