// `context resolve --cache C --query Q --budget B [--format json|pretty]`: the v0 selection,
// printed as the SelectionResult JSON (compact by default, as the reference prints it).

import { resolve as resolvePath } from 'node:path';
import { availableParallelism } from 'node:os';
import { parseBudget, resolveTextParallel } from '../../core/cache/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const resolve: Command = {
  name: 'resolve',
  summary: 'Select the documents of a cache for a query, within a token budget',
  usage: 'context resolve --cache DIR --query TEXT --budget TOKENS [--format json|pretty]',
  help: {
    about:
      'Selects the documents of a cache that match a query and fit a token budget, and says why each was chosen. The v0 engine scores a document by the share of its words that equal a query word (lowercased; punctuation is kept, so "deploy" does not match "deployment."): short keyword queries work best. The answer depends only on the cache, the query and the budget: the same bytes every time, on every machine.',
    options: [
      ['--cache DIR', 'A cache built by context build. It is verified as it loads: a changed or damaged cache is refused (exit 5).'],
      ['--query TEXT', 'The words to look for, split on whitespace. Quote it in the shell.'],
      ['--budget TOKENS', 'The most tokens the selected documents may use together; a document costs ceil(its UTF-8 bytes / 4). Documents are taken best score first; one that does not fit is skipped (never cut) and smaller ones after it may still fit.'],
      ['--format json|pretty', 'json (default): the SelectionResult as one compact line, byte-identical to the context.resolve MCP tool\'s text. pretty: the same JSON indented for reading.'],
    ],
    examples: [
      'context resolve --cache ./caches/docs --query "deployment rollback" --budget 4000',
      'context resolve --cache ./caches/docs --query security --budget 500 --format pretty',
    ],
    output:
      'stdout: {"documents":[{id, version, content, score, tokens, why}], "selection":{query, budget, tokens_used, documents_considered, documents_selected, documents_excluded_by_budget}}. Exit codes: 0 success; 1 usage; 2 invalid query; 3 invalid budget; 4 cache missing; 5 cache invalid; 6 I/O error; 7 internal error (then stderr says "error: CODE: message" and stdout stays empty).',
  },
  async run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'query', 'budget', 'format'] });
    const cache = resolvePath(io.cwd, required(args, 'cache'));
    const query = required(args, 'query');
    const budgetText = required(args, 'budget');
    const format = formatFlag(args.values['format'], 'json');
    const budget = parseBudget(budgetText);
    io.stdout(await resolveTextParallel(cache, query, budget, format, availableParallelism()));
    return 0;
  },
};
