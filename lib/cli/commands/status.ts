// `context status --cache C [--sources S]`: whether a cache is current with its sources, by
// content hash: added, changed and removed documents. A v1 cache records its sources (as a
// path relative to the cache); a v0 cache does not, so --sources is needed there. Prints
// one JSON line and exits 0 whether the cache is current or not (`current` says which).

import { resolve } from 'node:path';
import { statusText } from '../../core/operations/status.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';

export const status: Command = {
  name: 'status',
  summary: 'Compare a cache with its sources by content hash: added, changed, removed',
  usage: 'context status --cache DIR [--sources DIR]',
  help: {
    about:
      'Says whether a cache is current with its sources: every source is read and hashed (by content, never by modification time, so a touch changes nothing) and compared with the documents the cache holds. ' +
      'A v1 cache records where its sources are; a v0 cache does not, so give --sources for it. Rebuild (context build --force) when it is not current.',
    options: [
      ['--cache DIR', 'The cache to check (either engine).'],
      ['--sources DIR', 'The sources to compare with, relative to the working directory. Default: the folder a v1 cache records; a v0 cache needs it (without it, current is null and note says why).'],
    ],
    examples: [
      'context status --cache ./caches/docs-v1',
      'context status --cache ./caches/docs --sources ./docs',
    ],
    output:
      'stdout: {"cache_version","engine","sources","current":true|false|null,"note","added","changed","removed","unchanged","skipped"}, one line. ' +
      'Exit 0 whether the cache is current or not; 4 when the cache does not exist; 5 when it is invalid; 6 on an I/O error; 1 usage.',
  },
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'sources'] });
    const cache = resolve(io.cwd, required(args, 'cache'));
    const given = args.values['sources'];
    io.stdout(statusText(cache, { sources: given === undefined ? null : resolve(io.cwd, given), sourcesLabel: given ?? null }));
    return 0;
  },
};
