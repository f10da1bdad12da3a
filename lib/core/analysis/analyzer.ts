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

import { compareBytes } from '../../json.js';
import { stemWord, STEMMER } from './stem.js';

/** Recorded in a cache's build_config: everything that decides which terms text gives. */
export const ANALYZER_CONFIG = {
  name: 'words-identifiers',
  version: 1,
  normalization: 'NFKC',
  case: 'unicode-lowercase, ß->ss, ς->σ',
  stemmer: STEMMER,
  max_token_length: 128,
} as const;

export const MAX_TOKEN_LENGTH = ANALYZER_CONFIG.max_token_length;

/** Raw tokens, as defined above. */
const RAW_TOKEN = /[\p{L}\p{M}\p{N}]+(?:[._-][\p{L}\p{M}\p{N}]+)*/gu;
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

/** The distinct terms of one raw token, in a fixed order (whole first, then parts). */
export function termsOfToken(raw: string): string[] {
  if (raw.length > MAX_TOKEN_LENGTH) return [];
  const token = ASCII.test(raw) ? raw : raw.normalize('NFKC');
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

/** Calls `fn` with each raw token of `text` in [start, end), in order. */
export function forEachRawToken(text: string, fn: (raw: string) => void, start = 0, end = text.length): void {
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
  RAW_TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RAW_TOKEN.exec(slice)) !== null) fn(m[0]);
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

/** Every term of `text`, in order, with repeats (for tests and explanations). */
export function analyzeText(text: string): string[] {
  const out: string[] = [];
  forEachRawToken(text, (raw) => {
    for (const t of shared.of(raw)) out.push(t);
  });
  return out;
}

/** A query's distinct terms, sorted by UTF-8 byte order (the order scores are summed in). */
export function queryTermsV1(query: string): string[] {
  return [...new Set(analyzeText(query))].sort(compareBytes);
}
