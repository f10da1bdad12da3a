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
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['scope', 'root'], booleans: ['all'] });
    const scope = args.values['scope'];
    const all = args.flags['all'] === true;
    if ((scope === undefined) === !all) throw new UsageError('give exactly one of --scope SCOPE or --all');
    const target = scope === undefined ? 'all' : { scope };
    return printScopeOutcome('rehash', rehashText(io.cwd, target, args.values['root'], timestamp(io.env)), io);
  },
};
