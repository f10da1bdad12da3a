// `context inspect --cache C [--format pretty|json]`: seed 004's four fields. Pretty by
// default, as the reference CLI prints; `--format json` gives the bytes of
// `context.inspect_cache` (plus the CLI's newline).

import { resolve } from 'node:path';
import { inspectText } from '../../core/cache/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const inspect: Command = {
  name: 'inspect',
  summary: 'Report a cache\'s version, document count, size and validity',
  usage: 'context inspect --cache DIR [--format pretty|json]',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'format'] });
    const cache = resolve(io.cwd, required(args, 'cache'));
    io.stdout(inspectText(cache, formatFlag(args.values['format'], 'pretty')) + '\n');
    return 0;
  },
};
