// Opens a format-2 cache for answering queries without reading its documents: the manifest
// is checked (shape, cache_version recomputed), index.bin is read whole and must match the
// size and sha256 the manifest records, and documents.pack is opened and its size checked.
// A document's content is read only when selected, and re-hashed against its version
// then, so a damaged cache yields cache_invalid, never a wrong answer. The pack stays open:
// if a rebuild swaps the cache directory meanwhile, reads still come from the same files.

import { join } from 'node:path';
import { ContextError, fromOsError } from '../../../errors.js';
import { requireCacheDir } from '../../cache/check.js';
import * as fs from '../../fs.js';
import { sha256Hex, versionOf } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import { IndexReader } from '../../index/index-format.js';
import { computeCacheVersion, INDEX_FILE, PACK_FILE, readManifest, type PackedDocument, type V1Manifest } from './manifest.js';

export interface V1Cache {
  readonly manifest: V1Manifest;
  readonly index: IndexReader;
  /** The verified text of document `doc` (manifest order). */
  text(doc: number): string;
  /** Releases the open pack. */
  close(): void;
}

const invalid = (detail: string): ContextError => new ContextError('cache_invalid', detail);

function readCacheFile(path: string, what: string): Buffer {
  try {
    return fs.readFile(path);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw invalid(`${what} is missing`);
    throw fromOsError(err, 'io_error');
  }
}

/** Loads the cache at `dir` whose manifest text was already read. */
export function loadV1(dir: string, manifestText: string, parsed?: { readonly value: unknown }): V1Cache {
  const manifest = readManifest(manifestText, parsed);
  if (Array.isArray(manifest)) throw invalid(`manifest: ${manifest[0] ?? 'unusable'}`);
  if (computeCacheVersion(manifest.buildConfig, manifest.documents) !== manifest.cacheVersion) {
    throw invalid('cache_version: does not match the recomputed hash');
  }
  const indexBytes = readCacheFile(join(dir, INDEX_FILE), INDEX_FILE);
  if (indexBytes.length !== manifest.index.bytes || sha256Hex(indexBytes) !== manifest.index.sha256) {
    throw invalid('index: index.bin does not match the manifest');
  }
  let index: IndexReader;
  try {
    index = new IndexReader(indexBytes);
  } catch (err) {
    if (err instanceof IndexFormatError) throw invalid(`index: ${err.message}`);
    throw err;
  }
  if (index.docCount !== manifest.documents.length) throw invalid('index: document count differs from the manifest');
  let fd: number;
  try {
    fd = fs.openRead(join(dir, PACK_FILE));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw invalid('documents_exist: documents.pack is missing');
    throw fromOsError(err, 'io_error');
  }
  let open = true;
  try {
    const st = fs.fstat(fd);
    if (!st.isFile() || st.size !== manifest.pack.bytes) throw invalid('documents_exist: documents.pack does not have the recorded size');
  } catch (err) {
    fs.closeFile(fd);
    throw err instanceof ContextError ? err : fromOsError(err, 'io_error');
  }
  return {
    manifest,
    index,
    text(doc: number): string {
      const d = manifest.documents[doc] as PackedDocument;
      let bytes: Buffer;
      try {
        bytes = fs.readAt(fd, d.bytes, d.offset);
      } catch (err) {
        if ((err as { code?: unknown }).code === 'ESHORT') throw invalid('document_hashes: documents.pack is truncated');
        throw fromOsError(err, 'io_error');
      }
      if (versionOf(bytes) !== d.version || !fs.isUtf8(bytes)) throw invalid(`document_hashes: ${d.path} does not hash to its version`);
      return bytes.toString('utf8');
    },
    close(): void {
      if (open) fs.closeFile(fd);
      open = false;
    },
  };
}

/** Opens the format-2 cache at `dir` (reads its manifest first). */
export function openV1(dir: string): V1Cache {
  requireCacheDir(dir);
  return loadV1(dir, readCacheFile(join(dir, 'manifest.json'), 'manifest.json').toString('utf8'));
}
