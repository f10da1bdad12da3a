// Worker-thread entry for v1 builds: takes chunks of the documents from the shared counter
// until none is left, posting each chunk's result (its large arrays transferred, not copied)
// or its failure as plain data, then `done`.

import { parentPort, workerData } from 'node:worker_threads';
import { takeChunks, type ChunkedTask, type ChunkReply } from './analyze-corpus.js';

await takeChunks(workerData as ChunkedTask, (reply: ChunkReply) => {
  if (!('result' in reply)) {
    parentPort?.postMessage(reply);
    return;
  }
  const result = reply.result;
  const transfer: ArrayBuffer[] = [result.termIds.buffer as ArrayBuffer, result.tfs.buffer as ArrayBuffer];
  if (result.contents !== null && result.contents.byteOffset === 0 && result.contents.byteLength === result.contents.buffer.byteLength) {
    transfer.push(result.contents.buffer as ArrayBuffer);
  }
  for (const pack of result.packs ?? []) {
    if (pack.head.byteOffset === 0 && pack.head.byteLength === pack.head.buffer.byteLength) transfer.push(pack.head.buffer as ArrayBuffer);
  }
  parentPort?.postMessage(reply, transfer);
});
parentPort?.postMessage({ done: true });
