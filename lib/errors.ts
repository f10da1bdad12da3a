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

// (Imported here, below the table, so that the table keeps the lines docs/citations.md cites.)
import { describeOsCause, type OsCause, type OsWhere } from './os-cause.js';
export type { OsCause, OsOperation, PathRole, OsWhere } from './os-cause.js';

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
  'target_inside_sources', // the target lies inside the sources folder (where a build would walk it)
  'cache_root_leaves_project', // MCP: the cache root lies in the project but leads out of it (a symlink)
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
 * and it never reaches the canonical JSON error object. `os`, for a failure the OS reported,
 * says what was being done to which path and the OS's code: each face words it with its own
 * names for paths and its own next step (os-cause.ts), CLI stderr and an MCP result's hint.
 */
export class ContextError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly reason: FailureReason | undefined;
  readonly os: OsCause | undefined;
  constructor(code: ErrorCode, detail?: string, reason?: FailureReason, os?: OsCause) {
    super(ERROR_TABLE[code].message);
    this.name = 'ContextError';
    this.code = code;
    this.detail = detail;
    this.reason = reason;
    this.os = os;
  }
}

/** A ContextError as plain data, to cross to another thread (structured clone). */
export interface ErrorData {
  readonly code: ErrorCode;
  readonly detail: string | null;
  readonly reason: FailureReason | null;
  readonly os: OsCause | null;
}

export function errorData(e: ContextError): ErrorData {
  return { code: e.code, detail: e.detail ?? null, reason: e.reason ?? null, os: e.os ?? null };
}

export function fromErrorData(d: ErrorData): ContextError {
  return new ContextError(d.code, d.detail ?? undefined, d.reason ?? undefined, d.os ?? undefined);
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

/** The OS's code of a thrown error (ENOENT, EACCES…), or undefined when it has none. */
export function errnoOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * An OS error as a ContextError that says what failed: `where` names the operation, the
 * folder the user gave (the cache, the cache root, the sources: its role picks the next
 * step) and, when it is not that folder, the file the OS refused (else the error's own
 * path, when Node gave one). "Not there" (ENOENT, ENOTDIR) is the caller's `absent` code,
 * everything else io_error. A ContextError passes through unchanged.
 */
export function osFailure(err: unknown, where: OsWhere, absent: ErrorCode = 'io_error'): ContextError {
  if (err instanceof ContextError) return err;
  const errno = errnoOf(err) ?? 'EUNKNOWN';
  const nodePath = (err as { path?: unknown } | null)?.path;
  const path = where.path ?? (typeof nodePath === 'string' ? nodePath : undefined);
  const code = errno === 'ENOENT' || errno === 'ENOTDIR' ? absent : 'io_error';
  return osError(code, { ...where, ...(path === undefined ? {} : { path }) }, errno);
}

/** A ContextError for a failure the OS reported (or would: a folder that is not there), said as osFailure says it. */
export function osError(code: ErrorCode, where: OsWhere, errno: string, reason?: FailureReason): ContextError {
  const os: OsCause = {
    op: where.op,
    role: where.role,
    subject: where.subject,
    ...(where.path === undefined || where.path === where.subject ? {} : { path: where.path }),
    errno,
  };
  return new ContextError(code, describeOsCause(os, 'cli', (p) => p), reason, os);
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
