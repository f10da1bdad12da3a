// `context resolve --cache C --query Q --budget B [--format json|pretty|markdown|text] [--explain] [--budget-scope content|answer]`:
// the cache's engine selects, and the SelectionResult is printed (compact JSON by default, as the
// reference prints it). For v1 caches the budget bounds the printed answer unless --budget-scope
// content; the answer is lean (id, short version, headings above, matched query words, content) unless --explain.

import { resolve as resolvePath } from 'node:path';
import { availableParallelism } from 'node:os';
import { parseBudget, resolveAnswerParallel, validateBudgetScope, type AnswerFormat } from '../../core/operations/api.js';
import { parseFlags, required } from '../args.js';
import { UsageError, type Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const resolve: Command = {
  name: 'resolve',
  summary: 'Select the documents of a cache for a query, within a token budget',
  usage: 'context resolve --cache DIR --query TEXT --budget TOKENS [--format json|pretty|markdown|text] [--explain] [--budget-scope content|answer]',
  help: {
    about:
      'Selects the documents (or, in a section cache, the sections) of a cache that match a query and fit a token budget, and says why each was chosen. ' +
      'The cache\'s engine answers. v0 scores a document by the share of its words that equal a query word (whole words, lowercased, punctuation kept: "deploy" does not match "deployment."), ' +
      'so short keyword queries work best; v1 ranks with BM25 over path, title, headings and body, with stemming and identifier splitting, and never selects what matches no query term. ' +
      'The answer depends only on the cache, the query and the budget: the same bytes every time, on every machine.',
    options: [
      ['--cache DIR', 'A cache built by context build (either engine). It is checked as it loads: a changed or damaged cache is refused (exit 5).'],
      ['--query TEXT', 'The words to look for, split on whitespace. Quote it in the shell.'],
      ['--budget TOKENS', 'The most tokens the answer may use, a whole number written in digits (e.g. 2000), counted as the cache was built to count them (o200k_base for a default build; v0: ceil(UTF-8 bytes / 4)). For a v1 cache it bounds everything printed, in the --format printed (text: the JSON answer it shows); for a v0 cache, the selected contents. Entries are taken best score first; one that does not fit is skipped (never cut), and after a skip only units at least half as good as the best are taken (no filler). The best unit left out is named (selection.omitted; --explain: up to 3), with a budget that would include it (selection.raise_budget_to). A budget too small for even the empty answer still prints it, with selection.over_budget and a warning on stderr.'],
      ['--format json|pretty|markdown|text', 'json (default): the answer as one compact line, byte-identical to the context.resolve MCP tool\'s text. pretty: the same JSON indented. markdown (v1 caches): each entry\'s content under a header line "[RANK] ID @VERSION | under: HEADINGS | matched: TERMS", then one closing line with the budget and what was left out. text: for people: the entries of the JSON answer at this budget, each with its rank, id, score, tokens, which query terms matched where and its first words, then the better units left out and one line on the budget.'],
      ['--explain', 'v1 caches: print every detail of each entry (full version, score, tokens, path, why: per-term field counts and score shares, proximity; merged units) and of the selection (query, engine, tokenizer, analyzed terms, every count). Without it the answer is lean: id, short version (8 hex digits of the document\'s sha256), under (the headings above the content), matched (the words of the query it holds), tokens (what the budget was charged for it) and content per entry, and the best unit left out. The budget counts what is printed.'],
      ['--budget-scope content|answer', 'answer (the default for v1 caches): the budget bounds the whole printed answer, envelope included, exactly in the cache\'s tokenizer. content (v0\'s rule, the only one for v0 caches): it counts the selected contents only.'],
    ],
    examples: [
      'context resolve --cache ./caches/docs --query "deployment rollback" --budget 4000',
      'context resolve --cache ./caches/docs --query security --budget 500 --format pretty',
      'context resolve --cache ./caches/docs --query "deployment rollback" --budget 4000 --format text',
      'context resolve --cache ./caches/docs --query "deployment rollback" --budget 2000 --format markdown',
      'context resolve --cache ./caches/docs --query "deployment rollback" --budget 4000 --explain',
      'context resolve --cache ./caches/docs-v1 --query "configure docker image" --budget 2000 --budget-scope content',
    ],
    output:
      'stdout (v1, lean): {"documents":[{id, version, under?, matched, tokens, content}], "selection":{budget, answer_tokens (or budget_scope and tokens_used), matched, omitted?, raise_budget_to?, over_budget?}}; ' +
      'with --explain, and always for v0 caches: {"documents":[{id, version, content, score, tokens, why, ...}], "selection":{query, budget, tokens_used, documents_considered, documents_selected, documents_excluded_by_budget, ...}} (docs/engine.md "The answer"). ' +
      'Exit codes: 0 success; 1 usage; 2 invalid query; 3 invalid budget; 4 cache missing; 5 cache invalid; 6 I/O error; 7 internal error (then stderr says "error: CODE: message" and stdout stays empty).',
  },
  async run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'query', 'budget', 'format', 'budget-scope'], booleans: ['explain'] });
    const cache = resolvePath(io.cwd, required(args, 'cache'));
    const query = required(args, 'query');
    const budgetText = required(args, 'budget');
    const formatText = args.values['format'];
    const format: AnswerFormat = formatText === 'text' || formatText === 'markdown' ? formatText : formatFlag(formatText, 'json', ['markdown', 'text']);
    const budget = parseBudget(budgetText);
    const scopeText = args.values['budget-scope'];
    if (scopeText !== undefined && scopeText !== 'content' && scopeText !== 'answer') {
      throw new UsageError(`--budget-scope must be content or answer, not "${scopeText}"`);
    }
    const scope = validateBudgetScope(scopeText);
    const answer = await resolveAnswerParallel(cache, query, budget, { format, scope, explain: args.flags['explain'] === true }, availableParallelism());
    io.stdout(answer.text);
    if (answer.overBudget) io.stderr(`warning: the answer's envelope alone is over the budget of ${budget} tokens: nothing fits; raise --budget\n`);
    return 0;
  },
};
