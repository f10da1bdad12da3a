// The one engine interface: a loaded cache that answers queries. Which engine answers is
// decided by the cache's own build_config (format 1: v0, format 20: v1), never by the
// caller, so `resolve` is a function of the cache's bytes, the query and the budget.

import { join } from 'node:path';
import type { Json } from '../../json.js';
import { requireCacheDir } from '../store/locate.js';
import { loadCache, loadCacheParallel, type LoadedCache } from './v0/load.js';
import * as fs from '../fs.js';
import { parseJson } from '../../json.js';
import { selectDocuments } from './v0/select.js';
import type { WordIndex } from './v0/word-index.js';
import { queryTermsV1 } from '../analysis/analyzer.js';
import { loadV1, loadV1Parallel, type V1Cache } from './v1/load.js';
import { isV1Manifest, MANIFEST_FILE } from './v1/manifest.js';
import { resolveV1, type BudgetScope, type ResolveOptions } from './v1/resolve.js';
import { ContextError } from '../../errors.js';
import { v0Documents, v0ReadText } from './v0/read-document.js';
import { v1Documents, v1ReadText, type DocumentEntry } from './v1/read.js';
import { prepareNorms } from '../ranking/bm25.js';

/** Units whose length normalizations one unit of Engine.prepare's `work` computes (a server's idle slice of 128: 65,536 units). */
const NORMS_PER_WORK = 512;

export type { BudgetScope, ResolveOptions } from './v1/resolve.js';
export type { DocumentEntry } from './v1/read.js';

export interface Engine {
  readonly name: 'v0' | 'v1';
  readonly cacheVersion: string;
  /**
   * The SelectionResult value (inputs already validated). `scope` defaults to content;
   * `options` (how the answer is printed, the cache's name) matter to v1 only.
   */
  resolve(query: string, budget: number, scope?: BudgetScope, options?: ResolveOptions): Json;
  /** What a unit is: a whole file, or a section of one (v1 section caches). */
  readonly granularity: 'file' | 'section';
  /** At most `limit` documents whose path sorts after `after` (null: from the first), in path byte order. */
  documents(after: string | null, limit: number): DocumentEntry[];
  /**
   * The exact text of document `path` (as resolve names it), whole when `slug` is null, else
   * of that unit of a section cache, as resolve prints its content; null when there is none.
   */
  readText(path: string, slug: string | null): string | null;
  /** Releases what the engine holds open. */
  close(): void;
  /**
   * Spends a slice of idle time on what later questions read (v1: the term filters of up to
   * `work` packs, PackedIndex.prepareLookups, then the length normalizations of up to
   * `work` × NORMS_PER_WORK units, prepareNorms); true when nothing is left to prepare.
   * Answers are the same whether or not it was called.
   */
  prepare(work: number): boolean;
  /** A v0 engine opened with `index: true`: its in-memory word index (sizes, for tests and benches). */
  readonly wordIndex?: WordIndex;
}

export interface OpenOptions {
  /**
   * For a long-lived process (the MCP server's CacheMemo): a v0 cache is loaded with a word
   * index, so every later query is a lookup (`terms` are then unused). v1 caches carry theirs.
   */
  readonly index?: boolean;
  /**
   * For a one-shot process that answers this query only (`context resolve`): a v1 cache is
   * loaded holding the postings of its terms alone (./v1/load.ts), and answers nothing else.
   */
  readonly query?: string;
}

function v0Engine(cache: LoadedCache): Engine {
  return {
    ...(cache.index === undefined ? {} : { wordIndex: cache.index }),
    name: 'v0',
    cacheVersion: cache.cacheVersion,
    granularity: 'file',
    documents: (after, limit) => v0Documents(cache.documents, after, limit),
    readText: (path, slug) => v0ReadText(cache.documents, path, slug),
    resolve: (query, budget, scope = 'content') => {
      if (scope !== 'content') throw new ContextError('invalid_budget', 'the answer budget scope needs a v1 cache (build --engine v1)');
      return selectDocuments(cache.documents, query, budget, cache.countWords);
    },
    close: () => undefined,
    prepare: () => true,
  };
}

/** The manifest when it declares engine v1 (its text and parsed value), else null (v0's loader reports the rest). */
export function v1Manifest(dir: string): { readonly text: string; readonly value: unknown } | null {
  let text: string;
  try {
    text = fs.readText(join(dir, MANIFEST_FILE));
  } catch {
    return null;
  }
  try {
    const value = parseJson(text);
    return isV1Manifest(value) ? { text, value } : null;
  } catch {
    return null;
  }
}

function v1Engine(dir: string, manifest: { readonly text: string; readonly value: unknown }, query?: string): Engine {
  return v1EngineOf(loadV1(dir, manifest.text, manifest, query === undefined ? undefined : queryTermsV1(query)));
}

function v1EngineOf(cache: V1Cache): Engine {
  return {
    name: 'v1',
    cacheVersion: cache.manifest.cacheVersion,
    granularity: cache.manifest.config.options.granularity,
    documents: (after, limit) => v1Documents(cache, after, limit),
    readText: (path, slug) => v1ReadText(cache, path, slug),
    resolve: (q, b, scope = 'content', options = {}) => resolveV1(cache, q, b, scope, options),
    close: () => cache.close(),
    // Term filters first (what a new word needs), then the units' length normalizations.
    prepare: (work) => (cache.index.prepareLookups?.(work) ?? true) && prepareNorms(cache.index, cache.manifest.config.ranking, work * NORMS_PER_WORK),
  };
}

/** Opens the cache at `dir` with the engine its build_config names. */
export function openEngine(dir: string, terms: readonly string[] = [], options: OpenOptions = {}): Engine {
  requireCacheDir(dir);
  const v1 = v1Manifest(dir);
  if (v1 !== null) return v1Engine(dir, v1, options.query);
  return v0Engine(loadCache(dir, options.index === true ? { index: true } : { terms }));
}

/**
 * As `openEngine(dir, [], { index: true })`, the whole cache as a long-lived server keeps it,
 * with a large v1 cache's heads read on up to `threads` threads (./v1/load.ts
 * loadV1Parallel); a v0 cache is read on this thread.
 */
export async function openEngineWhole(dir: string, threads: number): Promise<Engine> {
  requireCacheDir(dir);
  const v1 = v1Manifest(dir);
  if (v1 === null) return openEngine(dir, [], { index: true });
  return v1EngineOf(await loadV1Parallel(dir, v1.text, v1, undefined, threads));
}

/**
 * As `openEngine`; a v0 cache is read on up to `threads` threads, and so are the heads of a
 * large v1 cache loaded for one query (./v1/load.ts loadV1Parallel).
 */
export async function openEngineParallel(dir: string, terms: readonly string[], threads: number, options: OpenOptions = {}): Promise<Engine> {
  requireCacheDir(dir);
  const v1 = v1Manifest(dir);
  if (v1 !== null) {
    if (options.query === undefined) return v1Engine(dir, v1);
    return v1EngineOf(await loadV1Parallel(dir, v1.text, v1, queryTermsV1(options.query), threads));
  }
  return v0Engine(await loadCacheParallel(dir, { terms, threads }));
}
