// `query_context` / `context show`: one scope's context, optionally filtered. Metadata
// (version, scope, fingerprint, last_updated) always comes first; the other fields follow
// in schema order, so the bytes never depend on the file's or the filter's order.

import type { Json } from '../../json.js';
import { outcome, type ProjectRoot, type ScopeFailure, type ScopeOutcome } from './outcome.js';
import { CONTEXT_FIELDS, FILTERABLE_FIELDS, METADATA_FIELDS, type ContextData } from './schema.js';
import { readScope } from './read-scope.js';

function failed(scope: string, error: string, failure: ScopeFailure): ScopeOutcome {
  const value: Json = { found: false, scope, error };
  return outcome(value, true, failure);
}

/** Metadata first, then the wanted fields present in the context, in schema order. */
function project(context: ContextData, filter: readonly string[] | undefined): { [key: string]: Json } {
  const wanted = filter === undefined || filter.length === 0 ? null : new Set(filter.filter((f) => FILTERABLE_FIELDS.includes(f)));
  const out: { [key: string]: Json } = {};
  for (const key of METADATA_FIELDS) out[key] = context[key] as Json;
  for (const key of CONTEXT_FIELDS) {
    if (METADATA_FIELDS.includes(key) || context[key] === undefined) continue;
    if (wanted === null || wanted.has(key)) out[key] = context[key] as Json;
  }
  return out;
}

export function queryContext(root: ProjectRoot, rawScope: string, filter?: readonly string[]): ScopeOutcome {
  const read = readScope(root.dir, rawScope);
  if (!read.ok) return failed(read.scope, read.error, read.failure);
  const { scope } = read;
  const value: Json = { found: true, scope, context: project(read.context, filter) };
  return outcome(value, false);
}
