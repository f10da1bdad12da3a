// `context inspect --cache C [--format pretty|json]`: seed 004's four fields. Pretty by
// default, as the reference CLI prints; `--format json` gives the bytes of
// `context.inspect_cache` (plus the CLI's newline).

import { resolve } from 'node:path';
import { inspectText } from '../../core/operations/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const inspect: Command = {
  name: 'inspect',
  summary: 'Report a cache\'s version, document count, size and validity',
  usage: 'context inspect --cache DIR [--format pretty|json]',
  help: {
    about:
      'Reports a cache\'s identity and size without reading its documents: cache_version, document_count, total_bytes (the files directly in the cache directory, and for a v1 cache those in its packs/) and whether its manifest is valid. It never fails on a bad manifest (valid is then false); use verify for a deep check.',
    options: [
      ['--cache DIR', 'The cache directory to inspect.'],
      ['--format pretty|json', 'pretty (default): indented JSON; json: one compact line, the context.inspect_cache MCP tool\'s text.'],
    ],
    examples: [
      'context inspect --cache ./caches/docs',
      'context inspect --cache ./caches/docs --format json',
    ],
    output:
      'stdout: {"cache_version":...,"document_count":N,"total_bytes":N,"valid":true|false}. Exit 0; 4 when DIR does not exist; 6 on an I/O error; 1 usage.',
  },
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache', 'format'] });
    const cache = resolve(io.cwd, required(args, 'cache'));
    io.stdout(inspectText(cache, formatFlag(args.values['format'], 'pretty')) + '\n');
    return 0;
  },
};
