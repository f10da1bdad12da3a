// `context verify --cache C [--format pretty|json]`: every integrity check by name. The
// report is printed either way; exit 0 only when every check holds, else 5 (cache_invalid).

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { exitCodeOf } from '../../errors.js';
import { verifyText } from '../../core/cache/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const verify: Command = {
  name: 'verify',
  summary: 'Check every integrity invariant of a cache, reporting each by name',
  usage: 'context verify --cache DIR [--format pretty|json]',
  async run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'format'] });
    const cache = resolve(io.cwd, required(args, 'cache'));
    const { text, report } = await verifyText(cache, formatFlag(args.values['format'], 'pretty'), availableParallelism());
    io.stdout(text + '\n');
    if (!report.valid) {
      const failed = report.checks.filter((c) => !c.ok).map((c) => c.name);
      io.stderr(`error: cache_invalid: failed checks: ${failed.join(', ')}\n`);
      return exitCodeOf('cache_invalid');
    }
    return 0;
  },
};
