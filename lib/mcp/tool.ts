// The shape of one MCP tool. A tool maps validated arguments to a core call and returns
// the exact text the CLI would print; the protocol layer wraps it in the content envelope.

import type { Json } from '../json.js';
import type { CacheMemo } from '../core/cache/api.js';
import type { RootPolicy } from './root-policy.js';

/** Server-wide settings a tool may read (never the process environment directly). */
export interface ToolContext {
  /** Directory whose immediate subdirectories are the caches (`--cache-root`). */
  readonly cacheRoot: string;
  /** Default project root for workspace tools (scopes); the server's working directory. */
  readonly projectRoot: string;
  /** The server's loaded-cache memo (one per server); absent means load on every call. */
  readonly memo?: CacheMemo;
  /** Where workspace tools may read (project root or client roots); absent: projectRoot only. */
  readonly roots?: RootPolicy;
}

export interface ToolOutcome {
  /** The tool's text: byte-identical to the matching CLI command's stdout. */
  readonly text: string;
  /** True for a failed call (becomes `"isError":true` in the result). */
  readonly isError: boolean;
}

export interface Tool {
  /** The seed's dotted name, e.g. `context.resolve`; `context_resolve` is accepted too. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object' } & { readonly [key: string]: Json };
  call(args: Readonly<Record<string, unknown>>, ctx: ToolContext): ToolOutcome | Promise<ToolOutcome>;
}
