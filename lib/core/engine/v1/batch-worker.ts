// Worker-thread entry for v1 builds: runs one batch and posts back its result (its large
// arrays transferred, not copied), or the failure as plain data.

import { parentPort, workerData } from 'node:worker_threads';
import { toContextError } from '../../../errors.js';
import { BatchReadError, runBatch, type BatchTask } from './batch.js';

try {
  const result = await runBatch(workerData as BatchTask);
  const transfer: ArrayBuffer[] = [result.termIds.buffer as ArrayBuffer, result.tfs.buffer as ArrayBuffer];
  if (result.contents !== null && result.contents.byteOffset === 0 && result.contents.byteLength === result.contents.buffer.byteLength) {
    transfer.push(result.contents.buffer as ArrayBuffer);
  }
  parentPort?.postMessage({ result }, transfer);
} catch (err) {
  if (err instanceof BatchReadError) parentPort?.postMessage({ readError: { path: err.path, code: err.code ?? null } });
  else {
    const e = toContextError(err);
    parentPort?.postMessage({ error: { code: e.code, detail: e.detail ?? null } });
  }
}
