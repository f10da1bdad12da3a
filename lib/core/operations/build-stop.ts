// How a background build is asked to stop: a flag in shared memory (a worker cannot see the
// caller's AbortSignal), read at each progress report; BuildStopped unwinds the build from
// there, through staging's cleanup. The same memory holds the path of the staging directory a
// full build writes its packs into while it analyses, so that the caller, ending the build at
// once, removes that directory after it.

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
// writing, when only its own next progress report may stop it (staging then cleans up), or
// is making its staging directory (not ended meanwhile: the caller would not know it yet).
const MAY_END = 0;
const WRITING = 1;
const ENDED = 2;
const STAGING = 3;

// Word 2: the byte length of the staging directory's path (0: none made), its UTF-8 bytes
// after the three words.
const PATH_AT = 12;

/** A new flag: nothing asked, nothing staged. */
export function newFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(PATH_AT + 16_384));
}

/** The build is about to write: from now on it is never ended from outside. False: it was ended already. */
export function enterWriting(flag: Int32Array): boolean {
  return Atomics.compareExchange(flag, 1, MAY_END, WRITING) === MAY_END;
}

/** Claims the right to end the build at once (it has written nothing): true when it may be ended. */
export function claimEnd(flag: Int32Array): boolean {
  return Atomics.compareExchange(flag, 1, MAY_END, ENDED) === MAY_END;
}

/** The build is about to make its staging directory. False: it was ended already. */
export function enterStaging(flag: Int32Array): boolean {
  return Atomics.compareExchange(flag, 1, MAY_END, STAGING) === MAY_END;
}

/**
 * Records `dir`, the staging directory just made, for the caller (false: its path does not
 * fit, and nothing is recorded); then the build may be ended at once again.
 */
export function leaveStaging(flag: Int32Array, dir: string | null): boolean {
  let recorded = false;
  if (dir !== null) {
    const bytes = Buffer.from(dir, 'utf8');
    const room = new Uint8Array(flag.buffer, PATH_AT);
    if (bytes.length <= room.length) {
      room.set(bytes);
      Atomics.store(flag, 2, bytes.length);
      recorded = true;
    }
  }
  Atomics.compareExchange(flag, 1, STAGING, MAY_END);
  return recorded;
}

/** The staging directory the build recorded, or null. */
export function stagedDir(flag: Int32Array): string | null {
  const length = Atomics.load(flag, 2);
  return length === 0 ? null : Buffer.from(new Uint8Array(flag.buffer, PATH_AT, length)).toString('utf8');
}
