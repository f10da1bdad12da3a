// `context mcp [--cache-root DIR] [--project-root DIR] [--tool-names dotted|underscore] [--read-only]`:
// the MCP stdio server. stdout carries protocol lines only; diagnostics go to stderr. The
// cache root is --cache-root, else $CONTEXT_CACHE_ROOT (as the reference server), else
// ~/.context/caches; the project root (where citation, scope, status and build tools may
// read) is --project-root, else the working directory.

import { join, resolve } from 'node:path';
import { runMcpServer } from '../../mcp/server.js';
import { TOOL_NAME_STYLES, type ToolNameStyle } from '../../mcp/tool-names.js';
import { parseFlags } from '../args.js';
import { timestamp } from '../clock.js';
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
  usage: 'context mcp [--cache-root DIR] [--project-root DIR] [--tool-names dotted|underscore] [--read-only]',
  help: {
    about:
      'Runs the MCP server on stdin and stdout (JSON-RPC 2.0, one message per line) until stdin closes; MCP hosts start it. Its tools answer with exactly what the matching CLI commands print: context.resolve, context.list_caches and context.inspect_cache over the caches under the cache root; context.cite, context.claim and context.verify_workspace; context.list_contexts, context.check_freshness and context.query_context over the project root; context.status, and context.build, which indexes a folder of the project root into a cache under the cache root (with progress notifications, stopped by a cancellation). Diagnostics go to stderr.',
    options: [
      ['--cache-root DIR', 'The folder whose subdirectories are the caches tools may read. Default: $CONTEXT_CACHE_ROOT, else ~/.context/caches.'],
      ['--project-root DIR', 'The only folder the citation, scope, status and build tools may read (relative arguments start there). Default: the working directory. A client that offers MCP roots replaces it with its roots; an argument outside is refused with root_not_allowed.'],
      ['--tool-names dotted|underscore', 'dotted (default): tools/list shows context.resolve and so on; underscore: context_resolve and so on, for hosts that accept only [a-zA-Z0-9_-] in tool names. tools/call accepts both spellings either way.'],
      ['--read-only', 'Offer only tools that read: context.build is neither listed nor callable (a call gets the unknown-tool error), for hosts that must not let an agent write.'],
    ],
    examples: [
      'context mcp --cache-root ~/.context/caches',
      'context mcp --tool-names underscore --cache-root ./caches --project-root .',
      'context mcp --read-only --cache-root ~/.context/caches',
    ],
    output:
      'stdout carries protocol messages only. Exit 0 when stdin ends (or stdout closes), 1 when stdin fails or for a bad command line.',
  },
  async run(argv, io) {
    const args = parseFlags(argv, { strings: ['cache-root', 'project-root', 'tool-names'], booleans: ['read-only'] });
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
      readOnly: args.flags['read-only'] === true,
      // A build's created_at: SOURCE_DATE_EPOCH when set, else the clock, as for context build.
      timestamp: () => timestamp(io.env),
    });
  },
};
