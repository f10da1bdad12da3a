// One build as both faces ask for it — `context build` and the `context.build` MCP tool —
// as plain data (it crosses to a worker thread), and the one JSON line that reports it, so
// the tool's text is the command's stdout byte for byte. A build that names no engine writes
// v1 with sections and o200k_base token counts; v0 takes no options beyond force; the v1
// options are checked by the caller (usage error on the CLI, invalid params in MCP).

import { compact, parseJson } from '../../json.js';
import type { V1Options } from '../engine/v1/config.js';
import { DEFAULT_EXTENSIONS } from '../sources/extensions.js';
import type { ProgressListener } from '../store/progress.js';

export const ENGINES = ['v0', 'v1'] as const;
export type EngineName = (typeof ENGINES)[number];

/** What a build that names no engine writes: the one that answers best (docs/engine.md). */
export const DEFAULT_ENGINE: EngineName = 'v1';

export interface BuildRequest {
  readonly sources: string;
  readonly cache: string;
  readonly force: boolean;
  /** The manifest's informational created_at (the caller owns the clock). */
  readonly createdAt: string;
  readonly engine: EngineName;
  /** v1 only (v0 ignores them: the caller refuses non-default ones). */
  readonly options: V1Options;
  /** v1 only: the cache's label (checked by the caller, ../engine/v1/label.ts); absent or null: none. */
  readonly label?: string | null;
  /** Threads a v1 build may analyze on. */
  readonly threads: number;
  /** Directories (absolute) the cache may not be or hold: the working directory, a project root. */
  readonly protect?: readonly string[];
  /**
   * Roots (absolute) every source must lie inside by real path: a symlinked file or folder
   * that leads out is skipped and reported. Absent: symlinks are followed wherever they lead.
   */
  readonly confine?: readonly string[];
}

/** A v1 build's options when none is given: sections, counted exactly in o200k_base. */
export const DEFAULT_V1_OPTIONS: V1Options = { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] };

/** The file extensions each engine takes as documents, as a warning names them. */
const EXTENSIONS_READ: Readonly<Record<EngineName, string>> = {
  v0: '.md',
  v1: `${DEFAULT_EXTENSIONS.slice(0, -1).map((e) => `.${e}`).join(', ')} and .${DEFAULT_EXTENSIONS[DEFAULT_EXTENSIONS.length - 1] as string}`,
};

/**
 * The warning for a build that found no document, or null: the extensions the engine looked
 * for, path-free (the MCP tool sends it as is). It reads the build's own report line, the
 * one thing both faces hold (an MCP build's summary comes back from its worker as that line).
 */
export function emptyBuildWarning(engine: EngineName, line: string): string | null {
  const report = parseJson(line) as { document_count?: unknown };
  if (report.document_count !== 0) return null;
  const filters = engine === 'v1' ? ' (less what include/exclude globs, .gitignore files and hidden folders leave out)' : '';
  return `No source file found: engine ${engine} reads ${EXTENSIONS_READ[engine]} files${filters}, so the cache holds 0 documents.`;
}

/** The v1-only options a request names at all (a v0 build takes none), in a fixed order. */
export function v1OptionsGiven(given: {
  readonly granularity: boolean;
  readonly tokenizer: boolean;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly label?: boolean;
}): string[] {
  return [
    given.granularity ? 'granularity' : null,
    given.tokenizer ? 'tokenizer' : null,
    given.include.length > 0 ? 'include' : null,
    given.exclude.length > 0 ? 'exclude' : null,
    given.label === true ? 'label' : null,
  ].filter((f): f is string => f !== null);
}

/** "X needs" / "X, Y need": the start of the refusal of v1 options without engine v1. */
export function needEngineV1(names: readonly string[]): string {
  return `${names.join(', ')} ${names.length === 1 ? 'needs' : 'need'}`;
}

/**
 * Runs the build; resolves with its report line (`context build` stdout, "\n" included).
 * `beforeWrite` and `stageEarly`: as the v1 builder takes them (../engine/v1/build.ts;
 * engine v0 has no early writes).
 */
export async function runBuild(
  request: BuildRequest,
  onProgress?: ProgressListener,
  beforeWrite?: () => void,
  stageEarly?: (make: () => string) => string | null,
): Promise<string> {
  const { sources, cache, force, createdAt } = request;
  const listen = { ...(onProgress === undefined ? {} : { onProgress }), ...(beforeWrite === undefined ? {} : { beforeWrite }) };
  const guard = { sources, protect: request.protect ?? [] };
  const confine = request.confine === undefined ? {} : { confine: request.confine };
  // Each engine's builder loads only when asked for (a command starts faster).
  if (request.engine === 'v0') {
    const { buildCache } = await import('../engine/v0/build.js');
    const summary = buildCache({ sources, cache, force, createdAt, guard, ...confine, ...listen });
    // `skipped` only when a confined build left a source out: otherwise the seeds' two fields.
    const skipped = summary.skipped.length === 0 ? {} : { skipped: summary.skipped.map((s) => ({ path: s.path, reason: s.reason })) };
    return compact({ cache_version: summary.cacheVersion, document_count: summary.documentCount, ...skipped }) + '\n';
  }
  const { granularity, tokenizer } = request.options;
  const { buildCacheV1 } = await import('../engine/v1/build.js');
  const early = stageEarly === undefined ? {} : { stageEarly };
  const label = request.label ?? null;
  const summary = await buildCacheV1({ sources, cache, force, createdAt, options: request.options, label, threads: request.threads, guard, ...confine, ...listen, ...early });
  return (
    compact({
      cache_version: summary.cacheVersion,
      document_count: summary.documentCount,
      engine: 'v1',
      // Only when given, so an unlabelled build prints what it printed before labels.
      ...(label === null ? {} : { label }),
      granularity,
      tokenizer,
      units: summary.unitCount,
      reused: summary.reused,
      analyzed: summary.analyzed,
      unchanged: summary.unchanged,
      formats: summary.formats,
      skipped: summary.skipped.map((s) => ({ path: s.path, reason: s.reason })),
    }) + '\n'
  );
}
