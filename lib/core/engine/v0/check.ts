// Reads a cache and checks every invariant of specs/core/context_cache.md, one named check
// at a time: the five "Integrity Check" items plus index/manifest consistency (invariant 7).
// `verifyCache` reports them all; `loadCache` (resolve) stops at the first that fails.

import { join } from 'node:path';
import { compareBytes, parseJson } from '../../../json.js';
import { ContextError, osFailure } from '../../../errors.js';
import * as fs from '../../fs.js';
import { requireCacheDir } from '../../store/locate.js';
import { versionOf } from '../../hash.js';
import {
  BUILD_CONFIG,
  cacheVersion,
  DOCUMENTS_DIR,
  documentFile,
  INDEX_FILE,
  MANIFEST_FILE,
  VERSION_PATTERN,
  type ManifestEntry,
  type StoredDocument,
} from './format.js';

export const CHECK_NAMES = [
  'manifest',
  'cache_version',
  'documents_exist',
  'document_hashes',
  'no_orphans',
  'index',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** One failed invariant: which check, and a detail naming a cache-relative file or id. */
export class CheckFailure extends Error {
  readonly check: CheckName;
  constructor(check: CheckName, detail: string) {
    super(detail);
    this.check = check;
  }
}

/** Reports failures: either collects them (verify) or throws at the first (load). */
export type FailureSink = (failure: CheckFailure) => void;

export const throwFirst: FailureSink = (failure) => {
  throw new ContextError('cache_invalid', `${failure.check}: ${failure.message}`);
};

/** Reads a file of the cache; "absent" (or a directory in its place) returns null. */
function readCacheFile(dir: string, name: string): string | null {
  try {
    return fs.readText(join(dir, name));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw osFailure(err, { op: 'read', role: 'cache', subject: dir });
  }
}

function parseOrNull(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The manifest's document entries, or a failure of the `manifest` check. */
function readManifest(dir: string, fail: FailureSink): { version: string; entries: ManifestEntry[] } | null {
  const text = readCacheFile(dir, MANIFEST_FILE);
  if (text === null) return fail(new CheckFailure('manifest', 'manifest.json is missing')), null;
  return parseManifest(text, fail);
}

/**
 * Whether `text` is a v0 manifest: one the `manifest` check accepts (build_config exactly
 * v0's, each document entry {id, version, file} with its file named by its version). What
 * decides whether `build --force` may replace a folder (./layout.ts).
 */
export function isV0ManifestText(text: string): boolean {
  let ok = true;
  return parseManifest(text, () => void (ok = false)) !== null && ok;
}

function parseManifest(text: string, fail: FailureSink): { version: string; entries: ManifestEntry[] } | null {
  const m = parseOrNull(text);
  if (!isObject(m)) return fail(new CheckFailure('manifest', 'manifest.json is not a JSON object')), null;
  const cfg = m['build_config'];
  const problems: string[] = [];
  if (typeof m['cache_version'] !== 'string') problems.push('cache_version is not a string');
  if (
    !isObject(cfg) ||
    Object.keys(cfg).length !== 2 ||
    cfg['version'] !== BUILD_CONFIG.version ||
    cfg['hash_algorithm'] !== BUILD_CONFIG.hash_algorithm
  ) {
    problems.push('build_config is not v0 {"version":"1","hash_algorithm":"sha256"}');
  }
  if (typeof m['created_at'] !== 'string') problems.push('created_at is not a string');
  const docs = m['documents'];
  if (!Array.isArray(docs)) problems.push('documents is not an array');
  else if (m['document_count'] !== docs.length) problems.push('document_count does not match documents');
  const entries: ManifestEntry[] = [];
  const ids = new Set<string>();
  for (const d of Array.isArray(docs) ? (docs as unknown[]) : []) {
    if (!isObject(d) || typeof d['id'] !== 'string' || typeof d['version'] !== 'string' || typeof d['file'] !== 'string') {
      problems.push('a document entry is not {id, version, file}');
      continue;
    }
    const entry = { id: d['id'], version: d['version'], file: d['file'] };
    if (!VERSION_PATTERN.test(entry.version)) problems.push(`bad version for ${entry.id}`);
    else if (entry.file !== documentFile(entry.version)) problems.push(`file does not match version for ${entry.id}`);
    if (ids.has(entry.id)) problems.push(`duplicate id ${entry.id}`);
    ids.add(entry.id);
    entries.push(entry);
  }
  for (const p of problems) fail(new CheckFailure('manifest', p));
  if (problems.length > 0) return null;
  entries.sort((a, b) => compareBytes(a.id, b.id));
  return { version: m['cache_version'] as string, entries };
}

function checkIndex(dir: string, entries: readonly ManifestEntry[], fail: FailureSink): void {
  const text = readCacheFile(dir, INDEX_FILE);
  if (text === null) return fail(new CheckFailure('index', 'index.json is missing'));
  const index = parseOrNull(text);
  if (!isObject(index)) return fail(new CheckFailure('index', 'index.json is not a JSON object'));
  const keys = Object.keys(index);
  if (keys.length !== entries.length) fail(new CheckFailure('index', 'index.json and manifest.json list different documents'));
  for (const e of entries) {
    if (index[e.id] !== e.file) fail(new CheckFailure('index', `index entry differs for ${e.id}`));
  }
}

/** A document as read back from the cache, with what scoring wants to know of it. */
export interface CheckedDocument extends StoredDocument {
  /** Content is pure ASCII. */
  readonly ascii: boolean;
  /** UTF-8 byte length of the content. */
  readonly bytes: number;
}

export function readDocument(dir: string, entry: ManifestEntry, fail: FailureSink): CheckedDocument | null {
  let raw: Buffer;
  try {
    raw = fs.readFile(join(dir, entry.file));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') {
      return fail(new CheckFailure('documents_exist', `${entry.file} is missing`)), null;
    }
    throw osFailure(err, { op: 'read', role: 'cache', subject: dir });
  }
  // ASCII file bytes with no \u escape mean ASCII content: decided by a SIMD byte check
  // instead of a scan of the decoded string.
  const asciiFile = fs.isAscii(raw);
  const text = raw.toString(asciiFile ? 'latin1' : 'utf8');
  const d = parseOrNull(text);
  if (!isObject(d) || typeof d['id'] !== 'string' || typeof d['content'] !== 'string' || typeof d['version'] !== 'string') {
    return fail(new CheckFailure('document_hashes', `${entry.file} is not a document`)), null;
  }
  const content = d['content'];
  const ascii = asciiFile && !text.includes('\\u');
  const actual = versionOf(ascii ? Buffer.from(content, 'latin1') : Buffer.from(content, 'utf8'));
  if (actual !== entry.version || d['version'] !== entry.version || documentFile(actual) !== entry.file) {
    return fail(new CheckFailure('document_hashes', `${entry.file} does not hash to its name`)), null;
  }
  if (d['id'] !== entry.id) return fail(new CheckFailure('document_hashes', `${entry.file} holds another id`)), null;
  const bytes = ascii ? content.length : Buffer.byteLength(content, 'utf8');
  return { id: entry.id, version: entry.version, source: typeof d['source'] === 'string' ? d['source'] : '', content, ascii, bytes };
}

function checkOrphans(dir: string, entries: readonly ManifestEntry[], fail: FailureSink): void {
  let names: string[];
  try {
    names = fs.readDirNames(join(dir, DOCUMENTS_DIR));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // context_resolve.md "--cache": a cache contains documents/, even with no documents.
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail(new CheckFailure('documents_exist', 'documents/ is missing'));
    throw osFailure(err, { op: 'list', role: 'cache', subject: dir });
  }
  const expected = new Set(entries.map((e) => e.file));
  for (const name of names.sort(compareBytes)) {
    if (!expected.has(`${DOCUMENTS_DIR}/${name}`)) fail(new CheckFailure('no_orphans', `documents/${name} is not in the manifest`));
  }
}

export interface CacheContents {
  readonly cacheVersion: string;
  /** Documents sorted by id (byte order). */
  readonly documents: readonly CheckedDocument[];
}

export interface CacheStructure {
  readonly cacheVersion: string;
  /** Manifest entries sorted by id (byte order). */
  readonly entries: readonly ManifestEntry[];
}

/**
 * Every check that does not read documents: manifest, cache_version, index, orphans.
 * Returns the entries when the manifest was usable (whatever else failed), else null.
 */
export function examineStructure(dir: string, fail: FailureSink): CacheStructure | null {
  requireCacheDir(dir);
  const manifest = readManifest(dir, fail);
  if (manifest === null) return null;
  if (cacheVersion(manifest.entries) !== manifest.version) {
    fail(new CheckFailure('cache_version', 'cache_version does not match the recomputed hash'));
  }
  checkIndex(dir, manifest.entries, fail);
  checkOrphans(dir, manifest.entries, fail);
  return { cacheVersion: manifest.version, entries: manifest.entries };
}

/** Runs every check against `dir`, reporting failures to `fail`; null if no usable manifest. */
export function examineCache(dir: string, fail: FailureSink): CacheContents | null {
  const structure = examineStructure(dir, fail);
  if (structure === null) return null;
  const documents: CheckedDocument[] = [];
  for (const entry of structure.entries) {
    const doc = readDocument(dir, entry, fail);
    if (doc !== null) documents.push(doc);
  }
  return { cacheVersion: structure.cacheVersion, documents };
}
