// `context list-caches --root R`: the caches under a root (seed 000), as the compact JSON
// `context.list_caches` returns, plus the CLI's newline.

import { resolve } from 'node:path';
import { listCachesText } from '../../core/operations/api.js';
import { parseFlags, required } from '../args.js';
import type { Command } from '../command.js';

export const listCaches: Command = {
  name: 'list-caches',
  summary: 'List the cache directories under a root',
  usage: 'context list-caches --root DIR',
  help: {
    about:
      'Lists the caches under a root folder, as the MCP server\'s context.list_caches does for its cache root: every immediate subdirectory, in byte order, with whether it holds a manifest.json.',
    options: [
      ['--root DIR', 'The folder whose subdirectories are caches (the MCP server\'s --cache-root).'],
    ],
    examples: [
      'context list-caches --root ./caches',
      'context list-caches --root ~/.context/caches',
    ],
    output:
      'stdout: {"caches":[{"path":NAME,"has_manifest":true|false}]}. Exit 0; 6 when DIR is missing or unreadable; 1 usage.',
  },
  run(argv, io) {
    const args = parseFlags(argv, { strings: ['root'] });
    io.stdout(listCachesText(resolve(io.cwd, required(args, 'root'))) + '\n');
    return 0;
  },
};
