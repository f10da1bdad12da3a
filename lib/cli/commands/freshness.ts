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
  help: {
    about:
      'Says whether one directory\'s .context.yaml still describes the directory: fresh when its stored fingerprint matches the files as they are (by content, so touch or a fresh clone changes nothing), stale otherwise, missing when there is no valid file.',
    options: [
      ['--scope SCOPE', 'The directory, relative to the project root ("." for the root).'],
      ['--root DIR', 'The project root (default: the working directory).'],
    ],
    examples: [
      'context freshness --scope lib/core',
      'context freshness --scope src --root ../other-project',
    ],
    output:
      'stdout: {"scope","state","fingerprint":{"stored","computed"},"last_updated"}. stdout: the JSON answer (pretty, the matching MCP tool\'s text), even when it reports an error. Exit 0 on success (a stale scope included), 8 when the answer is a failure (the MCP result would have isError), 1 for a bad command line.',
  },
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['scope', 'root'] });
    return printScopeOutcome('freshness', checkFreshnessText(io.cwd, required(args, 'scope'), args.values['root']), io);
  },
};
