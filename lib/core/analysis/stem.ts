// English stemming: Porter2 (the Snowball English stemmer) from wink-porter2-stemmer, a
// maintained pure-JS implementation tested against Snowball's vocabulary. Applied only to
// words of ASCII letters a-z; anything else is its own stem. Deterministic: no locale.

import porter2 from 'wink-porter2-stemmer';

/** The stemmer's name and version, as recorded in a cache's build_config. */
export const STEMMER = 'porter2 (wink-porter2-stemmer 2.0.1)';

const LOWER_ASCII_WORD = /^[a-z]+$/;

/** Porter2 stem of a lowercase ASCII word; any other string is returned unchanged. */
export function stemWord(word: string): string {
  return LOWER_ASCII_WORD.test(word) ? porter2(word) : word;
}
