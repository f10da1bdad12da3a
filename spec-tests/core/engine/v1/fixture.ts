// Helpers shared by the engine v1 spec-tests: an in-process build with a fixed created_at,
// the manifest as parsed JSON with the documents its packs' heads list (each head parsed
// here, independently, as docs/cache-format.md describes it), the cache_version
// formula written out independently, and the units of a cache read back from its packs.

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

export interface FileRecordJson {
  bytes: number;
  sha256: string;
}

export interface PackRecordJson extends FileRecordJson {
  documents: number;
  units: number;
  head: FileRecordJson;
}

/** A term file as the manifest lists it (formats 18 and 19). */
export interface TermRecordJson extends FileRecordJson {
  packs: number;
  top: FileRecordJson;
}

/** manifest.json as written. */
export interface RawManifestJson {
  cache_version: string;
  build_config: Record<string, unknown>;
  created_at: string;
  source_root: string | null;
  document_count: number;
  files: { packs: PackRecordJson[]; terms: TermRecordJson[] };
}

/** A document as its pack's head lists it; `offset` here counts from the start of the pack file. */
export interface DocumentJson {
  path: string;
  version: string;
  pack: number;
  offset: number;
  bytes: number;
}

/** The manifest, with the documents its packs' heads list, in order. */
export interface ManifestJson extends RawManifestJson {
  documents: DocumentJson[];
}

/** docs/cache-format.md: a pack's cache-relative path is packs/<its sha256>.pack. */
export const packFile = (cache: string, m: RawManifestJson, pack: number): string => join(cache, 'packs', `${m.files.packs[pack]?.sha256 ?? '?'}.pack`);

/** The packs' total size of contents (each pack's bytes after its head). */
export const packBytes = (m: RawManifestJson): number => m.files.packs.reduce((n, p) => n + p.bytes - p.head.bytes, 0);

/**
 * docs/cache-format.md: a head is "CTXPACK3", a u32 (little-endian) length, that
 * many bytes of compact JSON [[path, version, offset, bytes], …] (offsets from the end of
 * the head), zero padding to a multiple of 4, then the pack's index up to the head's end.
 */
export function headOf(pack: Buffer, headBytes: number): { list: [string, string, number, number][]; index: Buffer; listAt: number; indexAt: number } {
  if (pack.subarray(0, 8).toString('latin1') !== 'CTXPACK3') throw new Error('fixture: not a pack');
  const n = pack.readUInt32LE(8);
  const list = JSON.parse(pack.subarray(12, 12 + n).toString('utf8')) as [string, string, number, number][];
  const indexAt = 12 + n + ((4 - (n % 4)) % 4);
  return { list, index: pack.subarray(indexAt, headBytes), listAt: 12, indexAt };
}

/** Every document of the cache, as the packs' heads list them. */
export function documentsOf(cache: string, m: RawManifestJson = rawManifestOf(cache)): DocumentJson[] {
  return m.files.packs.flatMap((p, k) => headOf(readFileSync(packFile(cache, m, k)), p.head.bytes).list.map(([path, version, offset, bytes]) => ({ path, version, pack: k, offset: p.head.bytes + offset, bytes })));
}

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

export const rawManifestOf = (cache: string): RawManifestJson => JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8')) as RawManifestJson;

/** The manifest, and the documents its packs list. */
export function manifestOf(cache: string): ManifestJson {
  const m = rawManifestOf(cache);
  return { ...m, documents: documentsOf(cache, m) };
}

/**
 * docs/engine.md: cache_version = "sha256:" + hex(sha256(compact JSON {"build_config": …,
 * "packs": [sha256 of each pack's head, …]})), the packs in the manifest's order.
 */
export function expectedCacheVersion(buildConfig: unknown, packs: readonly { head: FileRecordJson }[]): string {
  return versionOf(JSON.stringify({ build_config: buildConfig, packs: packs.map((p) => p.head.sha256) }));
}

export interface UnitRow {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly slug: string;
  readonly trail: readonly string[];
  readonly tokens: number;
}

/** Every unit of the cache at `cache`, as its packs' indexes record them, with its document's path. */
export function unitsOf(cache: string): UnitRow[] {
  const m = rawManifestOf(cache);
  const rows: UnitRow[] = [];
  m.files.packs.forEach((p, k) => {
    const head = headOf(readFileSync(packFile(cache, m, k)), p.head.bytes);
    const r = new IndexReader(head.index);
    for (let u = 0; u < r.unitCount; u++) {
      const { slug, trail } = r.unitStrings(u);
      rows.push({ path: head.list[r.unitDoc(u)]?.[0] ?? '?', start: r.unitStart(u), end: r.unitEnd(u), slug, trail, tokens: r.unitTokens(u) });
    }
  });
  return rows;
}

/** Bytes of document `path` from its pack, through the manifest's range. */
export function packedBytes(cache: string, path: string): Buffer {
  const m = manifestOf(cache);
  const d = m.documents.find((x) => x.path === path);
  if (d === undefined) throw new Error(`fixture: ${path} not in the manifest`);
  return readFileSync(packFile(cache, m, d.pack)).subarray(d.offset, d.offset + d.bytes);
}

/** One term's match in an answer's why.matches: the term, its frequency in each field that holds it, its share. */
export type Match = { term: string; score: number } & Record<string, unknown>;

/** A match's fields (every key but term and score), as printed. */
export function matchFields(m: Match): Record<string, number> {
  return Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'term' && k !== 'score')) as Record<string, number>;
}
