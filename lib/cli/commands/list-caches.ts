// `context list-caches --root R`: the caches under a root (seed 000), as the compact JSON
// `context.list_caches` returns, plus the CLI's newline.

import { resolve } from 'node:path';
import { listCachesText } from '../../core/cache/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';

export const listCaches: Command = {
  name: 'list-caches',
  summary: 'List the cache directories under a root',
  usage: 'context list-caches --root DIR',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['root'] });
    io.stdout(listCachesText(resolve(io.cwd, required(args, 'root'))) + '\n');
    return 0;
  },
};
