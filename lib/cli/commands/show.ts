// `context show --scope S [--filter a,b] [--root R]`: one scope's context, optionally
// reduced to some fields — the same bytes `context.query_context` returns.

import { queryContextText } from '../../core/scopes/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { printScopeOutcome } from './scope-output.js';

export const show: Command = {
  name: 'show',
  summary: "Print one directory's .context.yaml as JSON, optionally filtered",
  usage: 'context show --scope SCOPE [--filter FIELD,FIELD...] [--root DIR]',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['scope', 'filter', 'root'] });
    const raw = args.values['filter'];
    // "--filter a,b" is the CLI spelling of filter: ["a", "b"]; empty items are dropped.
    const filter = raw === undefined ? undefined : raw.split(',').map((f) => f.trim()).filter((f) => f !== '');
    return printScopeOutcome('show', queryContextText(io.cwd, required(args, 'scope'), filter, args.values['root']), io);
  },
};
