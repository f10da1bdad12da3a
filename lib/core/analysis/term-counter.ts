// Counts a build's terms per unit and field, fast: raw tokens are interned by their
// characters (no string per occurrence), and each distinct raw token is analyzed once
// (`termsOfToken`). Text is scanned by a char-code loop that finds exactly the raw tokens
// the analyzer's Unicode regex finds: ASCII characters by table, a non-ASCII one by asking
// Unicode's classes once per distinct character (so a page with a few accents or an emoji
// keeps the speed of ASCII; the regex path of analyzer.ts stays the definition, and the
// tests hold the two equal). Code chunks (analyzer.ts: runs of letters, marks, digits and
// code characters) are found by the same loop, every raw token lying inside one (one scan of
// the text for both: `countText`); a plain chunk — one raw token, with at most a leading `(`
// and trailing `)` . : ? - (most prose words) — is known to give no code term without
// building its string; any other is analyzed once (`codeTermsOf`, memoized by its
// characters). Term ids are local to one counter (one chunk of a build's documents); the
// index builder maps them to the cache's. A thread counts
// many chunks, one counter each, and real text repeats its words from chunk to chunk, so the
// raw-token interner and each raw token's analysis are the thread's (`Vocabulary`: analysed
// once per thread, its terms numbered thread-wide), and a counter maps the thread's term
// numbers to its own ids with an array; code chunks' analyses are kept per thread too, found
// again by their characters in the same way (`Vocabulary.chunkTerms`). All of them are pure
// functions of the text, so sharing them changes no term; the vocabulary starts over, between
// counters, when it grows past its limit.

import { compareBytes, SURROGATE } from '../../json.js';
import { codeTermsOf, forEachCodeChunk, forEachRawToken, MAX_TOKEN_LENGTH, termsOfToken } from './analyzer.js';

/** Index fields, in the fixed order scores are summed in and the index stores them. */
export const FIELDS = ['body', 'headings', 'title', 'path'] as const;
export type FieldName = (typeof FIELDS)[number];
export const FIELD_COUNT = FIELDS.length;

/** The terms of one unit: local term ids, and per term its frequency in each field. */
export interface UnitTerms {
  readonly termIds: Uint32Array;
  /** FIELD_COUNT frequencies per term, in `termIds` order. */
  readonly tfs: Uint32Array;
  /** Term occurrences per field (the unit's field lengths). */
  readonly lengths: readonly number[];
}

// ASCII classes: letters and digits make runs; . _ - join two runs.
const ALNUM = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) ALNUM[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) ALNUM[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) ALNUM[c] = 1;
const JOIN = new Uint8Array(128);
JOIN[0x2e] = 1; // .
JOIN[0x5f] = 1; // _
JOIN[0x2d] = 1; // -
// Code chunk characters by kind (analyzer.ts CODE_CHUNK): NONE ends a chunk; a letter, mark
// or digit (WORD), a joiner (. _ -) and the other code characters : < > ( ) ? ! & # @ $ +.
const NONE = 0;
const WORD = 1;
const JOINER = 2;
const CODE_OTHER = 3;
const KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) KIND[c] = ALNUM[c] === 1 ? WORD : JOIN[c] === 1 ? JOINER : NONE;
for (const ch of ':<>()?!&#@$+') KIND[ch.charCodeAt(0)] = CODE_OTHER;

// Non-ASCII characters are WORD (a letter, mark or digit) or NONE, as the regex classes say:
// asked once per BMP code unit (stored as WORD, or NONE + 4; 0 = not asked yet) and once per
// astral code point.
const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;
const bmpKind = new Uint8Array(65536);
const astralKind = new Map<number, number>();
/** The width (1 or 2 code units) of the character wideKind last classified. */
let wideWidth = 1;

/** The kind of the non-ASCII character at text[i] (text[i, end) is what is scanned). */
function wideKind(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      wideWidth = 2;
      const cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
      let k = astralKind.get(cp);
      if (k === undefined) {
        k = WORD_CHAR.test(text.slice(i, i + 2)) ? WORD : NONE;
        astralKind.set(cp, k);
      }
      return k;
    }
  }
  wideWidth = 1;
  let k = bmpKind[c] as number;
  if (k === 0) {
    // (a lone surrogate is no letter: NONE, as in the regex)
    k = WORD_CHAR.test(String.fromCharCode(c)) ? WORD : NONE + 4;
    bmpKind[c] = k;
  }
  return k & 3;
}

// The states of the plain-chunk check in countText.
const P_BEGIN = 7; // before the chunk's first character
const P_FAIL = 0;
const P_OPEN = 1; // after a leading (
const P_WORD = 2; // in a run of word characters
const P_JOIN = 3; // after a . or - following a word character
const P_UNDERSCORE = 4; // after a _ following a word character
const P_CLOSE = 5; // after a ) following the raw token
const P_TAIL = 6; // in the trailing . : ? -

function nextPlain(state: number, kind: number, c: number): number {
  switch (state) {
    case P_OPEN:
      return kind === WORD ? P_WORD : P_FAIL;
    case P_WORD:
      if (kind === WORD) return P_WORD;
      if (c === 0x5f) return P_UNDERSCORE;
      if (c === 0x2e || c === 0x2d) return P_JOIN;
      if (c === 0x29) return P_CLOSE;
      return c === 0x3a || c === 0x3f ? P_TAIL : P_FAIL;
    case P_JOIN:
      if (kind === WORD) return P_WORD;
      if (c === 0x29) return P_CLOSE;
      return c === 0x2e || c === 0x2d || c === 0x3a || c === 0x3f ? P_TAIL : P_FAIL;
    case P_UNDERSCORE:
      return kind === WORD ? P_WORD : P_FAIL;
    case P_CLOSE:
    case P_TAIL:
      return c === 0x2e || c === 0x2d || c === 0x3a || c === 0x3f ? P_TAIL : P_FAIL;
    default:
      return P_FAIL;
  }
}

/** Distinct code chunks a thread's vocabulary remembers before it forgets them all (forgetting changes no term). */
const CHUNK_LIMIT = 1 << 18;
/** Characters of the chunks it remembers, at most; a longer chunk is analysed each time it is met. */
const CHUNK_POOL_LIMIT = 1 << 23;
const CHUNK_MAX_CHARS = 4096;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** Distinct raw tokens a thread's vocabulary holds before the next counter starts a new one. */
export const VOCABULARY_LIMIT = 1 << 20;

/** The largest raw number a vocabulary's slot holds (24 bits); a token numbered past it is not listed in WordSpans. */
const RAW_NUMBER_MAX = 0xffffff;

/**
 * The raw tokens one `TermCounter.count` met, in text order: where each starts and ends in
 * the text, and its raw number in `source` (the thread's vocabulary): one number, one
 * string of characters. Each is a whole raw token of the text counted (analyzer.ts
 * RAW_TOKEN's match), so what follows it is no letter, mark or digit. The exact token
 * counter steps over a word it has met before in one step (count.ts, `words`).
 */
export class WordSpans {
  count = 0;
  starts: Int32Array = new Int32Array(1024);
  ends: Int32Array = new Int32Array(1024);
  raws: Int32Array = new Int32Array(1024);
  /** The largest raw number listed. */
  maxRaw = -1;
  /** What the raw numbers are numbers in (compared by identity). */
  source: object = this;

  /** Empties the list, for the raw numbers of `source`. */
  reset(source: object): void {
    this.count = 0;
    this.maxRaw = -1;
    this.source = source;
  }

  push(start: number, end: number, raw: number): void {
    const k = this.count;
    if (k === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
      this.raws = grown(this.raws);
    }
    this.starts[k] = start;
    this.ends[k] = end;
    this.raws[k] = raw;
    if (raw > this.maxRaw) this.maxRaw = raw;
    this.count = k + 1;
  }
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * A thread's raw tokens and terms: open addressing over (hash, chars) gives each distinct raw
 * token a number, analysed once (analyzer.ts termsOfToken) into term numbers of the thread.
 */
export class Vocabulary {
  /** Term number -> term. */
  readonly terms: string[] = [];
  private readonly numbers = new Map<string, number>();
  /**
   * Per slot, four numbers side by side (one probe reads one cache line): the raw token's
   * hash, where its characters start in the pool, its length (low 8 bits; 0: an empty slot)
   * with its raw number above them (at most RAW_NUMBER_MAX), and what `lookup` answers: its
   * one term number, or ~its raw number when it has none or several.
   */
  private slots: Int32Array = new Int32Array((1 << 12) * 4);
  /** Each raw token's term numbers (termsOfToken's order). */
  readonly rawTerms: (readonly number[])[] = [];
  private pool: Uint16Array = new Uint16Array(1 << 16);
  private poolUsed = 0;
  // The code chunks analysed (those not plain: TermCounter.countText), found again the same
  // way: per slot its hash, where its characters start in their pool, its length (0: an
  // empty slot), its number; compared with the text itself (no string per occurrence).
  private chunkSlots: Int32Array = new Int32Array((1 << 10) * 4);
  private chunkPool = new Uint16Array(1 << 14);
  private chunkPoolUsed = 0;
  /** Per chunk number, the term numbers of its code terms (analyzer.ts codeTermsOf's order). */
  private chunkNumbers: (readonly number[])[] = [];

  /** `chunkLimit`: distinct chunks remembered before all are forgotten (tests make it small). */
  constructor(private readonly chunkLimit = CHUNK_LIMIT) {}

  get size(): number {
    return this.rawTerms.length;
  }

  /** Term numbers in UTF-8 byte order of their terms, as far as byteOrder last sorted them. */
  private sortedNumbers = new Int32Array(0);
  /** Whether a term sorted so far holds a surrogate (then compareBytes orders them all). */
  private surrogates = false;
  private sortedTerms: readonly string[] = [];
  private rankOf = new Int32Array(0);

  /**
   * Every term of the thread so far in UTF-8 byte order, and each term number's rank in it.
   * Kept from call to call: only the terms numbered since the last call are sorted, then
   * merged in (a build asks once per chunk, for the packs it encodes there).
   */
  byteOrder(): { readonly terms: readonly string[]; readonly rank: Int32Array } {
    const n = this.terms.length;
    const had = this.sortedTerms.length;
    if (had === n) return { terms: this.sortedTerms, rank: this.rankOf };
    const fresh = this.terms.slice(had);
    // Without surrogates (characters above U+FFFF) among the terms, UTF-16 code unit order is
    // UTF-8 byte order, and the engine's own string comparison, native code, gives it; from
    // the first surrogate on, compareBytes (a JavaScript loop) does.
    if (!this.surrogates) this.surrogates = fresh.some((term) => SURROGATE.test(term));
    const native = !this.surrogates;
    if (native) fresh.sort();
    else fresh.sort(compareBytes);
    const oldTerms = this.sortedTerms;
    const oldNumbers = this.sortedNumbers;
    const terms: string[] = new Array<string>(n);
    const numbers = new Int32Array(n);
    const rank = new Int32Array(n);
    // Each fresh term (none is an old one) goes before the first old term that sorts after
    // it, searched for from where the last one went: a few string comparisons per fresh term,
    // not one per term of the thread; the old terms between are moved as they are. Each
    // comparison reads two strings that lie scattered in memory, a cache miss or two: in one
    // thread's share of the 10,000-file bytes4 build (~4,400 ms), this took ~300 ms with
    // compareBytes and a binary search over all the old terms left, ~245 ms with the native
    // comparison, ~190 ms galloping first.
    let i = 0;
    let k = 0;
    for (const term of fresh) {
      // The first old term at or after `i` that sorts after `term`: galloping from `i` (the
      // next fresh term lies a few old terms on, as a rule), then binary search.
      let lo = i;
      let hi = i;
      let step = 1;
      while (hi < had && (native ? (oldTerms[hi] as string) < term : compareBytes(oldTerms[hi] as string, term) < 0)) {
        lo = hi + 1;
        hi += step;
        step *= 2;
      }
      if (hi > had) hi = had;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (native ? (oldTerms[mid] as string) < term : compareBytes(oldTerms[mid] as string, term) < 0) lo = mid + 1;
        else hi = mid;
      }
      for (; i < lo; i++, k++) {
        const number = oldNumbers[i] as number;
        terms[k] = oldTerms[i] as string;
        numbers[k] = number;
        rank[number] = k;
      }
      const number = this.numbers.get(term) as number;
      terms[k] = term;
      numbers[k] = number;
      rank[number] = k;
      k++;
    }
    for (; i < had; i++, k++) {
      const number = oldNumbers[i] as number;
      terms[k] = oldTerms[i] as string;
      numbers[k] = number;
      rank[number] = k;
    }
    this.sortedTerms = terms;
    this.sortedNumbers = numbers;
    this.rankOf = rank;
    return { terms, rank };
  }

  /** The number of `term`, given one when new. */
  termNumber(term: string): number {
    let n = this.numbers.get(term);
    if (n === undefined) {
      n = this.terms.length;
      this.terms.push(term);
      this.numbers.set(term, n);
    }
    return n;
  }

  /** The raw number of the token `lookup` last answered for (-1: past RAW_NUMBER_MAX). */
  lastRaw = -1;

  /**
   * The token in scratch[0, len) (len <= 255; whose FNV-1a hash is h, and which is
   * text[s, s + len)), added and analyzed once when new: its one term number when it has
   * exactly one (most words), else ~its raw number (negative; its terms are rawTerms[raw]).
   * The answer is held in the token's slot, so counting a word reads no other table.
   */
  lookup(scratch: Uint16Array, len: number, h: number, text: string, s: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 2) - 1;
    const pool = this.pool;
    let slot = h & mask;
    for (let n = slots[slot * 4 + 2] as number; n !== 0; n = slots[slot * 4 + 2] as number) {
      if ((n & 0xff) === len && slots[slot * 4] === h) {
        let at = slots[slot * 4 + 1] as number;
        let k = 0;
        while (k < len && pool[at] === scratch[k]) {
          at++;
          k++;
        }
        if (k === len) {
          const raw = n >>> 8;
          this.lastRaw = raw === RAW_NUMBER_MAX ? -1 : raw;
          return slots[slot * 4 + 3] as number;
        }
      }
      slot = (slot + 1) & mask;
    }
    const id = this.rawTerms.length;
    if (this.poolUsed + len > this.pool.length) {
      const bigger = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + len));
      bigger.set(this.pool.subarray(0, this.poolUsed));
      this.pool = bigger;
    }
    for (let k = 0; k < len; k++) this.pool[this.poolUsed + k] = text.charCodeAt(s + k);
    const raw = Math.min(id, RAW_NUMBER_MAX);
    this.lastRaw = raw === RAW_NUMBER_MAX ? -1 : raw;
    slots[slot * 4] = h;
    slots[slot * 4 + 1] = this.poolUsed;
    slots[slot * 4 + 2] = len | (raw << 8);
    this.poolUsed += len;
    const token = len === text.length ? text : text.slice(s, s + len);
    const numbers = termsOfToken(token).map((t) => this.termNumber(t));
    this.rawTerms.push(numbers);
    const what = numbers.length === 1 ? (numbers[0] as number) : ~id;
    slots[slot * 4 + 3] = what;
    if (this.rawTerms.length * 2 > slots.length >> 2) this.slots = rehashed(slots);
    return what;
  }

  /** The term numbers of the code terms of the chunk text[s, e) (analyzer.ts codeTermsOf), analysed once. */
  chunkTerms(text: string, s: number, e: number): readonly number[] {
    const len = e - s;
    if (len > CHUNK_MAX_CHARS) return codeTermsOf(text.slice(s, e)).map((t) => this.termNumber(t));
    let h = FNV_OFFSET;
    for (let i = s; i < e; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    const slots = this.chunkSlots;
    const mask = slots.length / 4 - 1;
    let slot = h & mask;
    for (let n = slots[slot * 4 + 2]!; n !== 0; n = slots[slot * 4 + 2]!) {
      if (n === len && slots[slot * 4] === h) {
        const pool = this.chunkPool;
        let p = slots[slot * 4 + 1]!;
        let i = s;
        while (i < e && pool[p] === text.charCodeAt(i)) {
          p++;
          i++;
        }
        if (i === e) return this.chunkNumbers[slots[slot * 4 + 3]!]!;
      }
      slot = (slot + 1) & mask;
    }
    const numbers = codeTermsOf(len === text.length ? text : text.slice(s, e)).map((t) => this.termNumber(t));
    if (this.chunkNumbers.length >= this.chunkLimit || this.chunkPoolUsed + len > CHUNK_POOL_LIMIT) {
      slots.fill(0);
      this.chunkNumbers = [];
      this.chunkPoolUsed = 0;
      slot = h & mask;
    }
    if (this.chunkPoolUsed + len > this.chunkPool.length) {
      const bigger = new Uint16Array(Math.max(this.chunkPool.length * 2, this.chunkPoolUsed + len));
      bigger.set(this.chunkPool.subarray(0, this.chunkPoolUsed));
      this.chunkPool = bigger;
    }
    const at = this.chunkPoolUsed;
    for (let i = s; i < e; i++) this.chunkPool[at + i - s] = text.charCodeAt(i);
    this.chunkPoolUsed += len;
    slots[slot * 4] = h;
    slots[slot * 4 + 1] = at;
    slots[slot * 4 + 2] = len;
    slots[slot * 4 + 3] = this.chunkNumbers.length;
    this.chunkNumbers.push(numbers);
    if (this.chunkNumbers.length * 2 > slots.length / 4) this.chunkSlots = rehashed(slots);
    return numbers;
  }
}

/** This thread's vocabulary: the one new counters use. */
let threadVocabulary = new Vocabulary();

export class TermCounter {
  /** Local term id -> term. */
  readonly terms: string[] = [];
  /** Local term id -> its number in the vocabulary. */
  private readonly numbers: number[] = [];
  /** The thread's raw tokens and terms (see Vocabulary). */
  private readonly vocabulary: Vocabulary;
  /** Per term number of the vocabulary: 1 + its local id here (0: none yet). */
  private localOf: Int32Array;
  /** Where count() lists the raw tokens it meets (null: nowhere). */
  private words: WordSpans | null = null;
  /** The token being looked up (ASCII path: up to MAX_TOKEN_LENGTH + 1 chars are kept). */
  private scratch = new Uint16Array(MAX_TOKEN_LENGTH + 1);

  // The unit being counted: FIELD_COUNT frequencies per local term id, and which ids.
  private tf: Uint32Array = new Uint32Array(1 << 12);
  /** Per term id: 1 + the number of the unit that last counted it (0 = never). */
  private seen: Uint32Array = new Uint32Array(1 << 10);
  private unit = 1;
  private touched: number[] = [];
  private lengths = new Uint32Array(FIELD_COUNT);

  constructor() {
    if (threadVocabulary.size >= VOCABULARY_LIMIT) threadVocabulary = new Vocabulary();
    this.vocabulary = threadVocabulary;
    this.localOf = new Int32Array(Math.max(1 << 10, this.vocabulary.terms.length));
  }

  /** Counts the terms of text[start, end) into `field` of the current unit. */
  /**
   * Counts the terms of text[start, end) into `field` of the current unit; `words`, when
   * given, is emptied and then lists the raw tokens met there (WordSpans).
   */
  count(text: string, field: number, start = 0, end = text.length, words: WordSpans | null = null): void {
    if (words !== null) words.reset(this.vocabulary);
    this.words = words;
    this.countText(text, field, start, end);
    this.words = null;
  }

  /** Counts already-analyzed terms (a path's or title's, reused for every unit of a file). */
  countTerms(termIds: readonly number[], field: number): void {
    for (const id of termIds) this.bump(id, field);
  }

  /** The local ids of the terms of `text`, in analyzeText's order, with repeats. */
  termIdsOf(text: string): number[] {
    const ids: number[] = [];
    forEachCodeChunk(text, (chunk) => {
      for (const n of this.vocabulary.chunkTerms(chunk, 0, chunk.length)) ids.push(this.local(n));
      forEachRawToken(chunk, (raw) => {
        if (raw.length > MAX_TOKEN_LENGTH) return;
        const what = this.intern(raw, 0, raw.length);
        if (what >= 0) ids.push(this.local(what));
        else for (const n of this.vocabulary.rawTerms[~what] as readonly number[]) ids.push(this.local(n));
      });
    });
    return ids;
  }

  /** Ends the current unit: its terms, and a clean slate for the next. */
  finishUnit(): UnitTerms {
    const n = this.touched.length;
    const termIds = new Uint32Array(n);
    const tfs = new Uint32Array(n * FIELD_COUNT);
    for (let k = 0; k < n; k++) {
      const id = this.touched[k] as number;
      termIds[k] = id;
      for (let f = 0; f < FIELD_COUNT; f++) {
        tfs[k * FIELD_COUNT + f] = this.tf[id * FIELD_COUNT + f] as number;
        this.tf[id * FIELD_COUNT + f] = 0;
      }
    }
    const lengths = Array.from(this.lengths);
    this.touched = [];
    this.lengths.fill(0);
    this.unit++;
    return { termIds, tfs, lengths };
  }

  /**
   * Counts the raw tokens and the code terms of text[start, end) in one scan. Code chunks
   * are runs of code-chunk characters (letters, marks and digits: ASCII by table, others by
   * wideKind; the joiners . _ -; and : < > ( ) ? ! & # @ $ +), exactly CODE_CHUNK's matches
   * in that slice; the raw tokens, RAW_TOKEN's matches (runs of word characters joined by
   * single `.`, `_` or `-`; a surrogate pair cut by `end` is two lone surrogates, no
   * letter, as in the regexes over the slice), all lie inside chunks, so each is found and
   * counted where its chunk's scan meets its first character. A chunk is then analyzed for
   * code terms unless it is plain (below), which most prose words are.
   */
  private countText(text: string, field: number, start: number, end: number): void {
    const scratch = this.scratch;
    let i = start;
    while (i < end) {
      let c = text.charCodeAt(i);
      let kind: number;
      let w = 1;
      if (c < 128) kind = KIND[c] as number;
      else {
        kind = wideKind(text, i, end);
        w = wideWidth;
      }
      if (kind === NONE) {
        i += w;
        continue;
      }
      // A chunk from s. Plain (analyzer.ts codeTermsOf trims it to one raw token, which gives
      // no code term): an optional `(`, a raw token, an optional `)`, then any of . : ? -
      // (`word.`, `(see`, `this)`, `key:`, `works?`). A chunk without a letter or digit
      // gives a term only when it is at most 3 units and holds a `?`. Anything else is
      // analyzed. The check's state steps over a whole raw token at once: a token is a word
      // character, then word characters or a joiner and a word character, which leave the
      // check where its first character left it (P_WORD, or P_FAIL).
      const s = i;
      let state = P_BEGIN;
      let hasWord = false;
      let hasQuestion = false;
      for (;;) {
        // Invariant: text[i, i + w) is a character of the chunk, of kind `kind`, c its first code unit.
        if (kind === WORD) {
          state = state === P_FAIL || state === P_CLOSE || state === P_TAIL ? P_FAIL : P_WORD;
          hasWord = true;
          // The raw token from here: hash it while copying it into the scratch buffer, so the
          // table lookup compares typed arrays only, whatever the string's representation.
          const from = i;
          let h = FNV_OFFSET;
          let n = 0;
          for (;;) {
            h = Math.imul(h ^ c, FNV_PRIME);
            if (n < scratch.length) scratch[n] = c;
            n++;
            if (w === 2) {
              const d = text.charCodeAt(i + 1);
              h = Math.imul(h ^ d, FNV_PRIME);
              if (n < scratch.length) scratch[n] = d;
              n++;
            }
            i += w;
            if (i >= end) break;
            c = text.charCodeAt(i);
            if (c < 128) {
              if (ALNUM[c] === 1) {
                w = 1;
                continue;
              }
              if (JOIN[c] !== 1 || i + 1 >= end) break;
              // A joiner continues the token only before a word character.
              const d = text.charCodeAt(i + 1);
              let next: number;
              if (d < 128) {
                if (ALNUM[d] !== 1) break;
                next = 1;
              } else {
                if (wideKind(text, i + 1, end) !== WORD) break;
                next = wideWidth;
              }
              h = Math.imul(h ^ c, FNV_PRIME);
              if (n < scratch.length) scratch[n] = c;
              n++;
              i++;
              c = d;
              w = next;
              continue;
            }
            if (wideKind(text, i, end) !== WORD) break;
            w = wideWidth;
          }
          if (n <= MAX_TOKEN_LENGTH) {
            // (a longer one gives no term: analyzer.ts)
            const what = this.vocabulary.lookup(scratch, n, h, text, from);
            if (what >= 0) this.bump(this.local(what), field);
            else this.add(~what, field);
            const words = this.words;
            if (words !== null && this.vocabulary.lastRaw >= 0) words.push(from, i, this.vocabulary.lastRaw);
          }
        } else {
          // A joiner or another code character (all ASCII).
          if (c === 0x3f) hasQuestion = true;
          state = state === P_BEGIN ? (c === 0x28 ? P_OPEN : P_FAIL) : state === P_FAIL ? P_FAIL : nextPlain(state, kind, c);
          i++;
        }
        if (i >= end) break;
        c = text.charCodeAt(i);
        w = 1;
        if (c < 128) kind = KIND[c] as number;
        else {
          kind = wideKind(text, i, end);
          w = wideWidth;
        }
        if (kind === NONE) break;
      }
      if (!hasWord ? i - s > 3 || !hasQuestion : state !== P_FAIL && state !== P_OPEN && state !== P_UNDERSCORE) continue;
      const numbers = this.vocabulary.chunkTerms(text, s, i);
      for (let k = 0; k < numbers.length; k++) this.bump(this.local(numbers[k] as number), field);
    }
  }

  private add(rawId: number, field: number): void {
    const numbers = this.vocabulary.rawTerms[rawId] as readonly number[];
    for (let k = 0; k < numbers.length; k++) this.bump(this.local(numbers[k] as number), field);
  }

  /**
   * The UTF-8 byte order of this counter's terms, as ranks among every term of the thread
   * (`terms`, sorted): `ranks[id]` for local id `id`. What a build's TermOrder for this
   * counter's units is made of, without sorting its terms again (../index/build-index.ts).
   */
  byteRanks(): { readonly terms: readonly string[]; readonly ranks: Int32Array } {
    const { terms, rank } = this.vocabulary.byteOrder();
    const ranks = new Int32Array(this.numbers.length);
    for (let k = 0; k < ranks.length; k++) ranks[k] = rank[this.numbers[k] as number] as number;
    return { terms, ranks };
  }

  /** The local id of the vocabulary's term number `n`, given one when new here. */
  private local(n: number): number {
    if (n >= this.localOf.length) {
      const bigger = new Int32Array(Math.max(this.localOf.length * 2, n + 1));
      bigger.set(this.localOf);
      this.localOf = bigger;
    }
    const known = this.localOf[n] as number;
    if (known !== 0) return known - 1;
    const id = this.terms.length;
    this.terms.push(this.vocabulary.terms[n] as string);
    this.numbers.push(n);
    this.localOf[n] = id + 1;
    return id;
  }

  private bump(id: number, field: number): void {
    if (id >= this.seen.length) {
      this.seen = grow32(this.seen, id + 1);
      this.tf = grow32(this.tf, (id + 1) * FIELD_COUNT);
    }
    if (this.seen[id] !== this.unit) {
      this.seen[id] = this.unit;
      this.touched.push(id);
    }
    const at = id * FIELD_COUNT + field;
    this.tf[at] = (this.tf[at] as number) + 1;
    this.lengths[field] = (this.lengths[field] as number) + 1;
  }

  private intern(text: string, s: number, e: number): number {
    const n = e - s;
    if (n > this.scratch.length) this.scratch = new Uint16Array(Math.max(n, this.scratch.length * 2));
    let h = FNV_OFFSET;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(s + i);
      h = Math.imul(h ^ c, FNV_PRIME);
      this.scratch[i] = c;
    }
    return this.vocabulary.lookup(this.scratch, n, h, text, s);
  }
}

/** A table of 4-number slots (hash first, length third: 0 empty) with twice the slots, each entry moved to its place. */
function rehashed(old: Int32Array): Int32Array {
  const slots = new Int32Array(old.length * 2);
  const mask = slots.length / 4 - 1;
  for (let from = 0; from < old.length; from += 4) {
    if (old[from + 2] === 0) continue;
    let slot = (old[from] as number) & mask;
    while (slots[slot * 4 + 2] !== 0) slot = (slot + 1) & mask;
    for (let k = 0; k < 4; k++) slots[slot * 4 + k] = old[from + k] as number;
  }
  return slots;
}

function grow32(a: Uint32Array, min: number): Uint32Array {
  const b = new Uint32Array(Math.max(a.length * 2, min));
  b.set(a);
  return b;
}
