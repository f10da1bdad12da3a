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
  help: {
    about:
      'Prints one directory\'s .context.yaml as JSON, all of it or only the fields asked for; version, scope, fingerprint and last_updated always come first.',
    options: [
      ['--scope SCOPE', 'The directory, relative to the project root.'],
      ['--filter FIELD,FIELD...', 'Only these fields (comma-separated): summary, files, interfaces, decisions, constraints, dependencies, current_state, subdirectories, environment, testing, todos, data_models, events, config, project, structure, maintenance, exports.'],
      ['--root DIR', 'The project root (default: the working directory).'],
    ],
    examples: [
      'context show --scope lib/core',
      'context show --scope lib/core --filter summary,decisions --root .',
    ],
    output:
      'stdout: {"found":true,"scope","context":{...}} or {"found":false,"scope","error"}. stdout: the JSON answer (pretty, the matching MCP tool\'s text), even when it reports an error. Exit 0 on success (a stale scope included), 8 when the answer is a failure (the MCP result would have isError), 1 for a bad command line.',
  },
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['scope', 'filter', 'root'] });
    const raw = args.values['filter'];
    // "--filter a,b" is the CLI spelling of filter: ["a", "b"]; empty items are dropped.
    const filter = raw === undefined ? undefined : raw.split(',').map((f) => f.trim()).filter((f) => f !== '');
    return printScopeOutcome('show', queryContextText(io.cwd, required(args, 'scope'), filter, args.values['root']), io);
  },
};
