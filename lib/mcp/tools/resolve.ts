// `context.resolve` (seed 001): the tool's text is byte-identical to
// `context resolve --cache C --query Q --budget B [--format markdown] [--explain]` stdout,
// trailing "\n" included. Checks run in the CLI's order (budget, query, then the cache), so
// both faces fail alike. The default is the lean JSON answer (docs/mcp.md "What
// context.resolve returns"): its structuredContent is that same JSON, so a host that hands the
// model the text and one that hands it structuredContent give it the same budgeted answer.
// format "markdown" returns the Markdown answer as the text and {"markdown": TEXT} as
// structuredContent.

import { BUDGET_FORM, QUERY_FORM, resolveText, validateBudget, validateBudgetScope, validateQuery } from '../../core/operations/api.js';
import { ContextError, JSONRPC_ERRORS } from '../../errors.js';
import { RpcError } from '../json-rpc.js';
import type { Tool, ToolOutcome } from '../tool.js';
import { CACHE_PROPERTY, readNamedCache } from './cache-name.js';
import { runTool } from './outcome.js';
import { arrayOf, COUNT, objectOf, outputSchema, READ_ONLY, STRING, stringEnum } from './output-schema.js';

// The explained SelectionResult (v0 caches, and v1 with explain): v0's fields required, v1's
// additions (docs/engine.md "The answer") optional. Open objects: an engine may add
// documented fields, and a host validating an older schema must still accept the answer.
// One query term's match: its frequency in each field that holds it, and its share of the score.
const MATCH = objectOf(
  { term: STRING, score: { type: 'number', minimum: 0 } },
  { body: COUNT, headings: COUNT, title: COUNT, path: COUNT },
  true,
);
// The query terms found close together in the unit and what that added to its score.
const PROXIMITY = objectOf({ terms: arrayOf(STRING), score: { type: 'number', minimum: 0 } }, {}, true);
const WHY = objectOf(
  { query_terms: arrayOf(STRING), term_matches: COUNT, total_words: COUNT },
  { matches: arrayOf(MATCH), proximity: PROXIMITY },
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
  {
    path: STRING,
    trail: arrayOf(STRING),
    // Adjacent selected units of one file, merged into this entry: each unit, in reading order.
    merged: arrayOf(objectOf({ id: STRING }, {}, true)),
  },
  true,
);
// A unit that ranks above the last selected one but was left out for the budget.
const OMITTED = objectOf({ id: STRING, path: STRING, tokens: COUNT, score: { type: 'number', minimum: 0 } }, {}, true);
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
    terms: arrayOf(STRING),
    omitted: arrayOf(OMITTED),
    raise_budget_to: COUNT,
    budget_scope: stringEnum(['content', 'answer']),
    answer_tokens: COUNT,
  },
  true,
);

// The lean v1 answer (the default on a v1 cache): per entry id, short version, the headings
// it sits under, the matched words, its tokens and the content; the selection's budget, counts, the best
// omitted unit's id and the budget that takes it.
const LEAN_DOCUMENT = objectOf(
  { id: STRING, version: { type: 'string', pattern: '^[0-9a-f]{8}$' }, matched: STRING, tokens: COUNT, content: STRING },
  { under: STRING },
  true,
);
const LEAN_SELECTION = objectOf(
  { budget: COUNT, matched: COUNT },
  {
    answer_tokens: COUNT,
    budget_scope: stringEnum(['content']),
    tokens_used: COUNT,
    over_budget: { type: 'boolean', const: true },
    omitted: arrayOf(STRING),
    raise_budget_to: COUNT,
  },
  true,
);
const LEAN = objectOf({ documents: arrayOf(LEAN_DOCUMENT), selection: LEAN_SELECTION }, {}, true);
const EXPLAINED = objectOf({ documents: arrayOf(DOCUMENT), selection: SELECTION }, {}, true);
// What 2024-11-05 and 2025-03-26 clients are shown (the bytes their transcripts recorded):
// the input schema before format and explain were added (they may pass them all the same).
const LEGACY_INPUT = {
  type: 'object',
  required: ['cache', 'query', 'budget'],
  properties: {
    cache: CACHE_PROPERTY,
    query: {
      type: 'string',
      description: 'A natural-language question, e.g. "how do I roll back a deployment?" (for v0 caches, a few distinctive keywords work best)',
    },
    budget: {
      type: 'integer',
      minimum: 0,
      description:
        'An integer >= 0 given as a JSON number, not a string (e.g. 4000): the most tokens the answer may use, in the cache\'s tokenizer (v1 caches: the whole returned text; v0 caches: the selected contents)',
    },
    budget_scope: {
      type: 'string',
      enum: ['content', 'answer'],
      description:
        'What the budget bounds (v1 caches): "answer" (default) counts the whole returned text, exactly, in the cache\'s tokenizer; "content" counts only the selected contents (v0\'s rule, the only one for v0 caches)',
    },
  },
} as const;
// The tool's input: the legacy one, plus format and explain.
const INPUT = {
  ...LEGACY_INPUT,
  properties: {
    ...LEGACY_INPUT.properties,
    format: {
      type: 'string',
      enum: ['json', 'markdown'],
      description:
        'How the answer is returned (v1 caches): "json" (default), the lean JSON answer; "markdown", each entry\'s content under a one-line header "[RANK] ID @VERSION | under: HEADINGS | matched: TERMS", then one closing line (structuredContent is then {"markdown": TEXT}). The budget bounds what is returned either way',
    },
    explain: {
      type: 'boolean',
      description:
        'true: every detail of each entry (score, tokens, path, per-term field counts and score shares, proximity, full version) and of the selection, within the same budget (so fewer entries fit). Default false: the lean answer',
    },
  },
} as const;
// format "markdown": the Markdown text, as structuredContent must be an object.
const MARKDOWN = objectOf({ markdown: STRING });

/** The second text block of a failed resolve: what a valid budget or query is. */
function failureHint(err: ContextError): string | undefined {
  if (err.code === 'invalid_budget') return `The budget is not valid: ${BUDGET_FORM}, given as a JSON number (not a string); budget_scope, when given, is "answer" or "content".`;
  if (err.code === 'invalid_query') return `The query is not valid: ${QUERY_FORM}.`;
  return undefined;
}

export const resolveTool: Tool = {
  name: 'context.resolve',
  title: 'Resolve context for a query',
  description:
    'Select from a pre-built context cache the documents or sections that best answer a question within a token budget, each with why it was chosen. ' +
    'Call context.list_caches first: cache is one of the names it returns. ' +
    'query is a natural-language question ("how do I roll back a deployment?"). Caches built by default (engine v1) rank sections with BM25 and stemming, ' +
    'so a question works as asked; caches built with engine v0 score whole documents by the share of their words equal to a query word ' +
    '(lowercased, no stemming), so there a few distinctive keywords ("rollback deployment") match best. ' +
    'budget is an integer >= 0, counted in the cache\'s tokenizer (o200k_base for caches built by default, ceil(UTF-8 bytes / 4) for v0 caches; selection.tokenizer names it): ' +
    'for v1 caches it bounds this whole returned text (selection.answer_tokens), for v0 caches the selected contents; best score first, ' +
    'a unit that does not fit is skipped, never cut. The best unit left out for the budget is named in selection.omitted (explain: up to 3), and ' +
    'selection.raise_budget_to is a budget that would include it; adjacent sections of one file come as one entry. ' +
    'Each id (PATH, or PATH#SECTION; also in omitted and merged) names the resource context://CACHE/ID (percent-encoded), to read that unit alone. ' +
    'On caches built by default the answer is lean: each entry is {id, version (8 hex digits of the document\'s sha256), under (the headings above the content), matched (the words of the query it holds), tokens, content}; ' +
    'explain: true adds every detail (score, tokens, per-term field counts, the full version, every count) and costs budget; format "markdown" returns each entry\'s content under a one-line header instead of JSON. ' +
    'Same cache, query and budget: the same answer, byte for byte.',
  legacyDescription:
    'Resolve a natural-language query against a pre-built context cache and return a deterministic, explainable set of documents within a token budget.',
  inputSchema: INPUT,
  legacyInputSchema: LEGACY_INPUT,
  outputSchema: outputSchema(LEAN, EXPLAINED, MARKDOWN),
  annotations: READ_ONLY,
  offThread: true,
  async call(args, ctx) {
    // One event-loop turn first: a watch event for a document rewritten just before this
    // call then reaches the memo before it answers from memory.
    await ctx.memo?.settle();
    const format = args['format'];
    if (format !== undefined && format !== 'json' && format !== 'markdown') throw new RpcError(JSONRPC_ERRORS.invalidParams, 'Invalid params: format must be "json" or "markdown"');
    const explain = args['explain'];
    if (explain !== undefined && typeof explain !== 'boolean') throw new RpcError(JSONRPC_ERRORS.invalidParams, 'Invalid params: explain must be true or false');
    const outcome: ToolOutcome = runTool(() => {
      const budget = validateBudget(args['budget']);
      const query = validateQuery(args['query']);
      const scope = validateBudgetScope(args['budget_scope']);
      // The cache's name as given: the URIs of omitted and merged units read back through it.
      return readNamedCache(args['cache'], ctx, (dir) => resolveText(dir, query, budget, format ?? 'json', ctx.memo, scope, explain === true));
    }, ctx);
    if (outcome.isError) {
      const hint = outcome.hint ?? hintOf(outcome.text);
      return hint === undefined ? outcome : { ...outcome, hint };
    }
    // A v0 cache answers in JSON whatever the format asked (Markdown is v1's).
    if (format === 'markdown' && !outcome.text.startsWith('{')) return { ...outcome, structured: { markdown: outcome.text } };
    return outcome;
  },
};

/** The hint for a failed call's canonical error text (invalid_budget and invalid_query name the valid form). */
function hintOf(text: string): string | undefined {
  const code = /"code":"([a-z_]+)"/.exec(text)?.[1];
  return code === 'invalid_budget' || code === 'invalid_query' ? failureHint(new ContextError(code)) : undefined;
}
