// Every error this engine reports, in one table: code, canonical message, CLI exit code
// (seed 001, specs/interfaces/cli_spec.md). JSON-RPC codes live beside it. Surfaces convert
// a thrown ContextError exactly once; messages never carry paths, hashes or OS codes.

import { compact } from './json.js';

export const ERROR_TABLE = {
  invalid_query: { message: 'Query is invalid', exit: 2 },
  invalid_budget: { message: 'Budget is invalid', exit: 3 },
  cache_missing: { message: 'Cache does not exist', exit: 4 },
  cache_invalid: { message: 'Cache exists but is invalid', exit: 5 },
  io_error: { message: 'I/O error occurred', exit: 6 },
  internal_error: { message: 'Internal error', exit: 7 },
  // Not one of seed 001's six: the MCP server refusing a workspace root or path argument
  // outside its project root (or the client's MCP roots). The CLI, run by a person, takes
  // any root, except that `build --project-root DIR` refuses sources outside DIR (exit 8).
  root_not_allowed: { message: 'Root is outside the roots this server may read', exit: 8 },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

/**
 * Why a build or status failed, as a stable token beside the code: a face that owes its
 * user a sentence naming the cause and the next step (the MCP build and status tools) picks
 * it by this, never by parsing `detail`. Codes and canonical messages stay as they are.
 */
export const FAILURE_REASONS = [
  'cache_exists', // the target exists and force was not given
  'target_not_cache', // the target holds something other than a cache (or is a file, a link)
  'target_holds_sources', // the target is the sources folder or holds it
  'target_protected', // the target is (or holds) the working directory or the project root
  'sources_missing', // the sources folder does not exist or is not a folder
  'cache_name', // a cache name that is not one folder name
  'cache_root_missing', // no cache root yet
  'build_collided', // another build put a cache in place at the same moment
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** CLI exit code for bad arguments (specs/interfaces/cli_spec.md: "1 Usage error"). */
export const EXIT_USAGE = 1;

/**
 * Exit code of the sibling commands (citations, scopes) when the answer they print is a
 * failure: exactly when the matching MCP tool's result carries `isError: true`. Codes 2-7
 * stay the cache tools' six error codes (frozen for v0), so 8 is the first free one.
 */
export const EXIT_ANSWER_FAILED = 8;

/**
 * A typed engine failure. `detail` is for people (CLI stderr) only: it may name a path,
 * and it never reaches the canonical JSON error object.
 */
export class ContextError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly reason: FailureReason | undefined;
  constructor(code: ErrorCode, detail?: string, reason?: FailureReason) {
    super(ERROR_TABLE[code].message);
    this.name = 'ContextError';
    this.code = code;
    this.detail = detail;
    this.reason = reason;
  }
}

export function exitCodeOf(code: ErrorCode): number {
  return ERROR_TABLE[code].exit;
}

/** The canonical error object text: `{"error":{"code":C,"message":M}}` (no newline). */
export function errorJson(code: ErrorCode): string {
  return compact({ error: { code, message: ERROR_TABLE[code].message } });
}

/** Any thrown value as a ContextError; unknown throws become internal_error. */
export function toContextError(err: unknown): ContextError {
  if (err instanceof ContextError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new ContextError('internal_error', detail);
}

/** Maps an OS error to a code: "not there" is the caller's `absent` code, the rest io_error. */
export function fromOsError(err: unknown, absent: ErrorCode): ContextError {
  if (err instanceof ContextError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new ContextError(absent, String(code));
  return new ContextError('io_error', typeof code === 'string' ? code : undefined);
}

/** JSON-RPC 2.0 error codes (and their standard messages) used by the MCP server. */
export const JSONRPC_ERRORS = {
  parseError: { code: -32700, message: 'Parse error' },
  invalidRequest: { code: -32600, message: 'Invalid Request' },
  methodNotFound: { code: -32601, message: 'Method not found' },
  invalidParams: { code: -32602, message: 'Invalid params' },
  internalError: { code: -32603, message: 'Internal error' },
} as const;

/**
 * MCP's own JSON-RPC error codes. -32002 is the handshake era's "resource not found"
 * (2025-11-25 and earlier); 2026-07-28 uses -32602 for it and defines -32020…-32022.
 */
export const MCP_ERRORS = {
  resourceNotFound: { code: -32002, message: 'Resource not found' },
  missingRequiredClientCapability: { code: -32021, message: 'Missing required client capability' },
  unsupportedProtocolVersion: { code: -32022, message: 'Unsupported protocol version' },
} as const;
