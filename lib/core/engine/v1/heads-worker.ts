// Worker-thread entry of a large cache's one-query load (./load.ts loadV1Parallel): reads and
// checks the later packs' heads exactly as the loading thread checks the earlier ones
// (./heads.ts readHeads), and posts back their documents and each pack's index cut down to
// the query's terms (its own buffer, handed over without a copy), or the ContextError the
// first failing pack met (as plain data).

import { parentPort, workerData } from 'node:worker_threads';
import { errorData, toContextError } from '../../../errors.js';
import { readHeadsUntilFailure } from './heads.js';
import type { PackRecord } from './manifest.js';

const { dir, packs, first, keys } = workerData as { dir: string; packs: PackRecord[]; first: number; keys: Uint8Array[] };
try {
  // The packs checked before a failure come back with it: a seam between them and the
  // loading thread's packs is checked before the failure is reported, as in one thread.
  const { heads, error } = readHeadsUntilFailure(dir, packs, first, keys);
  const indexes = heads.readers.map((r) => r.bytes);
  // scopedIndex gives each index a buffer of its own, of its exact size: moved, not copied.
  const moved = indexes.map((b) => b.buffer).filter((buf, i) => (indexes[i] as Uint8Array).byteLength === buf.byteLength);
  const failure = error === null ? null : errorData(toContextError(error));
  parentPort?.postMessage({ documents: heads.documents, indexes, error: failure }, moved as ArrayBuffer[]);
} catch (err) {
  parentPort?.postMessage({ documents: [], indexes: [], error: errorData(toContextError(err)) });
}
