// `context.resolve` (seed 001): the tool's text is byte-identical to
// `context resolve --cache C --query Q --budget B` stdout, trailing "\n" included.
// Checks run in the CLI's order (budget, query, then the cache), so both faces fail alike.

import { resolveText, validateBudget, validateBudgetScope, validateQuery } from '../../core/cache/api.js';
import type { Tool } from '../tool.js';
import { CACHE_PROPERTY, readNamedCache } from './cache-name.js';
import { runTool } from './outcome.js';

export const resolveTool: Tool = {
  name: 'context.resolve',
  description:
    'Resolve a natural-language query against a pre-built context cache and return a deterministic, explainable set of documents within a token budget.',
  inputSchema: {
    type: 'object',
    required: ['cache', 'query', 'budget'],
    properties: {
      cache: CACHE_PROPERTY,
      query: { type: 'string', description: 'Natural-language query' },
      budget: { type: 'integer', minimum: 0, description: 'Maximum token budget' },
      budget_scope: {
        type: 'string',
        enum: ['content', 'answer'],
        description:
          'What the budget bounds (v1 caches): "content" (default) counts the selected documents\' contents; "answer" counts the whole returned text, exactly, in the cache\'s tokenizer',
      },
    },
  },
  async call(args, ctx) {
    // One event-loop turn first: a watch event for a document rewritten just before this
    // call then reaches the memo before it answers from memory.
    await ctx.memo?.settle();
    return runTool(() => {
      const budget = validateBudget(args['budget']);
      const query = validateQuery(args['query']);
      const scope = validateBudgetScope(args['budget_scope']);
      return readNamedCache(args['cache'], ctx, (dir) => resolveText(dir, query, budget, 'json', ctx.memo, scope));
    });
  },
};
