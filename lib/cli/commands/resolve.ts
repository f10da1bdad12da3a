// `context resolve --cache C --query Q --budget B [--format json|pretty]`: the v0 selection,
// printed as the SelectionResult JSON (compact by default, as the reference prints it).

import { resolve as resolvePath } from 'node:path';
import { availableParallelism } from 'node:os';
import { parseBudget, resolveTextParallel, validateBudgetScope } from '../../core/cache/api.js';
import { parseFlags, required } from '../args.js';
import { UsageError, type Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const resolve: Command = {
  name: 'resolve',
  summary: 'Select the documents of a cache for a query, within a token budget',
  usage: 'context resolve --cache DIR --query TEXT --budget TOKENS [--format json|pretty] [--budget-scope content|answer]',
  async run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'query', 'budget', 'format', 'budget-scope'] });
    const cache = resolvePath(io.cwd, required(args, 'cache'));
    const query = required(args, 'query');
    const budgetText = required(args, 'budget');
    const format = formatFlag(args.values['format'], 'json');
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
