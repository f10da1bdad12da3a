// The cache operations both faces call (CLI commands and MCP tools), each returning the
// exact output text, so CLI/MCP parity holds by construction. Inputs arrive unvalidated
// (from argv or JSON-RPC) and are checked here; failures are thrown as ContextError.

import { compact, pretty, type Json } from '../../json.js';
import { ContextError } from '../../errors.js';
import { v1Manifest, openEngine, openEngineParallel, type BudgetScope, type DocumentEntry, type Engine, type ResolveOptions } from '../engine/engine.js';
import { markdownAnswer, markdownEntryText, selectionText } from './selection-text.js';
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

/** What a valid budget is, said in every invalid_budget's detail (CLI stderr, MCP hint). */
export const BUDGET_FORM = 'a budget is a whole number of tokens >= 0, written in digits, e.g. 2000';

/** Budget: an integer in 0..2^53-1 (DESIGN.md "Errors"), else invalid_budget. */
export function validateBudget(budget: unknown): number {
  if (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 0) {
    throw new ContextError('invalid_budget', BUDGET_FORM);
  }
  return budget;
}

/** A CLI budget string: optional "+", decimal digits (as Rust's usize parser accepts). */
export function parseBudget(text: string): number {
  if (!/^\+?[0-9]+$/.test(text)) throw new ContextError('invalid_budget', `${BUDGET_FORM}, not ${compact(text)}`);
  return validateBudget(Number(text.replace(/^\+/, '')));
}

/** What a valid query is, said in every invalid_query's detail. */
export const QUERY_FORM = 'a query is text of at most 65,536 bytes of UTF-8 (64 KiB), without unpaired surrogates';

/** Query: a string of well-formed Unicode, at most 64 KiB of UTF-8, else invalid_query. */
export function validateQuery(query: unknown): string {
  if (typeof query !== 'string' || LONE_SURROGATE.test(query) || Buffer.byteLength(query, 'utf8') > MAX_QUERY_BYTES) {
    throw new ContextError('invalid_query', typeof query === 'string' && !LONE_SURROGATE.test(query) ? `${QUERY_FORM}; this one has ${Buffer.byteLength(query, 'utf8')} bytes` : QUERY_FORM);
  }
  return query;
}

/**
 * `budget_scope`: "content" (v0's rule) or "answer" (v1 caches), else invalid_budget;
 * absent: undefined, the cache's own default (answer for v1, content for v0).
 */
export function validateBudgetScope(scope: unknown): BudgetScope | undefined {
  if (scope === undefined) return undefined;
  if (scope === 'content' || scope === 'answer') return scope;
  throw new ContextError('invalid_budget', 'budget scope must be content or answer');
}

/**
 * How an answer is printed: compact JSON (the MCP text too), indented JSON, Markdown for
 * agents that read text, or text for people.
 */
export type AnswerFormat = OutputFormat | 'text' | 'markdown';

/** One entry as each format prints it inside an answer (pretty: at depth 2), to estimate its cost. */
const ENTRY_TEXT: Readonly<Record<Exclude<AnswerFormat, 'text'>, (entry: Json) => string>> = {
  json: (entry) => compact(entry) + ',',
  pretty: (entry) => '    ' + pretty(entry).replace(/\n/g, '\n    ') + ',\n',
  markdown: markdownEntryText,
};

/**
 * What the engine needs to know of how an answer in `format` is printed (answer scope counts
 * it). `--format text` is counted as the JSON answer it previews (compact, lean or explained
 * as asked), so it shows exactly the entries an agent would receive at that budget.
 */
export function answerOptions(format: AnswerFormat, explain = false): ResolveOptions {
  if (format === 'text') return { render: (value) => printAnswer(value, 'json'), printsContent: true, entryText: ENTRY_TEXT.json, explain, returnExplained: true };
  return { render: (value) => printAnswer(value, format), printsContent: true, entryText: ENTRY_TEXT[format], explain };
}

/** The printed answer, exactly: what answer scope counts and what the faces print. */
function printAnswer(value: Json, format: AnswerFormat): string {
  if (format === 'text') return selectionText(value);
  if (format === 'markdown') return markdownAnswer(value);
  return render(value, format) + '\n';
}

/** A printed answer, and whether its empty envelope alone was over the budget (a v1 answer's selection.over_budget). */
export interface AnswerText {
  readonly text: string;
  readonly overBudget: boolean;
}

/**
 * The engine's answer printed in `format`. A v1 cache bounds the whole printed answer by
 * default (answer scope), counted in that very format; a v0 cache keeps v0's content rule
 * and v0's SelectionResult (Markdown and `explain` are v1's).
 */
function answerText(engine: Engine, query: string, budget: number, format: AnswerFormat, scope: BudgetScope | undefined, explain: boolean): AnswerText {
  const v1 = engine.name === 'v1';
  const shown: AnswerFormat = !v1 && format === 'markdown' ? 'json' : format;
  const value = engine.resolve(query, budget, scope ?? (v1 ? 'answer' : 'content'), answerOptions(shown, explain));
  const selection = (value as { selection?: { over_budget?: unknown } }).selection;
  return { text: printAnswer(value, shown), overBudget: selection?.over_budget === true };
}

/** How to answer: the printed form, and whether a v1 answer carries every detail (`--explain`). */
export interface AnswerRequest {
  readonly format?: AnswerFormat | undefined;
  readonly scope?: BudgetScope | undefined;
  readonly explain?: boolean | undefined;
}

/** `context resolve` stdout (and the context.resolve text): the SelectionResult, printed. */
export function resolveText(cacheDir: string, query: unknown, budget: unknown, format: AnswerFormat = 'json', memo?: CacheMemo, scope?: BudgetScope, explain = false): string {
  return resolveAnswer(cacheDir, query, budget, { format, scope, explain }, memo).text;
}

/** resolveText's answer, with its over-budget flag. */
export function resolveAnswer(cacheDir: string, query: unknown, budget: unknown, request: AnswerRequest, memo?: CacheMemo): AnswerText {
  const b = validateBudget(budget);
  const q = validateQuery(query);
  const terms = queryTerms(q);
  const { format = 'json', scope, explain = false } = request;
  if (memo !== undefined) return answerText(memo.get(cacheDir), q, b, format, scope, explain);
  const engine = openEngine(cacheDir, terms, { query: q });
  try {
    return answerText(engine, q, b, format, scope, explain);
  } finally {
    engine.close();
  }
}

/**
 * The same answer as `resolveAnswer`, for a one-shot process: the cache is read on up to
 * `threads` threads, counting the query's terms while loading.
 */
export async function resolveAnswerParallel(cacheDir: string, query: unknown, budget: unknown, request: AnswerRequest, threads: number): Promise<AnswerText> {
  const b = validateBudget(budget);
  const q = validateQuery(query);
  const { format = 'json', scope, explain = false } = request;
  const engine = await openEngineParallel(cacheDir, queryTerms(q), threads, { query: q });
  try {
    return answerText(engine, q, b, format, scope, explain);
  } finally {
    engine.close();
  }
}

/** resolveAnswerParallel's text alone. */
export async function resolveTextParallel(cacheDir: string, query: unknown, budget: unknown, format: AnswerFormat, threads: number, scope?: BudgetScope): Promise<string> {
  return (await resolveAnswerParallel(cacheDir, query, budget, { format, scope }, threads)).text;
}

/** Runs `use` on the engine of the cache at `dir`: the memo's, else one opened for this call. */
function withEngine<T>(cacheDir: string, memo: CacheMemo | undefined, use: (engine: Engine) => T): T {
  if (memo !== undefined) return use(memo.get(cacheDir));
  const engine = openEngine(cacheDir);
  try {
    return use(engine);
  } finally {
    engine.close();
  }
}

/** One page of a cache's documents (path byte order) after `after`, and the cache's granularity. */
export function documentsPage(
  cacheDir: string,
  after: string | null,
  limit: number,
  memo?: CacheMemo,
): { readonly documents: DocumentEntry[]; readonly granularity: 'file' | 'section' } {
  return withEngine(cacheDir, memo, (engine) => ({ documents: engine.documents(after, limit), granularity: engine.granularity }));
}

/**
 * The exact text of a document of the cache (`path` as resolve names it), whole when `slug`
 * is null, else of that section as resolve returns it; null when the cache has no such unit.
 */
export function documentText(cacheDir: string, path: string, slug: string | null, memo?: CacheMemo): string | null {
  return withEngine(cacheDir, memo, (engine) => engine.readText(path, slug));
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
