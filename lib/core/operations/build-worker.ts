// Worker-thread entry of buildInBackground: runs one build, posts each progress report, and
// stops at the next report once the shared flag says so (throwing there, so staging removes
// its temporary directory and an old cache stays as it was). Replies once: the report line,
// a typed error, or "cancelled". The staging directory a full build writes its packs into
// while it analyses is recorded in the flag as it is made, for the caller to remove should
// it end this thread at once.

import { parentPort, workerData } from 'node:worker_threads';
import { errorData, toContextError } from '../../errors.js';
import { runBuild, type BuildRequest } from './build-request.js';
import * as fs from '../fs.js';
import { BuildStopped, enterStaging, enterWriting, leaveStaging, stopRequested } from './build-stop.js';

const { request, flag } = workerData as { request: BuildRequest; flag: SharedArrayBuffer };
const stop = new Int32Array(flag);
const port = parentPort;

if (port !== null) {
  runBuild(
    request,
    (progress) => {
      if (progress.phase !== 'done' && stopRequested(stop)) throw new BuildStopped();
      port.postMessage({ progress });
    },
    () => {
      // From here on this thread writes: it is no longer ended from outside.
      if (!enterWriting(stop)) throw new BuildStopped();
    },
    (make) => {
      // Not ended from outside between making the directory and recording it.
      if (!enterStaging(stop)) throw new BuildStopped();
      let dir: string | null = null;
      try {
        dir = make();
      } finally {
        if (!leaveStaging(stop, dir) && dir !== null) {
          fs.removeTree(dir); // (its path did not fit: the build writes at the end instead)
          dir = null;
        }
      }
      return dir;
    },
  ).then(
    (text) => port.postMessage({ text }),
    (err: unknown) => {
      if (stopRequested(stop)) {
        port.postMessage({ cancelled: true });
        return;
      }
      port.postMessage({ error: errorData(toContextError(err)) });
    },
  );
}
