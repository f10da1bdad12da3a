// `context.inspect_cache` (seed 004): cache_version, document_count, total_bytes, valid, as
// compact JSON without a trailing newline (`context inspect --format json` prints it + "\n").

import { inspectText } from '../../core/operations/api.js';
import type { Tool } from '../tool.js';
import { CACHE_PROPERTY, readNamedCache } from './cache-name.js';
import { runTool } from './outcome.js';
import { BOOLEAN, COUNT, objectOf, outputSchema, READ_ONLY, STRING, V1_HELD } from './output-schema.js';

export const inspectCacheTool: Tool = {
  name: 'context.inspect_cache',
  title: 'Inspect a context cache',
  description:
    'Inspect a context cache: its cache_version, document_count (source documents, not sections), total_bytes (of the files directly in the cache folder) ' +
    'and valid (whether its manifest is well-formed; context.resolve checks the rest); for a cache built by default (engine v1), also its label, granularity, tokenizer and formats (documents per format). Does not return document content. ' +
    'cache is a name exactly as context.list_caches returns it; use this to see how large a cache is before choosing a budget for context.resolve.',
  legacyDescription:
    'Inspect a context cache: its cache_version, document_count and total_bytes, and whether its manifest is valid. Does not return document content.',
  inputSchema: {
    type: 'object',
    required: ['cache'],
    additionalProperties: false,
    properties: { cache: CACHE_PROPERTY },
  },
  outputSchema: outputSchema(objectOf({ cache_version: STRING, document_count: COUNT, total_bytes: COUNT, valid: BOOLEAN }, V1_HELD)),
  annotations: READ_ONLY,
  call(args, ctx) {
    return runTool(() => readNamedCache(args['cache'], ctx, (dir) => inspectText(dir, 'json')), ctx);
  },
};
