// `context verify` for cache format 2: every invariant, each reported by name.
//   manifest         manifest.json parses, has format 2's shape and a build_config this
//                    engine implements; documents sorted, distinct, inside their packs
//   cache_version    equals the hash recomputed from build_config and documents
//   documents_exist  every pack (packs/<sha256>.pack) is a regular file of the recorded size
//   pack             every pack hashes to the recorded sha256 (its name)
//   document_hashes  every document's bytes hash to its version and are UTF-8
//   index            index.bin has the recorded size and sha256, and decodes (all of it)
//   index_rebuild    index.bin equals the index rebuilt from the documents (analysis,
//                    sections, token counts, postings): the index is what the documents say
//   no_orphans       the cache directory holds nothing but manifest.json, index.bin and
//                    packs/ (and the build state, a hint for incremental builds:
//                    ./state.ts); packs/ nothing but the packs the manifest lists

import { join } from 'node:path';
import { compareBytes } from '../../../json.js';
import { fromOsError } from '../../../errors.js';
import { requireCacheDir } from '../../cache/check.js';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import { IndexReader } from '../../index/index-format.js';
import { analyzeCorpus } from './analyze-corpus.js';
import { assemble } from './assemble.js';
import { CACHE_FILES, OPTIONAL_FILES, computeCacheVersion, INDEX_FILE, MANIFEST_FILE, packPath, PACKS_DIR, readManifest } from './manifest.js';

export const V1_CHECK_NAMES = [
  'manifest',
  'cache_version',
  'documents_exist',
  'pack',
  'document_hashes',
  'index',
  'index_rebuild',
  'no_orphans',
] as const;
export type V1CheckName = (typeof V1_CHECK_NAMES)[number];

export interface V1VerifyReport {
  readonly cacheVersion: string;
  readonly valid: boolean;
  readonly checks: readonly { readonly name: V1CheckName; readonly ok: boolean; readonly problems: readonly string[] }[];
}

/** The file's bytes, or null when absent (or not a file). */
function readOrNull(path: string): Buffer | null {
  try {
    return fs.readFile(path);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw fromOsError(err, 'io_error');
  }
}

export async function verifyV1(dir: string, threads = 1): Promise<V1VerifyReport> {
  requireCacheDir(dir);
  const problems = new Map<V1CheckName, string[]>(V1_CHECK_NAMES.map((n) => [n, []]));
  const fail = (check: V1CheckName, detail: string): void => void (problems.get(check) as string[]).push(detail);
  const skip = (checks: readonly V1CheckName[], why: string): void => {
    for (const c of checks) if ((problems.get(c) as string[]).length === 0) fail(c, `not checked: ${why}`);
  };

  let names: string[];
  try {
    names = fs.readDirNames(dir).sort(compareBytes);
  } catch (err) {
    throw fromOsError(err, 'io_error');
  }
  for (const name of names) {
    if (!CACHE_FILES.includes(name) && !OPTIONAL_FILES.includes(name)) fail('no_orphans', `${name} is not part of the cache`);
  }

  const manifestBytes = readOrNull(join(dir, MANIFEST_FILE));
  const manifest = manifestBytes === null ? ['manifest.json is missing'] : readManifest(manifestBytes.toString('utf8'));
  if (Array.isArray(manifest)) {
    for (const p of manifest) fail('manifest', p);
    skip(V1_CHECK_NAMES.filter((n) => n !== 'manifest' && n !== 'no_orphans'), 'the manifest is unusable');
    return report('', problems);
  }
  if (computeCacheVersion(manifest.buildConfig, manifest.documents) !== manifest.cacheVersion) {
    fail('cache_version', 'cache_version does not match the recomputed hash');
  }

  // packs/: exactly the listed packs, each a regular file of its size hashing to its name.
  const listed = new Set(manifest.packs.map((p) => packPath(p.sha256)));
  const packsDir = fs.lstatOrNull(join(dir, PACKS_DIR));
  if (packsDir !== null && packsDir.isDirectory()) {
    let inside: string[];
    try {
      inside = fs.readDirNames(join(dir, PACKS_DIR)).sort(compareBytes);
    } catch (err) {
      throw fromOsError(err, 'io_error');
    }
    for (const name of inside) if (!listed.has(`${PACKS_DIR}/${name}`)) fail('no_orphans', `${PACKS_DIR}/${name} is not part of the cache`);
  } else if (packsDir !== null) fail('no_orphans', `${PACKS_DIR} is not a directory`);
  let packsReadable = true;
  const packsHere = packsDir !== null && packsDir.isDirectory();
  for (const p of manifest.packs) {
    const name = packPath(p.sha256);
    const st = packsHere ? fs.lstatOrNull(join(dir, name)) : null;
    if (st === null || !st.isFile()) fail('documents_exist', `${name} is missing`);
    else if (st.size !== p.bytes) fail('documents_exist', `${name} does not have the recorded size`);
    else {
      const bytes = readOrNull(join(dir, name));
      if (bytes === null || sha256Hex(bytes) !== p.sha256) fail('pack', `${name} does not hash to the recorded sha256`);
      continue;
    }
    packsReadable = false;
  }
  if (!packsReadable) skip(['pack', 'document_hashes', 'index_rebuild'], 'a pack is unusable');

  const indexBytes = readOrNull(join(dir, INDEX_FILE));
  if (indexBytes === null) fail('index', 'index.bin is missing');
  else if (indexBytes.length !== manifest.index.bytes || sha256Hex(indexBytes) !== manifest.index.sha256) {
    fail('index', 'index.bin does not match the recorded size and sha256');
  } else {
    try {
      const reader = new IndexReader(indexBytes);
      if (reader.docCount !== manifest.documents.length) fail('index', 'index.bin counts another number of documents');
      else decodeWhole(reader);
    } catch (err) {
      fail('index', `index.bin does not decode: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  if (packsReadable) {
    const { options } = manifest.config;
    const batches = await analyzeCorpus(
      {
        granularity: options.granularity,
        tokenizer: options.tokenizer,
        items: manifest.documents.map((d) => ({ path: d.path, file: join(dir, packPath((manifest.packs[d.pack] as { sha256: string }).sha256)), offset: d.offset, length: d.bytes })),
        keepContents: false,
      },
      threads,
    );
    const rebuilt = assemble(batches);
    let damaged = rebuilt.skipped.length > 0;
    for (const s of rebuilt.skipped) fail('document_hashes', `${s.path}: ${s.reason}`);
    const versions = new Map(manifest.documents.map((m) => [m.path, m.version]));
    rebuilt.documents.forEach((d) => {
      if (versions.get(d.path) !== d.version) {
        damaged = true;
        fail('document_hashes', `${d.path} does not hash to its version`);
      }
    });
    if (damaged) skip(['index_rebuild'], 'documents are damaged');
    else if (indexBytes === null || !Buffer.from(rebuilt.index).equals(indexBytes)) {
      fail('index_rebuild', 'index.bin differs from the index rebuilt from the documents');
    }
  }
  return report(manifest.cacheVersion, problems);
}

/**
 * Decodes what the reader decodes only on use (each unit's slug and trail, each term and its
 * postings) and checks the dictionary's order, which lookups rely on: "decodes" means all of
 * it. Throws IndexFormatError.
 */
function decodeWhole(r: IndexReader): void {
  for (let u = 0; u < r.unitCount; u++) r.unitStrings(u);
  let previous: string | null = null;
  for (let i = 0; i < r.termCount; i++) {
    const term = r.term(i);
    if (previous !== null && compareBytes(previous, term) >= 0) throw new IndexFormatError('terms are not sorted and distinct');
    previous = term;
    r.postings(i);
  }
}

function report(cacheVersion: string, problems: ReadonlyMap<V1CheckName, string[]>): V1VerifyReport {
  const checks = V1_CHECK_NAMES.map((name) => {
    const list = problems.get(name) ?? [];
    return { name, ok: list.length === 0, problems: list };
  });
  return { cacheVersion, valid: checks.every((c) => c.ok), checks };
}
