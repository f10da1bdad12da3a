// How tests start the real `bin/context` as an MCP host would: a fresh node with a minimal
// environment. tap injects NODE_OPTIONS (its process-info hook) into every child, which
// breaks loading the extensionless ESM bin (ERR_REQUIRE_CYCLE_MODULE), so a shell drops it.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(REPO, 'bin', 'context');

/** Command and arguments that run `node bin/context ...args` without tap's NODE_OPTIONS. */
export function contextCommand(args: readonly string[]): { command: string; args: string[] } {
  return {
    command: '/bin/sh',
    args: ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', process.execPath, BIN, ...args],
  };
}

/** The minimal environment the MCP SDK gives spawned servers (plus nothing of ours). */
export function hostEnv(): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
}
