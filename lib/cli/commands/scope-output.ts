// How the scope commands print an answer: stdout always gets its bytes (the MCP tool's text,
// error answers included); a failed answer adds a stderr line and exits 8 — exactly when the
// MCP tool's result has isError — while malformed arguments exit 1, as everywhere.

import { EXIT_ANSWER_FAILED, EXIT_USAGE } from '../../errors.js';
import type { ScopeFailure, ScopeOutcome } from '../../core/scopes/api.js';
import type { CliIo } from '../command.js';

const EXIT_BY_FAILURE: Readonly<Record<ScopeFailure, number>> = {
  arguments: EXIT_USAGE,
  traversal: EXIT_ANSWER_FAILED,
  missing: EXIT_ANSWER_FAILED,
  unsupported: EXIT_ANSWER_FAILED,
  corrupt: EXIT_ANSWER_FAILED,
  unreadable: EXIT_ANSWER_FAILED,
  scan: EXIT_ANSWER_FAILED,
  exists: EXIT_ANSWER_FAILED,
};

/** Prints `result` and returns the command's exit code. */
export function printScopeOutcome(command: string, result: ScopeOutcome, io: CliIo): number {
  io.stdout(result.text);
  if (!result.isError || result.failure === undefined) return 0;
  io.stderr(`context ${command}: ${result.error ?? result.failure}\n`);
  return EXIT_BY_FAILURE[result.failure];
}
