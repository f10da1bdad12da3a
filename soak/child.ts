// Runs `bin/context` as a user or an MCP host does — a fresh node process with a minimal
// environment (no NODE_OPTIONS: test runners inject loaders there) — and measures it:
// wall time, and peak resident memory from /proc/PID/status (VmHWM, sampled while it
// runs; VmHWM only grows, so the last sample is the peak up to then).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest directory above this module holding package.json. */
function findRepo(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above the soak suite');
    dir = up;
  }
  return dir;
}

export const REPO = findRepo();
export const BIN = join(REPO, 'bin', 'context');

export interface ChildEnv {
  readonly [key: string]: string;
}

/** A host's minimal environment: PATH and HOME only. */
export function minimalEnv(home: string, extra: ChildEnv = {}): ChildEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...extra };
}

export interface RunOptions {
  readonly cwd: string;
  readonly env: ChildEnv;
  /** Killed (SIGKILL) after this long: a hang is a failure, never a stuck suite. */
  readonly timeoutMs?: number;
  /** Written to stdin, which is then closed. */
  readonly input?: string | Buffer;
  /** Run under `ulimit -n N`. */
  readonly maxOpenFiles?: number;
  /** Extra node flags (e.g. --import of a fault injector). */
  readonly nodeFlags?: readonly string[];
  /** Keep at most this many bytes of stdout (the rest is read and dropped). */
  readonly keepStdout?: number;
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** Peak RSS in bytes (0 if it could not be read). */
  readonly peakRss: number;
  readonly timedOut: boolean;
}

/** The argv that starts `node bin/context args`, optionally under a file-descriptor limit. */
export function contextArgv(args: readonly string[], options: Pick<RunOptions, 'maxOpenFiles' | 'nodeFlags'> = {}): { command: string; args: string[] } {
  const node = [...(options.nodeFlags ?? []), BIN, ...args];
  // Through sh: a test runner's spawn hook puts its loader into NODE_OPTIONS of every child
  // (tap's does), which the extensionless ESM bin cannot load under; `unset` drops it. exec
  // keeps the pid, so the process measured and killed is node itself.
  const limit = options.maxOpenFiles === undefined ? '' : `ulimit -n ${options.maxOpenFiles} && `;
  return { command: '/bin/sh', args: ['-c', `unset NODE_OPTIONS; ${limit}exec "$0" "$@"`, process.execPath, ...node] };
}

/** Reads a /proc/PID/status field in bytes (kB in the file), or 0. */
export function procStatusBytes(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Samples a running child's VmHWM until it exits. */
export function trackPeak(child: ChildProcess): () => number {
  let peak = 0;
  const pid = child.pid;
  const timer = setInterval(() => {
    if (pid !== undefined) peak = Math.max(peak, procStatusBytes(pid, 'VmHWM'));
  }, 20);
  child.once('exit', () => clearInterval(timer));
  return () => peak;
}

export function runContext(args: readonly string[], options: RunOptions): Promise<RunResult> {
  const { command, args: argv } = contextArgv(args, options);
  const t0 = process.hrtime.bigint();
  const child = spawn(command, argv, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const peak = trackPeak(child);
  const keep = options.keepStdout ?? 64 * 1024 * 1024;
  const out: Buffer[] = [];
  let outSize = 0;
  let err = '';
  child.stdout.on('data', (b: Buffer) => {
    if (outSize < keep) out.push(b.subarray(0, keep - outSize));
    outSize += b.length;
  });
  child.stderr.on('data', (b: Buffer) => void (err += b.toString('utf8')));
  child.stdin.on('error', () => undefined);
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 120_000);
  return new Promise((resolve) => {
    child.on('error', (e) => {
      err += `spawn failed: ${e.message}`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: err,
        ms: Number(process.hrtime.bigint() - t0) / 1e6,
        peakRss: peak(),
        timedOut,
      });
    });
  });
}

/** True when stderr holds what an uncaught error prints: a stack frame or an error event. */
export function hasStackTrace(stderr: string): boolean {
  return /^\s+at .+[:(]/m.test(stderr) || /Unhandled 'error' event|node:internal/.test(stderr);
}

/** The exit codes the CLI documents (README "Exit codes"). */
export const DOCUMENTED_EXIT_CODES: ReadonlySet<number> = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]);
