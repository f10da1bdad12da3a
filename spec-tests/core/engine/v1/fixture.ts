// Helpers shared by the engine v1 spec-tests: an in-process build with a fixed created_at,
// the manifest as parsed JSON, the format-2 cache_version formula written out independently
// (docs/engine.md "Cache format 2"), and the units of a cache read back from index.bin.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCacheV1, type V1BuildSummary } from '../../../../lib/core/engine/v1/build.js';
import type { V1Options } from '../../../../lib/core/engine/v1/config.js';
import { IndexReader } from '../../../../lib/core/index/index-format.js';

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
export const versionOf = (data: string | Uint8Array): string => 'sha256:' + sha256(data);
export const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

export const CREATED_AT = '2026-01-02T03:04:05Z';
export const FILE_OPTIONS: V1Options = { granularity: 'file', tokenizer: 'bytes4', include: [], exclude: [] };
export const SECTION_OPTIONS: V1Options = { ...FILE_OPTIONS, granularity: 'section' };

export function buildV1(sources: string, cache: string, options: Partial<V1Options> = {}, force = false): Promise<V1BuildSummary> {
  return buildCacheV1({ sources, cache, force, createdAt: CREATED_AT, options: { ...FILE_OPTIONS, ...options }, threads: 1 });
}

export interface ManifestJson {
  cache_version: string;
  build_config: Record<string, unknown>;
  created_at: string;
  source_root: string | null;
  document_count: number;
  files: { 'index.bin': FileRecordJson; packs: FileRecordJson[] };
  documents: { path: string; version: string; pack: number; offset: number; bytes: number }[];
}

export interface FileRecordJson {
  bytes: number;
  sha256: string;
}

/** docs/engine.md "Cache format 2": a pack's cache-relative path is packs/<its sha256>.pack. */
export const packFile = (cache: string, m: ManifestJson, pack: number): string => join(cache, 'packs', `${m.files.packs[pack]?.sha256 ?? '?'}.pack`);

/** The packs' total size. */
export const packBytes = (m: ManifestJson): number => m.files.packs.reduce((n, p) => n + p.bytes, 0);

/** Every file of the cache but the build state (a hint), cache-relative, sorted: its content. */
export function contentFiles(cache: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(cache, rel), { withFileTypes: true })) {
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (p !== 'build-state.json') out.push(p);
    }
  };
  walk('');
  return out.sort(byBytes);
}

/** The cache's content files and their bytes (base64): equal exactly when the caches are. */
export const contentBytes = (cache: string): Record<string, string> =>
  Object.fromEntries(contentFiles(cache).map((f) => [f, readFileSync(join(cache, f)).toString('base64')]));

export const manifestOf = (cache: string): ManifestJson => JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8')) as ManifestJson;

/**
 * docs/engine.md: cache_version = "sha256:" + hex(sha256(compact JSON {"build_config": …,
 * "documents": [[path, version], …]})), documents sorted by path in UTF-8 byte order.
 */
export function expectedCacheVersion(buildConfig: unknown, docs: readonly { path: string; version: string }[]): string {
  const sorted = [...docs].sort((a, b) => byBytes(a.path, b.path)).map((d) => [d.path, d.version]);
  return versionOf(JSON.stringify({ build_config: buildConfig, documents: sorted }));
}

export interface UnitRow {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly slug: string;
  readonly trail: readonly string[];
  readonly tokens: number;
}

/** Every unit of the cache at `cache`, as index.bin records it, with its document's path. */
export function unitsOf(cache: string): UnitRow[] {
  const m = manifestOf(cache);
  const r = new IndexReader(readFileSync(join(cache, 'index.bin')));
  const rows: UnitRow[] = [];
  for (let u = 0; u < r.unitCount; u++) {
    const { slug, trail } = r.unitStrings(u);
    rows.push({ path: m.documents[r.unitDoc(u)]?.path ?? '?', start: r.unitStart(u), end: r.unitEnd(u), slug, trail, tokens: r.unitTokens(u) });
  }
  return rows;
}

/** Bytes of document `path` from its pack, through the manifest's range. */
export function packedBytes(cache: string, path: string): Buffer {
  const m = manifestOf(cache);
  const d = m.documents.find((x) => x.path === path);
  if (d === undefined) throw new Error(`fixture: ${path} not in the manifest`);
  return readFileSync(packFile(cache, m, d.pack)).subarray(d.offset, d.offset + d.bytes);
}
