// Engine v1 selection: the query's terms are looked up in the index (no document is read
// or re-analyzed), every unit holding at least one of them is scored (../../ranking/
// bm25.ts), units are ordered by score (binary32, as printed) descending then id in UTF-8
// byte order, and the budget is filled greedily, skipping what does not fit. Units that
// match no query term are never selected. Only the selected units' documents are read.
//
// The SelectionResult keeps every v0 field and meaning, in v0's order, and adds:
// documents[].path (the source path as on disk), documents[].trail (section caches: the
// heading trail), why.terms (the query's analyzed terms), why.matches (per matching term:
// its frequency in each field and its share of the score), selection.documents_matched,
// selection.engine, selection.granularity, selection.tokenizer.

import { compact, compareBytes, F32, type Json } from '../../../json.js';
import { ContextError } from '../../../errors.js';
import { queryTermsV1 } from '../../analysis/analyzer.js';
import { FIELDS } from '../../analysis/term-counter.js';
import { IndexFormatError } from '../../index/bytes.js';
import { explainUnit, rankUnits } from '../../ranking/bm25.js';
import { queryTerms } from '../../analysis/text.js';
import { tokenCounter, type TokenCounter } from '../../tokens/count.js';
import type { V1Cache } from './load.js';
import type { PackedDocument } from './manifest.js';
import { UnitQueue } from './order.js';

/** A unit's id: its file's path, plus `#slug` for a section that starts at a heading. */
export function unitId(path: string, slug: string): string {
  return slug === '' ? path : `${path}#${slug}`;
}

// Each unit's rank in id byte order, computed once per loaded cache when a query first
// meets many equal scores (a long-lived server then compares numbers, not strings).
const idRanks = new WeakMap<V1Cache, Uint32Array>();

function idRanksOf(cache: V1Cache): Uint32Array {
  let ranks = idRanks.get(cache);
  if (ranks !== undefined) return ranks;
  const { index, manifest } = cache;
  const ids = new Array<string>(index.unitCount);
  for (let u = 0; u < index.unitCount; u++) ids[u] = unitId((manifest.documents[index.unitDoc(u)] as PackedDocument).path, index.unitStrings(u).slug);
  const byId = Array.from(ids.keys()).sort((a, b) => compareBytes(ids[a] as string, ids[b] as string));
  ranks = new Uint32Array(index.unitCount);
  byId.forEach((u, rank) => ((ranks as Uint32Array)[u] = rank));
  idRanks.set(cache, ranks);
  return ranks;
}

/** What the budget bounds: the selected contents (v0's rule), or the whole printed answer. */
export type BudgetScope = 'content' | 'answer';

export function resolveV1(cache: V1Cache, query: string, budget: number, scope: BudgetScope = 'content'): Json {
  try {
    return select(cache, query, budget, scope);
  } catch (err) {
    // Each pack's head matched its recorded sha256, yet what is decoded only on use (postings,
    // slugs and trails) can still be malformed if the record was forged with it: a damaged
    // cache is cache_invalid, never an internal error.
    if (err instanceof IndexFormatError) throw new ContextError('cache_invalid', `index: ${err.message}`);
    throw err;
  }
}

function select(cache: V1Cache, query: string, budget: number, scope: BudgetScope): Json {
  const { index, manifest } = cache;
  const params = manifest.config.ranking;
  const terms = queryTermsV1(query);
  const ranked = rankUnits(index, terms, params);
  const docs = manifest.documents;
  const ids = new Map<number, string>();
  const idOf = (u: number): string => {
    let id = ids.get(u);
    if (id === undefined) {
      id = unitId((docs[index.unitDoc(u)] as PackedDocument).path, index.unitStrings(u).slug);
      ids.set(u, id);
    }
    return id;
  };
  const matchedCount = ranked.units.length;
  const queue = new UnitQueue(ranked.units, ranked.scores, idOf, () => idRanksOf(cache));
  // No unit is smaller than this: once less budget is left, nothing more can be selected.
  let minTokens = Infinity;
  for (const u of ranked.units) minTokens = Math.min(minTokens, index.unitTokens(u));

  const v0Terms = queryTerms(query);
  const sections = manifest.config.options.granularity === 'section';
  const texts = new Map<number, string>();
  const entryOf = (u: number): Json => {
    const doc = index.unitDoc(u);
    let text = texts.get(doc);
    if (text === undefined) {
      text = cache.text(doc);
      texts.set(doc, text);
    }
    const start = index.unitStart(u);
    const end = index.unitEnd(u);
    if (end > text.length) throw new ContextError('cache_invalid', 'index: a unit lies outside its document');
    const matches = explainUnit(index, ranked, u, params);
    const d = docs[doc] as PackedDocument;
    const entry: Record<string, Json> = {
      id: idOf(u),
      version: d.version,
      content: start === 0 && end === text.length ? text : text.slice(start, end),
      score: new F32(ranked.scores[u] as number),
      tokens: index.unitTokens(u),
      why: {
        query_terms: v0Terms,
        term_matches: matches.reduce((n, m) => n + (m.tfs[0] as number), 0),
        total_words: index.unitWordCount(u),
        terms,
        matches: matches.map((m) => ({
          term: m.term,
          fields: Object.fromEntries(FIELDS.flatMap((f, i) => ((m.tfs[i] as number) > 0 ? [[f, m.tfs[i] as number]] : []))),
          score: new F32(m.score),
        })),
      },
      path: d.path,
    };
    if (sections) entry['trail'] = index.unitStrings(u).trail;
    return entry;
  };
  const result = (entries: readonly Json[], used: number, extra: Record<string, Json>): Json => ({
    documents: entries,
    selection: {
      query,
      budget,
      tokens_used: used,
      documents_considered: index.unitCount,
      documents_selected: entries.length,
      documents_excluded_by_budget: matchedCount - entries.length,
      documents_matched: matchedCount,
      engine: 'v1',
      granularity: manifest.config.options.granularity,
      tokenizer: manifest.config.options.tokenizer,
      ...extra,
    },
  });

  if (scope === 'content') {
    const entries: Json[] = [];
    let used = 0;
    for (let u = queue.next(); u >= 0 && budget - used >= minTokens; u = queue.next()) {
      const tokens = index.unitTokens(u);
      if (used + tokens > budget) continue; // skipped, never truncated
      used += tokens;
      entries.push(entryOf(u));
    }
    return result(entries, used, {});
  }
  return selectForAnswer(queue, minTokens, budget, tokenCounter(manifest.config.options.tokenizer), (u) => index.unitTokens(u), entryOf, result);
}

/**
 * Answer scope: the whole printed answer (compact JSON and its newline, as the MCP text
 * and the CLI's default print it) counts, in the cache's tokenizer. Entries are taken
 * greedily in rank order, each costing the tokens of its own JSON text plus a separator;
 * the final text is then counted exactly (with `answer_tokens` filled in, which is part of
 * it) and the last entry dropped while it exceeds the budget, so the bound is exact.
 */
function selectForAnswer(
  queue: UnitQueue,
  minTokens: number,
  budget: number,
  count: TokenCounter,
  contentTokens: (u: number) => number,
  entryOf: (u: number) => Json,
  result: (entries: readonly Json[], used: number, extra: Record<string, Json>) => Json,
): Json {
  const render = (entries: readonly Json[], used: number, answerTokens: number): string =>
    compact(result(entries, used, { budget_scope: 'answer', answer_tokens: answerTokens })) + '\n';
  const taken: { entry: Json; tokens: number }[] = [];
  let used = 0;
  let spent = count(render([], 0, budget));
  // An entry costs at least its content's tokens: below minTokens left, nothing fits.
  for (let u = queue.next(); u >= 0 && budget - spent >= minTokens; u = queue.next()) {
    const tokens = contentTokens(u);
    // Its content alone does not fit: its entry, which holds it, cannot either (a cheap
    // pre-check that saves reading and counting most candidates).
    if (spent + tokens > budget) continue;
    const entry = entryOf(u);
    const cost = count(compact(entry)) + 1;
    if (spent + cost > budget) continue;
    taken.push({ entry, tokens });
    spent += cost;
    used += tokens;
  }
  for (;;) {
    const entries = taken.map((t) => t.entry);
    // answer_tokens is part of the answer: settle it by counting until it repeats.
    let claimed = budget;
    let actual = count(render(entries, used, claimed));
    for (let k = 0; k < 8 && actual !== claimed; k++) {
      claimed = actual;
      actual = count(render(entries, used, claimed));
    }
    if ((actual === claimed && actual <= budget) || taken.length === 0) return result(entries, used, { budget_scope: 'answer', answer_tokens: actual });
    const dropped = taken.pop() as { tokens: number };
    used -= dropped.tokens;
  }
}
