// `context.resolve` (seed 001): the tool's text is byte-identical to
// `context resolve --cache C --query Q --budget B` stdout, trailing "\n" included.
// Checks run in the CLI's order (budget, query, then the cache), so both faces fail alike.

import { resolveText, validateBudget, validateBudgetScope, validateQuery } from '../../core/operations/api.js';
import type { Tool } from '../tool.js';
import { CACHE_PROPERTY, readNamedCache } from './cache-name.js';
import { runTool } from './outcome.js';
import { arrayOf, COUNT, objectOf, outputSchema, READ_ONLY, STRING, stringEnum } from './output-schema.js';

// The SelectionResult: v0's fields required, v1's additions (docs/engine.md "The answer")
// optional. Open objects: an engine may add documented fields, and a host validating an
// older schema must still accept the answer.
const MATCH = objectOf(
  { term: STRING, fields: { type: 'object', additionalProperties: COUNT }, score: { type: 'number', minimum: 0 } },
  {},
  true,
);
const WHY = objectOf(
  { query_terms: arrayOf(STRING), term_matches: COUNT, total_words: COUNT },
  { terms: arrayOf(STRING), matches: arrayOf(MATCH) },
  true,
);
const DOCUMENT = objectOf(
  {
    id: STRING,
    version: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
    content: STRING,
    score: { type: 'number', minimum: 0 },
    tokens: COUNT,
    why: WHY,
  },
  { path: STRING, trail: arrayOf(STRING) },
  true,
);
const SELECTION = objectOf(
  {
    query: STRING,
    budget: COUNT,
    tokens_used: COUNT,
    documents_considered: COUNT,
    documents_selected: COUNT,
    documents_excluded_by_budget: COUNT,
  },
  {
    documents_matched: COUNT,
    engine: stringEnum(['v0', 'v1']),
    granularity: stringEnum(['file', 'section']),
    tokenizer: STRING,
    budget_scope: stringEnum(['content', 'answer']),
    answer_tokens: COUNT,
  },
  true,
);

export const resolveTool: Tool = {
  name: 'context.resolve',
  title: 'Resolve context for a query',
  description:
    'Select from a pre-built context cache the documents that best match a query and fit a token budget, each with why it was chosen. ' +
    'Call context.list_caches first: cache is one of the names it returns. ' +
    'Ask with a few distinctive keywords ("rollback deployment"), not a sentence: the v0 engine scores a document by the share of its words ' +
    'that equal a query word (whole words, lowercased, punctuation kept, no stemming), so the common words of a sentence (the, to, how) ' +
    'would match everywhere and outweigh the ones that matter. ' +
    'budget is the most tokens the returned documents may use together, a token being ceil(UTF-8 bytes / 4) of a document\'s content: ' +
    'whole documents only, best score first, skipping any that does not fit. Same cache, query and budget: the same answer, byte for byte.',
  legacyDescription:
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
  outputSchema: outputSchema(objectOf({ documents: arrayOf(DOCUMENT), selection: SELECTION }, {}, true)),
  annotations: READ_ONLY,
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
