// Turns a tool body into a ToolOutcome: its text on success; a thrown ContextError as the
// canonical error JSON + "\n" with isError (seed 001: exactly {"error":{"code","message"}}).
// Anything else is a bug: it propagates, and the session logs it as internal_error.

import { ContextError, errorJson } from '../../errors.js';
import type { ToolOutcome } from '../tool.js';

export function runTool(body: () => string): ToolOutcome {
  try {
    return { text: body(), isError: false };
  } catch (err) {
    if (err instanceof ContextError) return { text: errorJson(err.code) + '\n', isError: true };
    throw err;
  }
}
