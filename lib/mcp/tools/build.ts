// `context.build`: an agent indexes for itself. Sources must lie, by real path, inside the
// server's allowed roots (project root or client roots; else root_not_allowed); the cache is a name under its cache root; the build is the CLI's
// (the same staging: atomic, an old cache kept until the new one is whole, nothing left by
// a failure) and its text is `context build`'s stdout. It runs off the server's thread,
// reports notifications/progress when asked, and stops on notifications/cancelled with the
// old cache intact. Hidden by `context mcp --read-only`.

import { availableParallelism } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { isWithinRoots } from '../../core/confine.js';
import { buildInBackground } from '../../core/operations/build-background.js';
import { DEFAULT_ENGINE, DEFAULT_V1_OPTIONS, emptyBuildWarning, ENGINES, needEngineV1, v1OptionsGiven, type BuildRequest, type EngineName } from '../../core/operations/build-request.js';
import { describeProgress, type BuildPhase, type BuildProgress } from '../../core/store/progress.js';
import { GRANULARITIES, type Granularity } from '../../core/engine/v1/config.js';
import { isLabel, LABEL_FORM, LABEL_PATTERN } from '../../core/engine/v1/label.js';
import { isTokenizerName, TOKENIZERS, type TokenizerName } from '../../core/tokens/count.js';
import { ContextError, JSONRPC_ERRORS } from '../../errors.js';
import { RpcError } from '../json-rpc.js';
import type { Tool, ToolCall, ToolContext } from '../tool.js';
import { globListProblem, MAX_GLOB_BYTES, MAX_GLOBS } from '../../core/sources/limits.js';
import { advisedErrorSchema, runAdvised } from './advice.js';
import { policyOf } from './root-guard.js';
import { arrayOf, BOOLEAN, COUNT, objectOf, outputSchemaWithError, STRING, stringEnum } from './output-schema.js';

const invalid = (message: string): RpcError => new RpcError(JSONRPC_ERRORS.invalidParams, `Invalid params: ${message}`);

// In a /u regex a surrogate pair is one code point, so only an unpaired half matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * A cache name: one directory under the cache root, not hidden (staging uses dot names),
 * and text that names the same directory on every later call (no lone surrogate: the file
 * system would store U+FFFD, a name no call could give back).
 */
function cacheTarget(value: unknown, ctx: ToolContext): string {
  if (typeof value !== 'string') throw invalid('cache must be a string');
  const ok = value !== '' && !value.startsWith('.') && !/[/\\\0]/.test(value) && !LONE_SURROGATE.test(value) && Buffer.byteLength(value) <= 255;
  // As for every cache tool, a name that would leave the root names no cache.
  if (!ok) throw new ContextError('cache_missing', 'a cache is one directory name under the cache root', 'cache_name');
  return join(ctx.cacheRoot, value);
}

/**
 * The sources directory: relative to the server's base root (or absolute), inside its
 * allowed roots (the project root, or the client's MCP roots) by real path; outside is
 * the workspace tools' refusal, root_not_allowed.
 */
function sourcesInsideRoots(value: unknown, ctx: ToolContext): string {
  if (typeof value !== 'string' || value === '') throw invalid('sources must be a non-empty path');
  const dir = policyOf(ctx).confine(value);
  if (dir === null) throw new ContextError('root_not_allowed');
  return dir;
}

/**
 * A cache root kept in the project (`.context/caches`) must stay there by real path: a
 * symbolic link on its way (which a cloned repository may carry) would have builds write
 * wherever it leads. A cache root outside the project is the server's configuration and is
 * taken as it is, link or not (docs/reliability.md "The MCP server touches only its two roots").
 */
function cacheRootStaysInside(cacheRoot: string, roots: readonly string[]): void {
  const inside = (root: string): boolean => {
    const rel = relative(root, cacheRoot);
    return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
  };
  if (roots.some(inside) && !isWithinRoots(cacheRoot, roots)) {
    throw new ContextError('io_error', 'the cache root lies in the project but leads out of it through a symbolic link', 'cache_root_leaves_project');
  }
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw invalid(`${name} must be ${allowed.join(' or ')}`);
  return found;
}

function globs(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid(`${name} must be an array of strings`);
  return value as string[];
}

function requestOf(args: Readonly<Record<string, unknown>>, ctx: ToolContext): BuildRequest {
  // Argument shapes first (a protocol error), then the paths (a typed tool error).
  const engine: EngineName = oneOf('engine', args['engine'], ENGINES, DEFAULT_ENGINE);
  const granularity: Granularity = oneOf('granularity', args['granularity'], GRANULARITIES, DEFAULT_V1_OPTIONS.granularity);
  const tokenizerValue = args['tokenizer'];
  if (tokenizerValue !== undefined && !(typeof tokenizerValue === 'string' && isTokenizerName(tokenizerValue))) {
    throw invalid(`tokenizer must be ${TOKENIZERS.join(', ')}`);
  }
  const tokenizer: TokenizerName = tokenizerValue ?? DEFAULT_V1_OPTIONS.tokenizer;
  const options = { granularity, tokenizer, include: globs('include', args['include']), exclude: globs('exclude', args['exclude']) };
  const force = args['force'] ?? false;
  if (typeof force !== 'boolean') throw invalid('force must be a boolean');
  const label = args['label'];
  if (label !== undefined && !isLabel(label)) throw invalid(`label: ${LABEL_FORM}`);
  for (const [name, list] of [['include', options.include], ['exclude', options.exclude]] as const) {
    const problem = globListProblem(list);
    if (problem !== null) throw invalid(`${name} ${problem === 'needs a non-empty glob' ? 'needs non-empty globs' : problem}`);
  }
  if (engine === 'v0') {
    const given = v1OptionsGiven({ granularity: args['granularity'] !== undefined, tokenizer: tokenizerValue !== undefined, include: options.include, exclude: options.exclude, label: label !== undefined });
    if (given.length > 0) throw invalid(`${needEngineV1(given)} engine v1`);
  }
  if (ctx.timestamp === undefined) throw new ContextError('internal_error', 'the server has no clock for created_at');
  const sources = sourcesInsideRoots(args['sources'], ctx);
  const cache = cacheTarget(args['cache'], ctx);
  const allowed = policyOf(ctx).allowed;
  cacheRootStaysInside(ctx.cacheRoot, [ctx.projectRoot, ...allowed]);
  return {
    sources,
    cache,
    force,
    createdAt: ctx.timestamp(),
    engine,
    options,
    ...(label === undefined ? {} : { label }),
    threads: availableParallelism(),
    // Never over the project root (or a folder holding it); every source inside the roots by real path.
    protect: [ctx.projectRoot, ...allowed],
    confine: allowed,
  };
}

/**
 * Where each phase starts and ends on a 0..100 scale: reading dominates a v0 build, reading
 * and analysing together (reported as analysing) a v1 build, whose `read` report counts only
 * the documents a rebuild reuses (its analysis then starts above that: 60 x >= 50 x).
 */
const SPAN: Readonly<Record<BuildPhase, readonly [number, number]>> = {
  scan: [0, 0],
  read: [0, 50],
  analyze: [0, 60],
  index: [60, 70],
  write: [70, 100],
  done: [100, 100],
};

/** Progress as MCP reports it: a whole percentage (total 100) and the build's own words. */
export function progressOf(p: BuildProgress): { progress: number; message: string } {
  const [from, to] = SPAN[p.phase];
  const share = p.filesTotal > 0 ? Math.min(1, p.files / p.filesTotal) : 0;
  return { progress: Math.floor(from + (to - from) * share), message: describeProgress(p) };
}

async function build(args: Readonly<Record<string, unknown>>, ctx: ToolContext, call: ToolCall | undefined): Promise<{ text: string; engine: EngineName } | null> {
  const request = requestOf(args, ctx);
  const sink = call?.progress ?? null;
  const onProgress = sink === null ? undefined : (p: BuildProgress): void => {
    const { progress, message } = progressOf(p);
    sink(progress, 100, message);
  };
  const result = await buildInBackground(request, {
    ...(onProgress === undefined ? {} : { onProgress }),
    ...(call === undefined ? {} : { signal: call.signal }),
  });
  return result.kind === 'built' ? { text: result.text, engine: request.engine } : null;
}

// What 2024-11-05 and 2025-03-26 clients are shown (the bytes their transcripts recorded).
const LEGACY_INPUT = {
  type: 'object',
  required: ['sources', 'cache'],
  additionalProperties: false,
  properties: {
    sources: { type: 'string', description: 'Folder to index, relative to the server\'s project root (it must lie inside it)' },
    cache: { type: 'string', description: 'Name of the cache to write: one directory name under the server\'s cache root' },
    force: { type: 'boolean', description: 'Replace an existing cache of that name (default false: refuse)' },
    engine: { type: 'string', enum: [...ENGINES], description: 'v1 (default) or v0 (the reference cache, no options)' },
    granularity: { type: 'string', enum: [...GRANULARITIES], description: 'v1: sections (default) or whole files' },
    tokenizer: { type: 'string', enum: [...TOKENIZERS], description: 'v1: how budgets count tokens (default o200k_base, exact; bytes4 = ceil(bytes / 4))' },
    include: { type: 'array', items: { type: 'string' }, description: 'v1: keep only files matching these globs (relative to sources)' },
    exclude: { type: 'array', items: { type: 'string' }, description: 'v1: drop files and folders matching these globs' },
  },
} as const;
// The tool's input: the legacy one, plus label.
const INPUT = {
  ...LEGACY_INPUT,
  properties: {
    ...LEGACY_INPUT.properties,
    label: {
      type: 'string',
      pattern: LABEL_PATTERN.source,
      description: 'v1: a name for what the cache holds, e.g. "fastapi@0.115": 1 to 64 letters, digits and . _ @ / + -. Not part of cache_version; a rebuild without it drops the old label',
    },
  },
} as const;

export const buildTool: Tool = {
  name: 'context.build',
  title: 'Build a context cache',
  description:
    'Build (index) a context cache from a folder of documentation in this project, so that context.resolve can answer from it. ' +
    'sources is a folder inside the server\'s project root; cache is the name to give the cache under the cache root ' +
    '(then context.list_caches shows it). The default engine "v1" reads Markdown and MDX (.md, .mdx, .markdown), reStructuredText (.rst), AsciiDoc (.adoc, .asciidoc), plain text (.txt) and HTML (.html, .htm: visible text indexed, source printed), ' +
    'ranks their sections (BM25, stemming; granularity ' +
    '"section" by default, or "file") and counts tokens exactly (tokenizer "o200k_base" by default, "cl100k_base", or the estimate "bytes4"); ' +
    `include/exclude globs pick files (at most ${MAX_GLOBS} of each, each at most ${MAX_GLOB_BYTES} bytes). ` +
    'label names what the cache holds (e.g. "fastapi@0.115"; v1): context.list_caches and the cache argument of context.resolve show it; a rebuild without label drops the old one. ' +
    'engine "v0" is the Context Engine v0 reference cache (every .md file, whole) and takes none of those options. ' +
    'A build that finds no document says so in a second text block. ' +
    'An existing cache is replaced only with force: true, and only once the new one is complete; a failed or cancelled build leaves the old one as it was. ' +
    'Only a cache this program wrote (or an empty folder) is ever replaced, never a folder holding anything else, even beside a cache\'s manifest; a source that is a symlink leading outside the project root is skipped and reported in "skipped". ' +
    'Send a progressToken to get progress notifications. Returns what `context build` prints.',
  // What 2024-11-05 and 2025-03-26 clients were shown before: their transcripts are frozen.
  legacyDescription:
    'Build (index) a context cache from a folder of Markdown in this project, so that context.resolve can answer from it. ' +
    'sources is a folder inside the server\'s project root; cache is the name to give the cache under the cache root ' +
    '(then context.list_caches shows it). The default engine "v1" ranks sections of Markdown and MDX (BM25, stemming; granularity ' +
    '"section" by default, or "file") and counts tokens exactly (tokenizer "o200k_base" by default, "cl100k_base", or "bytes4"); ' +
    'engine "v0" is the Context Engine v0 reference cache and takes none of those options. ' +
    'An existing cache is replaced only with force: true, and only once the new one is complete; a failed or cancelled build leaves the old one as it was. ' +
    'Send a progressToken to get progress notifications. Returns what `context build` prints.',
  inputSchema: INPUT,
  // 2024-11-05 and 2025-03-26 clients see the schema their transcripts recorded (no label; they may pass it all the same).
  legacyInputSchema: LEGACY_INPUT,
  outputSchema: outputSchemaWithError(
    advisedErrorSchema('build'),
    objectOf({ cache_version: STRING, document_count: COUNT }, { skipped: arrayOf(objectOf({ path: STRING, reason: STRING })) }),
    objectOf({
      cache_version: STRING,
      document_count: COUNT,
      engine: { const: 'v1' },
      granularity: stringEnum(GRANULARITIES),
      tokenizer: stringEnum(TOKENIZERS),
      units: COUNT,
      reused: COUNT,
      analyzed: COUNT,
      unchanged: BOOLEAN,
      // Documents per format ({"md":12,"rst":3}): the names are the formats the build read.
      formats: { type: 'object', additionalProperties: COUNT },
      skipped: arrayOf(objectOf({ path: STRING, reason: STRING })),
    }, { label: { type: 'string', pattern: LABEL_PATTERN.source } }),
  ),
  // It writes, and with force it replaces a cache: hosts should ask first.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async call(args, ctx, call) {
    let built: { text: string; engine: EngineName } | null = null;
    let error: unknown = null;
    try {
      built = await build(args, ctx, call);
    } catch (err) {
      if (err instanceof RpcError) throw err;
      error = err;
    }
    const outcome = runAdvised('build', () => {
      if (error !== null) throw error;
      // Cancelled: the session sends no reply at all; this error object is never seen.
      if (built === null) throw new ContextError('io_error', 'build cancelled');
      return built.text;
    }, ctx);
    // A build that found no document: the CLI's stderr warning, as a second text block.
    const warning = built === null || outcome.isError ? null : emptyBuildWarning(built.engine, built.text);
    return warning === null ? outcome : { ...outcome, hint: warning };
  },
};
