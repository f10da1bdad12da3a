// Shared by the three scope tools: the input-schema pieces they have in common, their
// output schemas, and the step from a core ScopeOutcome to a ToolOutcome (same text, same
// isError; nothing else).

import type { ScopeOutcome } from '../../core/scopes/api.js';
import type { ToolOutcome } from '../tool.js';
import { SCOPE_HINTS } from './failure-hints.js';
import { arrayOf, BOOLEAN, COUNT, objectOf, outputSchema, STRING, stringEnum } from './output-schema.js';

export const PATH_PROPERTY = {
  type: 'string',
  description: "Project root path override. Defaults to the server's configured root.",
} as const;

export const SCOPE_PROPERTY = {
  type: 'string',
  description: 'Relative path from project root, e.g. "src/core" or "." for root',
} as const;

export function toToolOutcome(result: ScopeOutcome): ToolOutcome {
  if (!result.isError) return { text: result.text, isError: false };
  return { text: result.text, isError: true, hint: SCOPE_HINTS[result.failure ?? 'arguments'] };
}

// Output shapes (seed 003, docs/scopes.md "Commands and tools"); `error` always a sentence.
const ERROR_TEXT = STRING;

const LIST_ENTRY = objectOf(
  { scope: STRING, state: stringEnum(['fresh', 'stale', 'missing']), has_context: BOOLEAN },
  { last_updated: STRING, summary: STRING },
);

/** `context.list_contexts`: the listing, with `error` (and zeros) when the scan failed. */
export const LIST_CONTEXTS_OUTPUT = outputSchema(
  objectOf(
    { root: STRING, total_directories: COUNT, skipped_directories: COUNT, tracked: COUNT, entries: arrayOf(LIST_ENTRY) },
    { error: ERROR_TEXT, reason: STRING },
  ),
);

/** `context.check_freshness`: fresh or stale with both fingerprints, or missing with why. */
export const CHECK_FRESHNESS_OUTPUT = outputSchema(
  objectOf({
    scope: STRING,
    state: stringEnum(['fresh', 'stale']),
    fingerprint: objectOf({ stored: STRING, computed: STRING }),
    last_updated: STRING,
  }),
  objectOf({ scope: STRING, state: { const: 'missing' }, error: ERROR_TEXT }),
);

/**
 * `context.query_context`: the context (a dotcontext schema v1 document, metadata always
 * present; its fields are validated on read, so only the metadata is spelled out here).
 */
export const QUERY_CONTEXT_OUTPUT = outputSchema(
  objectOf({
    found: { const: true },
    scope: STRING,
    context: objectOf({ version: { const: 1 }, scope: STRING, fingerprint: STRING, last_updated: STRING }, {}, true),
  }),
  objectOf({ found: { const: false }, scope: STRING, error: ERROR_TEXT }),
);
