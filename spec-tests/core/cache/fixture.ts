// Helpers shared by the cache spec-tests: hashes computed with node:crypto directly (never
// through lib/), the v0 cache_version formula written out independently, a one-call build
// with a fixed created_at, and byte snapshots of a directory tree for "nothing changed".

import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { buildCache, type BuildSummary } from '../../../lib/core/cache/build.js';

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** document_model.md "Versioning": "sha256:" + hex(sha256(content bytes)). */
export const versionOf = (data: string | Uint8Array): string => 'sha256:' + sha256(data);

/** context_cache.md "Document Files": first 12 hex characters of the version hash. */
export const fileOf = (version: string): string => `documents/${version.slice('sha256:'.length, 'sha256:'.length + 12)}.json`;

/** context_cache.md "Build Configuration (v0)", compact. */
export const BUILD_CONFIG_JSON = '{"version":"1","hash_algorithm":"sha256"}';

/** UTF-8 byte order, the order every sorted list in the cache uses. */
export const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * context_cache.md "Cache Version": sha256(build_config_json + sorted(id + ":" + version)),
 * the entries concatenated with no separator (DESIGN.md "Cache format").
 */
export function expectedCacheVersion(docs: readonly (readonly [id: string, version: string])[]): string {
  const sorted = [...docs].sort((a, b) => byteOrder(a[0], b[0]));
  return versionOf(BUILD_CONFIG_JSON + sorted.map(([id, v]) => `${id}:${v}`).join(''));
}

export const CREATED_AT = '2026-01-02T03:04:05Z';

export function build(sources: string, cache: string, force = false): BuildSummary {
  return buildCache({ sources, cache, force, createdAt: CREATED_AT });
}

/** Every entry under `dir` (relative path -> file bytes as text, "<dir>" or "-> target"). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort(byteOrder)) {
      const p = join(abs, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[r] = `-> ${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[r] = '<dir>';
        walk(p, r);
      } else out[r] = readFileSync(p).toString('latin1');
    }
  };
  walk(dir, '');
  return out;
}

/** Names directly in `dir`, in byte order. */
export const namesIn = (dir: string): string[] => readdirSync(dir).sort(byteOrder);

/** The text of a cache file. */
export const readCacheFile = (cache: string, rel: string): string => readFileSync(join(cache, rel), 'utf8');
