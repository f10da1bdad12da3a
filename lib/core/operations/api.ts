// The cache operations both faces call (CLI commands and MCP tools), each returning the
// exact output text, so CLI/MCP parity holds by construction. Inputs arrive unvalidated
// (from argv or JSON-RPC) and are checked here; failures are thrown as ContextError.

import { compact, pretty, type Json } from '../../json.js';
import { ContextError } from '../../errors.js';
import { v1Manifest, openEngine, openEngineParallel, type BudgetScope } from '../engine/engine.js';
import type { V1VerifyReport } from '../engine/v1/verify.js';
import { requireCacheDir } from '../store/locate.js';
import { queryTerms } from '../analysis/text.js';
import { inspectCache, inspectJson } from './inspect.js';
import { listCaches, listingJson } from './list.js';
import type { CacheMemo } from './memo.js';
import { verifyCache, verifyReportJson, type VerifyReport } from '../engine/v0/verify.js';

export { locateCache } from '../store/locate.js';
export { CacheMemo } from './memo.js';
export { readWhileBuilding } from '../store/staging.js';

export type OutputFormat = 'json' | 'pretty';

const MAX_QUERY_BYTES = 64 * 1024;
// In a /u regex a surrogate pair is one code point, so only an unpaired half matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function render(value: Json, format: OutputFormat): string {
  return format === 'pretty' ? pretty(value) : compact(value);
}

/** Budget: an integer in 0..2^53-1 (DESIGN.md "Errors"), else invalid_budget. */
export function validateBudget(budget: unknown): number {
  if (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 0) {
    throw new ContextError('invalid_budget');
  }
  return budget;
}

/** A CLI budget string: optional "+", decimal digits (as Rust's usize parser accepts). */
export function parseBudget(text: string): number {
  if (!/^\+?[0-9]+$/.test(text)) throw new ContextError('invalid_budget');
  return validateBudget(Number(text.replace(/^\+/, '')));
}

/** Query: a string of well-formed Unicode, at most 64 KiB of UTF-8, else invalid_query. */
export function validateQuery(query: unknown): string {
  if (typeof query !== 'string' || LONE_SURROGATE.test(query) || Buffer.byteLength(query, 'utf8') > MAX_QUERY_BYTES) {
    throw new ContextError('invalid_query');
  }
  return query;
}

/** `context resolve` stdout: the SelectionResult JSON + "\n". */
/** `budget_scope`: "content" (the default, v0's rule) or "answer" (v1 caches), else invalid_budget. */
export function validateBudgetScope(scope: unknown): BudgetScope {
  if (scope === undefined || scope === 'content') return 'content';
  if (scope === 'answer') return 'answer';
  throw new ContextError('invalid_budget', 'budget scope must be content or answer');
}

export function resolveText(
  cacheDir: string,
  query: unknown,
  budget: unknown,
  format: OutputFormat = 'json',
  memo?: CacheMemo,
  scope: BudgetScope = 'content',
): string {
  const b = validateBudget(budget);
  const q = validateQuery(query);
  const terms = queryTerms(q);
  if (memo !== undefined) return render(memo.get(cacheDir).resolve(q, b, scope), format) + '\n';
  const engine = openEngine(cacheDir, terms);
  try {
    return render(engine.resolve(q, b, scope), format) + '\n';
  } finally {
    engine.close();
  }
}

/**
 * The same bytes as `resolveText`, for a one-shot process: the cache is read on up to
 * `threads` threads, counting the query's terms while loading.
 */
export async function resolveTextParallel(
  cacheDir: string,
  query: unknown,
  budget: unknown,
  format: OutputFormat,
  threads: number,
  scope: BudgetScope = 'content',
): Promise<string> {
  return render(await resolveValueParallel(cacheDir, query, budget, threads, scope), format) + '\n';
}

/** The SelectionResult value itself (for renderings other than JSON: `--format text`). */
export async function resolveValueParallel(
  cacheDir: string,
  query: unknown,
  budget: unknown,
  threads: number,
  scope: BudgetScope = 'content',
): Promise<Json> {
  const b = validateBudget(budget);
  const q = validateQuery(query);
  const engine = await openEngineParallel(cacheDir, queryTerms(q), threads);
  try {
    return engine.resolve(q, b, scope);
  } finally {
    engine.close();
  }
}

/** Inspect result JSON (seed 004 field order), without trailing newline. */
export function inspectText(cacheDir: string, format: OutputFormat = 'json'): string {
  return render(inspectJson(inspectCache(cacheDir)), format);
}

/** `{"caches":[{"path":…,"has_manifest":…}]}`, without trailing newline. */
export function listCachesText(root: string): string {
  return compact(listingJson(listCaches(root)));
}

/** The verify report text (no trailing newline) and whether every check held. */
export async function verifyText(
  cacheDir: string,
  format: OutputFormat = 'pretty',
  threads = 1,
): Promise<{ text: string; report: VerifyReport | V1VerifyReport }> {
  requireCacheDir(cacheDir);
  // v1's verifier (it re-analyzes every document) loads only when needed: resolve and
  // inspect, which share this module, stay quick to start.
  const report = v1Manifest(cacheDir) !== null ? await (await import('../engine/v1/verify.js')).verifyV1(cacheDir, threads) : verifyCache(cacheDir);
  return { text: render(verifyReportJson(report), format), report };
}
