// The stdio transport over injected streams: reads lines from `input`, hands each to the
// session in order, writes each reply as one line. A line is handled to its reply before
// the next is taken — so replies keep request order — unless its handler `detach`es it (a
// slow call, session.ts): the next lines are then taken at once and its reply goes out
// whenever it is ready. Input keeps being read while a line is handled — every line is
// shown to `peek` as it arrives, so a cancellation reaches a long request while it runs —
// up to MAX_QUEUED lines ahead, after which reading waits. Honours output backpressure; a
// closed or failing output (EPIPE) ends the loop quietly; end of input ends it after the
// last reply, detached ones included.

import { once } from 'node:events';
import { LineSplitter, type LineItem } from './line-splitter.js';

/** Writes one line (without its "\n") now, ahead of the reply being prepared (notifications). */
export type LineSender = (line: string) => Promise<void>;

/**
 * Turns one input line into at most one output line (without its "\n"). `detach` lets the
 * lines after it be handled before its reply is ready.
 */
export type LineHandler = (item: LineItem, send: LineSender, detach: () => void) => Promise<string | Uint8Array | null>;

/** Why the loop stopped: input ended, output went away, or input failed. */
export type StopReason = 'end' | 'output-closed' | 'input-error';

export interface TransportOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly handle: LineHandler;
  /** Sees every line the moment it is read, before it waits its turn (never answers). */
  readonly peek?: (item: LineItem) => void;
  /** Diagnostics (stderr); never the protocol stream. */
  readonly log: (text: string) => void;
  readonly maxLineBytes?: number;
}

/** Lines read ahead of the one being handled before reading pauses (bounds memory). */
export const MAX_QUEUED = 256;

export async function serveLines(options: TransportOptions): Promise<StopReason> {
  const { input, output, handle, log } = options;
  const splitter = new LineSplitter(options.maxLineBytes);
  let outputClosed = false;
  let outputGone: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => (outputGone = resolve));
  // When output goes away, a read waiting on an idle input gives up at once. (Not a
  // Promise.race against one long-lived promise: every race would leave a reaction on it,
  // holding that read's chunk, until the server exits — memory growing with the input.)
  let giveUp: ((value: 'closed') => void) | null = null;
  const closed = (): void => {
    outputGone();
    giveUp?.('closed');
    giveUp = null;
  };
  const onOutputError = (): void => {
    // EPIPE and friends: the reader is gone, so nothing more can be said. Stay quiet.
    outputClosed = true;
    closed();
  };
  const onOutputClose = (): void => {
    outputClosed = true;
    closed();
  };
  output.on('error', onOutputError);
  output.on('close', onOutputClose);

  // Writes go out one after another (replies of detached lines may be ready at any moment):
  // at most one waits for room at a time.
  let writing: Promise<void> = Promise.resolve();
  function write(line: string | Uint8Array): Promise<void> {
    const next = writing.then(() => writeNow(line));
    writing = next;
    return next;
  }

  async function writeNow(line: string | Uint8Array): Promise<void> {
    if (outputClosed) return;
    // A line made as bytes (a worker's large answer) goes out as they are, then its "\n".
    if (typeof line !== 'string') output.write(line);
    if (output.write(typeof line === 'string' ? line + '\n' : '\n')) return;
    // Backpressure: wait for room (or for the stream to fail) before reading further.
    const ac = new AbortController();
    await Promise.race([
      once(output as NodeJS.EventEmitter, 'drain', { signal: ac.signal }),
      once(output as NodeJS.EventEmitter, 'close', { signal: ac.signal }),
      once(output as NodeJS.EventEmitter, 'error', { signal: ac.signal }),
    ]).catch(() => undefined);
    ac.abort();
  }

  // The queue of lines read but not yet handled, and the one loop that handles them.
  const queue: LineItem[] = [];
  let wake: (() => void) | null = null; // the pump waits here for lines
  let room: (() => void) | null = null; // the reader waits here when the queue is full
  let inputDone = false;
  const signal = (): void => {
    wake?.();
    wake = null;
  };

  const makeRoom = (): void => {
    room?.();
    room = null;
  };

  // Lines detached by their handlers, until their replies are written.
  const background = new Set<Promise<void>>();

  async function pump(): Promise<void> {
    try {
      for (;;) {
        if (outputClosed) return;
        const item = queue.shift();
        if (item === undefined) {
          if (inputDone) {
            // The last replies: those still being prepared (unless the output is gone).
            while (background.size > 0 && !outputClosed) await Promise.race([...background, gone]);
            return;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (queue.length < MAX_QUEUED) makeRoom();
        let detach: () => void = () => undefined;
        const detached = new Promise<null>((resolve) => (detach = () => resolve(null)));
        const handling = handle(item, write, detach).catch((err: unknown) => {
          log(`context mcp: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
          return null;
        });
        const done = await Promise.race([handling.then((reply) => ({ reply })), detached]);
        if (done !== null) {
          if (done.reply !== null) await write(done.reply);
          continue;
        }
        const later: Promise<void> = handling
          .then(async (reply) => {
            if (reply !== null) await write(reply);
          })
          .finally(() => background.delete(later));
        background.add(later);
      }
    } finally {
      makeRoom(); // never leave the reader waiting for a pump that has stopped
    }
  }

  function enqueue(items: readonly LineItem[]): void {
    for (const item of items) {
      options.peek?.(item);
      queue.push(item);
    }
    if (items.length > 0) signal();
  }

  const pumping = pump();
  let reason: StopReason = 'end';
  const chunks = (input as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await new Promise<IteratorResult<Buffer | string> | 'closed'>((resolve, reject) => {
        if (outputClosed) return resolve('closed');
        giveUp = resolve;
        chunks.next().then(resolve, reject);
      });
      giveUp = null;
      if (next === 'closed') break;
      if (next.done === true) {
        enqueue(splitter.end());
        break;
      }
      const chunk = next.value;
      enqueue(splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk));
      if (outputClosed) break;
      if (queue.length >= MAX_QUEUED && !outputClosed) await new Promise<void>((resolve) => (room = resolve));
      if (outputClosed) break;
    }
  } catch (err) {
    reason = 'input-error';
    log(`context mcp: input failed: ${err instanceof Error ? err.message : String(err)}\n`);
  } finally {
    inputDone = true;
    signal();
    await pumping;
    // Stop reading: a host may keep stdin open after closing our stdout, and a read is
    // still pending on it (an iterator's return() would wait for that read forever).
    if (outputClosed) {
      const destroy = (input as { destroy?: unknown }).destroy;
      if (typeof destroy === 'function') destroy.call(input);
      else void chunks.return?.();
    }
    output.removeListener('close', onOutputClose);
    // Keep swallowing late EPIPE reports: an unhandled 'error' event would crash loudly.
  }
  if (reason === 'end' && outputClosed) reason = 'output-closed';
  return reason;
}
