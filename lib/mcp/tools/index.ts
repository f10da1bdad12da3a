// The MCP tool table, in the order `tools/list` advertises them.

import type { Tool } from '../tool.js';
import { inspectCacheTool } from './inspect-cache.js';
import { listCachesTool } from './list-caches.js';
import { resolveTool } from './resolve.js';
import { citeTool } from './cite.js';
import { claimTool } from './claim.js';
import { verifyWorkspaceTool } from './verify-workspace.js';
import { checkFreshnessTool } from './check-freshness.js';
import { listContextsTool } from './list-contexts.js';
import { queryContextTool } from './query-context.js';
import { buildTool } from './build.js';
import { statusTool } from './status.js';

export const TOOLS: readonly Tool[] = [
  // The seed tools first (seed 000's table order).
  resolveTool,
  listCachesTool,
  inspectCacheTool,
  citeTool,
  claimTool,
  verifyWorkspaceTool,
  listContextsTool,
  checkFreshnessTool,
  queryContextTool,
  // Cache upkeep: whether a cache is current, and (unless --read-only) rebuilding it.
  statusTool,
  buildTool,
];
