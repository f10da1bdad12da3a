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
