// Opens a format-2 cache for answering queries without reading its documents: the manifest
// is checked (shape, cache_version recomputed), and index.bin is read whole and must match
// the size and sha256 the manifest records; each pack must be there with its recorded size.
// A document's content is read only when selected, from its pack (opened then and kept
// open, at most OPEN_PACKS at a time, its size checked again), and re-hashed against its
// version, so a damaged cache yields cache_invalid, never a wrong answer.
// A pack is named by its hash: one opened after a rebuild swapped the cache directory
// holds the same bytes, or is gone (cache_invalid, as for any missing pack).

import { join } from 'node:path';
import { ContextError, fromOsError } from '../../../errors.js';
import { requireCacheDir } from '../../cache/check.js';
import * as fs from '../../fs.js';
import { sha256Hex, versionOf } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import { IndexReader } from '../../index/index-format.js';
import { computeCacheVersion, type FileRecord, INDEX_FILE, packPath, readManifest, type PackedDocument, type V1Manifest } from './manifest.js';

export interface V1Cache {
  readonly manifest: V1Manifest;
  readonly index: IndexReader;
  /** The verified text of document `doc` (manifest order). */
  text(doc: number): string;
  /** Releases the open pack. */
  close(): void;
}

/** Packs kept open per loaded cache, least recently used closed first. */
const OPEN_PACKS = 16;

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
  // Every pack is there with its recorded size (a stat each): a missing or cut pack fails the
  // load, as a missing index does, whichever documents a query then selects.
  for (const record of manifest.packs) {
    const name = packPath(record.sha256);
    let st: fs.Stats | null;
    try {
      st = fs.statOrNull(join(dir, name));
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ENOTDIR') throw fromOsError(err, 'io_error');
      st = null; // packs/ is not a directory
    }
    if (st === null || !st.isFile()) throw invalid(`documents_exist: ${name} is missing`);
    if (st.size !== record.bytes) throw invalid(`documents_exist: ${name} does not have the recorded size`);
  }
  const fds = new Map<number, number>();
  let open = true;
  const packFd = (pack: number): number => {
    const known = fds.get(pack);
    if (known !== undefined) {
      fds.delete(pack); // most recently used last
      fds.set(pack, known);
      return known;
    }
    const record = manifest.packs[pack] as FileRecord;
    const name = packPath(record.sha256);
    let fd: number;
    try {
      fd = fs.openRead(join(dir, name));
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw invalid(`documents_exist: ${name} is missing`);
      throw fromOsError(err, 'io_error');
    }
    try {
      const st = fs.fstat(fd);
      if (!st.isFile() || st.size !== record.bytes) throw invalid(`documents_exist: ${name} does not have the recorded size`);
    } catch (err) {
      fs.closeFile(fd);
      throw err instanceof ContextError ? err : fromOsError(err, 'io_error');
    }
    fds.set(pack, fd);
    if (fds.size > OPEN_PACKS) {
      // Bounded: a long-lived server with several caches must not run out of descriptors.
      // A pack closed here is opened again by name when needed, the same bytes or none.
      const [oldest, oldFd] = fds.entries().next().value as [number, number];
      fds.delete(oldest);
      fs.closeFile(oldFd);
    }
    return fd;
  };
  return {
    manifest,
    index,
    text(doc: number): string {
      if (!open) throw new ContextError('io_error', 'the cache was closed');
      const d = manifest.documents[doc] as PackedDocument;
      let bytes: Buffer;
      try {
        bytes = fs.readAt(packFd(d.pack), d.bytes, d.offset);
      } catch (err) {
        if (err instanceof ContextError) throw err;
        if ((err as { code?: unknown }).code === 'ESHORT') throw invalid(`document_hashes: ${packPath((manifest.packs[d.pack] as FileRecord).sha256)} is truncated`);
        throw fromOsError(err, 'io_error');
      }
      if (versionOf(bytes) !== d.version || !fs.isUtf8(bytes)) throw invalid(`document_hashes: ${d.path} does not hash to its version`);
      return bytes.toString('utf8');
    },
    close(): void {
      if (open) for (const fd of fds.values()) fs.closeFile(fd);
      fds.clear();
      open = false;
    },
  };
}

/** Opens the format-2 cache at `dir` (reads its manifest first). */
export function openV1(dir: string): V1Cache {
  requireCacheDir(dir);
  return loadV1(dir, readCacheFile(join(dir, 'manifest.json'), 'manifest.json').toString('utf8'));
}
