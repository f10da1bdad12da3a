// `context.list_caches` (seed 000): the immediate subdirectories of the server's cache root,
// each with has_manifest, sorted by UTF-8 bytes; compact JSON without a trailing newline
// (`context list-caches --root R` prints it + "\n"). No parameters.

import { listCachesText } from '../../core/operations/api.js';
import type { Tool } from '../tool.js';
import { runTool } from './outcome.js';
import { arrayOf, BOOLEAN, objectOf, outputSchema, READ_ONLY, STRING } from './output-schema.js';

export const listCachesTool: Tool = {
  name: 'context.list_caches',
  title: 'List context caches',
  description:
    'List the context caches this server can read: each folder under its cache root, as path (the name to pass as cache to context.resolve, ' +
    'context.inspect_cache and context.status), with has_manifest (false: the folder is not a usable cache). ' +
    'Call this first. Caches of either engine (v1, the default, or v0) are listed alike. Takes no arguments.',
  legacyDescription:
    'List the context caches under the server\'s cache root: each immediate subdirectory, with whether it holds a manifest.json. Takes no arguments.',
  inputSchema: { type: 'object', properties: {} },
  outputSchema: outputSchema(objectOf({ caches: arrayOf(objectOf({ path: STRING, has_manifest: BOOLEAN })) })),
  annotations: READ_ONLY,
  call(_args, ctx) {
    return runTool(() => listCachesText(ctx.cacheRoot), ctx);
  },
};
