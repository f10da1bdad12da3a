// The v1 analyzer: text -> index terms, the same for documents and queries.
//
// A raw token is a run of Unicode letters, marks and digits, or several such runs joined by
// a single `.`, `_` or `-` (identifiers and dotted names: `repomix.config.json`,
// `snake_case`, `--map-tokens` -> `map-tokens`). Its terms:
// - a plain word: its lowercase form, stemmed (Porter2) when it is ASCII letters only;
// - an identifier (several runs, or camelCase humps: `useState`, `map-tokens`): the whole
//   token lowercased and unstemmed (the identifier as written), then each part — the runs,
//   split at camelCase humps — lowercased and stemmed.
// Terms of one token are distinct (`foo-foo` gives `foo-foo`, `foo` once). Tokens over
// MAX_TOKEN_LENGTH UTF-16 units (hashes, base64) give no term. A non-ASCII token is first
// put in Unicode normalization form NFKC (`café` typed either way, `ﬁle`, fullwidth
// `ｕｓｅＳｔａｔｅ`: one spelling each); case is then folded: String.prototype.toLowerCase
// (full Unicode, locale-independent) plus the two folds it lacks, ß -> ss and final ς -> σ,
// so `STRASSE` meets `straße` and `ΟΔΟΣ` meets `οδος` in any position.
//
// Text written without spaces between words (docs/engine.md "Terms: the analyzer", rule 6):
// in a raw token, each run of Han, Hiragana, Katakana or Hangul characters (by their Unicode
// Script_Extensions, so the prolonged sound mark ー goes with kana; a combining mark with the
// character before it) gives its overlapping pairs of characters — `代理服务器` gives `代理`,
// `理服`, `服务`, `务器` — or the one character of a run of one, as Lucene's CJK analyzer
// (CJKBigramFilter) does; the token's other runs give the terms they give alone (`Vue组件`:
// `vue`, `组件`), and the token whole gives none.
//
// Code tokens (docs/engine.md "Queries as people write them"): a chunk is a run of letters,
// marks, digits and the code characters . _ - : < > ( ) ? ! & # @ $ +. Its edges are trimmed
// (trailing `.`, `:`, `?`, `-`; an unmatched `(` or `<` at the start, `)` or `>` at the end;
// parentheses that wrap it whole). What is left gives code terms, folded as above and never
// stemmed, besides the terms of its raw tokens:
// - a call, `callee(...)` (arguments or not, closed or cut by a comma): `callee()`, and the
//   callee itself when it is code-shaped (`Rc::clone(&a)` -> `rc::clone()`, `rc::clone`);
// - otherwise itself, when it has a letter or digit, its ( ) and < > balance and it is not
//   exactly one raw token (`Rc<T>` -> `rc<t>`, `--fix-dry-run`, `client:load`, `println!`);
// - a chunk without letters or digits only when it is at most 3 characters and holds a `?`
//   (the operator standing alone: `?`, `??`, `?.`).
//
// Query terms: a query's terms that are English stopwords (the list below, analyzed like any
// text, so stemmed as the index is) do not score when the query has any other term; a query
// made of stopwords only keeps them all (bm25.ts never scores them through the path field).

import { createRequire } from 'node:module';
import { compareBytes } from '../../json.js';
import { stemWord, STEMMER } from './stem.js';

/**
 * The stopword list: its package, exactly as pinned, the one word added to it (the article
 * `a`, which the list lacks though it has `an` and `the`) and the two taken out of it (`let`,
 * which it gives through `let's`, is a keyword of JavaScript, Rust and Swift; `own` is the stem
 * of owned / owns / owning, ownership in code docs).
 */
export const STOPWORDS = {
  list: '@orama/stopwords 3.1.18 english',
  added: ['a'],
  kept: ['let', 'own'],
} as const;

/** Recorded in a cache's build_config: everything that decides which terms text gives. */
export const ANALYZER_CONFIG = {
  name: 'words-identifiers-code',
  version: 3,
  normalization: 'NFKC',
  case: 'unicode-lowercase, ß->ss, ς->σ',
  stemmer: STEMMER,
  max_token_length: 128,
  code_characters: '._-:<>()?!&#@$+',
  cjk: 'character bigrams of Han, Hiragana, Katakana and Hangul runs',
  query_stopwords: `${STOPWORDS.list}, plus ${STOPWORDS.added.join(', ')}, less ${STOPWORDS.kept.join(', ')}`,
} as const;

export const MAX_TOKEN_LENGTH = ANALYZER_CONFIG.max_token_length;

/** Raw tokens, as defined above. */
const RAW_TOKEN = /[\p{L}\p{M}\p{N}]+(?:[._-][\p{L}\p{M}\p{N}]+)*/gu;
const ONE_RAW_TOKEN = /^[\p{L}\p{M}\p{N}]+(?:[._-][\p{L}\p{M}\p{N}]+)*$/u;
/** Code chunks, as defined above. */
const CODE_CHUNK = /[\p{L}\p{M}\p{N}._\-:<>()?!&#@$+]+/gu;
const HAS_ALNUM = /[\p{L}\p{M}\p{N}]/u;
const JOINERS = /[._-]/;
/** camelCase humps: before an upper after a lower/digit, and inside `HTTPServer` -> HTTP|Server. */
const HUMP = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const HAS_UPPER = /\p{Lu}/u;

const ASCII = /^[\x00-\x7f]*$/;

/** Case folding: full lowercase, then ß -> ss and ς -> σ (both already lowercase). */
function fold(s: string): string {
  const lower = s.toLowerCase();
  return ASCII.test(lower) ? lower : lower.replace(/ß/g, 'ss').replace(/ς/g, 'σ');
}

/** The scripts read in pairs (the header: Script_Extensions; Lucene's CJKBigramFilter takes the same four). */
const PAIRED = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}';
/** A character of those scripts. */
const CJK = new RegExp(`[${PAIRED}]`, 'u');
/** A token's runs: of those scripts (each character with the marks after it), or of anything else. */
const CJK_RUN = new RegExp(`(?:[${PAIRED}]\\p{M}*)+|[^${PAIRED}]+`, 'gu');
/** One character of those scripts with the marks after it. */
const CJK_CHAR = new RegExp(`[${PAIRED}]\\p{M}*`, 'gu');

/** The distinct terms of one raw token, in a fixed order (whole first, then parts). */
export function termsOfToken(raw: string): string[] {
  if (raw.length > MAX_TOKEN_LENGTH) return [];
  const token = ASCII.test(raw) ? raw : raw.normalize('NFKC');
  return hasPairedText(token) ? termsOfCjkToken(token) : termsOfWords(token);
}

/** Whether `text` holds a character read in pairs (rule 6 of the header). */
export function hasPairedText(text: string): boolean {
  return !ASCII.test(text) && CJK.test(text);
}

/**
 * The runs of a token that holds characters read in pairs, in order: each run of those
 * characters as its characters (marks kept with theirs), each other run as its text less
 * the joiners at either end ('' when nothing is left).
 */
function pairedRuns(token: string): Array<{ readonly chars: readonly string[] } | { readonly words: string }> {
  const runs: Array<{ readonly chars: readonly string[] } | { readonly words: string }> = [];
  for (const [run] of token.matchAll(CJK_RUN)) {
    runs.push(CJK.test(run.slice(0, 2)) ? { chars: run.match(CJK_CHAR) as string[] } : { words: run.replace(/^[._-]+|[._-]+$/g, '') });
  }
  return runs;
}

/**
 * The terms of a token that holds characters read in pairs (the header): in the order the
 * runs come, each such run's overlapping pairs of characters (its one character when alone),
 * each other run's terms as a token of its own gives them.
 */
function termsOfCjkToken(token: string): string[] {
  const terms: string[] = [];
  const add = (t: string): void => {
    if (t !== '' && !terms.includes(t)) terms.push(t);
  };
  for (const run of pairedRuns(token)) {
    if ('words' in run) {
      if (run.words !== '') for (const t of termsOfWords(run.words)) add(t);
      continue;
    }
    const { chars } = run;
    if (chars.length === 1) add(fold(chars[0] as string));
    for (let k = 0; k + 1 < chars.length; k++) add(fold((chars[k] as string) + (chars[k + 1] as string)));
  }
  return terms;
}

/**
 * The pieces of `text` (a query's word) whose terms `has` accepts, as typed and in order: of
 * each run of characters read in pairs, the longest stretches that accepted pairs cover (a
 * run of one, its character), and each other run of a raw token whose terms include an
 * accepted one (`文章发布时间总是差8个小时` with `文章`, `发布`, `时间`, `小时` accepted:
 * `文章发布时间`, `小时`). What the lean answer prints as matched, where a whole question
 * without spaces would otherwise be one word.
 */
export function matchedPieces(text: string, has: (term: string) => boolean): string[] {
  const pieces: string[] = [];
  const accepted = (piece: string): boolean => termsOfToken(piece).some(has);
  forEachRawToken(text, (raw) => {
    for (const run of pairedRuns(raw)) {
      if ('words' in run) {
        if (run.words !== '' && accepted(run.words)) pieces.push(run.words);
        continue;
      }
      const { chars } = run;
      const covered = new Uint8Array(chars.length);
      if (chars.length === 1) covered[0] = accepted(chars[0] as string) ? 1 : 0;
      for (let k = 0; k + 1 < chars.length; k++) if (accepted((chars[k] as string) + (chars[k + 1] as string))) covered[k] = covered[k + 1] = 1;
      for (let k = 0; k < chars.length; ) {
        let end = k;
        while (end < chars.length && covered[end] === 1) end++;
        if (end > k) pieces.push(chars.slice(k, end).join(''));
        k = Math.max(end, k + 1);
      }
    }
  });
  return pieces;
}

/** The terms of a token without characters read in pairs: a word, or an identifier (whole first, then parts). */
function termsOfWords(token: string): string[] {
  const runs = token.split(JOINERS);
  const humps = HAS_UPPER.test(token) ? runs.flatMap((r) => r.split(HUMP)) : runs;
  const terms: string[] = [];
  const add = (t: string): void => {
    if (t !== '' && !terms.includes(t)) terms.push(t);
  };
  if (humps.length === 1) {
    add(stemWord(fold(token)));
  } else {
    add(fold(token));
    for (const h of humps) add(stemWord(fold(h)));
  }
  return terms;
}

/** Whether `s` has as many `open` as `close`, never more closes than opens so far. */
function balanced(s: string, open: string, close: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === open) depth++;
    else if (c === close && --depth < 0) return false;
  }
  return depth === 0;
}

function countOf(s: string, c: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s[i] === c) n++;
  return n;
}

/** A code term as the index holds it: folded (NFKC first when not ASCII), never stemmed. */
function codeFold(w: string): string {
  return fold(ASCII.test(w) ? w : w.normalize('NFKC'));
}

/** Whether `w` may be a code term: a letter or digit, not one raw token, within the length limit. */
function codeShaped(w: string): boolean {
  return w.length <= MAX_TOKEN_LENGTH && HAS_ALNUM.test(w) && !ONE_RAW_TOKEN.test(w);
}

/** The code terms of one chunk (a CODE_CHUNK match): none, one, or two for a call. */
export function codeTermsOf(chunk: string): string[] {
  if (!HAS_ALNUM.test(chunk)) return chunk.length <= 3 && chunk.includes('?') ? [chunk] : [];
  let w = chunk;
  for (;;) {
    const before = w;
    let e = w.length;
    while (e > 0 && '.:?-'.includes(w[e - 1] as string)) e--;
    w = w.slice(0, e);
    if (w.endsWith(')') && countOf(w, ')') > countOf(w, '(')) w = w.slice(0, -1);
    else if (w.endsWith('>') && countOf(w, '>') > countOf(w, '<')) w = w.slice(0, -1);
    if (w.startsWith('(') && countOf(w, '(') > countOf(w, ')')) w = w.slice(1);
    else if (w.startsWith('<') && countOf(w, '<') > countOf(w, '>')) w = w.slice(1);
    if (w.length >= 2 && w.startsWith('(') && w.endsWith(')') && balanced(w.slice(1, -1), '(', ')')) w = w.slice(1, -1);
    if (w === before) break;
  }
  // A call (`foo(x)`, `Rc::clone(&a)`, `useState(0)`, `foo(a,` before a comma): the callee
  // with empty parentheses, whatever the arguments, and the callee alone when code-shaped.
  const open = w.indexOf('(');
  if (open > 0) {
    const callee = w.slice(0, open);
    if (!HAS_ALNUM.test(callee) || !balanced(callee, '<', '>') || callee.includes(')')) return [];
    const terms = [codeFold(callee + '()')];
    if (codeShaped(callee)) terms.push(codeFold(callee));
    return terms[0]!.length <= MAX_TOKEN_LENGTH ? terms : [];
  }
  if (!codeShaped(w) || !balanced(w, '(', ')') || !balanced(w, '<', '>')) return [];
  return [codeFold(w)];
}

/** Calls `fn` with each raw token of `text` in [start, end), in order. */
export function forEachRawToken(text: string, fn: (raw: string) => void, start = 0, end = text.length): void {
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
  RAW_TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RAW_TOKEN.exec(slice)) !== null) fn(m[0]);
}

/** Calls `fn` with each code chunk of `text` in [start, end), in order (CODE_CHUNK matches). */
export function forEachCodeChunk(text: string, fn: (chunk: string) => void, start = 0, end = text.length): void {
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
  CODE_CHUNK.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CODE_CHUNK.exec(slice)) !== null) fn(m[0]);
}

/**
 * Memoized token -> terms, for a long-lived process: the memo is dropped when it holds
 * `limit` tokens, which bounds memory and never changes a result.
 */
export class TokenTerms {
  private readonly memo = new Map<string, readonly string[]>();
  private readonly limit: number;

  constructor(limit = 100_000) {
    this.limit = limit;
  }

  of(raw: string): readonly string[] {
    let terms = this.memo.get(raw);
    if (terms === undefined) {
      if (this.memo.size >= this.limit) this.memo.clear();
      terms = termsOfToken(raw);
      this.memo.set(raw, terms);
    }
    return terms;
  }
}

const shared = new TokenTerms();

/**
 * Every term of `text`, with repeats (for tests and explanations): chunk by chunk, its code
 * term (if any) then the terms of its raw tokens, in order.
 */
export function analyzeText(text: string): string[] {
  const out: string[] = [];
  forEachTermAt(text, (term) => out.push(term));
  return out;
}

/** One letter, mark or number (a raw token's character). */
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/** UTF-16 units of the raw-token character at `i` of `s`, or 0 when there is none: ASCII by its code, the rest tested. */
function wordCharAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? 1 : 0;
  if (Number.isNaN(c)) return 0;
  const cp = s.codePointAt(i) as number;
  return WORD_CHAR.test(String.fromCodePoint(cp)) ? (cp > 0xffff ? 2 : 1) : 0;
}

/**
 * Each raw token of `text` with its position (how many raw tokens come before it): the
 * RAW_TOKEN matches, in order, found by a scan of character codes (about twice the
 * regular expression's speed on docs; equal to it, spec-tests/core/ranking/proximity.test.ts).
 *
 * With `starts` (termStarts), only the tokens that may give one of its terms are passed to
 * `fn` (positions still count every token), which spares cutting out and analysing the
 * others. A term of an ASCII token begins as one of its parts does, lowercased: the token
 * (the whole token's term), or a part beginning at its first character, one after a joiner,
 * or an uppercase letter (a camelCase hump). Folding never changes a character's place;
 * Porter2 keeps a word's first letter, and its second too unless the stem's second letter is
 * `e` or `i` (`dying` -> `die`, `oing` -> `oe`). So a part must begin with a term's first two
 * letters (or its first, for a term of one letter or whose second is `e` or `i`).
 * A token holding any other character (NFKC may change it) is always passed.
 */
export function forEachRawTokenAt(text: string, fn: (raw: string, at: number) => void, starts?: Uint8Array): void {
  const n = text.length;
  const all = starts === undefined;
  let at = 0;
  let i = 0;
  while (i < n) {
    let w = wordCharAt(text, i);
    if (w === 0) {
      i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let may = all || partMay(text, i, starts);
    i += w;
    for (;;) {
      while (i < n && (w = wordCharAt(text, i)) > 0) {
        if (!may) {
          const c = text.charCodeAt(i);
          // An uppercase letter may begin a part; any non-ASCII character may change in NFKC.
          if ((c >= 0x41 && c <= 0x5a) || c >= 0x80) may = partMay(text, i, starts as Uint8Array);
        }
        i += w;
      }
      const c = text.charCodeAt(i);
      // A joiner between two runs of letters or digits joins them.
      if ((c === 0x2e || c === 0x5f || c === 0x2d) && wordCharAt(text, i + 1) > 0) {
        i++;
        if (!may) may = partMay(text, i, starts as Uint8Array);
        continue;
      }
      break;
    }
    if (may) fn(text.slice(start, i), at);
    at++;
  }
}

/** In a termStarts table: first letters of the terms asked by it alone, from here (two-letter beginnings before it). */
const FIRST_ONLY = 128 * 128;

/** Whether a part beginning at `i` of `s` may give a term that `starts` asks for. */
function partMay(s: string, i: number, starts: Uint8Array): boolean {
  const c = s.charCodeAt(i);
  if (c >= 0x80) return true;
  const first = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
  if ((starts[FIRST_ONLY + first] as number) !== 0) return true;
  let next = s.charCodeAt(i + 1);
  // Past the end the part has one letter: only terms asked by their first letter could come
  // of it. Another character outside ASCII: always passed (NFKC may change it).
  if (!(next < 0x80)) return next >= 0x80;
  if (next >= 0x41 && next <= 0x5a) next |= 0x20;
  return (starts[first * 128 + next] as number) !== 0;
}

/**
 * How the given terms begin, for forEachRawTokenAt: each ASCII term's first two characters,
 * or its first alone when it has one or its second is `e` or `i` (Porter2 may change a
 * word's second letter to either). A term that begins with any other character comes only
 * from a token that holds one, which is always passed.
 */
export function termStarts(terms: Iterable<string>): Uint8Array {
  const starts = new Uint8Array(FIRST_ONLY + 128);
  for (const t of terms) {
    const c = t.charCodeAt(0);
    if (!(c < 0x80)) continue;
    const d = t.charCodeAt(1);
    if (t.length < 2 || d === 0x65 || d === 0x69) starts[FIRST_ONLY + c] = 1;
    else if (d < 0x80) starts[c * 128 + d] = 1;
  }
  return starts;
}

/** The terms of one raw token (memoised): what analyzeText gives for it. */
export function rawTokenTerms(raw: string): readonly string[] {
  return shared.of(raw);
}

/**
 * Each term of `text` with its position (analyzeText's terms, in its order), for proximity (../ranking/proximity.ts): the
 * position of a raw token's terms is how many raw tokens come before it; each code chunk's
 * code terms come first, at the position of the chunk's first raw token (the number of raw
 * tokens before the chunk). A query without code terms needs only the raw tokens
 * (forEachRawTokenAt and rawTokenTerms: the same terms at the same positions, less the code
 * terms, for a fraction of the cost).
 */
export function forEachTermAt(text: string, fn: (term: string, at: number) => void): void {
  let at = 0;
  forEachCodeChunk(text, (chunk) => {
    for (const c of codeTermsOf(chunk)) fn(c, at);
    // A raw token never crosses a chunk's edge: its characters are all chunk characters.
    for (const m of chunk.matchAll(RAW_TOKEN)) {
      for (const t of shared.of(m[0])) fn(t, at);
      at++;
    }
  });
}

/** Whether a term can only come from a code chunk: it is not one raw token. */
export function isCodeTerm(term: string): boolean {
  return !ONE_RAW_TOKEN.test(term);
}

// The stopword terms: the list's words and STOPWORDS.added analyzed as text (so stemmed, and
// a contraction such as `doesn't` gives `doesn` and `t`, as a query's would), less the terms
// of STOPWORDS.kept. Built on first use, the same on every run.
const require = createRequire(import.meta.url);
let stopTerms: ReadonlySet<string> | null = null;

function stopwordTerms(): ReadonlySet<string> {
  if (stopTerms === null) {
    const { stopwords } = require('@orama/stopwords/english') as { stopwords: readonly string[] };
    const kept = new Set<string>(STOPWORDS.kept.flatMap((w) => analyzeText(w)));
    const set = new Set<string>();
    for (const word of [...stopwords, ...STOPWORDS.added]) for (const t of analyzeText(word)) if (!kept.has(t)) set.add(t);
    stopTerms = set;
  }
  return stopTerms;
}

/** Whether an analyzed term is a stopword (docs/engine.md "Queries as people write them"). */
export function isStopTerm(term: string): boolean {
  return stopwordTerms().has(term);
}

/**
 * A query's scoring terms, distinct, sorted by UTF-8 byte order (the order scores are summed
 * in): its terms less stopwords, or all of them when every term is a stopword.
 */
export function queryTermsV1(query: string): string[] {
  const all = [...new Set(analyzeText(query))].sort(compareBytes);
  const content = all.filter((t) => !isStopTerm(t));
  return content.length > 0 ? content : all;
}
