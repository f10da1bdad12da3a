// What the build trials share: starting a build that can be killed, reading which cache is
// in place (its cache_version) and whether it verifies, and listing the staging
// directories builds leave beside a cache (`.NAME.tmp-…`, `.NAME.old-…`).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { contextArgv, minimalEnv, runContext } from './child.js';
import { buildArgs, type Engine } from './engines.js';

export interface StartedBuild {
  readonly child: ChildProcess;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; ms: number }>;
}

/** Starts `context build` (not awaited) so that it can be killed at any moment. */
export function startBuild(engine: Engine, sources: string, cache: string, force: boolean, cwd: string): StartedBuild {
  const { command, args } = contextArgv(buildArgs(engine, sources, cache, force));
  const t0 = process.hrtime.bigint();
  const child = spawn(command, args, { cwd, env: minimalEnv(cwd), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; ms: number }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stderr, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    child.on('error', (err) => resolve({ code: null, signal: null, stderr: `spawn failed: ${err.message}`, ms: 0 }));
  });
  return { child, exit };
}

/** The cache_version of the cache in place, or null when there is none (or no manifest). */
export function cacheVersionOf(cache: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8')) as { cache_version?: unknown };
    return typeof manifest.cache_version === 'string' ? manifest.cache_version : null;
  } catch {
    return null;
  }
}

/** `context verify` says every check holds. */
export async function verifies(cache: string, cwd: string): Promise<boolean> {
  if (!existsSync(cache)) return false;
  const r = await runContext(['verify', '--cache', cache], { cwd, env: minimalEnv(cwd), timeoutMs: 120_000 });
  return r.code === 0;
}

/** Staging directories of `cache` beside it: `.NAME.tmp-*` and `.NAME.old-*`. */
export function stagingEntries(cache: string): string[] {
  const base = basename(cache);
  try {
    return readdirSync(dirname(cache)).filter((n) => n.startsWith(`.${base}.tmp-`) || n.startsWith(`.${base}.old-`));
  } catch {
    return [];
  }
}

/** A build run to completion; throws unless it succeeded. Returns its cache_version. */
export async function buildOrThrow(engine: Engine, sources: string, cache: string, force: boolean, cwd: string): Promise<{ version: string; ms: number; peakRss: number }> {
  const r = await runContext(buildArgs(engine, sources, cache, force), { cwd, env: minimalEnv(cwd), timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`build ${engine} ${sources} -> ${cache} exited ${r.code ?? r.signal ?? '?'}: ${r.stderr}`);
  const version = cacheVersionOf(cache);
  if (version === null) throw new Error(`build ${engine}: no manifest in ${cache}`);
  return { version, ms: r.ms, peakRss: r.peakRss };
}
