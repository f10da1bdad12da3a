// `context.list_caches` (seed 000): the immediate subdirectories of the server's cache root,
// each with has_manifest (and, for an engine v1 cache, its engine, label, granularity,
// tokenizer, formats and document_count), sorted by UTF-8 bytes; compact JSON without a
// trailing newline (`context list-caches --root R` prints it + "\n"). No parameters.

import { listCachesText } from '../../core/operations/api.js';
import type { Tool } from '../tool.js';
import { runTool } from './outcome.js';
import { arrayOf, BOOLEAN, COUNT, objectOf, outputSchema, READ_ONLY, STRING, V1_HELD } from './output-schema.js';

export const listCachesTool: Tool = {
  name: 'context.list_caches',
  title: 'List context caches',
  description:
    'List the context caches this server can read: each folder under its cache root, as path (the name to pass as cache to context.resolve, ' +
    'context.inspect_cache and context.status), with has_manifest (false: the folder is not a usable cache). ' +
    'A cache built by default (engine v1) also says what it holds: label (the name its builder gave it, e.g. "fastapi@0.115", or null), ' +
    'granularity, tokenizer, formats (documents per format) and document_count; a v0 cache only path and has_manifest. ' +
    'Call this first, unless context.resolve\'s cache argument already lists the names. Takes no arguments.',
  legacyDescription:
    'List the context caches under the server\'s cache root: each immediate subdirectory, with whether it holds a manifest.json. Takes no arguments.',
  inputSchema: { type: 'object', properties: {} },
  outputSchema: outputSchema(objectOf({ caches: arrayOf(objectOf({ path: STRING, has_manifest: BOOLEAN }, { ...V1_HELD, document_count: COUNT })) })),
  annotations: READ_ONLY,
  call(_args, ctx) {
    return runTool(() => listCachesText(ctx.cacheRoot), ctx);
  },
};
