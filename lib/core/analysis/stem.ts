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

/** Porter2 stem of a lowercase ASCII word; any other string is returned unchanged. */
export function stemWord(word: string): string {
  return LOWER_ASCII_WORD.test(word) ? (porter2 ??= require('wink-porter2-stemmer') as (word: string) => string)(word) : word;
}
