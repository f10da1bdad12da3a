// The shape of one MCP tool. A tool maps validated arguments to a core call and returns
// the exact text the CLI would print; the protocol layer wraps it in the content envelope
// (and, for clients on 2025-06-18 or later, adds the text's JSON value as structuredContent).

import type { Json } from '../json.js';
import type { CacheMemo } from '../core/operations/api.js';
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
  /** The time a build stamps into created_at (the CLI owns the clock); absent: builds are refused. */
  readonly timestamp?: () => string;
}

/** What one call may use beyond its arguments: cancellation, and progress for the client. */
export interface ToolCall {
  /** Aborted when the client cancels the request (notifications/cancelled). */
  readonly signal: AbortSignal;
  /** Reports progress (increasing), or null when the client did not ask for it. */
  readonly progress: ((progress: number, total: number | null, message: string) => void) | null;
}

export interface ToolOutcome {
  /** The tool's text: byte-identical to the matching CLI command's stdout. */
  readonly text: string;
  /** True for a failed call (becomes `"isError":true` in the result). */
  readonly isError: boolean;
  /**
   * One fixed, path-free sentence sent as a second text block after the answer: for a
   * failure, its cause and the next step (tools/failure-hints.ts); for a success, a warning
   * (a build that found no document).
   */
  readonly hint?: string;
  /**
   * The structuredContent, when the text is not JSON (context.resolve's Markdown answer:
   * `{"markdown": TEXT}`); absent: the text's JSON value.
   */
  readonly structured?: Json;
}

/** A JSON Schema object (the subset lib/mcp/tools/output-schema.ts builds). */
export type JsonSchema = { readonly [key: string]: Json };

/**
 * MCP tool annotations (2025-03-26 and later): hints a host uses to decide what it may call
 * without asking. Every tool here works on the local file system only (openWorldHint false).
 */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: false;
  /** Only for tools that write (meaningless when readOnlyHint is true). */
  readonly destructiveHint?: boolean;
}

export interface Tool {
  /** The seed's dotted name, e.g. `context.resolve`; `context_resolve` is accepted too. */
  readonly name: string;
  /** A short human name hosts show (2025-06-18 `title`). */
  readonly title: string;
  /** What an agent reads to decide when and how to call the tool (2025-06-18 and later). */
  readonly description: string;
  /**
   * The description 2024-11-05 and 2025-03-26 clients get, when it differs: the text their
   * transcripts recorded before the descriptions were rewritten for agents, kept so those
   * clients see the same bytes as before.
   */
  readonly legacyDescription?: string;
  readonly inputSchema: { readonly type: 'object' } & JsonSchema;
  /** The input schema 2024-11-05 and 2025-03-26 clients get, when it differs (their transcripts' bytes). */
  readonly legacyInputSchema?: { readonly type: 'object' } & JsonSchema;
  /** JSON Schema of the text's JSON value: every success and every error shape. */
  readonly outputSchema: { readonly type: 'object' } & JsonSchema;
  readonly annotations: ToolAnnotations;
  /**
   * The tool may run on a worker thread of its own (tool-pool.ts; listed in tool-worker.ts):
   * it needs nothing of the context but the two roots, and may take long (context.resolve).
   */
  readonly offThread?: boolean;
  call(args: Readonly<Record<string, unknown>>, ctx: ToolContext, call?: ToolCall): ToolOutcome | Promise<ToolOutcome>;
}
