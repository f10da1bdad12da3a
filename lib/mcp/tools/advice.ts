// The failures of the tools an agent acts on (`context.build`, `context.status`), said so
// that it knows what to do next: the engine's error object, `{"error":{"code","message"}}`,
// with the code as ever and, for message, one fixed sentence naming the cause and the next
// step. No sentence holds a path, a hash, a stack or an OS error code. The read tools
// (`context.resolve`, `context.list_caches`, `context.inspect_cache`) keep the seeds'
// canonical messages; this module is not theirs.

import { compact } from '../../json.js';
import { ContextError, ERROR_TABLE, type ErrorCode, type FailureReason } from '../../errors.js';
import type { JsonSchema, ToolContext, ToolOutcome } from '../tool.js';
import { osHint } from './os-hint.js';
import { objectOf, stringEnum } from './output-schema.js';

/** Sentences for a failure with a known reason (the same for both tools where it applies). */
const BY_REASON: Readonly<Record<FailureReason, string>> = {
  cache_exists: 'The cache already exists; pass force: true to replace it',
  target_not_cache: 'Something other than a cache has that name under the cache root, so it is not replaced; choose another cache name',
  target_holds_sources: 'The cache would replace the sources folder or a folder holding it; choose another cache name',
  target_protected: 'The cache would replace the project root or a folder holding it; choose another cache name',
  cache_root_leaves_project: 'The cache root lies inside the project but leads out of it through a symbolic link, so nothing is written there; make it a real folder, or start the server with a --cache-root outside the project',
  target_inside_sources: 'The cache root lies inside the sources folder, so every build of it would walk through the caches; build from a folder that does not hold the cache root, or start the server with a --cache-root outside the sources (or in a hidden folder, such as .context/caches)',
  sources_missing: 'The sources folder does not exist under the project root; pass a folder that does',
  cache_name: 'A cache name is one folder name, without slashes',
  cache_root_missing: 'No cache root yet: build a cache first',
  build_collided: 'Another build wrote this cache at the same moment and its cache stands; call again to rebuild it',
};

export type AdvisedTool = 'build' | 'status';

/** Sentences for a failure known only by its code, per tool. */
const BY_CODE: Readonly<Record<AdvisedTool, Readonly<Record<ErrorCode, string>>>> = {
  build: {
    invalid_query: 'The build arguments are invalid; see the tool\'s input schema',
    invalid_budget: 'The build arguments are invalid; see the tool\'s input schema',
    cache_missing: 'A cache name is one folder name, without slashes',
    cache_invalid: 'A source file is not valid UTF-8, or two files give the same id; fix the sources, or build with engine "v1", which skips such files',
    io_error: 'The build could not read its sources or write the cache; check the folders\' permissions and free space, then call again',
    internal_error: 'The build failed unexpectedly; call again, and report it if it fails again',
    root_not_allowed: 'The sources folder lies outside the project root; pass a relative folder inside it',
  },
  status: {
    invalid_query: 'The status arguments are invalid; see the tool\'s input schema',
    invalid_budget: 'The status arguments are invalid; see the tool\'s input schema',
    cache_missing: 'No cache of that name under the cache root; call context.list_caches for the names',
    cache_invalid: 'The cache is damaged; rebuild it from its sources, replacing it (force: true)',
    io_error: 'The cache or its sources could not be read; check the folders\' permissions, then call again',
    internal_error: 'The status check failed unexpectedly; call again, and report it if it fails again',
    root_not_allowed: 'The sources folder lies outside the project root; pass a relative folder inside it',
  },
};

/** Reasons that make sense for each tool (the rest never reach it). */
const REASONS: Readonly<Record<AdvisedTool, readonly FailureReason[]>> = {
  build: ['cache_exists', 'target_not_cache', 'target_holds_sources', 'target_protected', 'target_inside_sources', 'cache_root_leaves_project', 'sources_missing', 'cache_name', 'build_collided'],
  status: ['sources_missing', 'cache_name', 'cache_root_missing'],
};

/** The sentence for a failure of `tool`. */
export function adviceOf(tool: AdvisedTool, err: ContextError): string {
  if (err.reason !== undefined && REASONS[tool].includes(err.reason)) return BY_REASON[err.reason];
  return BY_CODE[tool][err.code];
}

/**
 * `{"error":{"code":C,"message":SENTENCE}}` + "\n", as an error outcome; a failure the OS
 * caused adds, as the hint, which folder and what to do (os-hint.ts), when `ctx` is given.
 */
export function advisedError(tool: AdvisedTool, err: ContextError, ctx?: ToolContext): ToolOutcome {
  const text = compact({ error: { code: err.code, message: adviceOf(tool, err) } }) + '\n';
  const hint = ctx === undefined ? undefined : osHint(err, ctx);
  return hint === undefined ? { text, isError: true } : { text, isError: true, hint };
}

/** Runs a tool body: its text, or a thrown ContextError as the advised error object. */
export function runAdvised(tool: AdvisedTool, body: () => string, ctx?: ToolContext): ToolOutcome {
  try {
    return { text: body(), isError: false };
  } catch (err) {
    if (err instanceof ContextError) return advisedError(tool, err, ctx);
    throw err;
  }
}

/**
 * The error shape of `tool` for its outputSchema: the codes, and its sentences (and the
 * canonical messages, which a failure the tool does not expect still carries).
 */
export function advisedErrorSchema(tool: AdvisedTool): JsonSchema {
  const codes = Object.keys(ERROR_TABLE) as ErrorCode[];
  const sentences = [...new Set([...REASONS[tool].map((r) => BY_REASON[r]), ...codes.map((c) => BY_CODE[tool][c]), ...codes.map((c) => ERROR_TABLE[c].message)])];
  return objectOf({ error: objectOf({ code: stringEnum(codes), message: stringEnum(sentences) }) });
}
