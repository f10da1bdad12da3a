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
  help: {
    about:
      'Lists the directories of a project that should carry a .context.yaml (dotcontext\'s rule: folders with enough content, below max_depth, not hidden, build or ignored) and whether each one\'s file is fresh, stale or missing.',
    options: [
      ['--root DIR', 'The project root (default: the working directory).'],
    ],
    examples: [
      'context scopes --root .',
      'context scopes --root ../other-project',
    ],
    output:
      'stdout: {"root","total_directories","skipped_directories","tracked","entries":[{"scope","state","has_context",...}]}. stdout: the JSON answer (pretty, the matching MCP tool\'s text), even when it reports an error. Exit 0 on success (a stale scope included), 8 when the answer is a failure (the MCP result would have isError), 1 for a bad command line.',
  },
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['root'] });
    return printScopeOutcome('scopes', listContextsText(io.cwd, args.values['root']), io);
  },
};
