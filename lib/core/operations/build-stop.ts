// How a background build is asked to stop: a flag in shared memory (a worker cannot see the
// caller's AbortSignal), read at each progress report; BuildStopped unwinds the build from
// there, through staging's cleanup.

export class BuildStopped extends Error {
  constructor() {
    super('build stopped');
    this.name = 'BuildStopped';
  }
}

export function stopRequested(flag: Int32Array): boolean {
  return Atomics.load(flag, 0) === 1;
}

export function requestStop(flag: Int32Array): void {
  Atomics.store(flag, 0, 1);
}

// Word 1 of the flag: whether the build may be ended at once (a worker terminated) or is
// writing, when only its own next progress report may stop it (staging then cleans up).
const MAY_END = 0;
const WRITING = 1;
const ENDED = 2;

/** The build is about to write: from now on it is never ended from outside. False: it was ended already. */
export function enterWriting(flag: Int32Array): boolean {
  return Atomics.compareExchange(flag, 1, MAY_END, WRITING) === MAY_END;
}

/** Claims the right to end the build at once (it has written nothing): true when it may be ended. */
export function claimEnd(flag: Int32Array): boolean {
  return Atomics.compareExchange(flag, 1, MAY_END, ENDED) === MAY_END;
}
