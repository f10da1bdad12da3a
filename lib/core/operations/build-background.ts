// Runs a build off the caller's event loop — on a worker thread when running as compiled
// JavaScript — so a server keeps reading its input while it builds, reports progress as it
// comes, and can stop the build: at the next progress report the build throws, staging
// removes its temporary directory, and an old cache stays exactly as it was. (Run from the
// TypeScript sources, as in-process tests do, the build runs on this thread instead.) A
// build ended at once (its worker terminated mid-analysis) may have begun writing its packs
// into its staging directory: that directory is removed here once the worker is gone.

import { Worker } from 'node:worker_threads';
import { ContextError, fromErrorData, toContextError, type ErrorData } from '../../errors.js';
import { runBuild, type BuildRequest } from './build-request.js';
import * as fs from '../fs.js';
import { BuildStopped, claimEnd, newFlag, requestStop, stagedDir, stopRequested } from './build-stop.js';
import type { BuildProgress, ProgressListener } from '../store/progress.js';

const WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./build-worker.js', import.meta.url) : null;

export type BackgroundBuild = { readonly kind: 'built'; readonly text: string } | { readonly kind: 'cancelled' };

export interface BackgroundOptions {
  readonly onProgress?: ProgressListener;
  /** Aborting asks the build to stop at its next progress report. */
  readonly signal?: AbortSignal;
}

type WorkerReply =
  | { readonly progress: BuildProgress }
  | { readonly text: string }
  | { readonly cancelled: true }
  | { readonly error: ErrorData };

export async function buildInBackground(request: BuildRequest, options: BackgroundOptions = {}): Promise<BackgroundBuild> {
  const flag = newFlag();
  if (options.signal?.aborted === true) return { kind: 'cancelled' };
  if (WORKER_URL === null) {
    const onAbort = (): void => requestStop(flag);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await inThisThread(request, flag, options.onProgress);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
  return inWorker(WORKER_URL, request, flag, options.onProgress, options.signal);
}

async function inThisThread(request: BuildRequest, flag: Int32Array, onProgress?: ProgressListener): Promise<BackgroundBuild> {
  try {
    const text = await runBuild(request, (p) => {
      if (p.phase !== 'done' && stopRequested(flag)) throw new BuildStopped();
      onProgress?.(p);
    });
    return { kind: 'built', text };
  } catch (err) {
    if (stopRequested(flag)) return { kind: 'cancelled' };
    throw toContextError(err);
  }
}

/** Removes the staging directory the build recorded, if any (best effort: a later build's sweep finds what is left). */
function removeStaged(flag: Int32Array): void {
  const dir = stagedDir(flag);
  if (dir === null) return;
  try {
    fs.removeTree(dir);
  } catch {
    // Left for the sweep of the next build of this cache once this process has ended.
  }
}

/**
 * Runs the build on a worker. Cancelled before it writes its cache (scanning, compiling
 * globs, reading, analyzing: whatever that costs), the worker is ended at once, the packs it
 * wrote early are removed, and the caller answers in milliseconds; cancelled while it
 * writes, it stops at its next progress report and staging removes what it wrote.
 */
function inWorker(url: URL, request: BuildRequest, flag: Int32Array, onProgress?: ProgressListener, signal?: AbortSignal): Promise<BackgroundBuild> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: { request, flag: flag.buffer } });
    let settled = false;
    const onAbort = (): void => {
      requestStop(flag);
      if (claimEnd(flag)) settle(() => resolve({ kind: 'cancelled' }), true);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // `ended`: the worker ends without having unwound its build (ended at once, or failed
    // outside it): what it staged is removed once it is gone, before the caller hears.
    const settle = (fn: () => void, ended = false): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      const gone = worker.terminate();
      if (!ended) {
        fn();
        return;
      }
      void gone.then(
        () => removeStaged(flag),
        () => removeStaged(flag),
      ).then(fn);
    };
    worker.on('message', (reply: WorkerReply) => {
      if ('progress' in reply) {
        try {
          onProgress?.(reply.progress);
        } catch {
          // A listener's failure must not take the server down; reports are advisory.
        }
      }
      else if ('text' in reply) settle(() => resolve({ kind: 'built', text: reply.text }));
      else if ('cancelled' in reply) settle(() => resolve({ kind: 'cancelled' }));
      else settle(() => reject(fromErrorData(reply.error)));
    });
    worker.once('error', (err) => settle(() => reject(new ContextError('internal_error', String(err))), true));
    worker.once('exit', (code) => settle(() => reject(new ContextError('internal_error', `build worker exited with ${code}`)), true));
  });
}
