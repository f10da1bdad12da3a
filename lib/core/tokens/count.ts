// Token counting, a build option recorded in the cache: `bytes4` is v0's rule
// (ceil(UTF-8 bytes / 4)); `o200k_base` and `cl100k_base` are OpenAI's encodings, counted
// exactly by gpt-tokenizer (a maintained pure-JS BPE, checked against tiktoken). Special-
// token text such as "<|endoftext|>" counts as ordinary text, as tiktoken's encode_ordinary
// does: documents are data, never control tokens. Counts happen at build; resolve adds them.
//
// Counting is the package's own, piece by piece, with a memo in front: a BPE encoding cuts
// text into pieces with its split pattern and encodes each piece alone, so a text's count
// is the sum of its pieces' counts. The counter splits with the encoding's own pattern and
// asks the encoding's core for a piece's count once (a piece that is one token: 1; else the
// length of its byte-pair encoding, as the package's countTokens does for it), then
// remembers it — real text repeats its pieces, and the package's own merge cache keeps an
// LRU order on every hit. The memo is bounded (cleared when full), which never changes a
// count. If the package's core is not as expected (another version), countTokens is used.

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
  readonly default?: { readonly bytePairEncodingCoreProcessor?: unknown };
}

/** What the memo asks of gpt-tokenizer's BytePairEncodingCore (4.0.0). */
interface BpeCore {
  readonly tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): readonly number[];
}

/** Pieces remembered per counter before the memo starts over. */
export const PIECE_MEMO_LIMIT = 200_000;

function bpeCore(encoding: Encoding): BpeCore | null {
  const core = encoding.default?.bytePairEncodingCoreProcessor as Partial<BpeCore> | undefined;
  if (core === undefined || !(core.tokenSplitRegex instanceof RegExp) || typeof core.getBpeRankFromString !== 'function' || typeof core.bytePairEncode !== 'function') {
    return null;
  }
  return core as BpeCore;
}

/** Exact counts of `encoding`, piece by piece with a bounded memo (see the top of this file). */
export function memoCounter(encoding: Encoding): TokenCounter {
  const core = bpeCore(encoding);
  if (core === null) return (text) => (text === '' ? 0 : encoding.countTokens(text, ORDINARY));
  const split = new RegExp(core.tokenSplitRegex.source, core.tokenSplitRegex.flags.includes('g') ? core.tokenSplitRegex.flags : `${core.tokenSplitRegex.flags}g`);
  const memo = new Map<string, number>();
  return (text) => {
    let n = 0;
    split.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = split.exec(text)) !== null) {
      const piece = m[0];
      let c = memo.get(piece);
      if (c === undefined) {
        c = core.getBpeRankFromString(piece) !== undefined ? 1 : core.bytePairEncode(piece).length;
        if (memo.size >= PIECE_MEMO_LIMIT) memo.clear();
        memo.set(piece, c);
      }
      n += c;
    }
    return n;
  };
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
    counter = memoCounter(require(`gpt-tokenizer/cjs/encoding/${name}`) as Encoding);
    counters.set(name, counter);
  }
  return counter;
}

/** As `tokenCounter` (kept async for callers that load it while other work runs). */
export async function loadTokenCounter(name: TokenizerName): Promise<TokenCounter> {
  return tokenCounter(name);
}
