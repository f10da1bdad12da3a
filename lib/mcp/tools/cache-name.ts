// The `cache` argument of the cache tools: a name under the server's cache root, resolved
// with traversal protection. Anything but a string names no cache: cache_missing.

import { locateCache } from '../../core/cache/api.js';
import { ContextError } from '../../errors.js';
import type { ToolContext } from '../tool.js';

export function cacheDirOf(value: unknown, ctx: ToolContext): string {
  if (typeof value !== 'string') throw new ContextError('cache_missing');
  return locateCache(ctx.cacheRoot, value);
}

export const CACHE_PROPERTY = {
  type: 'string',
  description: 'Name of a cache directory under the server\'s cache root (as context.list_caches reports it)',
} as const;
