// `context.check_freshness {scope, path?}` (seed 003): fresh, stale or missing for one
// scope; text identical to `context freshness --scope S` stdout. Stale is not an error.

import { checkFreshnessText } from '../../core/scopes/api.js';
import type { Tool } from '../tool.js';
import { guardRoot } from './root-guard.js';
import { CHECK_FRESHNESS_OUTPUT, PATH_PROPERTY, SCOPE_PROPERTY, toToolOutcome } from './scope-outcome.js';
import { READ_ONLY } from './output-schema.js';

export const checkFreshnessTool: Tool = {
  name: 'context.check_freshness',
  title: "Check a scope's freshness",
  description:
    'Check if a .context.yaml file is current. Returns fresh/stale/missing with fingerprint details. Use this to verify context reliability before relying on it.',
  inputSchema: {
    type: 'object',
    required: ['scope'],
    properties: { scope: SCOPE_PROPERTY, path: PATH_PROPERTY },
  },
  outputSchema: CHECK_FRESHNESS_OUTPUT,
  annotations: READ_ONLY,
  call(args, ctx) {
    return guardRoot(args['path'], ctx, (base) => toToolOutcome(checkFreshnessText(base, args['scope'], args['path'])));
  },
};
