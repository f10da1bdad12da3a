// What every scope operation hands back to both faces: the exact text (pretty JSON in the
// seed's field order, plus "\n"), the MCP `isError` flag, and why it failed, if it did.

import { pretty, type Json } from '../../json.js';

/** Why an answer carries an `error`; the CLI maps each to an exit code. */
export type ScopeFailure = 'arguments' | 'traversal' | 'missing' | 'unsupported' | 'corrupt' | 'unreadable' | 'scan' | 'exists';

export interface ScopeOutcome {
  /** CLI stdout and MCP text alike: byte-identical by construction. */
  readonly text: string;
  readonly isError: boolean;
  readonly failure: ScopeFailure | undefined;
  /** The answer's error text, for the CLI's stderr line. */
  readonly error: string | undefined;
}

/** The project root to work in: an absolute directory and the spelling outputs show. */
export interface ProjectRoot {
  readonly dir: string;
  /** What the caller gave (`--root` / `path`), or `.` for the default root. */
  readonly label: string;
}

export function outcome(value: Json, isError: boolean, failure?: ScopeFailure, error?: string): ScopeOutcome {
  const own = (value as { error?: unknown }).error;
  return { text: pretty(value) + '\n', isError, failure, error: error ?? (typeof own === 'string' ? own : undefined) };
}
