// `context.cite`: a verifiable citation of a line span. Its text is `context cite`'s stdout
// byte for byte (both call citeOutcome); a refusal or bad input is `isError: true`.

import { citeOutcome } from '../../core/citations/outcome.js';
import type { Tool } from '../tool.js';
import { guardRoot } from './root-guard.js';
import { citationHint } from './failure-hints.js';
import { ROOT_PROPERTY } from './root-property.js';
import { CITATION, REFUSAL } from './citation-schemas.js';
import { objectOf, outputSchema, READ_ONLY } from './output-schema.js';

export const citeTool: Tool = {
  name: 'context.cite',
  title: 'Cite a line span',
  description:
    'Cite lines start_line..end_line (1-based, inclusive) of a file under root as [[vctx:PATH#LSTART-LEND@HASH8]], ' +
    'HASH8 = first 8 hex digits of sha256 of the span. Returns {"ok":true,"citation":…,"sha256_full":…} or {"ok":false,"reason":…}.',
  inputSchema: {
    type: 'object',
    properties: {
      root: ROOT_PROPERTY,
      path: { type: 'string', description: 'File path relative to root' },
      start_line: { type: 'integer', description: '1-based first line' },
      end_line: { type: 'integer', description: '1-based last line (inclusive)' },
    },
    required: ['root', 'path', 'start_line', 'end_line'],
    additionalProperties: false,
  },
  outputSchema: outputSchema(
    objectOf({ ok: { const: true }, citation: CITATION, sha256_full: { type: 'string', pattern: '^[0-9a-f]{64}$' } }),
    REFUSAL,
  ),
  annotations: READ_ONLY,
  call(args, ctx) {
    return guardRoot(args['root'], ctx, (base) => {
      const outcome = citeOutcome(args, { base });
      if (outcome.status === 'ok') return { text: outcome.text, isError: false };
      return { text: outcome.text, isError: true, hint: citationHint(outcome.text) };
    });
  },
};
