// `context.status`: the text of `context status` for a cache under the server's cache root:
// is it current with its sources (by content hash)? The sources are the ones the cache
// records, or `sources` relative to the server's project root; either way they must lie
// inside the server's allowed roots (project root or client roots), else root_not_allowed.

import { isWithinRoots } from '../../core/confine.js';
import { statusText } from '../../core/operations/status.js';
import { ContextError } from '../../errors.js';
import type { Tool, ToolContext } from '../tool.js';
import { CACHE_PROPERTY, cacheDirOf } from './cache-name.js';
import * as fs from '../../core/fs.js';
import { advisedErrorSchema, runAdvised } from './advice.js';
import { policyOf } from './root-guard.js';
import { arrayOf, COUNT, objectOf, orNull, outputSchemaWithError, READ_ONLY, STRING, stringEnum } from './output-schema.js';

/** Sources the server may read: inside its allowed roots by real path, else root_not_allowed. */
function insideRoots(dir: string, ctx: ToolContext): void {
  if (!isWithinRoots(dir, policyOf(ctx).allowed)) throw new ContextError('root_not_allowed');
}

export const statusTool: Tool = {
  name: 'context.status',
  title: 'Check a cache against its sources',
  description:
    'Check whether a context cache is current with its source files (compared by content hash): lists added, changed and removed documents and says "current": true or false. Call it before trusting a cache that may be stale; rebuild when it is not current.',
  inputSchema: {
    type: 'object',
    required: ['cache'],
    additionalProperties: false,
    properties: {
      cache: CACHE_PROPERTY,
      sources: {
        type: 'string',
        description: 'Sources directory, relative to the server\'s project root (default: the one the cache records; required for v0 caches)',
      },
    },
  },
  outputSchema: outputSchemaWithError(
    advisedErrorSchema('status'),
    objectOf({
      cache_version: STRING,
      engine: stringEnum(['v0', 'v1']),
      sources: orNull('string'),
      current: orNull('boolean'),
      note: orNull('string'),
      added: arrayOf(STRING),
      changed: arrayOf(STRING),
      removed: arrayOf(STRING),
      unchanged: COUNT,
      skipped: arrayOf(objectOf({ path: STRING, reason: STRING })),
    }),
  ),
  annotations: READ_ONLY,
  call(args, ctx) {
    return runAdvised('status', () => {
      if (fs.lstatOrNull(ctx.cacheRoot) === null) throw new ContextError('cache_missing', 'no cache root', 'cache_root_missing');
      const dir = cacheDirOf(args['cache'], ctx);
      const given = args['sources'];
      if (given !== undefined && (typeof given !== 'string' || given === '')) {
        throw new ContextError('io_error', 'sources must be a relative path', 'sources_missing');
      }
      // Outside the roots (absolute, `..`, a NUL byte): the refusal every workspace tool gives.
      const sources = given === undefined ? null : policyOf(ctx).confine(given);
      if (given !== undefined && sources === null) throw new ContextError('root_not_allowed');
      return statusText(dir, {
        sources,
        sourcesLabel: given ?? null,
        allowSources: (d) => insideRoots(d, ctx),
      });
    }, ctx);
  },
};
