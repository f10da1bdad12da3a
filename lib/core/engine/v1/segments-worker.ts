// Worker-thread entry of a full build's term files (./segments.ts makeTermFiles): takes
// segments from the shared counter until none is left, makes each one's term file from its
// packs' heads (written into the staging directory already), writes it there, and posts
// its record; a failure is posted as plain data and ends the taking.

import { parentPort, workerData } from 'node:worker_threads';
import { errorData, toContextError } from '../../../errors.js';
import type { PackRecord } from './manifest.js';
import { takeSegments, type SegmentJob } from './segments.js';

const { dir, packs, jobs, next } = workerData as { dir: string; packs: PackRecord[]; jobs: SegmentJob[]; next: SharedArrayBuffer };
try {
  takeSegments(dir, packs, jobs, next, (job, record) => parentPort?.postMessage({ job, record }));
  parentPort?.postMessage({ done: true });
} catch (err) {
  Atomics.store(new Int32Array(next), 0, jobs.length);
  parentPort?.postMessage({ error: errorData(toContextError(err)) });
}
