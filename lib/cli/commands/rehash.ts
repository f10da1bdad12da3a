// `context rehash (--scope S | --all) [--root R]`: stamps our content fingerprint (and
// last_updated) into existing .context.yaml files, every other byte kept. The time comes
// from SOURCE_DATE_EPOCH when set, else the clock — decided here, never in the core.

import { rehashText } from '../../core/scopes/api.js';
import { parseFlags } from '../args.js';
import { UsageError, type Command } from '../command.js';
import { timestamp } from '../clock.js';
import { printScopeOutcome } from './scope-output.js';

export const rehash: Command = {
  name: 'rehash',
  summary: 'Update the fingerprint of .context.yaml files whose directory changed',
  usage: 'context rehash (--scope SCOPE | --all) [--root DIR]',
  help: {
    about:
      'After you have brought a .context.yaml up to date, stamps the directory\'s current fingerprint and last_updated into it, changing no other byte (comments, order and quoting stay). Files that already carry the current fingerprint are left alone.',
    options: [
      ['--scope SCOPE', 'One directory, relative to the project root. Give this or --all.'],
      ['--all', 'Every .context.yaml in the project\'s scanned tree. Give this or --scope.'],
      ['--root DIR', 'The project root (default: the working directory).'],
    ],
    examples: [
      'context rehash --scope lib/core',
      'context rehash --all --root .',
    ],
    output:
      'stdout: {"root","updated","unchanged","skipped","entries":[...]}. stdout: the JSON answer (pretty, the matching MCP tool\'s text), even when it reports an error. Exit 0 on success (a stale scope included), 8 when the answer is a failure (the MCP result would have isError), 1 for a bad command line. last_updated comes from SOURCE_DATE_EPOCH when set.',
  },
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['scope', 'root'], booleans: ['all'] });
    const scope = args.values['scope'];
    const all = args.flags['all'] === true;
    if ((scope === undefined) === !all) throw new UsageError('give exactly one of --scope SCOPE or --all');
    const target = scope === undefined ? 'all' : { scope };
    return printScopeOutcome('rehash', rehashText(io.cwd, target, args.values['root'], timestamp(io.env)), io);
  },
};
