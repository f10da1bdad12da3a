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
  help: {
    about:
      'Compiles every *.md file under a directory into an immutable, content-addressed context cache that resolve, inspect, verify and the MCP server read. Everything is read and checked before the first byte is written; the cache appears at once (written beside it, then renamed), so a failed build leaves nothing behind. When stderr is a terminal a progress line is shown there. SOURCE_DATE_EPOCH (seconds) sets the manifest\'s created_at, for byte-identical rebuilds.',
    options: [
      ['--sources DIR', 'The folder to compile: every file whose name ends in ".md" (case-sensitive), at any depth, walked in byte order of names; symlinked files are read, symlinked folders are not entered. Relative to the working directory.'],
      ['--cache OUT', 'Where to write the cache (a new directory; its parent is created). Refused if OUT exists, unless --force.'],
      ['--force', 'Replace an existing cache at OUT. The old one stays in place until the new one is complete, and is put back if the swap fails.'],
    ],
    examples: [
      'context build --sources ./docs --cache ./caches/docs',
      'context build --sources ./docs --cache ./caches/docs --force',
      'SOURCE_DATE_EPOCH=0 context build --sources ./docs --cache /tmp/docs-cache',
    ],
    output:
      'stdout: {"cache_version":"sha256:...","document_count":N}. Exit 0; 5 when a source is not valid UTF-8 or two paths give the same id; 6 when the sources are missing, OUT exists without --force, or the disk fails; 1 usage.',
  },
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
