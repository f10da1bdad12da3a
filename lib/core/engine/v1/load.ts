// Opens a v1 cache for answering queries without reading its documents' contents:
// the manifest is checked (shape, cache_version recomputed from the packs' heads), every
// pack must be there with its recorded size, and each pack's head (its document list and
// index) is read and must match the size and sha256 the manifest records — or, loaded for
// one query, each pack's rank columns and that query's terms' postings from the term files
// and the names of the packs its answer looks at, every block checked against its record
// (./segments.ts readQueryHeads). A document's
// content is read only when selected, from its pack (opened then and kept open, at most
// OPEN_PACKS at a time, its size checked again), and re-hashed against its version, so a
// damaged cache yields cache_invalid, never a wrong answer.
// A pack is named by its hash: one opened after a rebuild swapped the cache directory
// holds the same bytes, or is gone (cache_invalid, as for any missing pack). The heads are
// read and checked by ./heads.ts, for a large cache loaded whole partly on a worker
// (loadV1Parallel).

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ContextError, errorData, fromErrorData, osFailure, type ErrorData } from '../../../errors.js';
import { FIELD_COUNT } from '../../analysis/term-counter.js';
import { htmlText } from '../../analysis/html.js';
import { formatOfPath } from '../../sources/extensions.js';
import { requireCacheDir } from '../../store/locate.js';
import * as fs from '../../fs.js';
import { versionOf } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import { IndexReader } from '../../index/index-format.js';
import { PackedIndex, POSTINGS_KEPT, type UnitIndex } from '../../index/packed-index.js';
import { computeCacheVersion, documentList, type FileRecord, packPath, type PackRecord, readManifest, type ManifestTop, type PackedDocument, type V1Manifest } from './manifest.js';
import { joinDocuments, openPack, readHeads, type Heads, type QueryHeads } from './heads.js';
import { readQueryHeads } from './segments.js';

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

/** Every pack's head of the cache at `dir`, read and checked in order (./heads.ts readHeads). */
export function readPackHeads(dir: string, top: ManifestTop, keys?: readonly Uint8Array[]): Heads {
  return readHeads(dir, top.packs, 0, keys);
}

/** The manifest of `manifestText`, its shape and cache_version checked. */
function checkedTop(manifestText: string, parsed?: { readonly value: unknown }): ManifestTop {
  const top = readManifest(manifestText, parsed);
  if (Array.isArray(top)) throw invalid(`manifest: ${top[0] ?? 'unusable'}`);
  if (computeCacheVersion(top.buildConfig, top.packs) !== top.cacheVersion) {
    throw invalid('cache_version: does not match the recomputed hash');
  }
  return top;
}

/**
 * Loads the cache at `dir` whose manifest text was already read. With `terms`, for one
 * query whose analysed terms they are: its index holds those terms' postings only.
 */
export function loadV1(dir: string, manifestText: string, parsed?: { readonly value: unknown }, terms?: readonly string[]): V1Cache {
  const top = checkedTop(manifestText, parsed);
  return cacheOf(dir, top, terms === undefined ? readPackHeads(dir, top) : readQueryHeads(dir, top, terms.map((t) => UTF8.encode(t))), terms);
}

/** The loaded cache of manifest `top` whose heads are `heads` (for `terms` alone, when given). */
function cacheOf(dir: string, top: ManifestTop, heads: Heads | QueryHeads, terms?: readonly string[]): V1Cache {
  const { documents, readers } = heads;
  const manifest: V1Manifest = { ...top, documents: Array.isArray(documents) ? documentList(documents) : documents };
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
    const d = manifest.documents.at(doc);
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

/**
 * Below this many bytes of heads a one-query load checks them all on its own thread: a worker
 * takes ~0.1 s to start and competes for the second core (on 2 cores, 93 MB of heads: 0.12–0.16 s
 * alone, 0.16–0.19 s with a worker; 926 MB: 1.01–1.08 s alone, 0.76–0.78 s with one).
 */
export const PARALLEL_HEAD_BYTES = 256 << 20;
/** The loading thread's share of the heads' bytes when a worker takes the rest (it starts at once). */
const MAIN_SHARE = 0.55;
// The worker runs compiled JavaScript; under a TypeScript loader (tests) load on one thread.
const HEADS_WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./heads-worker.js', import.meta.url) : null;

/** The worker's packs checked before any failure, and the failure (null: none). */
interface HeadsReply {
  readonly documents: PackedDocument[];
  readonly indexes: Uint8Array[];
  readonly error: ErrorData | null;
}

/**
 * As loadV1 (with `terms`: a cache loaded for one query, on this thread; without: whole, as
 * a server keeps it, with the later packs' heads read and checked on a worker thread when
 * there are at least `minBytes` of heads (PARALLEL_HEAD_BYTES) and `threads` is 2 or more): the same checks
 * on the same bytes, the same cache, and the same failure a sequential load reports (this
 * thread's packs come first, and it reports its own before the worker's).
 */
export async function loadV1Parallel(dir: string, manifestText: string, parsed: { readonly value: unknown } | undefined, terms: readonly string[] | undefined, threads: number, minBytes = PARALLEL_HEAD_BYTES): Promise<V1Cache> {
  const top = checkedTop(manifestText, parsed);
  // One query reads its terms' postings from the term files and each pack's lead, a few
  // percent of the heads: on one thread.
  if (terms !== undefined) return cacheOf(dir, top, readQueryHeads(dir, top, terms.map((t) => UTF8.encode(t))), terms);
  const total = top.packs.reduce((n, p) => n + p.head.bytes, 0);
  if (HEADS_WORKER_URL === null || threads < 2 || top.packs.length < 2 || total < minBytes) return cacheOf(dir, top, readPackHeads(dir, top), terms);
  let split = 0;
  for (let bytes = 0; split < top.packs.length - 1 && bytes < total * MAIN_SHARE; split++) bytes += (top.packs[split] as PackRecord).head.bytes;
  const worker = new Worker(HEADS_WORKER_URL, { workerData: { dir, packs: top.packs.slice(split), first: split, keys: null } });
  const reply = new Promise<HeadsReply>((resolve) => {
    worker.once('message', (r: HeadsReply) => resolve(r));
    worker.once('error', (err) => resolve({ documents: [], indexes: [], error: errorData(new ContextError('internal_error', `heads worker: ${String(err)}`)) }));
  });
  let mine: Heads;
  try {
    mine = readHeads(dir, top.packs.slice(0, split), 0);
  } catch (err) {
    void worker.terminate();
    throw err;
  }
  const theirs = await reply;
  void worker.terminate();
  const documents = mine.documents;
  joinDocuments(documents, theirs.documents);
  if (theirs.error !== null) throw fromErrorData(theirs.error);
  const readers = [...mine.readers];
  for (const bytes of theirs.indexes) {
    try {
      readers.push(new IndexReader(bytes));
    } catch (err) {
      if (err instanceof IndexFormatError) throw invalid(`index: ${err.message}`);
      throw err;
    }
  }
  return cacheOf(dir, top, { documents, readers }, terms);
}

/** Opens the v1 cache at `dir` (reads its manifest first). */
export function openV1(dir: string): V1Cache {
  requireCacheDir(dir);
  return loadV1(dir, readCacheFile(dir, 'manifest.json').toString('utf8'));
}
