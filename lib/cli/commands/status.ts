// `context status --cache C [--sources S]`: whether a cache is current with its sources, by
// content hash: added, changed and removed documents. A v1 cache records its sources (as a
// path relative to the cache); a v0 cache does not, so --sources is needed there. Prints
// one JSON line and exits 0 whether the cache is current or not (`current` says which).

import { resolve } from 'node:path';
import { statusText } from '../../core/cache/status.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';

export const status: Command = {
  name: 'status',
  summary: 'Compare a cache with its sources by content hash: added, changed, removed',
  usage: 'context status --cache DIR [--sources DIR]',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'sources'] });
    const cache = resolve(io.cwd, required(args, 'cache'));
    const given = args.values['sources'];
    io.stdout(statusText(cache, { sources: given === undefined ? null : resolve(io.cwd, given), sourcesLabel: given ?? null }));
    return 0;
  },
};
