// `context mcp [--cache-root DIR] [--project-root DIR] [--tool-names dotted|underscore]`:
// the MCP stdio server. stdout carries protocol lines only; diagnostics go to stderr. The
// cache root is --cache-root, else $CONTEXT_CACHE_ROOT (as the reference server), else
// ~/.context/caches; the project root (where citation and scope tools may read) is
// --project-root, else the working directory.

import { join, resolve } from 'node:path';
import { runMcpServer } from '../../mcp/server.js';
import { TOOL_NAME_STYLES, type ToolNameStyle } from '../../mcp/tool-names.js';
import { parseFlags } from '../args.js';
import { UsageError, type Command } from '../command.js';
import type { CliIo } from '../command.js';

/** The cache root when neither --cache-root nor CONTEXT_CACHE_ROOT is given. */
export function defaultCacheRoot(io: CliIo): string {
  const home = io.env['HOME'] ?? io.env['USERPROFILE'];
  return home === undefined || home === '' ? resolve(io.cwd, '.context', 'caches') : join(home, '.context', 'caches');
}

function toolNameStyle(value: string | undefined): ToolNameStyle {
  if (value === undefined) return 'dotted';
  const style = TOOL_NAME_STYLES.find((s) => s === value);
  if (style === undefined) throw new UsageError(`--tool-names must be dotted or underscore, not "${value}"`);
  return style;
}

export const mcp: Command = {
  name: 'mcp',
  summary: 'Run the MCP stdio server (context.resolve, context.list_caches, context.inspect_cache, ...)',
  usage: [
    'context mcp [--cache-root DIR] [--project-root DIR] [--tool-names dotted|underscore]',
    '',
    '  Serves MCP (JSON-RPC 2.0, one message per line) on stdin/stdout until stdin closes.',
    '  --cache-root DIR   directory whose subdirectories are the caches; default:',
    '                     $CONTEXT_CACHE_ROOT, else ~/.context/caches',
    '  --project-root DIR the only directory citation and scope tools may read (relative',
    '                     roots start there); default: the working directory. A client',
    '                     offering MCP roots replaces it with its roots.',
    '  --tool-names       dotted (default): tools/list advertises context.resolve ...;',
    '                     underscore: context_resolve ... (for hosts that reject dots).',
    '                     tools/call accepts both forms either way.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache-root', 'project-root', 'tool-names'] });
    const toolNames = toolNameStyle(args.values['tool-names']);
    const fromEnv = io.env['CONTEXT_CACHE_ROOT'];
    const root = args.values['cache-root'] ?? (fromEnv === undefined || fromEnv === '' ? undefined : fromEnv);
    const cacheRoot = root === undefined ? defaultCacheRoot(io) : resolve(io.cwd, root);
    if (io.stdin === undefined || io.stdoutStream === undefined) {
      throw new UsageError('needs standard input and output streams');
    }
    return runMcpServer({
      input: io.stdin,
      output: io.stdoutStream,
      log: io.stderr,
      cacheRoot,
      projectRoot: resolve(io.cwd, args.values['project-root'] ?? '.'),
      toolNames,
    });
  },
};
