// `context mcp` without the process: wires the stdio transport to one session, one cache
// memo and the tool pool (context.resolve's worker threads), over injected streams, and
// resolves with the exit code once input ends (0), output goes away (0, quietly: EPIPE) or
// input fails (1).

import { CacheMemo } from '../core/operations/api.js';
import { RootPolicy } from './root-policy.js';
import { McpSession } from './session.js';
import { serveLines } from './stdio-transport.js';
import { ToolPool } from './tool-pool.js';
import type { Tool } from './tool.js';
import type { ToolNameStyle } from './tool-names.js';
import { TOOLS } from './tools/index.js';

export interface ServerOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly log: (text: string) => void;
  readonly cacheRoot: string;
  readonly projectRoot: string;
  readonly toolNames?: ToolNameStyle;
  readonly tools?: readonly Tool[];
  readonly maxLineBytes?: number;
  /** `--read-only`: tools that write (context.build) are neither listed nor callable. */
  readonly readOnly?: boolean;
  /** The time builds stamp into created_at; without it context.build refuses to run. */
  readonly timestamp?: () => string;
}

export async function runMcpServer(options: ServerOptions): Promise<number> {
  const memo = new CacheMemo();
  // context.resolve runs on worker threads, each with a memo of its own (when compiled).
  const pool = ToolPool.available() ? new ToolPool({ cacheRoot: options.cacheRoot, projectRoot: options.projectRoot, log: options.log }) : undefined;
  const tools = (options.tools ?? TOOLS).filter((t) => options.readOnly !== true || t.annotations.readOnlyHint);
  const session = new McpSession({
    tools,
    context: {
      cacheRoot: options.cacheRoot,
      projectRoot: options.projectRoot,
      memo,
      roots: new RootPolicy(options.projectRoot),
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    },
    toolNames: options.toolNames ?? 'dotted',
    log: options.log,
    ...(pool === undefined ? {} : { pool }),
  });
  try {
    const reason = await serveLines({
      input: options.input,
      output: options.output,
      handle: (item, send, detach) => session.serveLine(item, send, detach),
      peek: (item) => session.peek(item),
      log: options.log,
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    });
    return reason === 'input-error' ? 1 : 0;
  } finally {
    pool?.close();
    memo.close();
  }
}
