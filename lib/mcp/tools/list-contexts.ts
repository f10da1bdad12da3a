// `context.list_contexts {path?}` (seed 003): every tracked directory with fresh / stale /
// missing, sorted by scope in byte order; text identical to `context scopes` stdout.
// isError only when the project cannot be scanned.

import { listContextsText } from '../../core/scopes/api.js';
import type { Tool } from '../tool.js';
import { guardRoot } from './root-guard.js';
import { LIST_CONTEXTS_OUTPUT, PATH_PROPERTY, toToolOutcome } from './scope-outcome.js';
import { READ_ONLY } from './output-schema.js';

export const listContextsTool: Tool = {
  name: 'context.list_contexts',
  title: 'List directory scopes',
  description:
    'List all tracked directories with their staleness status: every directory that should have a .context.yaml, showing which are fresh, stale, or missing. Call this first to discover scopes.',
  inputSchema: { type: 'object', properties: { path: PATH_PROPERTY } },
  outputSchema: LIST_CONTEXTS_OUTPUT,
  annotations: READ_ONLY,
  call(args, ctx) {
    return guardRoot(args['path'], ctx, (base) => toToolOutcome(listContextsText(base, args['path'])));
  },
};
