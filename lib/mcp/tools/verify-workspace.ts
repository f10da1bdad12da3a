// `context.verify_workspace`: re-checks every citation and structure claim in a document,
// a directory of Markdown files, or inline text. Its text is `context verify-claims`'s
// stdout byte for byte (both call verifyOutcome); any failure is `isError: true`.

import { verifyOutcome } from '../../core/citations/outcome.js';
import type { Tool } from '../tool.js';
import { guardRoot } from './root-guard.js';
import { citationHint } from './failure-hints.js';
import { ROOT_PROPERTY } from './root-property.js';
import { DIRECTORY_REPORT, DOCUMENT_REPORT, REFUSAL } from './citation-schemas.js';
import { outputSchema, READ_ONLY } from './output-schema.js';

export const verifyWorkspaceTool: Tool = {
  name: 'context.verify_workspace',
  title: 'Verify citations and claims',
  description:
    'Verify every [[vctx:…]] citation and [[vctx-KIND:…]] structure claim against the workspace under root. ' +
    'Give exactly one of in_path (a document, or a directory: every Markdown file under it) and text. ' +
    'Returns {"ok","total","ok_count","fail_count","results"} (or "files" for a directory); failed citations ' +
    'whose span moved carry "moved_to".',
  inputSchema: {
    type: 'object',
    properties: {
      root: ROOT_PROPERTY,
      in_path: { type: 'string', description: 'Document or directory path relative to root' },
      text: { type: 'string', description: 'Inline document text' },
    },
    required: ['root'],
    additionalProperties: false,
  },
  outputSchema: outputSchema(DOCUMENT_REPORT, DIRECTORY_REPORT, REFUSAL),
  annotations: READ_ONLY,
  call(args, ctx) {
    return guardRoot(args['root'], ctx, (base) => {
      const outcome = verifyOutcome(args, { base });
      if (outcome.status === 'ok') return { text: outcome.text, isError: false };
      return { text: outcome.text, isError: true, hint: citationHint(outcome.text) };
    });
  },
};
