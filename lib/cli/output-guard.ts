// What a command's exit code becomes when its standard streams fail. A closed stdout (EPIPE:
// `context resolve … | head`) is the reader's choice: nothing is printed and the command's
// own exit code stands. Any other failed write (ENOSPC on a full disk, EIO, EFBIG) means
// the output is incomplete without the reader knowing: one line on stderr, exit 6 io_error.
// Failures of stderr itself are swallowed (there is nowhere left to report them).

import { ERROR_TABLE, exitCodeOf } from '../errors.js';
import { osReason } from '../os-cause.js';

export interface OutputGuard {
  /** Waits until everything written so far is flushed (or failed); returns the final code. */
  finish(code: number, stderr: (text: string) => void): Promise<number>;
}

function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Codes that only say the reader has gone away. */
const READER_GONE: ReadonlySet<string> = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ECONNRESET']);

/** The detail of a failed write of the output: what, where, why, and what to do. */
export function outputFailure(errno: string | undefined): string {
  const full = errno === 'ENOSPC' || errno === 'EDQUOT';
  return `cannot write the output to standard output: ${errno === undefined ? 'an unknown error' : osReason(errno)}; ` +
    `${full ? 'free space on the device it goes to, or send' : 'send'} it elsewhere (a pipe, another file), then run the command again`;
}

/**
 * Listens for failures of `stdout` (and silences `stderr`'s) from now on: an unhandled
 * 'error' event would otherwise end the process with a stack trace.
 */
export function guardOutput(stdout: NodeJS.WritableStream, stderr?: NodeJS.WritableStream): OutputGuard {
  let failure: unknown = null;
  stdout.on('error', (err: unknown) => {
    if (failure === null) failure = err;
  });
  stderr?.on('error', () => undefined);
  const flushed = (): Promise<void> =>
    new Promise((resolve) => {
      const w = stdout as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
      if (w.destroyed === true || w.writableEnded === true) {
        resolve();
        return;
      }
      // An empty write's callback runs after every earlier write has completed or failed.
      w.write('', (err?: Error | null) => {
        if (err !== undefined && err !== null && failure === null) failure = err;
        resolve();
      });
    });
  return {
    async finish(code, report) {
      await flushed();
      if (failure === null) return code;
      const errno = errnoCode(failure);
      if (errno !== undefined && READER_GONE.has(errno)) return code;
      report(`error: io_error: ${ERROR_TABLE.io_error.message} (${outputFailure(errno)})\n`);
      // A command that already failed keeps its own code; a "success" with lost output is not one.
      return code === 0 ? exitCodeOf('io_error') : code;
    },
  };
}
