// Worker-thread entry of a large cache's load (./load.ts loadV1Parallel): reads and checks the
// later packs' heads exactly as the loading thread checks the earlier ones (./heads.ts
// readHeads), and posts back their documents and each pack's index — cut down to the query's
// terms for a one-query load, whole for a server's — handed over without a copy, with the
// ContextError the first failing pack met (as plain data), if any.

import { parentPort, workerData } from 'node:worker_threads';
import { errorData, toContextError } from '../../../errors.js';
import { readHeadsUntilFailure } from './heads.js';
import type { PackRecord } from './manifest.js';

const { dir, packs, first, keys } = workerData as { dir: string; packs: PackRecord[]; first: number; keys: Uint8Array[] | null };
try {
  // The packs checked before a failure come back with it: a seam between them and the
  // loading thread's packs is checked before the failure is reported, as in one thread.
  const { heads, error } = readHeadsUntilFailure(dir, packs, first, keys ?? undefined);
  // Each index is a view of a buffer this thread no longer needs (a one-query index's own
  // buffer, or a whole head's): moved, not copied. A buffer no larger than Node's Buffer pool
  // may be that pool (a small head read with Buffer.allocUnsafe), which cannot be moved: such
  // an index is copied into a buffer of its own first.
  const indexes = heads.readers.map((r) => (r.bytes.buffer.byteLength > Buffer.poolSize ? r.bytes : new Uint8Array(r.bytes)));
  const moved = [...new Set(indexes.map((b) => b.buffer as ArrayBuffer))];
  const failure = error === null ? null : errorData(toContextError(error));
  parentPort?.postMessage({ documents: heads.documents, indexes, error: failure }, moved);
} catch (err) {
  parentPort?.postMessage({ documents: [], indexes: [], error: errorData(toContextError(err)) });
}
