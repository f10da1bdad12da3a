// `context build --engine v1`: sources -> cache format 2. Every source is read, checked and
// analyzed before anything is written; the cache is then written into a temporary sibling
// and swapped into place (../../cache/staging.ts), so a failed build leaves nothing behind
// and an old cache stays whole until the new one is. Files that cannot be documents (not
// UTF-8, not regular files...) are skipped and reported, so one odd file never stops a
// real tree from building.

import { join, relative, sep } from 'node:path';
import { compareBytes } from '../../../json.js';
import { ContextError } from '../../../errors.js';
import { checkCacheTarget, writeCacheAtomically } from '../../cache/staging.js';
import type { ProgressListener } from '../../cache/progress.js';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { DEFAULT_EXTENSIONS, listSources, type SkippedSource } from '../../sources/walk.js';
import { analyzeCorpus } from './analyze-corpus.js';
import { assemble } from './assemble.js';
import type { BatchResult } from './batch.js';
import { buildConfig, type V1Options } from './config.js';
import { computeCacheVersion, INDEX_FILE, MANIFEST_FILE, manifestText, PACK_FILE, type PackedDocument } from './manifest.js';

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
}

/** The sources root as seen from the cache directory, `/`-separated (null if none exists). */
function sourceRootFrom(cache: string, sources: string): string | null {
  const rel = relative(cache, sources);
  if (rel === '' || /^[a-zA-Z]:/.test(rel) || rel.startsWith(sep)) return rel === '' ? '.' : null;
  return rel.split(sep).join('/');
}

export async function buildCacheV1(o: V1BuildOptions): Promise<V1BuildSummary> {
  const sourceStat = fs.statOrNull(o.sources);
  if (sourceStat === null || !sourceStat.isDirectory()) {
    throw new ContextError('io_error', 'sources directory does not exist or is not a directory');
  }
  checkCacheTarget(o.cache, o.force);
  const report = o.onProgress ?? (() => undefined);
  report({ phase: 'scan', files: 0, filesTotal: 0, bytes: 0 });
  const listing = listSources(o.sources, {
    extensions: DEFAULT_EXTENSIONS,
    include: o.options.include,
    exclude: o.options.exclude,
    gitignore: true,
  });
  const files = listing.files;
  report({ phase: 'read', files: 0, filesTotal: files.length, bytes: 0 });
  const batches = await analyzeCorpus(
    {
      granularity: o.options.granularity,
      tokenizer: o.options.tokenizer,
      items: files.map((path) => ({ path, file: join(o.sources, path), offset: 0, length: -1 })),
      keepContents: true,
    },
    o.threads ?? 1,
  );
  const corpus = assemble(batches);
  const skipped = [...listing.skipped, ...corpus.skipped].sort((a, b) => compareBytes(a.path, b.path));
  const bytesRead = corpus.documents.reduce((n, d) => n + d.bytes, 0);
  report({ phase: 'index', files: files.length, filesTotal: files.length, bytes: bytesRead });

  // documents.pack: each distinct content once, in path order of first use.
  const placed = new Map<string, { offset: number; bytes: number }>();
  const chunks: Uint8Array[] = [];
  let packSize = 0;
  const packed: PackedDocument[] = corpus.documents.map((d) => {
    let at = placed.get(d.version);
    if (at === undefined) {
      at = { offset: packSize, bytes: d.bytes };
      placed.set(d.version, at);
      const contents = (batches[d.batch] as BatchResult).contents as Uint8Array;
      chunks.push(contents.subarray(d.contentOffset, d.contentOffset + d.bytes));
      packSize += d.bytes;
    }
    return { path: d.path, version: d.version, offset: at.offset, bytes: at.bytes };
  });
  const pack = Buffer.concat(chunks, packSize);
  const index = corpus.index;
  const config = buildConfig(o.options);
  const cacheVersion = computeCacheVersion(config, packed);
  const manifest = manifestText({
    cacheVersion,
    buildConfig: config,
    createdAt: o.createdAt,
    sourceRoot: sourceRootFrom(o.cache, o.sources),
    documents: packed,
    pack: { bytes: pack.length, sha256: sha256Hex(pack) },
    index: { bytes: index.length, sha256: sha256Hex(index) },
  });
  report({ phase: 'write', files: files.length, filesTotal: files.length, bytes: bytesRead });
  writeCacheAtomically(o.cache, (temp) => {
    fs.writeFile(join(temp, PACK_FILE), pack);
    fs.writeFile(join(temp, INDEX_FILE), index);
    fs.writeFile(join(temp, MANIFEST_FILE), manifest);
  });
  report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: bytesRead });
  return { cacheVersion, documentCount: packed.length, unitCount: corpus.unitCount, skipped };
}
