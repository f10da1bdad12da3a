// Helpers shared by the cache spec-tests: hashes computed with node:crypto directly (never
// through lib/), the v0 cache_version formula written out independently, a one-call build
// with a fixed created_at, and byte snapshots of a directory tree for "nothing changed".

import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCache, type BuildSummary } from '../../../../lib/core/engine/v0/build.js';

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

/** The two-document cache the breakage table starts from. */
export const BASE_SOURCES = { 'a.md': 'alpha text here', 'b.md': 'beta text' } as const;
export const VA = versionOf(BASE_SOURCES['a.md']);
export const VB = versionOf(BASE_SOURCES['b.md']);

/**
 * Ways to break a valid cache built from BASE_SOURCES, each with the verify check it must
 * fail (context_cache.md "Verification" 1-5, plus "Index": index/manifest divergence).
 * `spec` says which statement makes the result invalid.
 */
export interface Breakage {
  readonly name: string;
  readonly check: 'manifest' | 'cache_version' | 'documents_exist' | 'document_hashes' | 'no_orphans' | 'index';
  readonly spec: string;
  readonly apply: (cache: string) => void;
  /** Every check that fails, when more than `check` (the manifest checks stop the rest). */
  readonly fails?: readonly string[];
}

const edit = (path: string, from: string, to: string): void => {
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`fixture: ${from} not in ${path}`);
  writeFileSync(path, text.replace(from, to));
};

export const BREAKAGES: readonly Breakage[] = [
  { name: 'manifest.json missing', check: 'manifest', spec: 'Verification 1: manifest exists', apply: (c) => rmSync(join(c, 'manifest.json')) },
  { name: 'manifest.json unparseable', check: 'manifest', spec: 'Verification 1: valid JSON', apply: (c) => writeFileSync(join(c, 'manifest.json'), '{"cache_version": "sha256:') },
  { name: 'manifest.json a JSON array', check: 'manifest', spec: 'The Manifest', apply: (c) => writeFileSync(join(c, 'manifest.json'), '[]') },
  { name: 'manifest.json a directory', check: 'manifest', spec: 'Verification 1: manifest exists', apply: (c) => { rmSync(join(c, 'manifest.json')); mkdirSync(join(c, 'manifest.json')); } },
  { name: 'build_config version "2"', check: 'manifest', spec: 'Invalidation 4: config changed', apply: (c) => edit(join(c, 'manifest.json'), '"version": "1"', '"version": "2"') },
  { name: 'build_config hash_algorithm "sha512"', check: 'manifest', spec: 'Invalidation 4: config changed', apply: (c) => edit(join(c, 'manifest.json'), '"hash_algorithm": "sha256"', '"hash_algorithm": "sha512"') },
  { name: 'build_config with an extra key', check: 'manifest', spec: 'Invalidation 4: config changed', apply: (c) => edit(join(c, 'manifest.json'), '"hash_algorithm": "sha256"', '"hash_algorithm": "sha256", "extra": "x"') },
  { name: 'manifest document_count wrong', check: 'manifest', spec: 'The Manifest', apply: (c) => edit(join(c, 'manifest.json'), '"document_count": 2', '"document_count": 3') },
  { name: 'manifest entry file not its version', check: 'manifest', spec: 'Document Files: filename is first 12 hex of version', apply: (c) => edit(join(c, 'manifest.json'), `"file": "${fileOf(VA)}"`, `"file": "${fileOf(VB)}"`) },
  { name: 'manifest entry file pointing outside the cache', check: 'manifest', spec: 'Document Files (never read outside the cache)', apply: (c) => {
    writeFileSync(join(c, '..', 'outside.json'), readFileSync(join(c, fileOf(VA))));
    edit(join(c, 'manifest.json'), `"file": "${fileOf(VA)}"`, '"file": "../outside.json"');
  } },
  { name: 'cache_version differs from the recomputed hash', check: 'cache_version', spec: 'Verification 2', apply: (c) => edit(join(c, 'manifest.json'), expectedCacheVersion([['a.md', VA], ['b.md', VB]]), versionOf('something else')) },
  { name: 'a manifest entry removed (cache_version and index now disagree)', check: 'cache_version', fails: ['cache_version', 'no_orphans', 'index'], spec: 'Verification 2 / Invalidation 2', apply: (c) => {
    const m = JSON.parse(readFileSync(join(c, 'manifest.json'), 'utf8')) as { documents: unknown[]; document_count: number };
    m.documents = m.documents.slice(0, 1);
    m.document_count = 1;
    writeFileSync(join(c, 'manifest.json'), JSON.stringify(m, null, 2));
  } },
  { name: 'a document file missing', check: 'documents_exist', spec: 'Verification 3', apply: (c) => rmSync(join(c, fileOf(VB))) },
  { name: 'a document file replaced by a directory', check: 'documents_exist', spec: 'Verification 3', apply: (c) => { rmSync(join(c, fileOf(VB))); mkdirSync(join(c, fileOf(VB))); } },
  { name: 'document content changed in place', check: 'document_hashes', spec: 'Verification 4', apply: (c) => edit(join(c, fileOf(VA)), '"content":"alpha text here"', '"content":"alpha text HERE"') },
  { name: 'document content with a trailing newline added', check: 'document_hashes', spec: 'Verification 4 (no newline normalisation)', apply: (c) => edit(join(c, fileOf(VA)), '"content":"alpha text here"', '"content":"alpha text here\\n"') },
  { name: 'document file not JSON', check: 'document_hashes', spec: 'Verification 4', apply: (c) => writeFileSync(join(c, fileOf(VA)), 'alpha text here') },
  { name: 'document version field altered', check: 'document_hashes', spec: 'Verification 4', apply: (c) => edit(join(c, fileOf(VA)), `"version":"${VA}"`, `"version":"${VB}"`) },
  { name: 'orphan .json file in documents/', check: 'no_orphans', spec: 'Verification 5 / The Manifest', apply: (c) => writeFileSync(join(c, 'documents', '000000000000.json'), '{}') },
  { name: 'orphan non-JSON file in documents/', check: 'no_orphans', spec: 'Verification 5', apply: (c) => writeFileSync(join(c, 'documents', 'notes.txt'), 'hi') },
  { name: 'orphan directory in documents/', check: 'no_orphans', spec: 'Verification 5', apply: (c) => mkdirSync(join(c, 'documents', 'sub')) },
  { name: 'index.json missing', check: 'index', spec: 'Index / Invariant 7', apply: (c) => rmSync(join(c, 'index.json')) },
  { name: 'index.json unparseable', check: 'index', spec: 'Index / Invariant 7', apply: (c) => writeFileSync(join(c, 'index.json'), '{') },
  { name: 'index.json lacks a manifest document', check: 'index', spec: 'Index / Invariant 7', apply: (c) => writeFileSync(join(c, 'index.json'), `{\n  "a.md": "${fileOf(VA)}"\n}`) },
  { name: 'index.json lists an extra document', check: 'index', spec: 'Index / Invariant 7', apply: (c) => writeFileSync(join(c, 'index.json'), `{\n  "a.md": "${fileOf(VA)}",\n  "b.md": "${fileOf(VB)}",\n  "c.md": "${fileOf(VB)}"\n}`) },
  { name: 'index.json maps an id to another file', check: 'index', spec: 'Index / Invariant 7', apply: (c) => writeFileSync(join(c, 'index.json'), `{\n  "a.md": "${fileOf(VB)}",\n  "b.md": "${fileOf(VA)}"\n}`) },
];

/** Builds the BASE_SOURCES cache at `<dir>/<name>` and returns its path. */
export function buildBase(dir: string, name = 'cache'): string {
  const src = join(dir, `${name}-src`);
  mkdirSync(src, { recursive: true });
  for (const [file, text] of Object.entries(BASE_SOURCES)) writeFileSync(join(src, file), text);
  const cache = join(dir, name);
  build(src, cache);
  return cache;
}
