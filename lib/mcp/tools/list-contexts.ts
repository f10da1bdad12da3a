// `context.list_contexts {path?}` (seed 003): every tracked directory with fresh / stale /
// missing, sorted by scope in byte order; text identical to `context scopes` stdout.
// isError only when the project cannot be scanned.

import { listContextsText } from '../../core/scopes/api.js';
import type { Tool } from '../tool.js';
import { guardRoot } from './root-guard.js';
import { PATH_PROPERTY, toToolOutcome } from './scope-outcome.js';

export const listContextsTool: Tool = {
  name: 'context.list_contexts',
  description:
    'List all tracked directories with their staleness status: every directory that should have a .context.yaml, showing which are fresh, stale, or missing. Call this first to discover scopes.',
  inputSchema: { type: 'object', properties: { path: PATH_PROPERTY } },
  call(args, ctx) {
    return guardRoot(args['path'], ctx, (base) => toToolOutcome(listContextsText(base, args['path'])));
  },
};
