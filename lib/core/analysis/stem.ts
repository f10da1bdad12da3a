// English stemming: Porter2 (the Snowball English stemmer) from wink-porter2-stemmer, a
// maintained pure-JS implementation tested against Snowball's vocabulary. Applied only to
// words of ASCII letters a-z; anything else is its own stem. Deterministic: no locale.

import { createRequire } from 'node:module';

// Loaded on first use, by require: commands that never stem (a rebuild that changes
// nothing, a resolve) do not pay for it at start.
const require = createRequire(import.meta.url);
let porter2: ((word: string) => string) | null = null;

/** The stemmer's name and version, as recorded in a cache's build_config. */
export const STEMMER = 'porter2 (wink-porter2-stemmer 2.0.1)';

const LOWER_ASCII_WORD = /^[a-z]+$/;

/**
 * Words whose stems are remembered before the memo starts over (forgetting never changes a
 * stem). A build's thread stems each distinct raw token once (term-counter.ts), but meets
 * the same word again folded from a capitalised token (`Config`) and as a part of
 * identifiers (`configFile`, `config_file`): on 10,000 real-text files a thread asked for
 * 112,609 stems of 74,790 distinct words, and the stemmer (~5 µs a word, regular
 * expressions) is the costliest step of a word's first analysis.
 */
export const STEM_MEMO_LIMIT = 1 << 17;

const memo = new Map<string, string>();

/** How many stems are remembered now (at most STEM_MEMO_LIMIT). */
export function rememberedStems(): number {
  return memo.size;
}

/** Porter2 stem of a lowercase ASCII word; any other string is returned unchanged. */
export function stemWord(word: string): string {
  if (!LOWER_ASCII_WORD.test(word)) return word;
  let stem = memo.get(word);
  if (stem === undefined) {
    if (memo.size >= STEM_MEMO_LIMIT) memo.clear();
    stem = (porter2 ??= require('wink-porter2-stemmer') as (word: string) => string)(word);
    memo.set(word, stem);
  }
  return stem;
}
