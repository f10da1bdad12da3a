// The stdio transport over injected streams: reads lines from `input`, hands each to the
// session in order (one at a time, so replies keep request order), writes each reply as one
// line. Honours output backpressure; a closed or failing output (EPIPE) ends the loop
// quietly; end of input ends it after the last reply is written.

import { once } from 'node:events';
import { LineSplitter, type LineItem } from './line-splitter.js';

/** Turns one input line into at most one output line (without its "\n"). */
export type LineHandler = (item: LineItem) => Promise<string | null>;

/** Why the loop stopped: input ended, output went away, or input failed. */
export type StopReason = 'end' | 'output-closed' | 'input-error';

export interface TransportOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly handle: LineHandler;
  /** Diagnostics (stderr); never the protocol stream. */
  readonly log: (text: string) => void;
  readonly maxLineBytes?: number;
}

export async function serveLines(options: TransportOptions): Promise<StopReason> {
  const { input, output, handle, log } = options;
  const splitter = new LineSplitter(options.maxLineBytes);
  let outputClosed = false;
  const onOutputError = (): void => {
    // EPIPE and friends: the reader is gone, so nothing more can be said. Stay quiet.
    outputClosed = true;
  };
  const onOutputClose = (): void => {
    outputClosed = true;
  };
  output.on('error', onOutputError);
  output.on('close', onOutputClose);

  async function write(line: string): Promise<void> {
    if (outputClosed) return;
    if (output.write(line + '\n')) return;
    // Backpressure: wait for room (or for the stream to fail) before reading further.
    const ac = new AbortController();
    await Promise.race([
      once(output as NodeJS.EventEmitter, 'drain', { signal: ac.signal }),
      once(output as NodeJS.EventEmitter, 'close', { signal: ac.signal }),
      once(output as NodeJS.EventEmitter, 'error', { signal: ac.signal }),
    ]).catch(() => undefined);
    ac.abort();
  }

  async function deliver(items: readonly LineItem[]): Promise<void> {
    for (const item of items) {
      if (outputClosed) return;
      const reply = await handle(item);
      if (reply !== null) await write(reply);
    }
  }

  let reason: StopReason = 'end';
  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
      await deliver(splitter.push(bytes));
      if (outputClosed) break;
    }
    if (!outputClosed) await deliver(splitter.end());
  } catch (err) {
    reason = 'input-error';
    log(`context mcp: input failed: ${err instanceof Error ? err.message : String(err)}\n`);
  } finally {
    output.removeListener('close', onOutputClose);
    // Keep swallowing late EPIPE reports: an unhandled 'error' event would crash loudly.
  }
  if (reason === 'end' && outputClosed) reason = 'output-closed';
  return reason;
}
