// `context build --sources DIR --cache OUT [--force] [--engine v0|v1] [v1 options]`: compiles
// DIR's documents into a cache. v0 (the default, the seeds' byte-exact contract) takes every
// *.md; v1 writes cache format 2 (an index inside the cache, sections, real trees). stdout
// gets one JSON line; created_at comes from SOURCE_DATE_EPOCH when set, else the clock.

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { compact } from '../../json.js';
import { buildCache, buildCacheV1 } from '../../core/cache/api.js';
import { GRANULARITIES, type Granularity } from '../../core/engine/v1/config.js';
import { isTokenizerName, TOKENIZERS, type TokenizerName } from '../../core/tokens/count.js';
import { parseFlags, required } from '../args.js';
import { UsageError, type Command } from '../command.js';
import { timestamp } from '../clock.js';

const ENGINES = ['v0', 'v1'] as const;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new UsageError(`--${flag} must be ${allowed.join(' or ')}, not "${value}"`);
  return found;
}

export const build: Command = {
  name: 'build',
  summary: 'Build a context cache from a directory of Markdown (engine v0 by default, or v1)',
  usage: [
    'context build --sources DIR --cache OUT [--force] [--engine v0|v1]',
    '              [--granularity file|section] [--tokenizer bytes4|o200k_base|cl100k_base]',
    '              [--include GLOB]... [--exclude GLOB]...',
    '  (--engine v0, the default, is the v0 cache byte for byte with the reference; the other',
    '   options need --engine v1: ranked Markdown/MDX with an index and sections. docs/engine.md)',
  ].join('\n'),
  async run(argv, io) {
    const args = parseFlags(argv, {
      strings: ['sources', 'cache', 'engine', 'granularity', 'tokenizer'],
      booleans: ['force'],
      lists: ['include', 'exclude'],
    });
    const sources = resolve(io.cwd, required(args, 'sources'));
    const cache = resolve(io.cwd, required(args, 'cache'));
    const engine = oneOf('engine', args.values['engine'], ENGINES, 'v0');
    const granularity: Granularity = oneOf('granularity', args.values['granularity'], GRANULARITIES, 'file');
    const tokenizerValue = args.values['tokenizer'];
    if (tokenizerValue !== undefined && !isTokenizerName(tokenizerValue)) {
      throw new UsageError(`--tokenizer must be ${TOKENIZERS.join(', ')}, not "${tokenizerValue}"`);
    }
    const tokenizer: TokenizerName = tokenizerValue ?? 'bytes4';
    const include = args.lists['include'] ?? [];
    const exclude = args.lists['exclude'] ?? [];
    for (const [flag, globs] of [['include', include], ['exclude', exclude]] as const) {
      if (globs.includes('')) throw new UsageError(`--${flag} needs a non-empty glob`);
    }
    const force = args.flags['force'] === true;
    const createdAt = timestamp(io.env);
    if (engine === 'v0') {
      const v1Only = [
        args.values['granularity'] !== undefined ? '--granularity' : null,
        tokenizerValue !== undefined ? '--tokenizer' : null,
        include.length > 0 ? '--include' : null,
        exclude.length > 0 ? '--exclude' : null,
      ].filter((f) => f !== null);
      if (v1Only.length > 0) {
        throw new UsageError(`${v1Only.join(', ')} ${v1Only.length === 1 ? 'needs' : 'need'} --engine v1 (v0's cache format has no options)`);
      }
      const summary = buildCache({ sources, cache, force, createdAt });
      io.stdout(compact({ cache_version: summary.cacheVersion, document_count: summary.documentCount }) + '\n');
      return 0;
    }
    const summary = await buildCacheV1({
      sources,
      cache,
      force,
      createdAt,
      options: { granularity, tokenizer, include, exclude },
      threads: availableParallelism(),
    });
    io.stdout(
      compact({
        cache_version: summary.cacheVersion,
        document_count: summary.documentCount,
        engine: 'v1',
        granularity,
        tokenizer,
        units: summary.unitCount,
        reused: summary.reused,
        analyzed: summary.analyzed,
        unchanged: summary.unchanged,
        skipped: summary.skipped.map((s) => ({ path: s.path, reason: s.reason })),
      }) + '\n',
    );
    return 0;
  },
};
