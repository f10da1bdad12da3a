// The cache operations both faces call (CLI commands and MCP tools), each returning the
// exact output text, so CLI/MCP parity holds by construction. Errors are thrown as
// ContextError. (Stubs until the core cache commit lands.)

import { ContextError } from '../../errors.js';

export type OutputFormat = 'json' | 'pretty';

/** `context resolve` stdout: SelectionResult JSON + "\n". `query`/`budget` unvalidated. */
export function resolveText(_cacheDir: string, _query: unknown, _budget: unknown, _format: OutputFormat = 'json'): string {
  throw new ContextError('internal_error', 'not implemented yet');
}

/** Inspect result JSON (seed 004 field order), without trailing newline. */
export function inspectText(_cacheDir: string, _format: OutputFormat = 'json'): string {
  throw new ContextError('internal_error', 'not implemented yet');
}

/** list_caches JSON `{"caches":[{"path":…,"has_manifest":…}]}`, without trailing newline. */
export function listCachesText(_root: string): string {
  throw new ContextError('internal_error', 'not implemented yet');
}

/**
 * The directory of cache `name` under `root`; `..`, absolute names, separators and
 * symlinks leaving the root are cache_missing (never a read outside the root).
 */
export function locateCache(_root: string, _name: unknown): string {
  throw new ContextError('internal_error', 'not implemented yet');
}
