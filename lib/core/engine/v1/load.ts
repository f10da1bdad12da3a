// Opens a format-10 cache for answering queries without reading its documents' contents:
// the manifest is checked (shape, cache_version recomputed from the packs' heads), every
// pack must be there with its recorded size, and each pack's head (its document list and
// index) is read and must match the size and sha256 the manifest records. A document's
// content is read only when selected, from its pack (opened then and kept open, at most
// OPEN_PACKS at a time, its size checked again), and re-hashed against its version, so a
// damaged cache yields cache_invalid, never a wrong answer.
// A pack is named by its hash: one opened after a rebuild swapped the cache directory
// holds the same bytes, or is gone (cache_invalid, as for any missing pack).

import { join } from 'node:path';
import { compareBytes } from '../../../json.js';
import { ContextError, osFailure } from '../../../errors.js';
import { FIELD_COUNT } from '../../analysis/term-counter.js';
import { htmlText } from '../../analysis/html.js';
import { formatOfPath } from '../../sources/extensions.js';
import { requireCacheDir } from '../../store/locate.js';
import * as fs from '../../fs.js';
import { sha256Hex, versionOf } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import { scopedIndex, type IndexReader } from '../../index/index-format.js';
import { PackedIndex, POSTINGS_KEPT, type UnitIndex } from '../../index/packed-index.js';
import { computeCacheVersion, decodeHead, type FileRecord, packPath, type PackHead, type PackRecord, readManifest, type ManifestTop, type PackedDocument, type V1Manifest } from './manifest.js';

export interface V1Cache {
  readonly manifest: V1Manifest;
  /** Every unit of the cache, numbered in pack order (../../index/packed-index.ts). */
  readonly index: UnitIndex;
  /**
   * The only terms the index holds postings for, when the cache was loaded for one query
   * (`loadV1`'s `terms`); null: every term.
   */
  readonly terms: ReadonlySet<string> | null;
  /**
   * The verified text of document `doc` (manifest order). The last texts read are kept
   * (TEXTS_KEPT characters in all): a server answers question after question from the
   * same pages, and each was hashed against its version when read.
   */
  text(doc: number): string;
  /** Releases the open pack. */
  close(): void;
}

const UTF8 = new TextEncoder();

/** Packs kept open per loaded cache, least recently used closed first. */
const OPEN_PACKS = 16;
/** Characters of verified document texts kept per loaded cache (~16 MB), least recently used out first. */
export const TEXTS_KEPT = 8 << 20;

const invalid = (detail: string): ContextError => new ContextError('cache_invalid', detail);

/** A failure reading the cache at `dir` (its file, when Node named one). */
const readFailure = (err: unknown, dir: string): ContextError => osFailure(err, { op: 'read', role: 'cache', subject: dir });

function readCacheFile(dir: string, what: string): Buffer {
  try {
    return fs.readFile(join(dir, what));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw invalid(`${what} is missing`);
    throw readFailure(err, dir);
  }
}

/**
 * Opens pack `record` of the cache at `dir` and checks it is a regular file of its recorded
 * size: its descriptor (the caller closes it). cache_invalid when missing or resized.
 */
function openPack(dir: string, record: FileRecord): number {
  const name = packPath(record.sha256);
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
    if (!st.isFile() || st.size !== record.bytes) throw invalid(`documents_exist: ${name} does not have the recorded size`);
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

/**
 * Every pack's head, read from the cache at `dir` and checked: the documents in order, and
 * each pack's index. With `keys` (the UTF-8 bytes of the only terms a query will look up),
 * each head is read into one buffer used again for the next, checked whole as always, and
 * only what that query reads of its index is kept (../../index/index-format.ts scopedIndex):
 * a one-shot resolve then holds the unit rows and headings, not every pack's dictionary and
 * postings (on the 10,000-file bench corpus 12 MB instead of 87 MB, memory a process pays
 * for the first time it touches it).
 */
export function readPackHeads(dir: string, top: ManifestTop, keys?: readonly Uint8Array[]): { documents: PackedDocument[]; readers: IndexReader[] } {
  const documents: PackedDocument[] = [];
  const readers: IndexReader[] = [];
  const scratch = keys === undefined ? null : Buffer.allocUnsafe(top.packs.reduce((n, p) => Math.max(n, p.head.bytes), 0));
  top.packs.forEach((record, k) => {
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
    const checked = checkedHead(name, record, bytes, k);
    let head = checked;
    if (keys !== undefined) {
      try {
        head = { documents: checked.documents, index: scopedIndex(checked.index, keys) };
      } catch (err) {
        if (err instanceof IndexFormatError) throw invalid(`index: ${name}: ${err.message}`);
        throw err;
      }
    }
    const first = head.documents[0];
    const last = documents[documents.length - 1];
    if (first !== undefined && last !== undefined && compareBytes(last.path, first.path) >= 0) throw invalid(`manifest: documents not sorted and distinct at ${first.path}`);
    for (const d of head.documents) documents.push(d);
    readers.push(head.index);
  });
  return { documents, readers };
}

/**
 * Loads the cache at `dir` whose manifest text was already read. With `terms`, for one
 * query whose analysed terms they are: its index holds those terms' postings only.
 */
export function loadV1(dir: string, manifestText: string, parsed?: { readonly value: unknown }, terms?: readonly string[]): V1Cache {
  const top = readManifest(manifestText, parsed);
  if (Array.isArray(top)) throw invalid(`manifest: ${top[0] ?? 'unusable'}`);
  if (computeCacheVersion(top.buildConfig, top.packs) !== top.cacheVersion) {
    throw invalid('cache_version: does not match the recomputed hash');
  }
  const { documents, readers } = readPackHeads(dir, top, terms === undefined ? undefined : terms.map((t) => UTF8.encode(t)));
  const manifest: V1Manifest = { ...top, documents };
  const index = new PackedIndex(readers, FIELD_COUNT, POSTINGS_KEPT, terms !== undefined);
  const fds = new Map<number, number>();
  let open = true;
  const packFd = (pack: number): number => {
    const known = fds.get(pack);
    if (known !== undefined) {
      fds.delete(pack); // most recently used last
      fds.set(pack, known);
      return known;
    }
    const fd = openPack(dir, manifest.packs[pack] as FileRecord);
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
  const readText = (doc: number): string => {
    const d = manifest.documents[doc] as PackedDocument;
    let bytes: Buffer;
    try {
      bytes = fs.readAt(packFd(d.pack), d.bytes, d.offset);
    } catch (err) {
      if (err instanceof ContextError) throw err;
      if ((err as { code?: unknown }).code === 'ESHORT') throw invalid(`document_hashes: ${packPath((manifest.packs[d.pack] as FileRecord).sha256)} is truncated`);
      throw osFailure(err, { op: 'read', role: 'cache', subject: dir, path: join(dir, packPath((manifest.packs[d.pack] as FileRecord).sha256)) });
    }
    if (versionOf(bytes) !== d.version || !fs.isUtf8(bytes)) throw invalid(`document_hashes: ${d.path} does not hash to its version`);
    // The text its units are offsets into: an HTML page's visible text, as the build read it.
    const source = bytes.toString('utf8');
    return formatOfPath(d.path) === 'html' ? htmlText(source) : source;
  };
  const texts = new Map<number, string>();
  let textChars = 0;
  return {
    manifest,
    index,
    terms: terms === undefined ? null : new Set(terms),
    text(doc: number): string {
      if (!open) throw new ContextError('io_error', 'the cache was closed');
      const known = texts.get(doc);
      if (known !== undefined) {
        texts.delete(doc); // most recently used last
        texts.set(doc, known);
        return known;
      }
      const text = readText(doc);
      if (text.length <= TEXTS_KEPT / 4) {
        texts.set(doc, text);
        textChars += text.length;
        for (const [old, kept] of texts) {
          if (textChars <= TEXTS_KEPT) break;
          texts.delete(old);
          textChars -= kept.length;
        }
      }
      return text;
    },
    close(): void {
      if (open) for (const fd of fds.values()) fs.closeFile(fd);
      fds.clear();
      texts.clear();
      open = false;
    },
  };
}

/** Opens the format-10 cache at `dir` (reads its manifest first). */
export function openV1(dir: string): V1Cache {
  requireCacheDir(dir);
  return loadV1(dir, readCacheFile(dir, 'manifest.json').toString('utf8'));
}
