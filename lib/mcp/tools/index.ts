// The MCP tool table, in the order `tools/list` advertises them.

import type { Tool } from '../tool.js';

export const TOOLS: readonly Tool[] = [];
