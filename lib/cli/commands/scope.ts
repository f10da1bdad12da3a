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
