// `context resolve --cache C --query Q --budget B [--format json|pretty|text] [--budget-scope content|answer]`:
// the cache's engine selects, and the SelectionResult is printed (compact JSON by default, as the
// reference prints it). For v1 caches the budget bounds the printed answer unless --budget-scope content.

import { resolve as resolvePath } from 'node:path';
import { availableParallelism } from 'node:os';
import { parseBudget, resolveTextParallel, validateBudgetScope } from '../../core/operations/api.js';
import { parseFlags, required } from '../args.js';
import { UsageError, type Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const resolve: Command = {
  name: 'resolve',
  summary: 'Select the documents of a cache for a query, within a token budget',
  usage: 'context resolve --cache DIR --query TEXT --budget TOKENS [--format json|pretty|text] [--budget-scope content|answer]',
  help: {
    about:
      'Selects the documents (or, in a section cache, the sections) of a cache that match a query and fit a token budget, and says why each was chosen. ' +
      'The cache\'s engine answers. v0 scores a document by the share of its words that equal a query word (whole words, lowercased, punctuation kept: "deploy" does not match "deployment."), ' +
      'so short keyword queries work best; v1 ranks with BM25 over path, title, headings and body, with stemming and identifier splitting, and never selects what matches no query term. ' +
      'The answer depends only on the cache, the query and the budget: the same bytes every time, on every machine.',
    options: [
      ['--cache DIR', 'A cache built by context build (either engine). It is checked as it loads: a changed or damaged cache is refused (exit 5).'],
      ['--query TEXT', 'The words to look for, split on whitespace. Quote it in the shell.'],
      ['--budget TOKENS', 'The most tokens the answer may use, counted as the cache was built to count them (selection.tokenizer; v0: ceil(UTF-8 bytes / 4)). For a v1 cache it bounds everything printed, in the --format printed; for a v0 cache, the selected contents. Entries are taken best score first; one that does not fit is skipped (never cut) and smaller ones after it may still fit. Better units left out are named (selection.omitted), with a budget that would include the first (selection.raise_budget_to).'],
      ['--format json|pretty|text', 'json (default): the SelectionResult as one compact line, byte-identical to the context.resolve MCP tool\'s text. pretty: the same JSON indented. text: for people: rank, id, score and tokens of each entry, which query terms matched where, the better units the budget left out ("raise the budget to N to include X"), and one line on the budget.'],
      ['--budget-scope content|answer', 'answer (the default for v1 caches): the budget bounds the whole printed answer, envelope and explanations included, exactly in the cache\'s tokenizer. content (v0\'s rule, the only one for v0 caches): it counts the selected contents only.'],
    ],
    examples: [
      'context resolve --cache ./caches/docs --query "deployment rollback" --budget 4000',
      'context resolve --cache ./caches/docs --query security --budget 500 --format pretty',
      'context resolve --cache ./caches/docs --query "deployment rollback" --budget 4000 --format text',
      'context resolve --cache ./caches/docs-v1 --query "configure docker image" --budget 2000 --budget-scope content',
    ],
    output:
      'stdout: {"documents":[{id, version, content, score, tokens, why, ...}], "selection":{query, budget, tokens_used, documents_considered, documents_selected, documents_excluded_by_budget, ...}} (v1 adds fields: docs/engine.md). ' +
      'Exit codes: 0 success; 1 usage; 2 invalid query; 3 invalid budget; 4 cache missing; 5 cache invalid; 6 I/O error; 7 internal error (then stderr says "error: CODE: message" and stdout stays empty).',
  },
  async run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'query', 'budget', 'format', 'budget-scope'] });
    const cache = resolvePath(io.cwd, required(args, 'cache'));
    const query = required(args, 'query');
    const budgetText = required(args, 'budget');
    const format = args.values['format'] === 'text' ? 'text' : formatFlag(args.values['format'], 'json', ['text']);
    const budget = parseBudget(budgetText);
    const scopeText = args.values['budget-scope'];
    if (scopeText !== undefined && scopeText !== 'content' && scopeText !== 'answer') {
      throw new UsageError(`--budget-scope must be content or answer, not "${scopeText}"`);
    }
    const scope = validateBudgetScope(scopeText);
    io.stdout(await resolveTextParallel(cache, query, budget, format, availableParallelism(), scope));
    return 0;
  },
};
