// `context build --sources DIR --cache OUT [--force]`: compiles DIR's Markdown into a cache.
// created_at comes from SOURCE_DATE_EPOCH when set (reproducible builds), else the clock;
// stdout gets one JSON line naming the cache_version and document count.

import { compact } from '../../json.js';
import { buildCache } from '../../core/cache/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';
import { timestamp } from '../clock.js';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ProgressLine } from '../progress-line.js';

export const build: Command = {
  name: 'build',
  summary: 'Build a context cache from the *.md files under a directory',
  usage: 'context build --sources DIR --cache OUT [--force]',
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['sources', 'cache'], booleans: ['force'] });
    const sources = resolve(io.cwd, required(args, 'sources'));
    const cache = resolve(io.cwd, required(args, 'cache'));
    const createdAt = timestamp(io.env);
    // Progress only on a terminal: pipes, CI logs and scripts get stderr as before.
    const progress =
      io.stderrIsTTY === true
        ? new ProgressLine({ write: io.stderr, now: io.clock ?? (() => performance.now()), columns: io.stderrColumns })
        : null;
    const force = args.flags['force'] === true;
    let summary;
    try {
      summary = buildCache({ sources, cache, force, createdAt, ...(progress === null ? {} : { onProgress: progress.report }) });
    } finally {
      progress?.finish();
    }
    io.stdout(compact({ cache_version: summary.cacheVersion, document_count: summary.documentCount }) + '\n');
    return 0;
  },
};
