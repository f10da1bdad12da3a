// Cache format 2 (engine v1): a manifest, one index file and the document contents in
// content-addressed pack files; no per-document files.
//
//   manifest.json   pretty JSON: cache_version, build_config, created_at, source_root,
//                   document_count, files (size and sha256 of index.bin and of each pack,
//                   in order), documents [{path, version, pack, offset, bytes}] sorted by
//                   path (UTF-8 byte order); `pack` numbers files.packs
//   packs/<sha256>.pack
//                   the document contents: every distinct content once, in order of first
//                   use, cut into packs at boundaries the paths decide (./packs.ts), each
//                   named by the sha256 of its bytes
//   index.bin       the index (../../index/index-format.ts)
//
// Why several packs: a rebuild after a few edits writes only the packs those edits touch
// and links the others from the cache it replaces (./build.ts), instead of copying and
// hashing every content byte again. A pack's name is its hash, so a reader that opens a
// pack late (after a rebuild swapped the cache) gets the same bytes or none.
//
// cache_version = "sha256:" + hex(sha256(compact JSON {"build_config": …, "documents":
// [[path, version], …]})): JSON keeps it unambiguous for any path. created_at and
// source_root are informational and not hashed, as created_at is in v0; how contents are
// cut into packs follows from the documents, so it needs no hashing either.

import { compact, compactPlain, compareBytes, parseJson, prettyPlain, type Json, type PlainJson } from '../../../json.js';
import { sha256Hex } from '../../hash.js';
import { parseBuildConfig, type V1Config } from './config.js';

export const MANIFEST_FILE = 'manifest.json';
export const INDEX_FILE = 'index.bin';
export const PACKS_DIR = 'packs';
export const CACHE_FILES: readonly string[] = [INDEX_FILE, MANIFEST_FILE, PACKS_DIR];
/** The cache-relative path of the pack whose bytes hash to `sha256` (hex). */
export const packPath = (sha256: string): string => `${PACKS_DIR}/${sha256}.pack`;
/** Not part of the cache's identity, but allowed in it: the build state (./state.ts). */
export const OPTIONAL_FILES: readonly string[] = ['build-state.json'];

const VERSION = /^sha256:[0-9a-f]{64}$/;
const HEX = /^[0-9a-f]{64}$/;

export interface PackedDocument {
  /** `/`-separated path from the sources root, as on disk. */
  readonly path: string;
  readonly version: string;
  /** Which pack (of files.packs) holds its content, and the byte range there. */
  readonly pack: number;
  readonly offset: number;
  readonly bytes: number;
}

export interface FileRecord {
  readonly bytes: number;
  readonly sha256: string;
}

export interface V1Manifest {
  readonly cacheVersion: string;
  readonly buildConfig: Json;
  readonly config: V1Config;
  readonly createdAt: string;
  readonly sourceRoot: string | null;
  readonly documents: readonly PackedDocument[];
  readonly packs: readonly FileRecord[];
  readonly index: FileRecord;
}

export function computeCacheVersion(buildConfig: Json, documents: readonly { path: string; version: string }[]): string {
  let sorted = documents;
  for (let i = 1; i < documents.length; i++) {
    if (compareBytes((documents[i - 1] as { path: string }).path, (documents[i] as { path: string }).path) > 0) {
      sorted = [...documents].sort((a, b) => compareBytes(a.path, b.path));
      break;
    }
  }
  // Exactly compact({build_config, documents: [[path, version], ...]}), the documents
  // written natively: a cache of 10,000 documents hashes this on every cold load.
  const pairs = compactPlain(sorted.map((d) => [d.path, d.version]));
  return 'sha256:' + sha256Hex(`{"build_config":${compact(buildConfig)},"documents":${pairs}}`);
}

export function manifestText(m: Omit<V1Manifest, 'config'>): string {
  // prettyPlain: pretty()'s bytes, natively (10,000 entries are rewritten on every rebuild);
  // a build_config holds strings, booleans, lists and finite numbers only.
  return prettyPlain({
    cache_version: m.cacheVersion,
    build_config: m.buildConfig as PlainJson,
    created_at: m.createdAt,
    source_root: m.sourceRoot,
    document_count: m.documents.length,
    files: {
      [INDEX_FILE]: { bytes: m.index.bytes, sha256: m.index.sha256 },
      [PACKS_DIR]: m.packs.map((p) => ({ bytes: p.bytes, sha256: p.sha256 })),
    },
    documents: m.documents.map((d) => ({ path: d.path, version: d.version, pack: d.pack, offset: d.offset, bytes: d.bytes })),
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Whether `r` is a {bytes, sha256} record (a count, 64 lowercase hex digits). */
export const isFileRecord = (r: unknown): r is FileRecord =>
  isObject(r) && isCount(r['bytes']) && typeof r['sha256'] === 'string' && HEX.test(r['sha256']);

function fileRecord(r: unknown, name: string, problems: string[]): FileRecord {
  if (!isFileRecord(r)) {
    problems.push(`files.${name} is not {bytes, sha256}`);
    return { bytes: 0, sha256: '' };
  }
  return { bytes: r['bytes'], sha256: r['sha256'] };
}

function packRecords(files: Record<string, unknown>, problems: string[]): FileRecord[] {
  const list = files[PACKS_DIR];
  if (!Array.isArray(list)) {
    // documents.pack was this format's single pack before packs/ (never released).
    problems.push(`files.${PACKS_DIR} is not a list${files['documents.pack'] !== undefined ? ' (a cache from before packs/: rebuild it with --force)' : ''}`);
    return [];
  }
  const names = new Set<string>();
  return list.map((r: unknown, k) => {
    const rec = fileRecord(r, `${PACKS_DIR}[${k}]`, problems);
    if (rec.sha256 !== '' && names.has(rec.sha256)) problems.push(`files.${PACKS_DIR}[${k}] is listed twice`);
    names.add(rec.sha256);
    return rec;
  });
}

/** Whether a parsed manifest declares format 2 (so the v1 engine, not v0, reads it). */
export function isFormat2(manifest: unknown): boolean {
  return isObject(manifest) && isObject(manifest['build_config']) && manifest['build_config']['version'] === '2';
}

/**
 * Checks a manifest's shape and consistency (not the files): returns it, or the list of
 * problems. Documents must be sorted by path, distinct, with ranges inside their packs, and
 * equal versions must share one range (each content is packed once).
 */
export function readManifest(text: string, parsed?: { readonly value: unknown }): V1Manifest | string[] {
  let m: unknown;
  if (parsed !== undefined) m = parsed.value; // already parsed from this text by the caller
  else {
    try {
      m = parseJson(text);
    } catch {
      return ['manifest.json is not JSON'];
    }
  }
  if (!isObject(m)) return ['manifest.json is not a JSON object'];
  const problems: string[] = [];
  const config = parseBuildConfig(m['build_config']);
  if (typeof config === 'string') problems.push(config);
  if (typeof m['cache_version'] !== 'string' || !VERSION.test(m['cache_version'])) problems.push('cache_version is not sha256:<hex>');
  if (typeof m['created_at'] !== 'string') problems.push('created_at is not a string');
  const root = m['source_root'];
  if (root !== null && typeof root !== 'string') problems.push('source_root is not a string or null');
  const files = isObject(m['files']) ? m['files'] : {};
  if (!isObject(m['files'])) problems.push('files is not an object');
  const packs = packRecords(files, problems);
  const index = fileRecord(files[INDEX_FILE], INDEX_FILE, problems);
  const docs = m['documents'];
  const documents: PackedDocument[] = [];
  if (!Array.isArray(docs)) problems.push('documents is not an array');
  else if (m['document_count'] !== docs.length) problems.push('document_count does not match documents');
  const ranges = new Map<string, string>();
  for (const d of Array.isArray(docs) ? (docs as unknown[]) : []) {
    if (!isObject(d) || typeof d['path'] !== 'string' || typeof d['version'] !== 'string' || !isCount(d['pack']) || !isCount(d['offset']) || !isCount(d['bytes'])) {
      problems.push('a document entry is not {path, version, pack, offset, bytes}');
      continue;
    }
    const doc: PackedDocument = { path: d['path'], version: d['version'], pack: d['pack'], offset: d['offset'], bytes: d['bytes'] };
    if (!VERSION.test(doc.version)) problems.push(`bad version for ${doc.path}`);
    const prev = documents[documents.length - 1];
    if (prev !== undefined && compareBytes(prev.path, doc.path) >= 0) problems.push(`documents not sorted and distinct at ${doc.path}`);
    const pack = packs[doc.pack];
    if (pack === undefined) problems.push(`pack of ${doc.path} is not in files.${PACKS_DIR}`);
    else if (doc.offset + doc.bytes > pack.bytes) problems.push(`range of ${doc.path} lies outside its pack`);
    const range = `${doc.pack}:${doc.offset}:${doc.bytes}`;
    const seen = ranges.get(doc.version);
    if (seen !== undefined && seen !== range) problems.push(`content of ${doc.path} is packed twice`);
    ranges.set(doc.version, range);
    documents.push(doc);
  }
  if (problems.length > 0 || typeof config === 'string') return problems;
  return {
    cacheVersion: m['cache_version'] as string,
    buildConfig: m['build_config'] as Json,
    config,
    createdAt: m['created_at'] as string,
    sourceRoot: root as string | null,
    documents,
    packs,
    index,
  };
}

/**
 * A manifest this program wrote, as read back by the rebuild that replaces it: its sha256 is
 * the one the build state recorded when writing it (./state.ts), so it passed readManifest's
 * checks by construction, and its documents are taken as parsed (no per-entry checks or
 * copies: 10,000 of them). Anything else goes through readManifest.
 */
export function readOwnManifest(text: string): V1Manifest | string[] {
  let m: unknown;
  try {
    m = parseJson(text);
  } catch {
    return ['manifest.json is not JSON'];
  }
  if (!isObject(m) || !isObject(m['files']) || !Array.isArray(m['documents'])) return readManifest(text, { value: m });
  const config = parseBuildConfig(m['build_config']);
  if (typeof config === 'string') return [config];
  return {
    cacheVersion: m['cache_version'] as string,
    buildConfig: m['build_config'] as Json,
    config,
    createdAt: m['created_at'] as string,
    sourceRoot: m['source_root'] as string | null,
    documents: m['documents'] as PackedDocument[],
    packs: m['files'][PACKS_DIR] as FileRecord[],
    index: m['files'][INDEX_FILE] as FileRecord,
  };
}
