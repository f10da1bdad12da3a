// The MCP tool table, in the order `tools/list` advertises them.

import type { Tool } from '../tool.js';
import { citeTool } from './cite.js';
import { claimTool } from './claim.js';
import { verifyWorkspaceTool } from './verify-workspace.js';

export const TOOLS: readonly Tool[] = [
  citeTool,
  claimTool,
  verifyWorkspaceTool,
];
