// The `cache` argument of the cache tools: a name under the server's cache root, resolved
// with traversal protection. Anything but a string names no cache: cache_missing.

import { join } from 'node:path';
import { locateCache, readWhileBuilding } from '../../core/operations/api.js';
import { ContextError } from '../../errors.js';
import type { ToolContext } from '../tool.js';

export function cacheDirOf(value: unknown, ctx: ToolContext): string {
  if (typeof value !== 'string') throw new ContextError('cache_missing');
  return locateCache(ctx.cacheRoot, value);
}

/**
 * Locates the cache named `value` and reads it with `read`; a read that fails while a
 * build swaps that cache is tried again (readWhileBuilding), so a client never sees the
 * moment between the old cache and the new one.
 */
export function readNamedCache(value: unknown, ctx: ToolContext, read: (dir: string) => string): string {
  // Only a name locateCache could accept is waited for: nothing beside another directory.
  if (typeof value !== 'string' || value === '' || /\0|\.\.|^[/\\]/.test(value)) return read(cacheDirOf(value, ctx));
  return readWhileBuilding(join(ctx.cacheRoot, value), () => read(cacheDirOf(value, ctx)));
}

export const CACHE_PROPERTY = {
  type: 'string',
  description: 'Name of a cache directory under the server\'s cache root (as context.list_caches reports it)',
} as const;
