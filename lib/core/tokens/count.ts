// Token counting, a build option recorded in the cache: `bytes4` is v0's rule
// (ceil(UTF-8 bytes / 4)); `o200k_base` and `cl100k_base` are OpenAI's encodings, counted
// exactly as gpt-tokenizer counts them (a maintained pure-JS BPE, checked against tiktoken;
// its tables are the source of ours and its countTokens the tests' oracle). Special-token
// text such as "<|endoftext|>" counts as ordinary text, as tiktoken's encode_ordinary does:
// documents are data, never control tokens. Counts happen at build; resolve adds them.
//
// Counting is exact and piece by piece: a BPE encoding cuts text into pieces with its split
// pattern and encodes each piece alone, so a text's count is the sum of its pieces' counts.
// The counter cuts with the encoding's own pattern (o200k_base's read from char codes where
// the text is ASCII: o200k-pieces.ts), and counts each distinct piece once: one token if the
// encoding holds the piece as a token, else the number of parts its byte-pair merge leaves,
// then remembers it (piece-memo.ts: bounded, started over when full, which never changes a
// count). The ranks come from the package's own table written as a file at build
// (rank-table.ts: a few ms to load instead of the package's ~140 ms); without that file (a
// copy of the sources never built), the same table is made from the package's, slower to
// load, and the same merge counts (memoCounter). Tests hold every count equal
// to the package's countTokens. If the package's core is not as expected (another version),
// its countTokens is used as is.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as fs from '../fs.js';
import { O200K_PATTERN, pieceEnd } from './o200k-pieces.js';
import { PieceMemo } from './piece-memo.js';
import { mergeCount, RankTable, RankTableError } from './rank-table.js';

const require = createRequire(import.meta.url);

export const TOKENIZERS = ['bytes4', 'o200k_base', 'cl100k_base'] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];

/**
 * Where the raw tokens of a text are (analysis/term-counter.ts WordSpans, as the term counter
 * found them): `count` spans in text order, each a whole raw token (a maximal run of letters,
 * marks and digits, joined by single `.`, `_` or `-`: what follows it is no letter, mark or
 * digit), its start and end in the text scanned, and a number within `source` that is the
 * same for the same characters, at most `maxRaw`.
 */
export interface WordSpans {
  readonly count: number;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly raws: Int32Array;
  readonly maxRaw: number;
  readonly source: object;
}

export type TokenCounter = ((text: string) => number) & {
  /**
   * The same count of `text`, which stands at `offset` in the text `words` were found in and
   * whose raw tokens they are: a counter that knows what a word's piece costs steps over it
   * (only o200k_base's has this).
   */
  readonly words?: (text: string, offset: number, words: WordSpans) => number;
};

/**
 * stretchCounter's counter. `outside(text, from, to)`: a lower bound of the count of any
 * text that is `text` with text[from .. to) replaced by other characters: the counts of
 * the stretches that end before `from` and start after `to` (cuts decided by characters on
 * one side only), never more than the whole text's count, whatever stands in between.
 */
export type StretchCounter = TokenCounter & { outside(text: string, from: number, to: number): number };

export function isTokenizerName(value: string): value is TokenizerName {
  return (TOKENIZERS as readonly string[]).includes(value);
}

const countBytes4: TokenCounter = (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4);

export interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  readonly default?: { readonly bytePairEncodingCoreProcessor?: unknown };
}

/** What the counter asks of gpt-tokenizer's BytePairEncodingCore (4.0.0). */
interface BpeCore {
  readonly tokenSplitRegex: RegExp;
  /** Rank -> the token's text, or its bytes when they are not UTF-8 text (none: a rank not used). */
  readonly bytePairRankDecoder: readonly (string | readonly number[] | undefined)[];
}

/**
 * Pieces remembered per counter before the memo starts over: 2^17, in 2^18 slots of 32 bytes
 * (8 MB). A build's thread meets ~106,000 distinct pieces in half of 10,000 real-text files;
 * a table twice this size (200,000 pieces, 16 MB) found them no better and was slower to
 * probe, its slots spread over more memory than the caches hold (counting a thread's half
 * ~5 % faster with this one, four alternated runs).
 */
export const PIECE_MEMO_LIMIT = 131_072;

function bpeCore(encoding: Encoding): BpeCore | null {
  const core = encoding.default?.bytePairEncodingCoreProcessor as Partial<BpeCore> | undefined;
  if (core === undefined || !(core.tokenSplitRegex instanceof RegExp) || !Array.isArray(core.bytePairRankDecoder)) return null;
  return core as BpeCore;
}

/**
 * Each rank's bytes from the package's table (token r at index r; empty: a rank not used),
 * as scripts/rank-tables.mjs writes them to the rank file.
 */
export function packageTokens(encoding: Encoding): Uint8Array[] | null {
  const core = bpeCore(encoding);
  if (core === null) return null;
  const utf8 = new TextEncoder();
  const decoder = core.bytePairRankDecoder;
  const tokens: Uint8Array[] = [];
  for (let r = 0; r < decoder.length; r++) {
    const v = decoder[r];
    tokens.push(v === undefined ? new Uint8Array(0) : typeof v === 'string' ? utf8.encode(v) : Uint8Array.from(v));
  }
  return tokens;
}

/**
 * Exact counts of `encoding` from the package's own tables (no rank file): its ranks made a
 * RankTable here, its pattern as it holds it; the same counter as the rank file's.
 */
export function memoCounter(encoding: Encoding): TokenCounter {
  const core = bpeCore(encoding);
  const tokens = packageTokens(encoding);
  if (core === null || tokens === null) return (text) => (text === '' ? 0 : encoding.countTokens(text, ORDINARY));
  const { source, flags } = core.tokenSplitRegex;
  return tableCounter(RankTable.fromBytes(RankTable.toBytes(tokens)), source, flags);
}

/**
 * Exact counts of the encoding whose split pattern is `source` (with `flags`) and whose
 * distinct pieces `countNew` counts: the pieces cut, each counted once and remembered.
 */
function pieceCounter(source: string, flags: string, countNew: (piece: string) => number): TokenCounter {
  const memo = new PieceMemo(PIECE_MEMO_LIMIT);
  const pattern = new RegExp(source, `${flags.replace(/[gy]/gu, '')}y`);
  // o200k_base's pattern is read from char codes where the text is ASCII (o200k-pieces.ts);
  // any other pattern, and o200k_base's where the text is not ASCII, runs as written.
  const o200k = source === O200K_PATTERN && flags.includes('u') && !flags.includes('i');
  const scan = o200k ? pieceEnd : null;
  /** The end of the piece that starts at p. */
  const cut = (text: string, p: number): number => {
    let e = scan === null ? -1 : scan(text, p);
    if (e < 0) {
      pattern.lastIndex = p;
      // Pieces tile the text (every character matches some alternative), so a match starts at p.
      if (!pattern.test(text)) throw new Error(`the split pattern matched nothing at ${p}`);
      e = pattern.lastIndex;
    }
    return e;
  };
  // One ASCII character is one byte, and every byte is a token of a byte-level encoding
  // (o200k_base, cl100k_base): one token, without the memo (a sixth of real text's pieces).
  const cost = (text: string, p: number, e: number): number => (e === p + 1 && text.charCodeAt(p) < 0x80 ? 1 : memo.count(text, p, e, countNew));
  const count = (text: string): number => {
    let n = 0;
    const length = text.length;
    for (let p = 0; p < length; ) {
      const e = cut(text, p);
      n += cost(text, p, e);
      p = e;
    }
    return n;
  };
  if (!o200k) return count;
  // What a word's piece costs, per raw number of `costSource`, two to a word: led by a space
  // (` word`), then bare (`word`, after a line break or a run of punctuation); 0: not known
  // yet, 255: that piece is not the word (`abc123` leads ` abc`) or costs 255 or more.
  let costSource: object | null = null;
  let costs = new Uint8Array(0);
  // A piece of o200k_base that starts at a raw token, or at a space just before one, ends
  // where its letters end (or at a digit's run, or at a contraction `'s` `'t` ...): what the
  // token's own characters decide, since what follows a raw token is no letter, mark or digit,
  // unless that is an apostrophe. So once such a piece was seen to be exactly the token (with
  // its space), it is wherever the token stands again without an apostrophe after it, and
  // costs the same: counted once, then added in one step (on real text ~45 % of pieces).
  const words = (text: string, offset: number, spans: WordSpans): number => {
    if (spans.source !== costSource) {
      costSource = spans.source;
      costs.fill(0);
    }
    if (costs.length < (spans.maxRaw + 1) * 2) {
      const bigger = new Uint8Array(Math.max(costs.length * 2, (spans.maxRaw + 1) * 2, 1024));
      bigger.set(costs);
      costs = bigger;
    }
    const { count: spanCount, starts, ends, raws } = spans;
    let n = 0;
    const length = text.length;
    let k = 0;
    let ws = spanCount > 0 ? (starts[0] as number) - offset : length + 1;
    for (let p = 0; p < length; ) {
      while (ws < p) {
        k++;
        ws = k < spanCount ? (starts[k] as number) - offset : length + 1;
      }
      let at = -1;
      let we = -1;
      if (ws === p) at = (raws[k] as number) * 2 + 1;
      else if (ws === p + 1 && text.charCodeAt(p) === 32) at = (raws[k] as number) * 2;
      if (at >= 0) {
        we = (ends[k] as number) - offset;
        if (text.charCodeAt(we) === 39) at = -1;
        else {
          const c = costs[at] as number;
          if (c === 255) at = -1;
          else if (c !== 0) {
            n += c;
            p = we;
            continue;
          }
        }
      }
      const e = cut(text, p);
      const c = cost(text, p, e);
      if (at >= 0) costs[at] = e === we && c < 255 ? c : 255;
      n += c;
      p = e;
    }
    return n;
  };
  return Object.assign(count, { words });
}

/** cl100k_base's split pattern, as gpt-tokenizer 4.0.0 and tiktoken write it (flags `gu`). */
export const CL100K_PATTERN =
  "'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s+$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s";

/** Each exact encoding's split pattern (its flags are `u`). */
export const SPLIT_PATTERNS: Readonly<Record<Exclude<TokenizerName, 'bytes4'>, string>> = { o200k_base: O200K_PATTERN, cl100k_base: CL100K_PATTERN };

/** Exact counts of the encoding whose ranks are `table` and split pattern `source` (with `flags`). */
export function tableCounter(table: RankTable, source: string, flags = 'u'): TokenCounter {
  let bytes = new Uint8Array(1024);
  const utf8 = new TextEncoder();
  // A piece not seen before: its UTF-8 bytes (lone surrogates as U+FFFD, as the package
  // encodes them); one token if they are one, else as many as their merge leaves.
  const countNew = (piece: string): number => {
    const length = piece.length;
    if (bytes.length < length * 3) bytes = new Uint8Array(length * 3);
    let n = 0;
    for (; n < length; n++) {
      const c = piece.charCodeAt(n);
      if (c > 127) break;
      bytes[n] = c;
    }
    if (n < length) n += utf8.encodeInto(piece.slice(n), bytes.subarray(n)).written;
    if (table.rank(bytes, 0, n) >= 0) return 1;
    return mergeCount(bytes, n, table);
  };
  return pieceCounter(source, flags, countNew);
}

const ORDINARY = { disallowedSpecial: new Set<string>() };

const counters = new Map<TokenizerName, TokenCounter>();
const sources = new Map<TokenizerName, 'table' | 'package'>();

/**
 * The rank table `npm run build` writes for `name` (scripts/rank-tables.mjs): the package's
 * `dist/ranks/<name>.ranks`, the package being the nearest folder above this module that
 * holds a package.json (this file runs from lib/, dist/ or dist/bundle/). Null: none there.
 */
function rankFile(name: string): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.exists(join(dir, 'package.json'))) {
      const file = join(dir, 'dist', 'ranks', `${name}.ranks`);
      return fs.exists(file) ? file : null;
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The ranks of `name` from its table file, or null without a usable one. */
function tableOf(name: string): RankTable | null {
  const file = rankFile(name);
  if (file === null) return null;
  try {
    return RankTable.fromBytes(fs.readFile(file));
  } catch (err) {
    if (err instanceof RankTableError) return null; // not one: the package's own tables count
    throw err;
  }
}

/**
 * The counter for `name`. The ranks load on first use (a few ms from the build's table
 * file, ~140 ms from the package) and stay loaded; synchronous, so resolve can count in place.
 */
export function tokenCounter(name: TokenizerName): TokenCounter {
  if (name === 'bytes4') return countBytes4;
  let counter = counters.get(name);
  if (counter === undefined) {
    const table = tableOf(name);
    counter = table === null ? memoCounter(require(`gpt-tokenizer/cjs/encoding/${name}`) as Encoding) : tableCounter(table, SPLIT_PATTERNS[name]);
    counters.set(name, counter);
    sources.set(name, table === null ? 'package' : 'table');
  }
  return counter;
}

/**
 * A counter for texts that repeat each other in long stretches (the answers and entries
 * one query prices): each text is cut where a piece of either exact encoding always ends,
 * whatever comes before or after, and each distinct stretch is counted once. The cuts: an
 * ASCII digit after an ASCII letter or punctuation mark. No piece of o200k_base's or
 * cl100k_base's split pattern holds a digit together with anything but digits (`\p{N}{1,3}`
 * starts at the first digit of a run), and the piece before the cut ends there in the text
 * alone just as in the whole (only a whitespace run's piece looks at what follows it). So
 * the stretches' counts sum to the text's count (tested on random and real texts, both
 * encodings). bytes4 (ceil(bytes / 4)) does not add up that way: its counter as it is.
 */
export function stretchCounter(name: TokenizerName): StretchCounter {
  const count = tokenCounter(name);
  if (name === 'bytes4') return Object.assign((text: string) => count(text), { outside: () => 0 });
  const memo = new Map<string, number>();
  const part = (stretch: string): number => {
    let n = memo.get(stretch);
    if (n === undefined) {
      n = count(stretch);
      memo.set(stretch, n);
    }
    return n;
  };
  // Sums the stretches of text[start .. end) (cut where the text is), from its first cut
  // after `start` when `start` is not the text's start (the stretch across `start` is left
  // out), to its last cut when `end` is not the text's end (likewise).
  const stretches = (text: string, start: number, end: number): number => {
    let n = 0;
    let from = start === 0 ? 0 : -1;
    for (let i = start + 1; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x30 || c > 0x39) continue;
      const before = text.charCodeAt(i - 1);
      // After whitespace (or a control character), a digit or anything outside ASCII: no cut.
      if (before <= 0x20 || before >= 0x7f || (before >= 0x30 && before <= 0x39)) continue;
      if (from >= 0) n += part(text.slice(from, i));
      from = i;
    }
    if (end === text.length && from >= 0) n += part(from === 0 ? text : text.slice(from));
    return n;
  };
  return Object.assign((text: string): number => stretches(text, 0, text.length), {
    outside: (text: string, from: number, to: number): number => stretches(text, 0, from) + stretches(text, to, text.length),
  });
}

/** Where `tokenCounter(name)` took its ranks from: the build's table file, or the package (null: not loaded yet). */
export function counterSource(name: TokenizerName): 'table' | 'package' | null {
  return sources.get(name) ?? null;
}

/** As `tokenCounter` (kept async for callers that load it while other work runs). */
export async function loadTokenCounter(name: TokenizerName): Promise<TokenCounter> {
  return tokenCounter(name);
}
