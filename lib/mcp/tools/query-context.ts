// `context.query_context {scope, filter?, path?}` (seed 003): one scope's .context.yaml,
// optionally filtered; text identical to `context show --scope S [--filter a,b]` stdout.
// isError whenever the context was not found (missing, traversal, unsupported, corrupt).

import { queryContextText } from '../../core/scopes/api.js';
import type { Tool } from '../tool.js';
import { guardRoot } from './root-guard.js';
import { PATH_PROPERTY, QUERY_CONTEXT_OUTPUT, SCOPE_PROPERTY, toToolOutcome } from './scope-outcome.js';
import { READ_ONLY } from './output-schema.js';

export const queryContextTool: Tool = {
  name: 'context.query_context',
  title: "Read a scope's context",
  description:
    'Retrieve .context.yaml content for a directory scope: summary, files, interfaces, decisions and more. Use filter to request only specific fields; version, scope, fingerprint and last_updated are always included.',
  inputSchema: {
    type: 'object',
    required: ['scope'],
    properties: {
      scope: SCOPE_PROPERTY,
      filter: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Fields to include: summary, files, interfaces, decisions, constraints, dependencies, current_state, subdirectories, environment, testing, todos, data_models, events, config, project, structure, maintenance, exports.',
      },
      path: PATH_PROPERTY,
    },
  },
  outputSchema: QUERY_CONTEXT_OUTPUT,
  annotations: READ_ONLY,
  call(args, ctx) {
    return guardRoot(args['path'], ctx, (base) => toToolOutcome(queryContextText(base, args['scope'], args['filter'], args['path'])));
  },
};
