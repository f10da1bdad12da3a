// Turns a tool body into a ToolOutcome: its text on success; a thrown ContextError as the
// canonical error JSON + "\n" with isError (seed 001: exactly {"error":{"code","message"}}).
// Anything else is a bug: it propagates, and the session logs it as internal_error.

import { ContextError, errorJson } from '../../errors.js';
import type { ToolContext, ToolOutcome } from '../tool.js';
import { osHint } from './os-hint.js';

/** The body's text, or a thrown ContextError as the error object; one the OS caused adds its hint (os-hint.ts). */
export function runTool(body: () => string, ctx: ToolContext): ToolOutcome {
  try {
    return { text: body(), isError: false };
  } catch (err) {
    if (!(err instanceof ContextError)) throw err;
    const text = errorJson(err.code) + '\n';
    const hint = osHint(err, ctx);
    return hint === undefined ? { text, isError: true } : { text, isError: true, hint };
  }
}
