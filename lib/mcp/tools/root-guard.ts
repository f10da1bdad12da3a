// The workspace tools' (citations, scopes) guard on the directory they read: a `root` or
// `path` argument outside the server's allowed roots is refused with the typed
// root_not_allowed error — the same answer whatever it names, so the refusal tells nothing
// about the outside — before anything is read. Non-strings go on to the tool's own checks.

import { errorJson } from '../../errors.js';
import { ROOT_HINT } from './failure-hints.js';
import { RootPolicy } from '../root-policy.js';
import type { ToolContext, ToolOutcome } from '../tool.js';

export const ROOT_REFUSED: ToolOutcome = { text: errorJson('root_not_allowed') + '\n', isError: true, hint: ROOT_HINT };

/** The server's policy; a context built without one confines to its project root. */
export function policyOf(ctx: ToolContext): RootPolicy {
  return ctx.roots ?? new RootPolicy(ctx.projectRoot);
}

/**
 * Runs `body(base)` — `base` being where relative arguments are resolved — when `value`
 * (a root or path argument; undefined = the default root) is allowed, else the refusal.
 */
export function guardRoot(value: unknown, ctx: ToolContext, body: (base: string) => ToolOutcome): ToolOutcome {
  const policy = policyOf(ctx);
  if (typeof value === 'string' && policy.confine(value) === null) return ROOT_REFUSED;
  return body(policy.base);
}
