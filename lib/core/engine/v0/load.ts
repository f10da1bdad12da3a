// Loads a cache for selection: every invariant checked and every document re-hashed (any
// violation is cache_invalid). With `threads` > 1 the documents are read in contiguous
// batches on worker threads and this one; failures are reported in document order, so the
// outcome never depends on which thread finishes first. With `index` the documents' words
// are indexed in the same pass, for a process that answers many queries from one load.

import { Worker } from 'node:worker_threads';
import { ContextError, errorData, fromErrorData, type ErrorData } from '../../../errors.js';
import { examineStructure, throwFirst } from './check.js';
import type { ManifestEntry } from './format.js';
import { readBatch, unpackBatch, type DocumentBatch, type PackedBatch } from './read-batch.js';
import { ScoringCorpus } from './corpus.js';
import { WordIndexBuilder, type WordIndex } from './word-index.js';
import type { SelectableDocument, WordCounter } from './select.js';
import { tokensForBytes } from '../../analysis/text.js';

export interface LoadedCache {
  readonly cacheVersion: string;
  /** Sorted by id (byte order). */
  readonly documents: readonly SelectableDocument[];
  /** Word statistics of the documents: from the index, or scanned and memoized across queries. */
  readonly countWords: WordCounter;
  /** The word index, when loaded with `index: true`. */
  readonly index?: WordIndex;
}

export interface LoadOptions {
  /** Terms to count while loading (saves a second pass for the first query). */
  readonly terms?: readonly string[];
  /** Threads to read documents with (1 = this thread only). */
  readonly threads?: number;
  /**
   * Build a word index while loading (single-threaded; `terms` and `threads` are then
   * unused): every later query is answered by lookup, never by a scan of the documents.
   */
  readonly index?: boolean;
}

/** Below this many documents a worker costs more than it saves. */
const MIN_DOCS_PER_THREAD = 1000;
const MAIN_SHARE = 1.1; // measured on 2 cores, 10,000 documents: 1.0 -> 1.14 s, 1.1 -> 0.96 s, 1.2 -> 1.05 s (medians)
// The worker runs compiled JavaScript; under a TypeScript loader (tests) load serially.
const WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./read-worker.js', import.meta.url) : null;

function assemble(cacheVersion: string, terms: readonly string[], batches: readonly DocumentBatch[], index?: WordIndex): LoadedCache {
  const docs = batches.flatMap((b) => b.documents);
  const totalWords = new Uint32Array(docs.length);
  const seed = new Map<string, Uint32Array>(terms.map((t) => [t, new Uint32Array(docs.length)]));
  let offset = 0;
  for (const b of batches) {
    totalWords.set(b.totalWords, offset);
    terms.forEach((t, k) => (seed.get(t) as Uint32Array).set(b.termCounts[k] as Uint32Array, offset));
    offset += b.documents.length;
  }
  const documents: SelectableDocument[] = docs.map((d) => ({
    id: d.id,
    version: d.version,
    content: d.content,
    tokens: tokensForBytes(d.bytes),
  }));
  if (index !== undefined) return { cacheVersion, documents, countWords: (t) => index.stats(t), index };
  const corpus = new ScoringCorpus(docs, totalWords, seed);
  return { cacheVersion, documents, countWords: (t) => corpus.stats(t) };
}

/** Loads synchronously on this thread. */
export function loadCache(dir: string, options: LoadOptions = {}): LoadedCache {
  const structure = examineStructure(dir, throwFirst) as NonNullable<ReturnType<typeof examineStructure>>;
  if (options.index === true) {
    const builder = new WordIndexBuilder();
    const batch = readBatch(dir, structure.entries, [], builder);
    return assemble(structure.cacheVersion, [], [batch], builder.finish());
  }
  const terms = [...new Set(options.terms ?? [])];
  return assemble(structure.cacheVersion, terms, [readBatch(dir, structure.entries, terms)]);
}

type WorkerReply =
  | { batch: DocumentBatch }
  | { packed: PackedBatch }
  | { error: ErrorData };

function runWorker(url: URL, dir: string, entries: readonly ManifestEntry[], terms: readonly string[]): Promise<WorkerReply> {
  return new Promise((resolve) => {
    const worker = new Worker(url, { workerData: { dir, entries, terms } });
    worker.once('message', (reply: WorkerReply) => {
      resolve(reply);
      void worker.terminate();
    });
    worker.once('error', (err) => resolve({ error: errorData(new ContextError('internal_error', String(err))) }));
  });
}

/** Loads with up to `threads` threads; the result is identical to `loadCache`. */
export async function loadCacheParallel(dir: string, options: LoadOptions = {}): Promise<LoadedCache> {
  if (options.index === true) return loadCache(dir, options);
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const structure = examineStructure(dir, throwFirst) as NonNullable<ReturnType<typeof examineStructure>>;
  const terms = [...new Set(options.terms ?? [])];
  const { entries } = structure;
  const parts = Math.min(threads, Math.floor(entries.length / MIN_DOCS_PER_THREAD));
  if (WORKER_URL === null || parts <= 1) {
    return assemble(structure.cacheVersion, terms, [readBatch(dir, entries, terms)]);
  }
  // This thread starts at once; a worker first spends ~100 ms booting and loading modules,
  // so this thread takes a larger first share (MAIN_SHARE times an even split).
  const even = entries.length / parts;
  const head = Math.min(entries.length, Math.round(even * MAIN_SHARE));
  const rest = (entries.length - head) / (parts - 1);
  const chunks: ManifestEntry[][] = [entries.slice(0, head)];
  for (let k = 0; k < parts - 1; k++) chunks.push(entries.slice(head + Math.round(k * rest), head + Math.round((k + 1) * rest)));
  const url = WORKER_URL;
  const pending = chunks.slice(1).map((chunk) => runWorker(url, dir, chunk, terms));
  let first: WorkerReply;
  try {
    first = { batch: readBatch(dir, chunks[0] as ManifestEntry[], terms) };
  } catch (err) {
    if (!(err instanceof ContextError)) throw err;
    first = { error: errorData(err) };
  }
  const replies = [first, ...(await Promise.all(pending))];
  const batches: DocumentBatch[] = [];
  for (const reply of replies) {
    if ('error' in reply) throw fromErrorData(reply.error);
    batches.push('packed' in reply ? unpackBatch(reply.packed) : reply.batch);
  }
  return assemble(structure.cacheVersion, terms, batches);
}
