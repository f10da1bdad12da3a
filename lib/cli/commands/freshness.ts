// `context freshness --scope S [--root R]`: fresh, stale or missing for one scope — the
// same bytes `context.check_freshness` returns. Stale exits 0: it is an answer.

import { checkFreshnessText } from '../../core/scopes/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { printScopeOutcome } from './scope-output.js';

export const freshness: Command = {
  name: 'freshness',
  summary: "Check whether one directory's .context.yaml is fresh, stale or missing",
  usage: 'context freshness --scope SCOPE [--root DIR]',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['scope', 'root'] });
    return printScopeOutcome('freshness', checkFreshnessText(io.cwd, required(args, 'scope'), args.values['root']), io);
  },
};
