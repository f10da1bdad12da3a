// How the scope commands print an answer: stdout always gets its bytes (the MCP tool's text,
// error answers included); a failed answer adds a stderr line and an exit code from the
// frozen table: missing/traversal 4, unsupported/corrupt 5, unreadable/unscannable 6.

import { EXIT_USAGE } from '../../errors.js';
import type { ScopeFailure, ScopeOutcome } from '../../core/scopes/api.js';
import type { CliIo } from '../command.js';

const EXIT_BY_FAILURE: Readonly<Record<ScopeFailure, number>> = {
  arguments: EXIT_USAGE,
  traversal: 4,
  missing: 4,
  unsupported: 5,
  corrupt: 5,
  unreadable: 6,
  scan: 6,
};

/** Prints `result` and returns the command's exit code. */
export function printScopeOutcome(command: string, result: ScopeOutcome, io: CliIo): number {
  io.stdout(result.text);
  if (!result.isError || result.failure === undefined) return 0;
  io.stderr(`context ${command}: ${result.error ?? result.failure}\n`);
  return EXIT_BY_FAILURE[result.failure];
}
