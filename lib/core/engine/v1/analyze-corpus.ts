// Runs a v1 build's analysis over all documents, split into contiguous batches: this thread
// takes the first, worker threads the others (when running as compiled JavaScript and the
// corpus is large enough to repay a worker's start). Results come back in document order
// and assemble into the same index however the work was split.

import { Worker } from 'node:worker_threads';
import { ContextError, fromOsError, type ErrorCode } from '../../../errors.js';
import { BatchReadError, runBatch, type BatchItem, type BatchResult, type BatchTask } from './batch.js';

/** Below this many documents per thread a worker costs more than it saves. */
const MIN_ITEMS_PER_THREAD = 500;
/** This thread starts at once while a worker boots; it takes this much more than an even share. */
const MAIN_SHARE = 1.15;
const WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./batch-worker.js', import.meta.url) : null;

type WorkerReply =
  | { result: BatchResult }
  | { readError: { path: string; code: string | null } }
  | { error: { code: ErrorCode; detail: string | null } };

function runWorker(url: URL, task: BatchTask): Promise<WorkerReply> {
  return new Promise((resolve) => {
    const worker = new Worker(url, { workerData: task });
    worker.once('message', (reply: WorkerReply) => {
      resolve(reply);
      void worker.terminate();
    });
    worker.once('error', (err) => resolve({ error: { code: 'internal_error', detail: String(err) } }));
  });
}

function readFailure(path: string, code: string | null): ContextError {
  return fromOsError(Object.assign(new Error(`cannot read ${path}`), { code }), 'io_error');
}

/** Analyzes `items` (in order) on up to `threads` threads; batches come back in order. */
export async function analyzeCorpus(task: BatchTask, threads: number): Promise<BatchResult[]> {
  const items = task.items;
  const parts = Math.max(1, Math.min(Math.floor(threads), Math.floor(items.length / MIN_ITEMS_PER_THREAD)));
  if (WORKER_URL === null || parts <= 1) return [await runMain(task)];
  const even = items.length / parts;
  const head = Math.min(items.length, Math.round(even * MAIN_SHARE));
  const rest = (items.length - head) / (parts - 1);
  const chunks: BatchItem[][] = [items.slice(0, head)];
  for (let k = 0; k < parts - 1; k++) chunks.push(items.slice(head + Math.round(k * rest), head + Math.round((k + 1) * rest)));
  const url = WORKER_URL;
  const pending = chunks.slice(1).map((chunk) => runWorker(url, { ...task, items: chunk }));
  let first: WorkerReply;
  try {
    first = { result: await runBatch({ ...task, items: chunks[0] as BatchItem[] }) };
  } catch (err) {
    if (err instanceof BatchReadError) first = { readError: { path: err.path, code: err.code ?? null } };
    else throw err;
  }
  const replies = [first, ...(await Promise.all(pending))];
  // Failures are reported in document order, whichever thread finished first.
  return replies.map((reply) => {
    if ('readError' in reply) throw readFailure(reply.readError.path, reply.readError.code);
    if ('error' in reply) throw new ContextError(reply.error.code, reply.error.detail ?? undefined);
    return reply.result;
  });
}

async function runMain(task: BatchTask): Promise<BatchResult> {
  try {
    return await runBatch(task);
  } catch (err) {
    if (err instanceof BatchReadError) throw readFailure(err.path, err.code ?? null);
    throw err;
  }
}
