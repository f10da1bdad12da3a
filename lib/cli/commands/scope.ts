// `context scope init --scope S [--root R]`: starts a directory scope by writing a
// schema-valid `.context.yaml` skeleton (current fingerprint, TODO placeholders), refusing
// to overwrite one. `scope` takes subcommands so later scope verbs can join `init`.

import { initScopeText } from '../../core/scopes/api.js';
import { parseFlags, required } from '../args.js';
import { HelpRequested, UsageError, type Command } from '../command.js';
import { timestamp } from '../clock.js';
import { printScopeOutcome } from './scope-output.js';

export const scope: Command = {
  name: 'scope',
  summary: 'Start a directory scope: scope init writes a .context.yaml skeleton',
  usage: 'context scope init --scope SCOPE [--root DIR]',
  help: {
    about:
      'scope init starts a directory scope: it writes SCOPE/.context.yaml, a schema-valid skeleton with the directory\'s current fingerprint, its files and subdirectories by name, and TODO placeholders for a person or an agent to fill in. It never overwrites: if anything is already there, nothing is written.',
    options: [
      ['--scope SCOPE', 'The directory to describe, relative to the project root ("." for the root).'],
      ['--root DIR', 'The project root (default: the working directory).'],
    ],
    examples: [
      'context scope init --scope lib/cli',
      'context scope init --scope src --root ../other-project',
    ],
    output:
      'stdout: {"scope","result":"created","file","fingerprint","last_updated"} or {"scope","result":"refused","error"}. stdout: the JSON answer (pretty, the matching MCP tool\'s text), even when it reports an error. Exit 0 on success (a stale scope included), 8 when the answer is a failure (the MCP result would have isError), 1 for a bad command line. last_updated comes from SOURCE_DATE_EPOCH when set.',
  },
  run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === '--help' || sub === '-h') throw new HelpRequested();
    if (sub === undefined) throw new UsageError('missing subcommand: init');
    if (sub !== 'init') throw new UsageError(`unknown subcommand "${sub}" (known: init)`);
    const args = parseFlags(rest, { strings: ['scope', 'root'] });
    const outcome = initScopeText(io.cwd, required(args, 'scope'), args.values['root'], timestamp(io.env));
    return printScopeOutcome('scope init', outcome, io);
  },
};
