// `context.claim`: a structure claim for a path. Its text is `context claim`'s stdout byte
// for byte (both call claimOutcome); a refusal or bad input is `isError: true`.

import { claimOutcome } from '../../core/citations/outcome.js';
import { STRUCTURE_KINDS } from '../../core/citations/reasons.js';
import type { Tool } from '../tool.js';
import { guardRoot } from './root-guard.js';
import { citationHint } from './failure-hints.js';
import { ROOT_PROPERTY } from './root-property.js';
import { REFUSAL, STRUCTURE_KIND } from './citation-schemas.js';
import { objectOf, outputSchema, READ_ONLY, STRING } from './output-schema.js';

export const claimTool: Tool = {
  name: 'context.claim',
  title: 'Make a structure claim',
  description:
    'Make a structure claim [[vctx-KIND:PATH]] for a path under root (normalised, not checked). ' +
    'Returns {"ok":true,"claim":…,"kind":…,"normalized_path":…} or {"ok":false,"reason":…}.',
  inputSchema: {
    type: 'object',
    properties: {
      root: ROOT_PROPERTY,
      kind: { type: 'string', enum: [...STRUCTURE_KINDS], description: 'What the claim asserts about the path' },
      path: { type: 'string', description: 'Path relative to root; exists-dir keeps a trailing /' },
    },
    required: ['root', 'kind', 'path'],
    additionalProperties: false,
  },
  outputSchema: outputSchema(
    objectOf({
      ok: { const: true },
      claim: { type: 'string', pattern: '^\\[\\[vctx-(exists|exists-file|exists-dir|missing):[\\s\\S]*\\]\\]$' },
      kind: STRUCTURE_KIND,
      normalized_path: STRING,
    }),
    REFUSAL,
  ),
  annotations: READ_ONLY,
  call(args, ctx) {
    return guardRoot(args['root'], ctx, (base) => {
      const outcome = claimOutcome(args, { base });
      if (outcome.status === 'ok') return { text: outcome.text, isError: false };
      return { text: outcome.text, isError: true, hint: citationHint(outcome.text) };
    });
  },
};
