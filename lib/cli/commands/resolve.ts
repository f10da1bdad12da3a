// `context resolve --cache C --query Q --budget B [--format json|pretty]`: the v0 selection,
// printed as the SelectionResult JSON (compact by default, as the reference prints it).

import { resolve as resolvePath } from 'node:path';
import { parseBudget, resolveText } from '../../core/cache/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const resolve: Command = {
  name: 'resolve',
  summary: 'Select the documents of a cache for a query, within a token budget',
  usage: 'context resolve --cache DIR --query TEXT --budget TOKENS [--format json|pretty]',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'query', 'budget', 'format'] });
    const cache = resolvePath(io.cwd, required(args, 'cache'));
    const query = required(args, 'query');
    const budgetText = required(args, 'budget');
    const format = formatFlag(args.values['format'], 'json');
    io.stdout(resolveText(cache, query, parseBudget(budgetText), format));
    return 0;
  },
};
