// `context.status`: the text of `context status` for a cache under the server's cache root:
// is it current with its sources (by content hash)? The sources are the ones the cache
// records, or `sources` relative to the server's project root; either way they must lie
// inside the project root, since the server reads nothing else.

import { isAbsolute, resolve, sep } from 'node:path';
import { realpathSync } from 'node:fs';
import { statusText } from '../../core/cache/status.js';
import { ContextError } from '../../errors.js';
import type { Tool, ToolContext } from '../tool.js';
import { CACHE_PROPERTY, cacheDirOf } from './cache-name.js';
import { runTool } from './outcome.js';
import { arrayOf, COUNT, objectOf, orNull, outputSchema, READ_ONLY, STRING, stringEnum } from './output-schema.js';

function insideProject(dir: string, ctx: ToolContext): void {
  let real: string;
  let root: string;
  try {
    real = realpathSync(dir);
    root = realpathSync(ctx.projectRoot);
  } catch {
    throw new ContextError('io_error', 'sources directory does not exist');
  }
  if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
    throw new ContextError('io_error', 'sources lie outside the project root');
  }
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
  outputSchema: outputSchema(
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
    return runTool(() => {
      const dir = cacheDirOf(args['cache'], ctx);
      const given = args['sources'];
      if (given !== undefined && (typeof given !== 'string' || given === '' || isAbsolute(given) || given.includes('\0'))) {
        throw new ContextError('io_error', 'sources must be a relative path');
      }
      return statusText(dir, {
        sources: given === undefined ? null : resolve(ctx.projectRoot, given),
        sourcesLabel: given ?? null,
        allowSources: (d) => insideProject(d, ctx),
      });
    });
  },
};
