// Engine v1 selection: the query's terms are looked up in the index (no document is read
// or re-analyzed), every unit holding at least one of them is scored (../../ranking/
// bm25.ts; release notes scaled down unless the question asks about releases:
// ../../ranking/release-notes.ts), units are ordered by score (binary32, as printed)
// descending then id in UTF-8 byte order, and the budget is filled greedily, skipping what
// does not fit. Units that match no query term are never selected. Only the selected units'
// documents are read.
//
// The SelectionResult keeps every v0 field and meaning, in v0's order, and adds:
// documents[].path (the source path as on disk), documents[].trail (section caches: the
// heading trail), why.matches (per matching term: its frequency in each field that holds
// it and its share of the score), selection.documents_matched, selection.engine,
// selection.granularity, selection.tokenizer, selection.terms (the query's analyzed terms,
// once for every entry: docs/engine.md "The answer").

import { compact, compareBytes, F32, type Json } from '../../../json.js';
import { ContextError } from '../../../errors.js';
import { forEachRawTokenAt, forEachTermAt, hasPairedText, isCodeTerm, matchedPieces, queryTermsV1, rawTokenTerms, termStarts } from '../../analysis/analyzer.js';
import { FIELDS } from '../../analysis/term-counter.js';
import { IndexFormatError } from '../../index/bytes.js';
import { explainUnit, rankUnits, type RankedUnits } from '../../ranking/bm25.js';
import { candidateFeatures, explainer } from './rerank.js';
import { bestWindow, type ProximityParams, type Window } from '../../ranking/proximity.js';
import { asksAboutReleases, isReleaseNotes, isReleaseTitle, RELEASE_NOTES_WEIGHT } from '../../ranking/release-notes.js';
import { queryTerms } from '../../analysis/text.js';
import { headingId } from '../../analysis/markdown.js';
import { stretchCounter, type TokenCounter } from '../../tokens/count.js';
import type { V1Cache } from './load.js';
import type { DocumentList } from './manifest.js';
import { UnitQueue } from './order.js';
import { Copies } from './copies.js';

/** A unit's id: its file's path, plus `#slug` for a section that starts at a heading. */
export function unitId(path: string, slug: string): string {
  return slug === '' ? path : `${path}#${slug}`;
}

// Each unit's id, decoded once per loaded cache when first asked for (a long-lived server
// asks for the same units' ids query after query: selected, tied and omitted units).
const unitIds = new WeakMap<V1Cache, (string | undefined)[]>();

function idsOf(cache: V1Cache): (u: number) => string {
  let ids = unitIds.get(cache);
  if (ids === undefined) {
    ids = new Array<string | undefined>(cache.index.unitCount);
    unitIds.set(cache, ids);
  }
  const known = ids;
  const { index, manifest } = cache;
  return (u: number): string => {
    let id = known[u];
    if (id === undefined) {
      id = unitId(manifest.documents.at(index.unitDoc(u)).path, index.unitSlug(u));
      known[u] = id;
    }
    return id;
  };
}

// For each document d of a loaded cache, the last document whose path begins with d's path
// (d itself for most): paths are sorted, so those that begin with it follow it, together.
// Found when first asked for (ids compare only for equal scores: a cold question asks for a
// few documents, not every one of a large cache), 0 meaning not yet known (stored as e + 1).
const extendedBy = new WeakMap<V1Cache, Uint32Array>();

function extendedByOf(cache: V1Cache): (d: number) => number {
  const docs = cache.manifest.documents;
  let known = extendedBy.get(cache);
  if (known === undefined) {
    known = new Uint32Array(docs.length);
    extendedBy.set(cache, known);
  }
  const last = known;
  const lastOf = (d: number): number => {
    const stored = last[d] as number;
    if (stored !== 0) return stored - 1;
    const path = docs.at(d).path;
    let e = d;
    // What extends the next path extends this one too when the next begins with it, so its
    // whole run is skipped in one step (no quadratic walk on nested names; the recursion is
    // as deep as paths nest, each a strict prefix of the next: bounded by a path's length).
    while (e + 1 < docs.length && docs.at(e + 1).path.startsWith(path)) e = lastOf(e + 1);
    last[d] = e + 1;
    return e;
  };
  return lastOf;
}

/**
 * Units a and b in the byte order of their ids (path, or path#slug), without building ids
 * where the documents' own order decides: the manifest lists documents in byte order of
 * their paths, so units of two documents compare as their documents do, unless one path
 * begins the other (then "p#slug" against "p…" depends on the character after p: compared
 * as ids). Units of one document compare as their slugs ('' first, as "p" before "p#s").
 */
export function compareUnitIds(cache: V1Cache, idOf: (u: number) => string): (a: number, b: number) => number {
  const { index } = cache;
  const extended = extendedByOf(cache);
  return (a: number, b: number): number => {
    const da = index.unitDoc(a);
    const db = index.unitDoc(b);
    if (da === db) return compareBytes(index.unitSlug(a), index.unitSlug(b));
    if (da < db ? db > extended(da) : da > extended(db)) return da - db;
    return compareBytes(idOf(a), idOf(b));
  };
}

// Each unit's rank in id byte order, computed once per loaded cache when a query first
// meets many equal scores (a long-lived server then compares numbers, not strings).
const idRanks = new WeakMap<V1Cache, Uint32Array>();

function idRanksOf(cache: V1Cache): Uint32Array {
  let ranks = idRanks.get(cache);
  if (ranks !== undefined) return ranks;
  const n = cache.index.unitCount;
  const idOf = idsOf(cache);
  const ids = new Array<string>(n);
  for (let u = 0; u < n; u++) ids[u] = idOf(u);
  const byId = Array.from(ids.keys()).sort((a, b) => compareBytes(ids[a] as string, ids[b] as string));
  ranks = new Uint32Array(n);
  byId.forEach((u, rank) => ((ranks as Uint32Array)[u] = rank));
  idRanks.set(cache, ranks);
  return ranks;
}

/** What the budget bounds: the selected contents (v0's rule), or the whole printed answer. */
export type BudgetScope = 'content' | 'answer';

export interface ResolveOptions {
  /**
   * The answer exactly as it will be printed (answer scope counts it); compact JSON and
   * its newline when not given. `printsContent`: whether that text holds each entry's
   * content (JSON does, `--format text` does not), which lets selection skip a unit whose
   * content alone exceeds what is left without printing it.
   */
  readonly render?: (answer: Json) => string;
  readonly printsContent?: boolean;
  /** One entry as `render` prints it inside the answer (an estimate of its cost); compact JSON when not given. */
  readonly entryText?: (entry: Json) => string;
  /**
   * Price every candidate entry exactly, never skipping one on a lower bound of its cost
   * (the same answer, slower): what the bounds are tested against.
   */
  readonly exactPricing?: boolean;
  /**
   * true (the default when the engine is called directly): the explained answer
   * (docs/engine.md "The answer"), each entry with its full version, score, tokens, path and
   * `why`, the selection with every count; counted as printed. false: the lean answer, what
   * the CLI and MCP faces print unless asked to explain (id, short version, the headings
   * above the content, matched terms and content).
   */
  readonly explain?: boolean;
  /**
   * Return the explained answer of the very selection the lean (or `explain`) rendering
   * chose and counted: `--format text` shows the JSON answer's entries with their details.
   */
  readonly returnExplained?: boolean;
}

/**
 * No filler: once a unit has been skipped for the budget, a later (weaker) unit is taken
 * only while its score is at least half the best unit's score (docs/engine.md
 * "No filler"). Without a skip every matching unit that fits is taken, so a budget large
 * enough for all of them returns all of them. Chosen on the dev sets (bench/relevance).
 */
export const FILLER_FLOOR = 0.5;

/** The lean answer's short version: the first 8 hex digits of the document's sha256. */
export const SHORT_VERSION_HEX = 8;

/**
 * The lean answer's `under`: the unit's heading trail joined by " > ", less its last entry
 * when the content's first line of text shows it (its heading's line, or the first line a
 * headingless part is named by, cut with "…" when long), so nothing is printed twice; ''
 * when nothing is left. A line of punctuation alone (an rST title's overline) is not text.
 * The line and the heading are compared by their letters and digits only, as a reader sees
 * them: a trail holds a heading's rendered text, the content its source line, with its
 * markers (`#`, `==`, backticks, emphasis, a closing sequence, HTML tags, an id or attribute
 * list such as `{#id}` or `{ id="x" .y }`: ../../analysis/markdown.ts headingId) around the
 * same words.
 */
export function headingsAbove(trail: readonly string[], content: string): string {
  const last = trail[trail.length - 1];
  if (last === undefined) return '';
  const first = /^.*[\p{L}\p{N}].*$/mu.exec(content)?.[0] ?? '';
  const line = headingId(first)?.content ?? first;
  // The line as written, and without its HTML tags (`<small>recommended</small>`, `<Badge …/>`),
  // which a heading's rendered text drops: either may be what the trail shows (`Array<T>` in a
  // code span keeps its tag-like text).
  const texts = [wordsOf(line), wordsOf(line.replace(HTML_TAG, ''))];
  const whole = wordsOf(last);
  const cut = last.endsWith('…') ? wordsOf(last.slice(0, -1)) : null;
  const shown = texts.some((text) => (text !== '' && text === whole) || (cut !== null && cut !== '' && text.startsWith(cut)));
  return (shown ? trail.slice(0, -1) : trail).join(' > ');
}

/** An HTML (or JSX) start, end or empty tag in a line of source. */
const HTML_TAG = /<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>/g;

/** A line's letters and digits, case kept: what a heading and its source line share. */
const wordsOf = (line: string): string => line.replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The lean answer's `matched`: the query's own words whose terms the unit holds, each once
 * (compared without case), in the query's order, as typed less the punctuation around them
 * (`upgrades`, `Next.js`), where the explained answer names the analyzer's terms (`upgrad`,
 * `next.js`, `next`, `js`). A word holding text read in pairs of characters (Chinese,
 * Japanese, Korean) gives the stretches of it that matched pairs cover instead
 * (../../analysis/analyzer.ts matchedPieces). '' when no word maps to a matched term (the
 * caller then prints the terms).
 */
export function matchedWords(query: string, terms: ReadonlySet<string>): string {
  const words: string[] = [];
  const seen = new Set<string>();
  for (const raw of query.split(/\s+/u)) {
    if (hasPairedText(raw)) {
      // Written without spaces (Chinese, Japanese): the stretches the matched pairs cover,
      // not the whole question as one word.
      for (const piece of matchedPieces(raw, (t) => terms.has(t))) {
        const key = piece.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        words.push(piece);
      }
      continue;
    }
    const word = raw.replace(/^["'`([{<]+/u, '').replace(/["'`)\]}>?!.,;:]+$/u, '');
    const key = word.toLowerCase();
    if (word === '' || seen.has(key)) continue;
    let hit = false;
    forEachTermAt(raw, (term) => {
      if (terms.has(term)) hit = true;
    });
    if (!hit) continue;
    seen.add(key);
    words.push(word);
  }
  return words.join(' ');
}

/** At most this many units are named in the explained answer's selection.omitted. */
export const OMITTED_MAX = 3;
/**
 * The lean answer names one: the best unit left out, the one `raise_budget_to` includes
 * (docs/engine.md "What the answer leaves out"). Two more ids cost ~2 % of a 1,000-token
 * answer on the dev sets, for no question answered better.
 */
export const OMITTED_MAX_LEAN = 1;
/** An explained entry names at most this many units holding its text (`same_text`); `same_text_count` says how many when more do. */
export const SAME_TEXT_MAX = 3;

/** How many other matching units an explained entry says hold its text. */
function sameTextCount(entry: Json): number {
  const e = entry as { same_text?: Json[]; same_text_count?: number };
  return e.same_text_count ?? e.same_text?.length ?? 0;
}

export function resolveV1(cache: V1Cache, query: string, budget: number, scope: BudgetScope = 'content', options: ResolveOptions = {}): Json {
  try {
    return select(cache, query, budget, scope, options);
  } catch (err) {
    // Each pack's head matched its recorded sha256, yet what is decoded only on use (postings,
    // slugs and trails) can still be malformed if the record was forged with it: a damaged
    // cache is cache_invalid, never an internal error.
    if (err instanceof IndexFormatError) throw new ContextError('cache_invalid', `index: ${err.message}`);
    throw err;
  }
}

/**
 * The selection order with proximity (../../ranking/proximity.ts): the best
 * `candidates` units by BM25 (the queue's first), each read again and given its bonus,
 * then put in order of their new scores, merged with the rest of the queue, which keeps
 * its BM25 order (a bonus is never negative, so no unit left in the queue passes a
 * candidate's BM25 score). The order stays printed score descending, then id.
 */
function nearFirst(
  cache: V1Cache,
  ranked: RankedUnits,
  queue: { next(): number },
  p: ProximityParams,
  compare: (a: number, b: number) => number,
  textOf: (doc: number) => string,
  weightOf: (u: number) => number,
): { next: () => number; scores: Map<number, number>; windows: Map<number, Window> } {
  const { index } = cache;
  const head: number[] = [];
  for (let k = 0; k < p.candidates; k++) {
    const u = queue.next();
    if (u < 0) break;
    head.push(u);
  }
  const termIndex = new Map(ranked.found.map((t, k) => [t.term, k]));
  const idfs = ranked.found.map((t) => t.idf);
  // Code terms are looked for only when the query has one (else raw tokens say it all).
  const code = ranked.found.some((t) => isCodeTerm(t.term));
  // Each raw token's query terms (indexes), worked out once per question, for the tokens
  // that may give one (those whose parts begin as a query term does).
  const queryTermsOf = new Map<string, number[]>();
  const starts = termStarts(ranked.found.map((t) => t.term));
  const scores = new Map<number, number>();
  const windows = new Map<number, Window>();
  for (const u of head) {
    const text = textOf(index.unitDoc(u));
    const end = index.unitEnd(u);
    if (end > text.length) throw new ContextError('cache_invalid', 'index: a unit lies outside its document');
    const at: number[] = [];
    const which: number[] = [];
    // A document's first unit is read from the document's start: its front matter (which no
    // unit prints) still says what the page is about, as its title and description.
    const first = u === 0 || index.unitDoc(u - 1) !== index.unitDoc(u);
    const slice = text.slice(first ? 0 : index.unitStart(u), end);
    if (code) {
      forEachTermAt(slice, (term, position) => {
        const k = termIndex.get(term);
        if (k === undefined) return;
        at.push(position);
        which.push(k);
      });
    } else {
      forEachRawTokenAt(slice, (raw, position) => {
        let ks = queryTermsOf.get(raw);
        if (ks === undefined) {
          ks = [];
          for (const term of rawTokenTerms(raw)) {
            const k = termIndex.get(term);
            if (k !== undefined) ks.push(k);
          }
          queryTermsOf.set(raw, ks);
        }
        for (const k of ks) {
          at.push(position);
          which.push(k);
        }
      }, starts);
    }
    const w = bestWindow(at, which, idfs, p.window);
    if (w.score > 0) {
      // A release-notes unit's score was scaled as it was drawn (ReleaseNotesLast); its
      // proximity is scaled alike, so its whole score is the weight times the usual one.
      scores.set(u, (ranked.scores[u] as number) + weightOf(u) * p.weight * w.score);
      windows.set(u, w);
    }
  }
  const f32 = (u: number): number => Math.fround(scores.get(u) ?? (ranked.scores[u] as number));
  const before = (a: number, b: number): boolean => f32(a) > f32(b) || (f32(a) === f32(b) && compare(a, b) < 0);
  head.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  let h = 0;
  let rest = queue.next();
  const next = (): number => {
    if (h < head.length && (rest < 0 || before(head[h] as number, rest))) return head[h++] as number;
    const u = rest;
    if (u >= 0) rest = queue.next();
    return u;
  };
  return { next, scores, windows };
}

/** Which units a budget takes (in rank order) and which better ones it leaves out. */
interface Choice {
  readonly taken: number[];
  readonly omitted: number[];
}

// Stands for raise_budget_to while units are chosen: no budget prints longer, so the real
// number, printed in its place afterwards, never costs more tokens than were reserved.
const RAISE_PLACEHOLDER = Number.MAX_SAFE_INTEGER;
/** Units skipped on an estimate that get a second, exact try (each costs one count of the answer). */
const REFILL_TRIES = 4;

/** A term that is one letter (`p` of `-p`, `x` of `X-Forwarded-For`). */
const ONE_LETTER = /^\p{L}$/u;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;

/**
 * The query's terms that score: a one-letter term that is a part of another of the query's
 * terms the cache holds (`p` beside `-p`, `x` beside `x-forwarded-for`, `c` beside `c++`)
 * does not, since the whole token already scores where it occurs and the letter alone
 * matches any text with that letter as a word (`-p` of `mkdir -p` scored twice, once as
 * `p`, and a page of other `-p` flags outranked the page on `mkdir`). A letter standing alone
 * in the query, or beside a token the cache lacks (`f` of `F#-specific`), still scores;
 * digits always do (docs/engine.md "Queries as people write them").
 */
export function scoringTerms(index: V1Cache['index'], terms: readonly string[]): string[] {
  if (!terms.some((t) => ONE_LETTER.test(t))) return [...terms];
  const held = terms.filter((w) => !ONE_LETTER.test(w) && index.termPostings(w) !== null);
  return terms.filter((t) => !ONE_LETTER.test(t) || !held.some((w) => w.split(NOT_WORD).includes(t)));
}

/**
 * Draws units from `inner` (score descending, then id) with each release-notes unit's score
 * multiplied by RELEASE_NOTES_WEIGHT (in `scores`, as it is drawn) and the order kept: score as
 * printed (binary32) descending, then id. A unit drawn is scaled at most once; the units drawn
 * ahead of the next other unit wait, in their order, which scaling by one constant keeps.
 */
class ReleaseNotesLast {
  private readonly waiting: number[] = [];
  private w = 0;
  private peeked = -2;
  readonly scaled = new Set<number>();
  constructor(
    private readonly inner: { next(): number },
    private readonly isRelease: (u: number) => boolean,
    private readonly scores: Float64Array,
    private readonly compare: (a: number, b: number) => number,
  ) {}

  next(): number {
    if (this.peeked === -2) {
      for (;;) {
        const u = this.inner.next();
        if (u < 0 || !this.isRelease(u)) {
          this.peeked = u;
          break;
        }
        this.scores[u] = (this.scores[u] as number) * RELEASE_NOTES_WEIGHT;
        this.scaled.add(u);
        this.waiting.push(u);
      }
    }
    const a = this.peeked;
    if (this.w < this.waiting.length) {
      const b = this.waiting[this.w] as number;
      const fb = Math.fround(this.scores[b] as number);
      const fa = a < 0 ? -Infinity : Math.fround(this.scores[a] as number);
      if (a < 0 || fb > fa || (fb === fa && this.compare(b, a) < 0)) {
        this.w++;
        return b;
      }
    }
    if (a >= 0) this.peeked = -2;
    return a;
  }
}

/**
 * Whether unit `u` of `index` is release notes (../../ranking/release-notes.ts): under a
 * release heading, or under a release-notes title (`Changelog`) on a page that has a unit
 * under a release heading (each page looked at once per answer: its units are numbered
 * together).
 */
function releaseNotesOf(index: V1Cache['index']): (u: number) => boolean {
  const pages = new Map<number, boolean>();
  const underRelease = (u: number): boolean => isReleaseNotes(index.unitStrings(u).trail);
  const pageHasRelease = (doc: number, near: number): boolean => {
    let known = pages.get(doc);
    if (known === undefined) {
      let first = near;
      while (first > 0 && index.unitDoc(first - 1) === doc) first--;
      known = false;
      for (let v = first; v < index.unitCount && index.unitDoc(v) === doc && !known; v++) known = underRelease(v);
      pages.set(doc, known);
    }
    return known;
  };
  return (u) => {
    const trail = index.unitStrings(u).trail;
    if (isReleaseNotes(trail)) return true;
    const title = trail[0];
    return title !== undefined && isReleaseTitle(title) && pageHasRelease(index.unitDoc(u), u);
  };
}

/**
 * The units matching `terms` in selection order before any re-ranking: BM25 (release notes
 * scaled down unless `query` asks about releases: ../../ranking/release-notes.ts), then
 * proximity for the best of them; `scoreOf` is a unit's score in that order (the same bits
 * everywhere); `releaseNotes`, the units whose score was scaled.
 */
function baseOrder(cache: V1Cache, query: string, terms: readonly string[], textOf: (doc: number) => string = (doc) => cache.text(doc)): {
  ranked: RankedUnits;
  idOf: (u: number) => string;
  order: { next: () => number; scores: Map<number, number>; windows: Map<number, Window> };
  scoreOf: (u: number) => number;
  releaseNotes: ReadonlySet<number>;
} {
  const { index, manifest } = cache;
  const params = manifest.config.ranking;
  const ranked = rankUnits(index, terms, params);
  const idOf = idsOf(cache);
  const compare = compareUnitIds(cache, idOf);
  const units = new UnitQueue(ranked.units, ranked.scores, compare, () => idRanksOf(cache));
  const sections = manifest.config.options.granularity === 'section';
  const queue = sections && !asksAboutReleases(query) ? new ReleaseNotesLast(units, releaseNotesOf(index), ranked.scores, compare) : null;
  const releaseNotes: ReadonlySet<number> = queue === null ? new Set<number>() : queue.scaled;
  const source = queue ?? units;
  const weightOf = (u: number): number => (releaseNotes.has(u) ? RELEASE_NOTES_WEIGHT : 1);
  const proximity = params.proximity ?? null;
  const order = proximity === null ? { next: () => source.next(), scores: new Map<number, number>(), windows: new Map<number, Window>() } : nearFirst(cache, ranked, source, proximity, compare, textOf, weightOf);
  const scoreOf = (u: number): number => order.scores.get(u) ?? (ranked.scores[u] as number);
  return { ranked, idOf, order, scoreOf, releaseNotes };
}

/**
 * For fitting the re-ranker (bench/ranker): the best `n` units of the order before
 * re-ranking, each with its id, path, score and features (./rerank.ts), and the paths of the
 * `tail` units after them.
 */
export function rerankCandidates(cache: V1Cache, query: string, n: number, tail: number): { candidates: { id: string; path: string; base: number; features: readonly number[] }[]; rest: string[] } {
  const { index, manifest } = cache;
  const { ranked, idOf, order, scoreOf } = baseOrder(cache, query, scoringTerms(cache.index, queryTermsV1(query)));
  const head: number[] = [];
  for (let u = n > 0 ? order.next() : -1; u >= 0; u = head.length < n ? order.next() : -1) head.push(u);
  const pathOf = (u: number): string => manifest.documents.at(index.unitDoc(u)).path;
  const rest: string[] = [];
  for (let k = 0; k < tail; k++) {
    const u = order.next();
    if (u < 0) break;
    rest.push(pathOf(u));
  }
  const candidates = candidateFeatures(cache, ranked, head, scoreOf, explainer(cache, ranked, manifest.config.ranking));
  return { candidates: candidates.map((c) => ({ id: idOf(c.unit), path: pathOf(c.unit), base: c.base, features: c.features })), rest };
}

function select(cache: V1Cache, query: string, budget: number, scope: BudgetScope, options: ResolveOptions): Json {
  const { index, manifest } = cache;
  const params = manifest.config.ranking;
  const terms = scoringTerms(cache.index, queryTermsV1(query));
  // A cache loaded for one query holds that query's postings only: any other would rank on
  // missing postings, silently. Never the case through the engine (openEngine's `query`).
  const loaded = cache.terms;
  if (loaded !== null && terms.some((t) => !loaded.has(t))) throw new ContextError('internal_error', 'the cache was loaded for another query');
  // The documents' texts this answer reads, each read once per answer: a document too large
  // for the cache's own memo (load.ts) is not read again for each of its units.
  const docTexts = new Map<number, string>();
  const textOf = (doc: number): string => {
    let text = docTexts.get(doc);
    if (text === undefined) {
      text = cache.text(doc);
      docTexts.set(doc, text);
    }
    return text;
  };
  const { ranked, idOf, order, scoreOf, releaseNotes } = baseOrder(cache, query, terms, textOf);
  const docs = manifest.documents;
  const matchedCount = ranked.units.length;
  const proximity = params.proximity ?? null;
  // What proximity added to a unit's score and for which terms (none when it added nothing).
  const proximityWhy = (u: number): Record<string, Json> => {
    const w = order.windows.get(u);
    if (w === undefined || proximity === null) return {};
    return { proximity: { terms: w.terms.map((k) => (ranked.found[k] as { term: string }).term), score: new F32(proximity.weight * w.score) } };
  };
  // The units in selection order, taken from the queue as far as some budget reaches.
  const pulled: number[] = [];
  // Every unit drawn from the order, copies included.
  const drawn: number[] = [];
  // Copies of a better unit's text leave the order; explained entries name them (./copies.ts).
  const copies = new Copies(index, docs, textOf, ranked.units, (k) => {
    // Drawing on (the selection reads `pulled` by position only) until k units, or the end.
    while (drawn.length < k) if (unitAt(pulled.length) < 0) break;
    return drawn.slice(0, k);
  }, idOf);
  const unitAt = (i: number): number => {
    while (pulled.length <= i) {
      const u = order.next();
      if (u < 0) return -1;
      drawn.push(u);
      if (!copies.repeatsAbove(u, drawn.length - 1)) pulled.push(u);
    }
    return pulled[i] as number;
  };
  // No unit is smaller than this: once less budget is left, nothing more can be selected.
  let minTokens = Infinity;
  for (const u of ranked.units) minTokens = Math.min(minTokens, index.unitTokens(u));

  const v0Terms = queryTerms(query);
  const sections = manifest.config.options.granularity === 'section';

  // One entry: the units of `group` (one document, adjacent, in reading order), standing at
  // the rank of `best`, whose score and why it carries. Built once per group and form.
  const entries = new Map<string, Json>();
  const entryOf = (group: readonly number[], best: number, explain: boolean): Json => {
    const key = `${explain ? 'x' : 'l'}${group.join(',')}`;
    const known = entries.get(key);
    if (known !== undefined) return known;
    const first = group[0] as number;
    const text = textOf(index.unitDoc(first));
    const start = index.unitStart(first);
    const end = index.unitEnd(group[group.length - 1] as number);
    if (end > text.length) throw new ContextError('cache_invalid', 'index: a unit lies outside its document');
    const entry = entryWith(group, best, start === 0 && end === text.length ? text : text.slice(start, end), explain);
    entries.set(key, entry);
    return entry;
  };
  // Each unit's matches, explained once (its entry and its entry's bound both print them).
  const explained = new Map<number, ReturnType<typeof explainUnit>>();
  const matchesOf = (u: number): ReturnType<typeof explainUnit> => {
    let matches = explained.get(u);
    if (matches === undefined) {
      matches = explainUnit(index, ranked, u, params);
      explained.set(u, matches);
    }
    return matches;
  };
  // Each entry's `matched` (a function of its best unit's matches), made once per answer:
  // pricing renders an entry many times, and each time analyzed the query's words again.
  const matchedOf = new Map<number, string>();
  // What the budget was charged for the units of `group` (each unit's content and trail).
  const tokensOf = (group: readonly number[]): number => group.reduce((n, u) => n + index.unitTokens(u), 0);
  // The entry of `group` holding `content`: lean (id, short version, the headings above,
  // matched words, tokens, content) or explained (every v0 field, then path, trail and merged).
  const entryWith = (group: readonly number[], best: number, content: string, explain: boolean): Json => {
    const first = group[0] as number;
    const doc = index.unitDoc(first);
    const matches = matchesOf(best);
    const d = docs.at(doc);
    if (!explain) {
      const lean: Record<string, Json> = { id: idOf(first), version: d.version.slice(7, 7 + SHORT_VERSION_HEX) };
      if (sections) {
        const under = headingsAbove(index.unitStrings(first).trail, content);
        if (under !== '') lean['under'] = under;
      }
      let matched = matchedOf.get(best);
      if (matched === undefined) {
        matched = matchedWords(query, new Set(matches.map((m) => m.term))) || matches.map((m) => m.term).join(' ');
        matchedOf.set(best, matched);
      }
      lean['matched'] = matched;
      lean['tokens'] = tokensOf(group);
      lean['content'] = content;
      return lean;
    }
    const tokens = tokensOf(group);
    const entry: Record<string, Json> = {
      id: idOf(first),
      version: d.version,
      content,
      score: new F32(scoreOf(best)),
      tokens,
      why: {
        query_terms: v0Terms,
        term_matches: matches.reduce((n, m) => n + (m.tfs[0] as number), 0),
        total_words: index.unitWordCount(best),
        matches: matches.map((m) => ({
          term: m.term,
          ...Object.fromEntries(FIELDS.flatMap((f, i) => ((m.tfs[i] as number) > 0 ? [[f, m.tfs[i] as number]] : []))),
          score: new F32(m.score),
        })),
        ...proximityWhy(best),
        ...(releaseNotes.has(best) ? { release_notes: new F32(RELEASE_NOTES_WEIGHT) } : {}),
      },
      path: d.path,
    };
    if (sections) entry['trail'] = index.unitStrings(first).trail;
    if (group.length > 1) entry['merged'] = group.map((u) => ({ id: idOf(u) }));
    const repeats = copies.repeatsOf(group);
    if (repeats.length > 0) entry['same_text'] = repeats.slice(0, SAME_TEXT_MAX).map((u) => ({ id: idOf(u) }));
    if (repeats.length > SAME_TEXT_MAX) entry['same_text_count'] = repeats.length;
    return entry;
  };

  // The taken units (rank order) as entries: adjacent units of one document (one ends
  // where the next begins) merge, in reading order, at the rank of the best of them.
  const entriesOf = (taken: readonly number[], explain: boolean): Json[] => {
    if (!sections || taken.length < 2) return taken.map((u) => entryOf([u], u, explain));
    const byDoc = new Map<number, number[]>();
    for (const u of taken) {
      const doc = index.unitDoc(u);
      const list = byDoc.get(doc);
      if (list === undefined) byDoc.set(doc, [u]);
      else list.push(u);
    }
    const groupOf = new Map<number, number[]>();
    for (const list of byDoc.values()) {
      const inOrder = [...list].sort((a, b) => index.unitStart(a) - index.unitStart(b));
      let group: number[] = [];
      for (const u of inOrder) {
        const last = group[group.length - 1];
        if (last !== undefined && index.unitEnd(last) !== index.unitStart(u)) group = [];
        group.push(u);
        groupOf.set(u, group);
      }
    }
    const out: Json[] = [];
    const done = new Set<number[]>();
    for (const u of taken) {
      const group = groupOf.get(u) as number[];
      if (done.has(group)) continue;
      done.add(group);
      out.push(entryOf(group, u, explain));
    }
    return out;
  };

  const omittedEntry = (u: number, explain: boolean): Json =>
    explain
      ? { id: idOf(u), path: docs.at(index.unitDoc(u)).path, tokens: index.unitTokens(u), score: new F32(scoreOf(u)) }
      : idOf(u);

  const usedOf = (taken: readonly number[]): number => taken.reduce((n, u) => n + index.unitTokens(u), 0);
  /**
   * The answer of `choice` at budget `b`. `answerTokens`: answer scope's count of the whole
   * printed answer (null in content scope); `over`: even the empty answer exceeds `b`.
   */
  const result = (choice: Choice, b: number, raise: number | null, answerTokens: number | null, over: boolean, explain: boolean): Json => {
    const list = entriesOf(choice.taken, explain);
    const omitted = (): Json[] => choice.omitted.map((u) => omittedEntry(u, explain));
    if (!explain) {
      const selection: Record<string, Json> = { budget: b };
      if (answerTokens === null) {
        selection['budget_scope'] = 'content';
        selection['tokens_used'] = usedOf(choice.taken);
      } else selection['answer_tokens'] = answerTokens;
      if (over) selection['over_budget'] = true;
      selection['matched'] = matchedCount;
      if (choice.omitted.length > 0) {
        selection['omitted'] = omitted();
        if (raise !== null) selection['raise_budget_to'] = raise;
      }
      return { documents: list, selection };
    }
    const selection: Record<string, Json> = {
      query,
      budget: b,
      tokens_used: usedOf(choice.taken),
      documents_considered: index.unitCount,
      documents_selected: list.length,
      documents_excluded_by_budget: matchedCount - choice.taken.length - list.reduce((n: number, e) => n + sameTextCount(e), 0),
      documents_matched: matchedCount,
      engine: 'v1',
      granularity: manifest.config.options.granularity,
      tokenizer: manifest.config.options.tokenizer,
      terms,
    };
    if (choice.omitted.length > 0) {
      selection['omitted'] = omitted();
      if (raise !== null) selection['raise_budget_to'] = raise;
    }
    if (answerTokens !== null) {
      selection['budget_scope'] = 'answer';
      selection['answer_tokens'] = answerTokens;
    }
    if (over) selection['over_budget'] = true;
    return { documents: list, selection };
  };

  // Far weaker than the best unit: after a unit was skipped for the budget, such a unit is
  // not taken in its place (FILLER_FLOOR). Scores compare as printed (binary32).
  const top = unitAt(0);
  const floorScore = top < 0 ? 0 : FILLER_FLOOR * Math.fround(scoreOf(top));
  const weak = (u: number): boolean => Math.fround(scoreOf(u)) < floorScore;

  // The better units the budget left out: those not taken that rank above the last taken
  // one, then those after it that are not far weaker than the best (FILLER_FLOOR): the first
  // OMITTED_MAX of them (the lean answer: OMITTED_MAX_LEAN), in rank order.
  const omittedMax = options.explain !== false ? OMITTED_MAX : OMITTED_MAX_LEAN;
  const omittedOf = (taken: readonly number[]): number[] => {
    const out: number[] = [];
    const last = taken.length === 0 ? -1 : pulled.indexOf(taken[taken.length - 1] as number);
    const isTaken = new Set(taken);
    for (let i = 0; out.length < omittedMax; i++) {
      const u = unitAt(i);
      if (u < 0 || (i > last && weak(u))) break;
      if (!isTaken.has(u)) out.push(u);
    }
    return out;
  };

  if (scope === 'content') {
    const taken: number[] = [];
    let used = 0;
    // The tokens taken when the first unit was skipped: all units above it were taken, and
    // stay taken under any larger budget, so it is included from exactly this plus its own.
    let usedAtFirstSkip = -1;
    for (let i = 0, u = unitAt(0); u >= 0 && budget - used >= minTokens; u = unitAt(++i)) {
      if (usedAtFirstSkip >= 0 && weak(u)) break; // no filler: every later unit is weaker still
      const tokens = index.unitTokens(u);
      if (used + tokens > budget) {
        if (usedAtFirstSkip < 0) usedAtFirstSkip = used;
        continue; // skipped, never truncated
      }
      used += tokens;
      taken.push(u);
    }
    const omitted = omittedOf(taken);
    const first = omitted[0];
    // No skip: the budget ran out before `first` was reached, with every unit above it taken.
    const raise = first === undefined ? null : (usedAtFirstSkip < 0 ? used : usedAtFirstSkip) + index.unitTokens(first);
    return result({ taken, omitted }, budget, raise, null, false, options.explain !== false || options.returnExplained === true);
  }

  // Answer scope: the whole printed answer counts, in the cache's tokenizer.
  // Answers and entries share long stretches: each distinct stretch is counted once (count.ts).
  const count = stretchCounter(manifest.config.options.tokenizer);
  const render = options.render ?? ((answer: Json): string => compact(answer) + '\n');
  const printsContent = options.render === undefined || options.printsContent === true;
  // The form counted (and printed, unless returnExplained asks for the details as well).
  const explain = options.explain !== false;
  /**
   * The answer of `choice` at budget `b` and its exact token count (answer_tokens settled).
   * answer_tokens is part of the answer: it is counted with a guess in its place, then with
   * the count, until the number repeats. A number's digits never share a token with what
   * surrounds them (bytes4 counts bytes; the BPE encodings split digit runs into groups of
   * 1-3 digits, each one token), so a count with as many digits as the guess is already
   * settled: printing it in the guess's place changes nothing that is counted.
   */
  const settle = (choice: Choice, b: number, raise: number | null, guess = b, over = false): { tokens: number; settled: boolean } => {
    let claimed = guess;
    let actual = count(render(result(choice, b, raise, claimed, over, explain)));
    for (let k = 0; k < 8 && actual !== claimed; k++) {
      if (String(actual).length === String(claimed).length) {
        claimed = actual;
        break;
      }
      claimed = actual;
      actual = count(render(result(choice, b, raise, claimed, over, explain)));
    }
    return { tokens: claimed, settled: actual === claimed || String(actual).length === String(claimed).length };
  };
  // What an entry adds to the printed answer (its own text), and what a list of omitted units
  // adds (the answer with it, less the answer without it): estimates that guide the choice;
  // the final count is exact.
  // Everything below is a function of the budget `b` it is asked about, never of the budget
  // of this call: a probe at b decides exactly as a call with budget b would.
  const empty: Choice = { taken: [], omitted: [] };
  const bases = new Map<number, number>();
  const baseAt = (b: number): number => {
    let c = bases.get(b);
    if (c === undefined) {
      c = count(render(result(empty, b, null, b, false, explain)));
      bases.set(b, c);
    }
    return c;
  };
  const entryText = options.entryText ?? ((entry: Json): string => compact(entry) + ',');
  const costs = new Map<number, number>();
  const costOf = (u: number): number => {
    let c = costs.get(u);
    if (c === undefined) {
      c = Math.max(1, count(entryText(entryOf([u], u, explain))));
      costs.set(u, c);
    }
    return c;
  };
  // What a unit's entry costs at least, without reading its text: its entry printed with
  // empty content, counted around where the content stands (count.ts `outside`: the
  // stretches that do not touch it). The first '"content":' is the entry's own key (inside
  // a JSON string every '"' is escaped); an entry text without it (text format) bounds at 0.
  const bounds = new Map<number, number>();
  const boundOf = (u: number): number => {
    let c = bounds.get(u);
    if (c === undefined) {
      const text = entryText(entryWith([u], u, '', explain));
      const key = /"content": ?""/.exec(text);
      const at = key === null ? -1 : key.index + key[0].length - 1;
      c = at < 0 ? 0 : count.outside(text, at, at);
      bounds.set(u, c);
    }
    return c;
  };
  const omitCosts = new Map<string, number>();
  const omitCostOf = (list: readonly number[], b: number): number => {
    if (list.length === 0) return 0;
    const key = `${b}:${list.join(',')}`;
    let c = omitCosts.get(key);
    if (c === undefined) {
      c = Math.max(0, count(render(result({ taken: [], omitted: [...list] }, b, RAISE_PLACEHOLDER, b, false, explain))) - baseAt(b));
      omitCosts.set(key, c);
    }
    return c;
  };

  /**
   * The units budget `b` takes: in rank order while each one's estimated cost fits, then
   * the exact count of the answer (raise_budget_to reserved at its longest), dropping the
   * last unit while it exceeds `b`. With `probe`, also what a budget would need to take it.
   */
  const choose = (b: number, probe = -1): { choice: Choice; need: number; tokens: number; spentAtFirstSkip: number } => {
    let taken: number[] = [];
    const skipped: number[] = [];
    const rankOf = new Map<number, number>();
    let omitted: number[] = [];
    let spent = baseAt(b);
    let need = 0;
    let spentAtFirstSkip = -1;
    const spentBefore = new Map<number, number>();
    // Below this much left, no entry can fit: its content (when printed) or the smallest entry seen.
    let floor = printsContent ? minTokens : 1;
    let stoppedAt = 0;
    for (let i = 0, u = unitAt(0); u >= 0 && b - spent >= floor; u = unitAt(++i)) {
      // No filler: after a skip, the first unit far weaker than the best ends the choice.
      if (skipped.length > 0 && weak(u)) break;
      stoppedAt = i + 1;
      rankOf.set(u, i);
      const tokens = index.unitTokens(u);
      // Its content alone does not fit: its entry, which holds it, cannot either.
      if (printsContent && spent + tokens > b) {
        if (u === probe) need = spent + costOf(u);
        if (skipped.length === 0) spentAtFirstSkip = spent;
        skipped.push(u);
        continue;
      }
      const next = skipped.slice(0, omittedMax);
      const extra = next.length === omitted.length ? 0 : omitCostOf(next, b) - omitCostOf(omitted, b);
      // An entry costs at least 1, and at least its bound: when that cannot fit, neither can
      // the entry (the same choice, without reading and counting the unit's text).
      if (printsContent && u !== probe && options.exactPricing !== true && (spent + 1 + extra > b || spent + boundOf(u) + extra > b)) {
        if (skipped.length === 0) spentAtFirstSkip = spent;
        skipped.push(u);
        continue;
      }
      const cost = costOf(u);
      if (!printsContent) floor = floor === 1 ? cost : Math.min(floor, cost);
      if (spent + cost + extra > b) {
        if (u === probe) need = spent + cost + extra;
        if (skipped.length === 0) spentAtFirstSkip = spent;
        skipped.push(u);
        continue;
      }
      taken.push(u);
      spentBefore.set(u, spent);
      omitted = next;
      spent += cost + extra;
    }
    let fitted: { choice: Choice; tokens: number };
    for (;;) {
      const choice = { taken, omitted: omittedOf(taken) };
      const { tokens, settled } = settle(choice, b, choice.omitted.length > 0 ? RAISE_PLACEHOLDER : null, Math.min(spent, b));
      if ((settled && tokens <= b) || taken.length === 0) {
        fitted = { choice, tokens };
        break;
      }
      const dropped = taken.pop() as number;
      if (dropped === probe) need = Math.max(need, tokens);
      // Left out for the budget by the exact count: a skip like any other, so no filler
      // takes its place below (the rule holds however the unit was found not to fit).
      const before = spentBefore.get(dropped) as number;
      if (spentAtFirstSkip < 0 || before < spentAtFirstSkip) spentAtFirstSkip = before;
      skipped.push(dropped);
      skipped.sort((x, y) => (rankOf.get(x) as number) - (rankOf.get(y) as number));
    }
    // The estimates count each unit as an entry of its own; adjacent units of one document
    // print as one entry, for less. So the units skipped on an estimate, then those the
    // estimate never reached, get a second try, best first, each kept only when the exact
    // count of the answer with it fits.
    // A unit the second try leaves out is a skip as well: after one, no filler (the first
    // loop may have ended with the budget spent, before any skip).
    let refillSkipped = false;
    const more = function* (): Generator<number> {
      yield* skipped;
      for (let i = stoppedAt, u = unitAt(i); u >= 0; u = unitAt(++i)) {
        if ((skipped.length > 0 || refillSkipped) && weak(u)) return;
        rankOf.set(u, i);
        yield u;
      }
    };
    let tries = 0;
    for (const u of more()) {
      if (tries >= REFILL_TRIES || b - fitted.tokens < floor) break;
      if (printsContent && fitted.tokens + index.unitTokens(u) > b) {
        refillSkipped = true;
        continue;
      }
      tries++;
      const next = [...taken, u].sort((x, y) => (rankOf.get(x) as number) - (rankOf.get(y) as number));
      const choice = { taken: next, omitted: omittedOf(next) };
      const { tokens, settled } = settle(choice, b, choice.omitted.length > 0 ? RAISE_PLACEHOLDER : null, fitted.tokens);
      if (settled && tokens <= b) {
        taken = next;
        fitted = { choice, tokens };
      } else {
        refillSkipped = true;
        if (u === probe) need = Math.max(need, tokens);
      }
    }
    return { choice: fitted.choice, need, tokens: fitted.tokens, spentAtFirstSkip };
  };

  const chosen = choose(budget);
  const { choice } = chosen;
  let raise: number | null = null;
  const best = choice.omitted[0];
  if (best !== undefined) {
    // The least budget found to take the best omitted unit, the first one skipped: from
    // what was spent before it plus its own cost, each try's shortfall raises the next
    // one, and a budget counts only once it really takes the unit. Should that search not
    // settle, budgets double until one takes it (one always does: with room for every unit
    // ranked above it, none is skipped before it), so an omitted unit always has a number.
    let b = Math.max(budget + 1, chosen.spentAtFirstSkip + costOf(best));
    for (let k = 0; k < 24 && raise === null; k++) {
      const tried = choose(b, best);
      if (tried.choice.taken.includes(best)) raise = b;
      else b = Math.max(b + 1, tried.need);
    }
    for (let k = 0; raise === null && b <= Number.MAX_SAFE_INTEGER / 2 && k < 64; k++) {
      b *= 2;
      if (choose(b, best).choice.taken.includes(best)) raise = b;
    }
  }
  // An answer whose empty envelope alone exceeds the budget says so (over_budget).
  let final = settle(choice, budget, raise, chosen.tokens);
  const over = final.tokens > budget;
  if (over) final = settle(choice, budget, raise, final.tokens, true);
  return result(choice, budget, raise, final.tokens, over, explain || options.returnExplained === true);
}
