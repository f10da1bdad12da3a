// The v0 cache layout, byte for byte as the reference writes it (specs/core/context_cache.md,
// document_model.md): manifest.json pretty, index.json pretty with sorted keys, one compact
// documents/<first 12 hex of the version>.json per document, no trailing newlines.

import { compact, compareBytes, pretty, type Json } from '../../../json.js';
import { sha256Hex } from '../../hash.js';

export const MANIFEST_FILE = 'manifest.json';
export const INDEX_FILE = 'index.json';
export const DOCUMENTS_DIR = 'documents';

/** Build configuration v0 ("v0 has no user-configurable options"). */
export const BUILD_CONFIG = { version: '1', hash_algorithm: 'sha256' } as const;

export const VERSION_PATTERN = /^sha256:[0-9a-f]{64}$/;

export interface ManifestEntry {
  readonly id: string;
  readonly version: string;
  readonly file: string;
}

export interface StoredDocument {
  readonly id: string;
  readonly version: string;
  readonly source: string;
  readonly content: string;
}

/** `documents/<12 hex>.json` for a version `sha256:<64 hex>`. */
export function documentFile(version: string): string {
  return `${DOCUMENTS_DIR}/${version.slice(7, 19)}.json`;
}

/**
 * cache_version := "sha256:" + hex(sha256(compact build_config JSON + concatenation, over
 * documents sorted by id, of id + ":" + version)). No separator between entries: that is
 * what the reference hashes, and its fixture caches carry exactly this value.
 */
export function cacheVersion(entries: readonly { readonly id: string; readonly version: string }[]): string {
  const sorted = [...entries].sort((a, b) => compareBytes(a.id, b.id));
  const parts = [compact(BUILD_CONFIG)];
  for (const e of sorted) parts.push(`${e.id}:${e.version}`);
  return 'sha256:' + sha256Hex(parts.join(''));
}

/** manifest.json bytes; `entries` must already be sorted by id. */
export function manifestText(version: string, createdAt: string, entries: readonly ManifestEntry[]): string {
  const documents: Json[] = entries.map((e) => ({ id: e.id, version: e.version, file: e.file }));
  return pretty({
    cache_version: version,
    build_config: { version: BUILD_CONFIG.version, hash_algorithm: BUILD_CONFIG.hash_algorithm },
    created_at: createdAt,
    document_count: entries.length,
    documents,
  });
}

/** index.json bytes: id -> file, keys in byte order. */
export function indexText(entries: readonly ManifestEntry[]): string {
  const sorted = [...entries].sort((a, b) => compareBytes(a.id, b.id));
  const index: Record<string, Json> = {};
  for (const e of sorted) index[e.id] = e.file;
  return pretty(index);
}

/** documents/<hash>.json bytes; metadata is always empty in v0. */
export function documentText(doc: StoredDocument): string {
  return compact({ id: doc.id, version: doc.version, source: doc.source, content: doc.content, metadata: {} });
}
