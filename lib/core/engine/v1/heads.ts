// Reading a v1 cache's pack heads and checking them (./load.ts): each pack must be a regular
// file of its recorded size, its head must have the size and sha256 the manifest records,
// and it must decode with bounds checks (./manifest.ts decodeHead). Kept apart from the
// loader so that the worker which checks the later packs of a large cache (./heads-worker.ts)
// loads this and what it needs, nothing more.

import { join } from 'node:path';
import { compareBytes } from '../../../json.js';
import { ContextError, osFailure } from '../../../errors.js';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import { scopedIndex, type IndexReader } from '../../index/index-format.js';
import { decodeHead, type DocumentList, type FileRecord, packPath, type PackHead, type PackRecord, type PackedDocument } from './manifest.js';

const invalid = (detail: string): ContextError => new ContextError('cache_invalid', detail);

/** A failure reading the cache at `dir` (its file, when Node named one). */
const readFailure = (err: unknown, dir: string): ContextError => osFailure(err, { op: 'read', role: 'cache', subject: dir });

/**
 * Opens pack `record` of the cache at `dir` and checks it is a regular file of its recorded
 * size: its descriptor (the caller closes it). cache_invalid when missing or resized.
 */
export function openPack(dir: string, record: FileRecord): number {
  return openCacheFile(dir, packPath(record.sha256), record.bytes);
}

/**
 * Opens file `name` of the cache at `dir` (a pack or a term file) and checks it is a
 * regular file of `bytes` bytes: its descriptor (the caller closes it). cache_invalid when
 * missing or resized.
 */
export function openCacheFile(dir: string, name: string, bytes: number): number {
  let fd: number;
  try {
    fd = fs.openRead(join(dir, name));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw invalid(`documents_exist: ${name} is missing`);
    throw readFailure(err, dir);
  }
  try {
    const st = fs.fstat(fd);
    if (!st.isFile() || st.size !== bytes) throw invalid(`documents_exist: ${name} does not have the recorded size`);
  } catch (err) {
    fs.closeFile(fd);
    throw err instanceof ContextError ? err : osFailure(err, { op: 'read', role: 'cache', subject: dir, path: join(dir, name) });
  }
  return fd;
}

/** Pack `record`'s head bytes, checked against the record and decoded (cache_invalid otherwise). */
export function checkedHead(name: string, record: PackRecord, head: Uint8Array, pack: number): PackHead {
  if (head.length !== record.head.bytes || sha256Hex(head) !== record.head.sha256) throw invalid(`index: the head of ${name} does not match the manifest`);
  try {
    return decodeHead(head, record, pack, record.head.bytes);
  } catch (err) {
    throw invalid(`index: ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The documents of consecutive packs, in order, and each pack's index. */
export interface Heads {
  readonly documents: PackedDocument[];
  readonly readers: IndexReader[];
}

/** What a query reads (./segments.ts readQueryHeads): the documents, each pack's read when first asked for, and each pack's index. */
export interface QueryHeads {
  readonly documents: DocumentList;
  readonly readers: IndexReader[];
}

/**
 * The heads of `packs`, the cache's packs `first`, `first + 1`, …, read from the cache at
 * `dir` and checked, in order: the first failure met is thrown. With `keys` (the UTF-8 bytes
 * of the only terms a query will look up), each head is read into one buffer used again for
 * the next, checked whole as always, and only what that query reads of its index is kept
 * (../../index/index-format.ts scopedIndex): a one-shot resolve then holds the unit rows and
 * headings, not every pack's dictionary and postings (on the 10,000-file bench corpus 12 MB
 * instead of 87 MB, memory a process pays for the first time it touches it).
 */
export function readHeads(dir: string, packs: readonly PackRecord[], first: number, keys?: readonly Uint8Array[]): Heads {
  const { heads, error } = readHeadsUntilFailure(dir, packs, first, keys);
  if (error !== null) throw error;
  return heads;
}

/**
 * As readHeads, but a failure ends the reading instead of being thrown: the heads checked
 * before it, and the failure (null when there was none). A worker hands both back, so that
 * the loading thread meets the failures in the order one sequential check would.
 */
export function readHeadsUntilFailure(dir: string, packs: readonly PackRecord[], first: number, keys?: readonly Uint8Array[]): { heads: Heads; error: unknown } {
  const documents: PackedDocument[] = [];
  const readers: IndexReader[] = [];
  try {
    readEach(dir, packs, first, keys, documents, readers);
  } catch (err) {
    return { heads: { documents, readers }, error: err };
  }
  return { heads: { documents, readers }, error: null };
}

function readEach(dir: string, packs: readonly PackRecord[], first: number, keys: readonly Uint8Array[] | undefined, documents: PackedDocument[], readers: IndexReader[]): void {
  const scratch = keys === undefined ? null : Buffer.allocUnsafe(packs.reduce((n, p) => Math.max(n, p.head.bytes), 0));
  packs.forEach((record, i) => {
    const name = packPath(record.sha256);
    const fd = openPack(dir, record);
    let bytes: Buffer;
    try {
      if (scratch === null) bytes = fs.readAt(fd, record.head.bytes, 0);
      else {
        fs.readInto(fd, scratch, record.head.bytes, 0);
        bytes = scratch.subarray(0, record.head.bytes);
      }
    } catch (err) {
      throw (err as { code?: unknown }).code === 'ESHORT' ? invalid(`documents_exist: ${name} is truncated`) : osFailure(err, { op: 'read', role: 'cache', subject: dir, path: join(dir, name) });
    } finally {
      fs.closeFile(fd);
    }
    const checked = checkedHead(name, record, bytes, first + i);
    let head = checked;
    if (keys !== undefined) {
      try {
        head = { documents: checked.documents, index: scopedIndex(checked.index, keys) };
      } catch (err) {
        if (err instanceof IndexFormatError) throw invalid(`index: ${name}: ${err.message}`);
        throw err;
      }
    }
    joinDocuments(documents, head.documents);
    readers.push(head.index);
  });
}

/** Appends the next pack's documents to `documents`, which must stay sorted and distinct across packs. */
export function joinDocuments(documents: PackedDocument[], next: readonly PackedDocument[]): void {
  const start = next[0];
  const last = documents[documents.length - 1];
  if (start !== undefined && last !== undefined && compareBytes(last.path, start.path) >= 0) throw invalid(`manifest: documents not sorted and distinct at ${start.path}`);
  for (const d of next) documents.push(d);
}
