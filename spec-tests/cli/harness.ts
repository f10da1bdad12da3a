// Runs the CLI for the cli spec-tests two ways: in-process through `main(argv, io)` with a
// capturing io, and as the real `bin/context` process (which runs dist/: `npm run build`
// first) for exit codes and stream contents as a shell sees them.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';

export interface RunResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export const BIN = new URL('../../bin/context', import.meta.url).pathname;
export const DIST_MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;

/** In-process run; `env` replaces the environment entirely (no SOURCE_DATE_EPOCH leaks in). */
export async function run(argv: readonly string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<RunResult> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  };
  const code = await main(argv, io);
  return { code, out, err };
}

/** The real executable, as a shell would run it. */
export function spawnContext(argv: readonly string[], options: { env?: Record<string, string>; cwd?: string } = {}): RunResult {
  if (!existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  // Through env(1): tap's process-info hook puts a loader into NODE_OPTIONS of every child it
  // sees, which breaks the extensionless ESM bin; `env -u` drops it, and the shebang runs node.
  const r = spawnSync('/usr/bin/env', ['-u', 'NODE_OPTIONS', BIN, ...argv], {
    cwd: options.cwd ?? process.cwd(),
    env: { PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`, ...options.env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error !== undefined) throw r.error;
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
