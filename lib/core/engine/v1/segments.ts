// Segments: runs of consecutive packs whose dictionaries are merged into one term file
// (../../index/term-file.ts), so that a query finds its terms with a few small reads per
// segment instead of reading every pack's dictionary. A segment ends after a pack whose
// last document's path has the top SEGMENT_CUT_BITS bits of its FNV-1a hash zero (such a
// path also ends its pack: one pack end in 16), or after the last pack. Where a segment ends
// depends only on paths, as where a pack ends does, so an edit changes the term file of the
// segment it falls in (two when it moves a cut) and a rebuild links every other.
//
// A term file follows from its packs' heads, byte for byte: a build makes it from them,
// `verify` makes it again and compares. A query reads each term file's top (checked against
// the manifest's sha256 of it; it lists its packs' head sha256s, which must be the
// manifest's), its packs' rank columns, per query term one dictionary block and that term's
// postings blocks, and the names of the packs its answer looks at, each checked against the
// top's sha256 of it before it is used: no pack is opened but those whose documents it
// prints.

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ContextError, type ErrorData, fromErrorData, osFailure } from '../../../errors.js';
import * as fs from '../../fs.js';
import { sha256Bytes, sha256Hex } from '../../hash.js';
import { IndexFormatError, LITTLE_ENDIAN_HOST } from '../../index/bytes.js';
import { compareU8, indexLeadParts, type IndexReader, type ScopedTerm } from '../../index/index-format.js';
import { encodeTermFile, findInBlock, POST_BLOCK, TermFileTop, type TermPostings } from '../../index/term-file.js';
import { FIELD_COUNT } from '../../analysis/term-counter.js';
import { pathHash } from './packs.js';
import { decodeHead, decodeRows, LazyDocuments, type ManifestTop, packPath, type PackLead, type PackRecord, type PackedDocument, termPath, type TermRecord } from './manifest.js';
import { openCacheFile, type QueryHeads } from './heads.js';

export const SEGMENT_CUT_BITS = 9;

/** Whether a pack whose last document is at `path` ends its segment. */
export function endsSegment(path: string): boolean {
  return pathHash(path) >>> (32 - SEGMENT_CUT_BITS) === 0;
}

/** How many packs each segment holds, for packs whose last documents are at `lastPaths`. */
export function segmentSizes(lastPaths: readonly string[]): number[] {
  const sizes: number[] = [];
  let n = 0;
  lastPaths.forEach((path, k) => {
    n++;
    if (endsSegment(path) || k === lastPaths.length - 1) {
      sizes.push(n);
      n = 0;
    }
  });
  return sizes;
}

/**
 * A pack's lead: its head (`head`, whose index is `index`) up to the index's dictionary, and
 * where in it the index begins (after the document list) and the index's strings begin.
 */
export function leadOf(head: Uint8Array, index: IndexReader): { lead: Uint8Array; rowsAt: number; stringsAt: number } {
  const rowsAt = head.length - index.bytes.length;
  const parts = indexLeadParts(index.bytes);
  return { lead: head.subarray(0, rowsAt + parts.end), rowsAt, stringsAt: rowsAt + parts.stringsAt };
}

/** The term file of consecutive packs (their records, head bytes and indexes): its record and bytes. */
export function encodeSegment(packs: readonly { readonly record: PackRecord; readonly head: Uint8Array; readonly index: IndexReader }[]): { record: TermRecord; bytes: Uint8Array } {
  const { bytes, topBytes } = encodeTermFile(
    packs.map((p) => ({ headSha256: Buffer.from(p.record.head.sha256, 'hex'), ...leadOf(p.head, p.index), index: p.index })),
    sha256Bytes,
  );
  return { record: { bytes: bytes.length, sha256: sha256Hex(bytes), packs: packs.length, top: { bytes: topBytes, sha256: sha256Hex(bytes.subarray(0, topBytes)) } }, bytes };
}

const invalid = (detail: string): ContextError => new ContextError('cache_invalid', detail);

/** A segment whose term file a build makes: its first pack and how many. */
export interface SegmentJob {
  readonly first: number;
  readonly count: number;
}

/**
 * Takes jobs from the shared counter `next` until none is left: makes each one's term file
 * from its packs' heads in the staging directory `dir` (`packs`: the build's), writes it
 * there, and hands its record to `made`.
 */
export function takeSegments(dir: string, packs: readonly PackRecord[], jobs: readonly SegmentJob[], next: SharedArrayBuffer, made: (job: number, record: TermRecord) => void): void {
  const counter = new Int32Array(next);
  for (;;) {
    const job = Atomics.add(counter, 0, 1);
    if (job >= jobs.length || job < 0) return;
    const { first, count } = jobs[job] as SegmentJob;
    const file = encodeSegment(packs.slice(first, first + count).map((record) => ({ record, ...headAt(dir, record) })));
    const name = join(dir, termPath(file.record.sha256));
    if (fs.lstatOrNull(name) === null) fs.createFileFrom(name, [file.bytes]);
    made(job, file.record);
  }
}

// The worker runs compiled JavaScript; under a TypeScript loader (tests) one thread makes them all.
const SEGMENTS_WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./segments-worker.js', import.meta.url) : null;
/** Fewer jobs than this are made on this thread alone: a worker takes ~0.1 s to start. */
const PARALLEL_JOBS = 4;

/**
 * The term files of `jobs` (segments whose packs are all in the staging directory `dir`),
 * made and written there on this thread and, with `threads` of 2 or more and enough jobs,
 * one worker beside it, taking them in turn: their records, in job order. The bytes do not
 * depend on which thread made a file.
 */
export async function makeTermFiles(dir: string, packs: readonly PackRecord[], jobs: readonly SegmentJob[], threads: number): Promise<TermRecord[]> {
  const records: (TermRecord | undefined)[] = new Array<TermRecord | undefined>(jobs.length);
  const next = new SharedArrayBuffer(4);
  // Each file's flush to disk started as soon as this thread hears of it (as the packs
  // written early are flushed: ./early-packs.ts), so that the fsync which publishes the
  // cache finds them written.
  const flushes: Promise<void>[] = [];
  const made = (job: number, record: TermRecord): void => {
    records[job] = record;
    flushes.push(fs.flushSoon(join(dir, termPath(record.sha256))));
  };
  if (SEGMENTS_WORKER_URL === null || threads < 2 || jobs.length < PARALLEL_JOBS) {
    takeSegments(dir, packs, jobs, next, made);
    await Promise.all(flushes);
    return records as TermRecord[];
  }
  const worker = new Worker(SEGMENTS_WORKER_URL, { workerData: { dir, packs, jobs, next } });
  const theirs = new Promise<unknown>((resolve) => {
    worker.on('message', (m: { job?: number; record?: TermRecord; done?: true; error?: ErrorData }) => {
      if (m.record !== undefined && m.job !== undefined) made(m.job, m.record);
      else if (m.done === true) resolve(null);
      else if (m.error !== undefined) resolve(fromErrorData(m.error));
    });
    worker.once('error', (err) => resolve(new ContextError('internal_error', `term files worker: ${String(err)}`)));
    worker.once('exit', () => resolve(new ContextError('internal_error', 'the term files worker ended early')));
  });
  try {
    takeSegments(dir, packs, jobs, next, made);
  } catch (err) {
    Atomics.store(new Int32Array(next), 0, jobs.length);
    await theirs;
    void worker.terminate();
    await Promise.all(flushes);
    throw err;
  }
  const failure = await theirs;
  void worker.terminate();
  await Promise.all(flushes);
  if (failure !== null) throw failure;
  for (const r of records) if (r === undefined) throw new ContextError('internal_error', 'a term file is missing');
  return records as TermRecord[];
}

/** Pack `record`'s head in the cache (or staging directory) at `dir` (a build's own pack), and its index. */
export function headAt(dir: string, record: PackRecord): { head: Uint8Array; index: IndexReader } {
  const name = packPath(record.sha256);
  const fd = fs.openRead(join(dir, name));
  let head: Buffer;
  try {
    head = fs.readAt(fd, record.head.bytes, 0);
  } finally {
    fs.closeFile(fd);
  }
  return { head, index: decodeHead(head, record).index };
}

/**
 * What a query of the terms whose UTF-8 bytes are `keys` (sorted, distinct) reads of the
 * cache at `dir`, from its term files: each pack's index header and rank columns, its
 * names (document list, answer columns, strings) when first asked for, and, in key order,
 * those of the terms it holds with their postings as it stores them, handed to `pack` in
 * pack order. Every pack's rank columns are read into one array, in pack order (a unit's
 * at its number times 1 + FIELD_COUNT), so that the packed index takes them as they are;
 * `names` reads the pack's names from its term file, opened again by name, at each call.
 * Every byte is checked before it is used (cache_invalid otherwise): each top against the
 * manifest, its packs' head sha256s against the manifest's, the rank columns, names and
 * blocks against the top.
 */
export function readQueryReads(dir: string, terms: readonly TermRecord[], packs: readonly PackRecord[], keys: readonly Uint8Array[], pack: (k: number, header: Uint8Array, rank: Uint32Array, names: () => PackNames, found: readonly ScopedTerm[]) => void): void {
  const stride = 1 + FIELD_COUNT;
  let units = 0;
  for (const p of packs) units += p.units;
  const rank = new Uint32Array(units * stride);
  const rankBytes = new Uint8Array(rank.buffer);
  let first = 0;
  let unit = 0;
  for (const record of terms) {
    const name = termPath(record.sha256);
    const fd = openCacheFile(dir, name, record.bytes);
    try {
      const read = readerOf(dir, name, fd);
      const topBytes = read(record.top.bytes, 0);
      if (sha256Hex(topBytes) !== record.top.sha256) throw invalid(`index: the top of ${name} does not match the manifest`);
      try {
        const top = new TermFileTop(topBytes);
        if (top.packs !== record.packs || top.fileBytes !== record.bytes || first + top.packs > packs.length) throw invalid(`index: ${name} does not describe itself as the manifest does`);
        // The rank columns, back to back after the top: one read, into the cache's array
        // where this segment's units begin, each pack's checked.
        let segment = 0;
        for (let p = 0; p < top.packs; p++) segment += (packs[first + p] as PackRecord).units;
        const from = unit * stride * 4;
        if (top.rankEnd - top.topBytes !== segment * stride * 4) throw invalid(`index: ${name} does not count its packs' units as the manifest does`);
        readInto(dir, name, fd, rankBytes.subarray(from, from + segment * stride * 4), top.topBytes);
        const views: Uint32Array[] = [];
        let at = unit;
        for (let p = 0; p < top.packs; p++) {
          const packRecord = packs[first + p] as PackRecord;
          if (Buffer.from((top.heads[p] as Uint8Array).buffer, (top.heads[p] as Uint8Array).byteOffset, 32).toString('hex') !== packRecord.head.sha256) {
            throw invalid(`index: ${name} is not the term file of its packs`);
          }
          const r = top.rank(p);
          const bytes = rankBytes.subarray(from + r.offset - top.topBytes, from + r.offset - top.topBytes + r.length);
          if (r.length !== packRecord.units * stride * 4 || !sha256Bytes(bytes).equals(r.sha256)) throw invalid(`index: rank columns in ${name} do not match their top`);
          if (!LITTLE_ENDIAN_HOST) swapU32(bytes);
          views.push(rank.subarray(at * stride, (at + packRecord.units) * stride));
          at += packRecord.units;
        }
        const hits: { key: Uint8Array; postings: TermPostings[] }[] = [];
        for (const key of keys) {
          const b = top.blockOf(key);
          if (b < 0) continue;
          const block = top.dictBlock(b);
          const bytes = read(block.length, block.offset);
          if (!sha256Bytes(bytes).equals(block.sha256)) throw invalid(`index: a block of ${name} does not match its top`);
          const postings = findInBlock(bytes, block.postStart, key, top.packs, top.postBytes);
          if (postings !== null) hits.push({ key, postings });
        }
        const blocks = postingsBlocks(hits, top, read, name);
        const found: ScopedTerm[][] = views.map(() => []);
        for (const { key, postings } of hits) {
          for (const p of postings) (found[p.pack] as ScopedTerm[]).push({ term: key, count: p.count, postings: slice(blocks, p.start, p.bytes) });
        }
        for (let p = 0; p < top.packs; p++) pack(first + p, top.header(p), views[p] as Uint32Array, namesOf(dir, record, top.names(p)), found[p] as ScopedTerm[]);
        unit += segment;
      } catch (err) {
        if (err instanceof IndexFormatError) throw invalid(`index: ${name}: ${err.message}`);
        throw err;
      }
    } finally {
      fs.closeFile(fd);
    }
    first += record.packs;
  }
  if (first !== packs.length) throw invalid('manifest: the term files do not cover the packs');
}

/** `bytes` read from `position` of the cache file `name` open as `fd` (cache_invalid when it is shorter). */
function readInto(dir: string, name: string, fd: number, bytes: Uint8Array, position: number): void {
  try {
    fs.readInto(fd, bytes, bytes.length, position);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ESHORT') throw invalid(`documents_exist: ${name} is truncated`);
    throw osFailure(err, { op: 'read', role: 'cache', subject: dir, path: join(dir, name) });
  }
}

/** Little-endian u32s read on a big-endian host: each swapped in place. */
function swapU32(bytes: Uint8Array): void {
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const a = bytes[i] as number;
    const b = bytes[i + 1] as number;
    bytes[i] = bytes[i + 3] as number;
    bytes[i + 1] = bytes[i + 2] as number;
    bytes[i + 2] = b;
    bytes[i + 3] = a;
  }
}

/** A pack's names as its term file holds them: its head's magic, document list and padding; its units' answer columns; its index's strings section. */
export interface PackNames {
  readonly list: Uint8Array;
  readonly answer: Uint8Array;
  readonly strings: Uint8Array;
}

/** Reads `length` bytes at `at` of the cache file `name` open as `fd` (cache_invalid when it is shorter). */
function readerOf(dir: string, name: string, fd: number): (length: number, at: number) => Buffer {
  return (length, at) => {
    const bytes = Buffer.allocUnsafe(length);
    readInto(dir, name, fd, bytes, at);
    return bytes;
  };
}

/**
 * A pack's names in the term file `record` of the cache at `dir` (`at`: where, as its top
 * says): the file opened again by name — the same bytes or none, as it is named by its
 * hash — and the bytes read and checked against the top's sha256 of them.
 */
function namesOf(dir: string, record: TermRecord, at: { readonly offset: number; readonly length: number; readonly list: number; readonly answer: number; readonly sha256: Uint8Array }): () => PackNames {
  return () => {
    const name = termPath(record.sha256);
    const fd = openCacheFile(dir, name, record.bytes);
    let bytes: Buffer;
    try {
      bytes = readerOf(dir, name, fd)(at.length, at.offset);
    } finally {
      fs.closeFile(fd);
    }
    if (!sha256Bytes(bytes).equals(at.sha256)) throw invalid(`index: names in ${name} do not match their top`);
    return { list: bytes.subarray(0, at.list), answer: bytes.subarray(at.list, at.list + at.answer), strings: bytes.subarray(at.list + at.answer) };
  };
}

/** The postings blocks `hits` need, read in runs and each checked: block number to bytes. */
function postingsBlocks(hits: readonly { readonly postings: readonly TermPostings[] }[], top: TermFileTop, read: (length: number, at: number) => Buffer, name: string): Map<number, Buffer> {
  const wanted = new Set<number>();
  for (const h of hits) {
    for (const p of h.postings) {
      if (p.bytes === 0) continue;
      for (let b = Math.floor(p.start / POST_BLOCK); b <= Math.floor((p.start + p.bytes - 1) / POST_BLOCK); b++) wanted.add(b);
    }
  }
  const list = [...wanted].sort((a, b) => a - b);
  const blocks = new Map<number, Buffer>();
  const end = (b: number): number => Math.min(top.postBytes, (b + 1) * POST_BLOCK);
  for (let i = 0; i < list.length; ) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === (list[j] as number) + 1) j++;
    const from = (list[i] as number) * POST_BLOCK;
    const run = read(end(list[j] as number) - from, top.postOffset + from);
    for (let b = list[i] as number; b <= (list[j] as number); b++) {
      const bytes = run.subarray(b * POST_BLOCK - from, end(b) - from);
      if (!sha256Bytes(bytes).equals(top.postBlockSha(b))) throw invalid(`index: a block of ${name} does not match its top`);
      blocks.set(b, bytes);
    }
    i = j + 1;
  }
  return blocks;
}

/** Bytes [start, start + length) of the postings, from their checked blocks. */
function slice(blocks: ReadonlyMap<number, Buffer>, start: number, length: number): Uint8Array {
  const first = Math.floor(start / POST_BLOCK);
  const last = length === 0 ? first : Math.floor((start + length - 1) / POST_BLOCK);
  if (first === last) {
    const b = blocks.get(first);
    return b === undefined ? new Uint8Array(0) : b.subarray(start - first * POST_BLOCK, start - first * POST_BLOCK + length);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (let b = first; b <= last; b++) {
    const bytes = blocks.get(b) as Buffer;
    const from = b === first ? start - first * POST_BLOCK : 0;
    const to = b === last ? start + length - b * POST_BLOCK : bytes.length;
    out.set(bytes.subarray(from, to), at);
    at += to - from;
  }
  return out;
}

/**
 * What a query of the terms whose UTF-8 bytes are `keys` reads of the cache at `dir` whose
 * manifest is `top`: from the term files (readQueryReads), each pack's rank columns and
 * those terms' postings, every byte checked against its record — per pack, an index holding
 * those terms alone, the bytes readHeads makes of the whole heads for `keys` — and the
 * documents, each pack's names (its list, answer columns and strings) read the first time
 * one of its documents, or one of its units' offsets, slugs or trails, is asked for. No
 * pack is opened. The first failure met is thrown.
 */
export function readQueryHeads(dir: string, top: ManifestTop, keys: readonly Uint8Array[]): QueryHeads {
  const sorted: Uint8Array[] = [];
  for (const key of [...keys].sort(compareU8)) if (sorted.length === 0 || compareU8(sorted[sorted.length - 1] as Uint8Array, key) !== 0) sorted.push(key);
  const lists: (() => readonly PackedDocument[])[] = [];
  const readers: IndexReader[] = [];
  readQueryReads(dir, top.terms, top.packs, sorted, (k, header, rank, names, found) => {
    const record = top.packs[k] as PackRecord;
    const where = (err: unknown): ContextError =>
      err instanceof ContextError ? err : invalid(`index: the lead of ${packPath(record.sha256)}: ${err instanceof Error ? err.message : String(err)}`);
    // The names read once, for whichever asks first: the documents or the index's strings.
    let known: PackNames | null = null;
    const parts = (): PackNames => (known ??= names());
    let lead: PackLead;
    try {
      lead = decodeRows(header, rank, record, found, () => parts(), () => parts().list, k, record.head.bytes);
    } catch (err) {
      throw where(err);
    }
    lists.push(() => {
      try {
        return lead.documents();
      } catch (err) {
        throw where(err);
      }
    });
    readers.push(lead.index);
  });
  return { documents: new LazyDocuments(top.packs.map((p) => p.documents), lists), readers };
}
