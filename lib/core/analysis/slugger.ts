// GitHub's heading anchors, as github-slugger makes them, made cheaper for ASCII headings.
//
// github-slugger's `slug` lowercases a heading's text, removes every character its regular
// expression lists (one code point per alternative: punctuation, symbols, controls) and
// turns each space into `-`; its slugger then numbers repeats (`intro`, `intro-1`, ...).
// Over ASCII text that is a rule per character, so an ASCII heading is slugged from a table
// of 128 entries, each the package's own slug of that character alone (made when this
// module loads: the package stays the definition); any other text goes to the package.
// Numbering is the package's rule, written over a Map (tests hold both to the package's
// slugger). On 10,000 real-text files the package's slugger was ~2 % of a build's analysis.

import { slug as githubSlug } from 'github-slugger';

/** Each ASCII character's slug, as github-slugger gives it for the character alone. */
const ASCII_SLUGS: readonly string[] = Array.from({ length: 128 }, (_, c) => githubSlug(String.fromCharCode(c)));

/** Whether an ASCII character is its own slug (a-z, 0-9, `-`, `_`). */
const SAME = Uint8Array.from(ASCII_SLUGS, (s, c) => (s === String.fromCharCode(c) ? 1 : 0));

/** github-slugger's `slug(value)`: by table when `value` is ASCII, else by the package. */
export function slugOf(value: string): string {
  const n = value.length;
  let i = 0;
  // Most of a slug is usually its text as written: find the first character that is not.
  for (; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128) return githubSlug(value);
    if (SAME[c] !== 1) break;
  }
  if (i === n) return value;
  let out = value.slice(0, i);
  for (; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128) return githubSlug(value);
    out += ASCII_SLUGS[c] as string;
  }
  return out;
}

/** Unique slugs within one document, numbered as github-slugger's slugger numbers them. */
export class Slugger {
  readonly #occurrences = new Map<string, number>();

  slug(value: string): string {
    const original = slugOf(value);
    let result = original;
    while (this.#occurrences.has(result)) {
      const n = (this.#occurrences.get(original) as number) + 1;
      this.#occurrences.set(original, n);
      result = `${original}-${n}`;
    }
    this.#occurrences.set(result, 0);
    return result;
  }
}
