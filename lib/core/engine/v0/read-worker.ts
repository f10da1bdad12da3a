// Worker-thread entry for the parallel cache loader: reads one batch of documents and
// posts back either the batch or the ContextError it failed with (as plain data).

import { parentPort, workerData } from 'node:worker_threads';
import { errorData, toContextError } from '../../../errors.js';
import type { ManifestEntry } from './format.js';
import { packBatch, readBatch } from './read-batch.js';

const { dir, entries, terms } = workerData as { dir: string; entries: ManifestEntry[]; terms: string[] };
try {
  parentPort?.postMessage({ packed: packBatch(readBatch(dir, entries, terms)) });
} catch (err) {
  parentPort?.postMessage({ error: errorData(toContextError(err)) });
}
