// Runs the tools that may leave the server's thread (context.resolve) on worker threads, so
// a slow call — a resolve over a huge cache, with a huge budget — never holds up the
// protocol loop: pings, cancellations, tools/list and other caches' resolves are answered
// meanwhile. Each worker keeps a cache memo of its own (tool-worker.ts).
//
// Scheduling: calls carry a key (the cache name). Calls with one key run one after another,
// in arrival order (a cache is loaded by one worker at a time; a second question waits for
// the first); calls with different keys run side by side on up to `threads` workers. A key
// goes back to the worker that served it last when that worker is free, else to any free
// worker (the old one then forgets that cache, so a cache stays loaded in one worker only).
// Workers start on demand (the first with the first tools/list, else the first call waits
// for it) and live until the server ends; a cancelled running call ends its worker at once
// (its caches are reloaded on demand).
//
// A running call is *slow* once its worker has spent SLOW_CPU_MS of CPU on it (read from
// /proc, so a machine busy with other work does not make a small call look slow), or
// SLOW_WALL_MS have passed (where /proc cannot be read: SLOW_CPU_MS of clock).
//
// Run from the TypeScript sources (in-process tests), there is no worker entry to start:
// `available()` is false and the session calls the tool on its own thread, as before.

import { Worker } from 'node:worker_threads';
import { RpcError } from './json-rpc.js';
import type { AnyProtocolVersion } from './protocol-version.js';
import { threadCpuMs } from './thread-cpu.js';
import type { WorkerJob, WorkerReply } from './tool-worker.js';

const WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./tool-worker.js', import.meta.url) : null;

/** Worker threads at most (the development machine has two cores; a third would only share them). */
export const POOL_THREADS = 2;

/** CPU (ms) a call may use on its worker before it counts as slow. */
export const SLOW_CPU_MS = 50;

/**
 * Clock time (ms) after which a running call counts as slow whatever CPU it had (a worker
 * starved of CPU). Generous: the first resolve of a v1 cache in a new worker took up to
 * 30 ms of CPU and 167 ms of clock on the 2-core machine at load average 12.
 */
export const SLOW_WALL_MS = 1000;

/** How often running calls are looked at (ms). */
const WATCH_MS = 10;

/** Keys remembered with the worker that served them last (routing only; memory is the workers' memos). */
const MAX_OWNERS = 64;

export interface PoolCall {
  /** Calls with one key run one after another, in order (the cache name). */
  readonly key: string;
  /** The tool's dotted name, its arguments, and how the result is shaped. */
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly version: AnyProtocolVersion;
  readonly stateless: boolean;
  /** Aborted: a queued call never runs; a running one ends its worker at once. */
  readonly signal: AbortSignal;
  /** The call has to wait behind work already running (its cache busy, or every worker). */
  readonly onWait?: () => void;
  /** The call, running, has turned out slow (SLOW_CPU_MS of CPU, or SLOW_WALL_MS). */
  readonly onSlow?: () => void;
}

/** The result's bytes (a JSON object, keys sorted, UTF-8), or nothing: the call was cancelled. */
export type PoolAnswer = { readonly kind: 'json'; readonly bytes: Uint8Array } | { readonly kind: 'cancelled' };

interface Job {
  readonly id: number;
  readonly call: PoolCall;
  readonly resolve: (answer: PoolAnswer) => void;
  readonly reject: (err: Error) => void;
  told: boolean;
  onAbort: () => void;
  /** When it started on its worker: the clock and that thread's CPU (ms), until found slow. */
  started: { readonly wall: number; readonly cpu: number | null } | null;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  /** The worker's thread id in /proc, when known. */
  thread: number | null;
  job: Job | null;
}

export interface PoolOptions {
  readonly cacheRoot: string;
  readonly projectRoot: string;
  readonly log: (text: string) => void;
  readonly threads?: number;
}

export class ToolPool {
  /** Whether workers can be started (compiled JavaScript; not from the TypeScript sources). */
  static available(): boolean {
    return WORKER_URL !== null;
  }

  private readonly options: PoolOptions;
  private readonly threads: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Set<string>();
  private readonly owners = new Map<string, Slot>();
  private nextJob = 0;
  private closed = false;
  private watch: NodeJS.Timeout | null = null;

  constructor(options: PoolOptions) {
    this.options = options;
    this.threads = Math.max(1, options.threads ?? POOL_THREADS);
  }

  /** Runs one call; rejects with the tool's RpcError, or an Error when the worker failed. */
  run(call: PoolCall): Promise<PoolAnswer> {
    if (call.signal.aborted || this.closed) return Promise.resolve({ kind: 'cancelled' });
    return new Promise((resolve, reject) => {
      const job: Job = { id: ++this.nextJob, call, resolve, reject, told: false, onAbort: () => this.cancel(job), started: null };
      call.signal.addEventListener('abort', job.onAbort, { once: true });
      this.queue.push(job);
      this.schedule();
    });
  }

  /** Starts the first worker ahead of the first call (a host lists tools before it calls one). */
  warm(): void {
    if (!this.closed && this.slots.length === 0) this.spawn();
  }

  /** Ends every worker; calls queued or running end as cancelled. */
  close(): void {
    this.closed = true;
    this.stopWatch();
    for (const job of this.queue.splice(0)) this.settle(job, { kind: 'cancelled' });
    for (const slot of this.slots.splice(0)) {
      if (slot.job !== null) this.settle(slot.job, { kind: 'cancelled' });
      void slot.worker.terminate();
    }
  }

  private schedule(): void {
    if (this.closed) return;
    let spawning = this.slots.some((s) => !s.ready);
    for (let i = 0; i < this.queue.length; ) {
      const job = this.queue[i] as Job;
      const key = job.call.key;
      const slot = this.running.has(key) ? undefined : this.freeSlot(key);
      if (slot === undefined) {
        if (!this.running.has(key) && !spawning && this.slots.length < this.threads) {
          this.spawn();
          spawning = true;
        }
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.start(slot, job);
    }
    // Whatever still waits behind running work says so once (the session then serves the
    // requests after it): its cache is busy, or no worker is free while one is busy (a
    // second worker starting meanwhile). A call only waiting for the first worker to start
    // does not: that keeps replies in order on a server that is never busy.
    const noneFree = this.slots.some((s) => s.job !== null) && !this.slots.some((s) => s.ready && s.job === null);
    for (const job of this.queue) {
      if (job.told || !(this.running.has(job.call.key) || noneFree)) continue;
      job.told = true;
      job.call.onWait?.();
    }
  }

  private freeSlot(key: string): Slot | undefined {
    const owner = this.owners.get(key);
    if (owner !== undefined && owner.ready && owner.job === null && this.slots.includes(owner)) return owner;
    return this.slots.find((s) => s.ready && s.job === null);
  }

  private start(slot: Slot, job: Job): void {
    const key = job.call.key;
    const previous = this.owners.get(key);
    if (previous !== undefined && previous !== slot && this.slots.includes(previous)) previous.worker.postMessage({ drop: key });
    this.owners.delete(key);
    this.owners.set(key, slot);
    if (this.owners.size > MAX_OWNERS) this.owners.delete(this.owners.keys().next().value as string);
    slot.job = job;
    this.running.add(key);
    const { tool, args, version, stateless } = job.call;
    const message: WorkerJob = { job: job.id, tool, args, version, stateless };
    slot.worker.postMessage(message);
    job.started = { wall: performance.now(), cpu: slot.thread === null ? null : threadCpuMs(slot.thread) };
    this.watch ??= setInterval(() => this.lookAtRunning(), WATCH_MS);
  }

  /** Tells each running call that has turned out slow, once; stops looking when none is left to tell. */
  private lookAtRunning(): void {
    let left = 0;
    for (const slot of this.slots) {
      const job = slot.job;
      if (job === null || job.started === null) continue;
      const wall = performance.now() - job.started.wall;
      const now = slot.thread === null || job.started.cpu === null ? null : threadCpuMs(slot.thread);
      const cpu = now === null || job.started.cpu === null ? null : now - job.started.cpu;
      if (wall >= SLOW_WALL_MS || (cpu ?? wall) >= SLOW_CPU_MS) {
        job.started = null;
        job.call.onSlow?.();
      } else left++;
    }
    if (left === 0) this.stopWatch();
  }

  private stopWatch(): void {
    if (this.watch !== null) clearInterval(this.watch);
    this.watch = null;
  }

  private spawn(): void {
    const worker = new Worker(WORKER_URL as URL, { workerData: { cacheRoot: this.options.cacheRoot, projectRoot: this.options.projectRoot } });
    const slot: Slot = { worker, ready: false, thread: null, job: null };
    this.slots.push(slot);
    worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    const gone = (why: string): void => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return; // ended on purpose (cancelled, closed)
      this.slots.splice(i, 1);
      const job = slot.job;
      slot.job = null;
      if (job !== null) {
        this.running.delete(job.call.key);
        this.settle(job, new Error(`tool worker ${why}`));
      }
      this.schedule();
    };
    worker.once('error', (err) => gone(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
    worker.once('exit', (code) => gone(`exited with ${code}`));
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    if ('ready' in reply) {
      slot.ready = true;
      slot.thread = reply.thread;
      this.schedule();
      return;
    }
    const job = slot.job;
    if (job === null || job.id !== reply.job) return;
    if ('log' in reply) {
      this.options.log(reply.log);
      return;
    }
    slot.job = null;
    this.running.delete(job.call.key);
    if ('bytes' in reply) this.settle(job, { kind: 'json', bytes: reply.bytes });
    else if ('rpc' in reply) this.settle(job, new RpcError(reply.rpc, reply.rpc.message, reply.rpc.data));
    else this.settle(job, new Error(reply.failed));
    this.schedule();
  }

  private cancel(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, { kind: 'cancelled' });
      this.schedule();
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot === undefined) return;
    // A resolve cannot stop half-way: its worker is ended, and the CPU is free at once.
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.job = null;
    this.running.delete(job.call.key);
    void slot.worker.terminate();
    this.settle(job, { kind: 'cancelled' });
    this.schedule();
  }

  private settle(job: Job, outcome: PoolAnswer | Error): void {
    job.call.signal.removeEventListener('abort', job.onAbort);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }
}
