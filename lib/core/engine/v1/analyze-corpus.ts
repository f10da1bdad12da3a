// Runs a v1 build's analysis over all documents on this thread and worker threads (when
// running as compiled JavaScript and the corpus is large enough to repay a worker's start).
// The documents are cut into small contiguous chunks handed out as threads ask for them (one
// shared counter), so every core stays busy to the end whatever the documents cost; results
// come back as one batch per chunk, in document order, and assemble into the same index
// however the work was split. In a full build each chunk ends just after a path that cuts a
// pack, and the thread that analyses it encodes its packs as well (./packs.ts packsWithin):
// the main thread is left only to write them.

import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { ContextError, errorData, fromErrorData, osFailure, toContextError, type ErrorData, type PathRole } from '../../../errors.js';
import { withPacks } from './assemble.js';
import { analyzeBatch, BatchReadError, type BatchItem, type BatchResult, type BatchTask } from './batch.js';
import { cutsPack } from './packs.js';

/** Below this many documents per thread a worker costs more than it saves. */
const MIN_ITEMS_PER_THREAD = 500;
/** Documents per chunk (at most, before a chunk runs on to a pack's end): large enough that a chunk's dictionary is worth its merge. */
export const CHUNK_ITEMS = 256;
/**
 * Chunks shrink toward the end of the items, to an eighth of what is left, down to this
 * many: the thread that takes the last chunk then keeps the other waiting a short while,
 * not for up to a whole chunk of 256 documents (~0.6 s of one core on real text).
 */
export const LAST_CHUNK_ITEMS = 32;
/**
 * Above this many items a full build's analysis is cut into chunks even on one thread (below
 * it, one batch: the documents' bytes it holds at once stay small).
 */
export const ONE_BATCH_ITEMS = 2 * MIN_ITEMS_PER_THREAD;
const WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./batch-worker.js', import.meta.url) : null;

/** What a worker is given: the whole task, where each chunk begins, and the shared counter of the next chunk to take. */
export interface ChunkedTask {
  readonly task: BatchTask;
  /** Chunk k is items[starts[k], starts[k + 1]) (the last entry: the number of items). */
  readonly starts: readonly number[];
  readonly next: SharedArrayBuffer;
}

/**
 * Where the chunks of `items` begin: every `chunkItems` items, then, once fewer than eight
 * chunks of that size are left, every eighth of the items left (at least LAST_CHUNK_ITEMS,
 * or all that is left); when the task encodes packs, each chunk runs on to just after the
 * next item whose path cuts a pack (./packs.ts), so that a chunk begins where a pack does
 * and its packs are made whole on its thread.
 */
export function chunkStarts(items: readonly BatchItem[], chunkItems: number, alignToPacks: boolean): number[] {
  const starts = [0];
  let at = 0;
  while (at < items.length) {
    const size = Math.min(chunkItems, Math.max(LAST_CHUNK_ITEMS, Math.ceil((items.length - at) / 8)));
    at = Math.min(items.length, at + size);
    if (alignToPacks) while (at < items.length && !cutsPack((items[at - 1] as BatchItem).path)) at++;
    starts.push(at);
  }
  return starts;
}

/** A chunk's outcome, as a worker posts it (and as this thread records its own). */
export type ChunkReply =
  | { readonly chunk: number; readonly result: BatchResult }
  | { readonly chunk: number; readonly readError: { readonly path: string; readonly code: string | null } }
  | { readonly chunk: number; readonly error: ErrorData };

/** The items of chunk `k`. */
function chunkOf(chunked: ChunkedTask, k: number): BatchTask {
  return { ...chunked.task, items: chunked.task.items.slice(chunked.starts[k], chunked.starts[k + 1]) };
}

/**
 * Takes chunks from the shared counter until none is left, running each and handing its
 * outcome to `reply` (never throws: a failure is an outcome). A failed chunk stops every thread from taking more: chunks are taken in
 * order, so every chunk before it has been taken and runs to its end, and the first failure
 * in document order is among those reported.
 */
export async function takeChunks(chunked: ChunkedTask, reply: (r: ChunkReply) => void): Promise<void> {
  const next = new Int32Array(chunked.next);
  const count = chunked.starts.length - 1;
  for (;;) {
    const chunk = Atomics.add(next, 0, 1);
    if (chunk >= count || chunk < 0) return;
    let result: BatchResult;
    try {
      result = await runChunk(chunkOf(chunked, chunk), chunk === count - 1);
    } catch (err) {
      Atomics.store(next, 0, count);
      if (err instanceof BatchReadError) {
        reply({ chunk, readError: { path: err.path, code: err.code ?? null } });
      } else {
        reply({ chunk, error: errorData(toContextError(err)) });
      }
      continue;
    }
    reply({ chunk, result });
    // Let the event loop run between chunks: on the main thread, the workers' replies wait
    // in it (their packs are written as they come, ./early-packs.ts), not all at the end
    // while the workers idle (a default build of 10,000 real-text files: ~0.3 s).
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Nobody takes another chunk (the counter is set to the number of chunks: every later take is past the end). */
function noMoreChunks(chunked: ChunkedTask): void {
  Atomics.store(new Int32Array(chunked.next), 0, chunked.starts.length - 1);
}

function runWorker(url: URL, chunked: ChunkedTask, onReply: (r: ChunkReply) => void): Promise<void> {
  return new Promise((resolve) => {
    const worker = new Worker(url, { workerData: chunked });
    worker.on('message', (message: ChunkReply | { done: true }) => {
      if ('done' in message) {
        resolve();
        void worker.terminate();
      } else {
        onReply(message);
      }
    });
    worker.once('error', (err) => {
      noMoreChunks(chunked);
      onReply({ chunk: -1, error: errorData(new ContextError('internal_error', String(err))) });
      resolve();
    });
  });
}

/** Where the documents an analysis reads come from: the sources folder (a build) or a cache (verify). */
export interface AnalysisOrigin {
  readonly role: PathRole;
  /** The sources folder or the cache (absolute). */
  readonly subject: string;
}

/** A document that could not be read: its file when it is a source, else the cache that holds it. */
function readFailure(path: string, code: string | null, origin: AnalysisOrigin | null): ContextError {
  if (origin === null) return osFailure({ code: code ?? undefined }, { op: 'read', role: 'sources', subject: path });
  const file = origin.role === 'sources' ? { path: join(origin.subject, path) } : {};
  return osFailure({ code: code ?? undefined }, { op: 'read', role: origin.role, subject: origin.subject, ...file });
}

/**
 * Analyzes `items` (in order) on up to `threads` threads; batches come back in order.
 * `arrived`, when given, is called on the main thread with each chunk's batch (and the
 * chunk's number) as soon as it is done, in whatever order they finish (a full build writes
 * their packs then: ./early-packs.ts); with it comes `keep`, which replaces what is returned
 * for a chunk already arrived (this one or another) by a lighter batch: a full build lets go
 * of a chunk's contents and index once its packs are written (./build.ts), so that what it
 * holds does not grow with the corpus. `analyzed`, after it, with how many items are analysed
 * so far (the build's progress: once per chunk, when the analysis is cut into chunks). Should
 * either throw (a build asked to stop throws from its progress report), no thread takes
 * another chunk, those running end, and that error is thrown.
 *
 * A task that encodes packs (a full build) of more than ONE_BATCH_ITEMS items is cut into
 * chunks even on one thread: one batch would hold every document's bytes at once.
 */
export async function analyzeCorpus(
  task: BatchTask,
  threads: number,
  arrived?: (batch: BatchResult, chunk: number, keep: (chunk: number, batch: BatchResult) => void) => void,
  analyzed?: (items: number) => void,
  origin: AnalysisOrigin | null = null,
): Promise<BatchResult[]> {
  const items = task.items;
  const parts = WORKER_URL === null ? 1 : Math.max(1, Math.min(Math.floor(threads), Math.floor(items.length / MIN_ITEMS_PER_THREAD)));
  if (parts <= 1 && !(task.encodePacks === true && items.length > ONE_BATCH_ITEMS)) {
    let batch = await runMain(task, origin);
    arrived?.(batch, 0, (chunk, lighter) => {
      if (chunk === 0) batch = lighter;
    });
    return [batch];
  }
  const chunked: ChunkedTask = { task, starts: chunkStarts(items, CHUNK_ITEMS, task.encodePacks === true), next: new SharedArrayBuffer(4) };
  const count = chunked.starts.length - 1;
  const results: (BatchResult | undefined)[] = new Array<BatchResult | undefined>(count);
  const keep = (chunk: number, lighter: BatchResult): void => {
    if (results[chunk] !== undefined) results[chunk] = lighter;
  };
  const failures: ChunkReply[] = [];
  let failed: { readonly error: unknown } | null = null;
  let done = 0;
  const record = (r: ChunkReply): void => {
    if (!('result' in r)) {
      failures.push(r);
      return;
    }
    results[r.chunk] = r.result;
    if (failed !== null) return;
    done += (chunked.starts[r.chunk + 1] as number) - (chunked.starts[r.chunk] as number);
    try {
      arrived?.(r.result, r.chunk, keep);
      analyzed?.(done);
    } catch (error) {
      failed = { error };
      noMoreChunks(chunked);
    }
  };
  const url = WORKER_URL;
  const workers = url === null ? [] : Array.from({ length: parts - 1 }, () => runWorker(url, chunked, record));
  await takeChunks(chunked, record);
  await Promise.all(workers);
  if (failed !== null) throw (failed as { readonly error: unknown }).error;
  // Failures are reported in document order, whichever thread met them first.
  failures.sort((a, b) => a.chunk - b.chunk);
  for (const reply of failures) {
    if ('readError' in reply) throw readFailure(reply.readError.path, reply.readError.code, origin);
    if ('error' in reply) throw fromErrorData(reply.error);
  }
  for (let k = 0; k < count; k++) if (results[k] === undefined) throw new ContextError('internal_error', 'a chunk of the analysis is missing');
  return results as BatchResult[];
}

/** A chunk's analysis, and its packs when the task asks for them (`last`: the chunk ends the build's documents). */
async function runChunk(task: BatchTask, last: boolean): Promise<BatchResult> {
  const { result, order } = await analyzeBatch(task);
  return task.encodePacks === true ? withPacks(result, order, last) : result;
}

async function runMain(task: BatchTask, origin: AnalysisOrigin | null): Promise<BatchResult> {
  try {
    return await runChunk(task, true);
  } catch (err) {
    if (err instanceof BatchReadError) throw readFailure(err.path, err.code ?? null, origin);
    throw err;
  }
}
