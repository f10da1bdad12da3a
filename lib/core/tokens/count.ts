// Token counting, a build option recorded in the cache: `bytes4` is v0's rule
// (ceil(UTF-8 bytes / 4)); `o200k_base` and `cl100k_base` are OpenAI's encodings, counted
// exactly by gpt-tokenizer (a maintained pure-JS BPE, checked against tiktoken). Special-
// token text such as "<|endoftext|>" counts as ordinary text, as tiktoken's encode_ordinary
// does: documents are data, never control tokens. Counts happen at build; resolve adds them.
//
// Counting is exact and piece by piece: a BPE encoding cuts text into pieces with its split
// pattern and encodes each piece alone, so a text's count is the sum of its pieces' counts.
// The counter cuts with the encoding's own pattern (o200k_base's read from char codes where
// the text is ASCII: o200k-pieces.ts), and counts each distinct piece once: one token if the
// encoding holds the piece as a token, else the number of parts its byte-pair merge leaves
// (for an ASCII piece merged here on the encoding's own ranks, else by the package), then
// remembers it (piece-memo.ts: bounded, started over when full, which never changes a count).
// Tests hold every count equal to the package's countTokens. If the package's core is not
// as expected (another version), its countTokens is used as is.

import { createRequire } from 'node:module';
import { O200K_PATTERN, pieceEnd } from './o200k-pieces.js';
import { asciiMergeCount, isAsciiPiece, PieceMemo } from './piece-memo.js';

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
  /** Every token whose bytes are UTF-8 text, by its text: whether a piece is one token, and the ranks an ASCII merge needs. */
  readonly bytePairStringRankEncoder: ReadonlyMap<string, number>;
  bytePairEncode(piece: string): readonly number[];
}

/** Pieces remembered per counter before the memo starts over. */
export const PIECE_MEMO_LIMIT = 200_000;

function bpeCore(encoding: Encoding): BpeCore | null {
  const core = encoding.default?.bytePairEncodingCoreProcessor as Partial<BpeCore> | undefined;
  if (
    core === undefined ||
    !(core.tokenSplitRegex instanceof RegExp) ||
    !(core.bytePairStringRankEncoder instanceof Map) ||
    typeof core.bytePairEncode !== 'function'
  ) {
    return null;
  }
  return core as BpeCore;
}

/** Exact counts of `encoding`, piece by piece with a bounded memo (see the top of this file). */
export function memoCounter(encoding: Encoding): TokenCounter {
  const core = bpeCore(encoding);
  if (core === null) return (text) => (text === '' ? 0 : encoding.countTokens(text, ORDINARY));
  const ranks = core.bytePairStringRankEncoder;
  // A piece not seen before: one token if it is one, else as many as its byte-pair merge leaves.
  const countNew = (piece: string): number => {
    if (ranks.has(piece)) return 1;
    return isAsciiPiece(piece) ? asciiMergeCount(piece, ranks) : core.bytePairEncode(piece).length;
  };
  const memo = new PieceMemo(PIECE_MEMO_LIMIT);
  const { source, flags } = core.tokenSplitRegex;
  const pattern = new RegExp(source, `${flags.replace(/[gy]/gu, '')}y`);
  // o200k_base's pattern is read from char codes where the text is ASCII (o200k-pieces.ts);
  // any other pattern, and o200k_base's where the text is not ASCII, runs as written.
  const scan = source === O200K_PATTERN && flags.includes('u') && !flags.includes('i') ? pieceEnd : null;
  return (text) => {
    let n = 0;
    const length = text.length;
    for (let p = 0; p < length; ) {
      let e = scan === null ? -1 : scan(text, p);
      if (e < 0) {
        pattern.lastIndex = p;
        // Pieces tile the text (every character matches some alternative), so a match starts at p.
        if (!pattern.test(text)) throw new Error(`the split pattern matched nothing at ${p}`);
        e = pattern.lastIndex;
      }
      n += memo.count(text, p, e, countNew);
      p = e;
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
