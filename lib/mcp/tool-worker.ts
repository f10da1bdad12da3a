// Worker-thread entry of the tool pool (tool-pool.ts): runs the tools that may leave the
// server's thread (context.resolve) one call at a time, with a cache memo of its own, and
// replies with the finished result's bytes (keys sorted, as every protocol object, in
// UTF-8, handed over without a copy), so the server's thread only wraps them in the JSON-RPC
// envelope: a large answer is parsed into structuredContent, serialized and encoded here.

import { availableParallelism } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { CacheMemo } from '../core/operations/api.js';
import { canonical } from '../json.js';
import { RpcError, type RpcErrorBody } from './json-rpc.js';
import type { AnyProtocolVersion } from './protocol-version.js';
import { completeResult, toolCallResult } from './tool-call.js';
import type { Tool, ToolContext } from './tool.js';
import { cacheDirOf } from './tools/cache-name.js';
import { resolveTool } from './tools/resolve.js';
import { currentThreadId } from './thread-cpu.js';

/** A call for the worker: the tool by its dotted name, its arguments, and how to shape the result. */
export interface WorkerJob {
  readonly job: number;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly version: AnyProtocolVersion;
  readonly stateless: boolean;
}

/** Forget a loaded cache (another worker serves it now). */
export interface WorkerDrop {
  readonly drop: string;
}

export type WorkerReply =
  | { readonly ready: true; readonly thread: number | null }
  | { readonly job: number; readonly bytes: Uint8Array }
  | { readonly job: number; readonly rpc: RpcErrorBody }
  | { readonly job: number; readonly failed: string }
  | { readonly job: number; readonly log: string };

const { cacheRoot, projectRoot } = workerData as { cacheRoot: string; projectRoot: string };
const port = parentPort;
const memo = new CacheMemo();
const ctx: ToolContext = { cacheRoot, projectRoot, memo };
const never = new AbortController().signal;
/** The tools marked offThread (only these are loaded here: a worker starts sooner). */
const OFF_THREAD: readonly Tool[] = [resolveTool];
const encoder = new TextEncoder();
/**
 * Packs whose term filters one idle slice builds (Engine.prepare): ~20 ms on the
 * 100,000-document bench cache. Between calls the worker builds what its caches' later
 * questions read, a slice at a time, so a call arriving meanwhile waits one slice at most
 * (messages are handled between slices), and the first answer does not wait for all of it.
 */
const IDLE_SLICE = 128;
let idle = false;
const threads = availableParallelism();

/**
 * A call's cache loaded ahead of it when it is not held yet, a large v1 cache's heads on two
 * threads (CacheMemo.preload: the same cache, and whatever fails there is left for the call
 * to meet and report as it always has).
 */
async function preload(args: Readonly<Record<string, unknown>>): Promise<void> {
  let dir: string;
  try {
    dir = cacheDirOf(args['cache'], ctx);
  } catch {
    return; // a name that locates nothing: the call reports it
  }
  await memo.preload(dir, threads);
}
function whileIdle(): void {
  if (idle) return;
  idle = true;
  setImmediate(function slice(): void {
    let done: boolean;
    try {
      done = memo.prepare(IDLE_SLICE);
    } catch {
      // Damage the preparing met (heads are checked when loaded, so none is expected) is
      // the next call's to report, as cache_invalid, where it reads the same bytes.
      done = true;
    }
    if (done) idle = false;
    else setImmediate(slice);
  });
}

if (port !== null) {
  port.on('message', (message: WorkerJob | WorkerDrop) => {
    if ('drop' in message) {
      try {
        memo.forget(cacheDirOf(message.drop, ctx));
      } catch {
        // A name that locates nothing holds nothing.
      }
      return;
    }
    const { job } = message;
    const tool = OFF_THREAD.find((t) => t.name === message.tool);
    const log = (text: string): void => port.postMessage({ job, log: text });
    if (tool === undefined) {
      port.postMessage({ job, failed: `no tool ${message.tool} on the worker` });
      return;
    }
    // preload never rejects: a failure there is the call's to meet and report.
    preload(message.args)
      .then(() => toolCallResult(tool, message.args, ctx, message.version, { signal: never, progress: null }, log))
      .then(
        (result) => {
          const bytes = encoder.encode(canonical(message.stateless ? completeResult(result) : result));
          port.postMessage({ job, bytes }, [bytes.buffer]);
          whileIdle();
        },
        (err: unknown) => {
          if (err instanceof RpcError) port.postMessage({ job, rpc: err.body });
          else port.postMessage({ job, failed: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        },
      );
  });
  port.postMessage({ ready: true, thread: currentThreadId() });
}
