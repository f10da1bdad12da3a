// Shared by the three scope tools: the input-schema pieces they have in common, and the
// step from a core ScopeOutcome to a ToolOutcome (same text, same isError; nothing else).

import type { ScopeOutcome } from '../../core/scopes/api.js';
import type { ToolOutcome } from '../tool.js';

export const PATH_PROPERTY = {
  type: 'string',
  description: "Project root path override. Defaults to the server's configured root.",
} as const;

export const SCOPE_PROPERTY = {
  type: 'string',
  description: 'Relative path from project root, e.g. "src/core" or "." for root',
} as const;

export function toToolOutcome(result: ScopeOutcome): ToolOutcome {
  return { text: result.text, isError: result.isError };
}
