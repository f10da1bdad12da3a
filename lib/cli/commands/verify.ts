// `context verify --cache C [--format pretty|json]`: every integrity check by name. The
// report is printed either way; exit 0 only when every check holds, else 5 (cache_invalid).

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { exitCodeOf } from '../../errors.js';
import { verifyText } from '../../core/operations/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { formatFlag } from './format-flag.js';

export const verify: Command = {
  name: 'verify',
  summary: 'Check every integrity invariant of a cache, reporting each by name',
  usage: 'context verify --cache DIR [--format pretty|json]',
  help: {
    about:
      'Checks a cache in depth and names each check: the manifest\'s shape and build configuration, the recomputed cache_version, every document\'s hash, no stray files, and the index (v0: index.json against the manifest; v1: each pack\'s hash, each pack\'s index decoded, and rebuilt from the documents to the same bytes). Use it after copying a cache or when resolve says cache_invalid.',
    options: [
      ['--cache DIR', 'The cache directory to verify.'],
      ['--format pretty|json', 'pretty (default): indented JSON; json: one compact line.'],
    ],
    examples: [
      'context verify --cache ./caches/docs',
      'context verify --cache ./caches/docs --format json',
    ],
    output:
      'stdout: {"cache_version","valid","checks":[{"name","ok","problems"}]} (the report, even when a check fails). Exit 0 when every check held; 5 when one failed (stderr names them); 4 when DIR does not exist; 1 usage.',
  },
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
