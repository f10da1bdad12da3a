// Token counting, a build option recorded in the cache: `bytes4` is v0's rule
// (ceil(UTF-8 bytes / 4)); `o200k_base` and `cl100k_base` are OpenAI's encodings, counted
// exactly by gpt-tokenizer (a maintained pure-JS BPE, checked against tiktoken). Special-
// token text such as "<|endoftext|>" counts as ordinary text, as tiktoken's encode_ordinary
// does: documents are data, never control tokens. Counts happen at build; resolve adds them.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const TOKENIZERS = ['bytes4', 'o200k_base', 'cl100k_base'] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];

export type TokenCounter = (text: string) => number;

export function isTokenizerName(value: string): value is TokenizerName {
  return (TOKENIZERS as readonly string[]).includes(value);
}

const countBytes4: TokenCounter = (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4);

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const ORDINARY = { disallowedSpecial: new Set<string>() };

const counters = new Map<TokenizerName, TokenCounter>();

/**
 * The counter for `name`. The BPE tables load on first use (a few hundred ms) and stay
 * loaded; synchronous (the package's CommonJS build), so resolve can count in place.
 */
export function tokenCounter(name: TokenizerName): TokenCounter {
  if (name === 'bytes4') return countBytes4;
  let counter = counters.get(name);
  if (counter === undefined) {
    const encoding = require(`gpt-tokenizer/cjs/encoding/${name}`) as Encoding;
    counter = (text) => (text === '' ? 0 : encoding.countTokens(text, ORDINARY));
    counters.set(name, counter);
  }
  return counter;
}

/** As `tokenCounter` (kept async for callers that load it while other work runs). */
export async function loadTokenCounter(name: TokenizerName): Promise<TokenCounter> {
  return tokenCounter(name);
}
