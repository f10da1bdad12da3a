// `context scopes [--root R]`: the tracked directories with their freshness — the same
// bytes `context.list_contexts` returns. `root` in the output is R as given, or ".".

import { listContextsText } from '../../core/scopes/api.js';
import { parseFlags } from '../args.js';
import type { Command } from '../command.js';
import { printScopeOutcome } from './scope-output.js';

export const scopes: Command = {
  name: 'scopes',
  summary: 'List the tracked directories and whether their .context.yaml is fresh',
  usage: 'context scopes [--root DIR]',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['root'] });
    return printScopeOutcome('scopes', listContextsText(io.cwd, args.values['root']), io);
  },
};
