// The scope operations both faces call — CLI commands and MCP tools — with arguments as
// they arrive (argv strings or JSON-RPC values), checked here. Each returns the exact text
// for both faces, so CLI stdout and MCP text are the same bytes by construction.

import { resolve } from 'node:path';
import type { Json } from '../../json.js';
import { checkFreshness } from './check-freshness.js';
import { initScope } from './init-scope.js';
import { listContexts } from './list-contexts.js';
import { invalidArgumentError } from './messages.js';
import { outcome, type ProjectRoot, type ScopeOutcome } from './outcome.js';
import { queryContext } from './query-context.js';
import { rehashContexts, type RehashTarget } from './rehash.js';

export type { ScopeFailure, ScopeOutcome, ProjectRoot } from './outcome.js';
export { classifyContextText } from './context-file.js';

/**
 * The project root: `path` resolved against the absolute `defaultRoot` (the CLI's working
 * directory, the MCP server's project root); outputs show `path` as given, else ".".
 */
function projectRoot(defaultRoot: string, path: unknown): ProjectRoot | null {
  if (path === undefined) return { dir: defaultRoot, label: '.' };
  if (typeof path !== 'string') return null;
  return { dir: resolve(defaultRoot, path), label: path };
}

function badArgument(shape: (error: string) => Json, name: string, expected: string): ScopeOutcome {
  return outcome(shape(invalidArgumentError(name, expected)), true, 'arguments');
}

/** `{"root":…,"total_directories":…,…,"entries":[…]}` for the project. */
export function listContextsText(defaultRoot: string, path: unknown): ScopeOutcome {
  const root = projectRoot(defaultRoot, path);
  if (root === null) {
    const shape = (error: string): Json => ({ root: '.', total_directories: 0, skipped_directories: 0, tracked: 0, entries: [], error });
    return badArgument(shape, 'path', 'a string');
  }
  return listContexts(root);
}

/** `{"scope":…,"state":…,"fingerprint":{…},"last_updated":…}` or the error shape. */
export function checkFreshnessText(defaultRoot: string, scope: unknown, path: unknown): ScopeOutcome {
  const echo = typeof scope === 'string' ? scope : '';
  const shape = (error: string): Json => ({ scope: echo, state: 'missing', error });
  if (typeof scope !== 'string') return badArgument(shape, 'scope', 'a string');
  const root = projectRoot(defaultRoot, path);
  if (root === null) return badArgument(shape, 'path', 'a string');
  return checkFreshness(root, scope);
}

/** `{"found":true,"scope":…,"context":{…}}` or `{"found":false,"scope":…,"error":…}`. */
export function queryContextText(defaultRoot: string, scope: unknown, filter: unknown, path: unknown): ScopeOutcome {
  const echo = typeof scope === 'string' ? scope : '';
  const shape = (error: string): Json => ({ found: false, scope: echo, error });
  if (typeof scope !== 'string') return badArgument(shape, 'scope', 'a string');
  if (filter !== undefined && !(Array.isArray(filter) && filter.every((f) => typeof f === 'string'))) {
    return badArgument(shape, 'filter', 'an array of strings');
  }
  const root = projectRoot(defaultRoot, path);
  if (root === null) return badArgument(shape, 'path', 'a string');
  return queryContext(root, scope, filter as readonly string[] | undefined);
}

/** Rehash report `{"root":…,"updated":…,"unchanged":…,"skipped":…,"entries":[…]}`. */
export function rehashText(defaultRoot: string, target: RehashTarget, path: unknown, lastUpdated: string): ScopeOutcome {
  const root = projectRoot(defaultRoot, path);
  if (root === null) {
    const shape = (error: string): Json => ({ root: '.', updated: 0, unchanged: 0, skipped: 0, entries: [], error });
    return badArgument(shape, 'path', 'a string');
  }
  return rehashContexts(root, target, lastUpdated);
}

/** `context scope init`: `{"scope","result":"created","file","fingerprint","last_updated"}` or a refusal. */
export function initScopeText(defaultRoot: string, scope: unknown, path: unknown, lastUpdated: string): ScopeOutcome {
  const echo = typeof scope === 'string' ? scope : '';
  const shape = (error: string): Json => ({ scope: echo, result: 'refused', error });
  if (typeof scope !== 'string') return badArgument(shape, 'scope', 'a string');
  const root = projectRoot(defaultRoot, path);
  if (root === null) return badArgument(shape, 'path', 'a string');
  return initScope(root, scope, lastUpdated);
}
