// Checks lib/core/tokens/piece-memo.ts: "asciiMergeCount counts the tokens of an ASCII piece
// by byte-pair merging, as the encoding does" and the memo that "never gives a wrong count"
// ("Exact tokens for a fraction of the cost", Builds at native speed on real text, item 4).
import t from 'tap';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { devPages } from './dev-pages.js';
import { asciiMergeCount, isAsciiPiece, MEMO_MAX_CHARS, PieceMemo } from '../../../lib/core/tokens/piece-memo.js';

const require = createRequire(import.meta.url);
interface Core {
  tokenSplitRegex: RegExp;
  bytePairStringRankEncoder: Map<string, number>;
  bytePairEncode(piece: string): number[];
}
const coreOf = (name: string): Core =>
  (require(`gpt-tokenizer/cjs/encoding/${name}`) as { default: { bytePairEncodingCoreProcessor: Core } }).default.bytePairEncodingCoreProcessor;

t.test('piece-memo.ts: the ASCII merge leaves as many tokens as the package\'s byte-pair encoding', async (t) => {
  const pages = devPages();
  for (const name of ['o200k_base', 'cl100k_base']) {
    const core = coreOf(name);
    const ranks = core.bytePairStringRankEncoder;
    // Every distinct ASCII piece of the dev sets that is not itself a token.
    const pieces = new Set<string>();
    for (const page of pages) {
      for (const m of page.matchAll(new RegExp(core.tokenSplitRegex.source, 'gu'))) {
        if (isAsciiPiece(m[0]) && !ranks.has(m[0])) pieces.add(m[0]);
      }
    }
    let wrong = 0;
    for (const piece of pieces) if (asciiMergeCount(piece, ranks) !== core.bytePairEncode(piece).length) wrong++;
    t.equal(wrong, 0, `${name}: ${pieces.size} distinct multi-token pieces of the dev sets`);
    // Random ASCII pieces: identifiers, runs of one character, hex, punctuation.
    const piece = fc.oneof(
      fc.array(fc.integer({ min: 32, max: 126 }), { minLength: 1, maxLength: 40 }).map((c) => String.fromCharCode(...c)),
      fc.array(fc.constantFrom('a', 'e', 'th', 'ing', 'Z', '0', '9f', '-', '=', ' ', '\n', '_'), { minLength: 1, maxLength: 30 }).map((u) => u.join('')),
    );
    fc.assert(fc.property(piece, (p) => asciiMergeCount(p, ranks) === core.bytePairEncode(p).length), { numRuns: 3000, seed: 11 });
    t.pass(`${name}: 3,000 random ASCII pieces`);
  }
  t.equal(asciiMergeCount('', new Map()), 0);
  t.equal(asciiMergeCount('x', new Map()), 1);
  t.equal(asciiMergeCount('abc', new Map()), 3, 'no pair is a token: one per byte');
  t.equal(asciiMergeCount('abab', new Map([['ab', 0]])), 2, 'both equal pairs merge');
  t.equal(asciiMergeCount('abc', new Map([['bc', 0], ['ab', 1], ['abc', 2]])), 1, 'the lowest rank first, then the joined parts');
  // "aaab": the leftmost "aa" joins first, leaving aa|a|b (no more tokens); the right one
  // would have left a|aa|b and then a|aab.
  t.equal(asciiMergeCount('aaab', new Map([['aa', 0], ['aab', 1]])), 3, 'the leftmost pair on a tie');
});

t.test('piece-memo.ts: the memo gives back each piece\'s own count, whatever it holds or forgets', async (t) => {
  // A tiny table: most pieces share slots (long probe runs) and it starts over often.
  for (const [pieces, arena] of [[2, 64], [8, 100], [64, 10_000], [4096, 65_536]] as const) {
    const memo = new PieceMemo(pieces, arena);
    let asked = 0;
    const count = (piece: string): number => {
      asked++;
      return piece.length * 7 + piece.charCodeAt(0);
    };
    const texts = fc.sample(fc.string({ unit: fc.constantFrom('a', 'b', 'ab', ' ', 'é', '😀', 'x'.repeat(MEMO_MAX_CHARS)), maxLength: 12 }), { numRuns: 400, seed: pieces });
    let wrong = 0;
    let lookups = 0;
    for (let round = 0; round < 3; round++) {
      for (const text of texts) {
        for (let start = 0; start < text.length; start += 3) {
          const end = Math.min(text.length, start + 1 + ((start * 7 + round) % 70));
          lookups++;
          if (memo.count(text, start, end, count) !== count(text.slice(start, end))) wrong++;
          asked--; // the check's own call
        }
      }
    }
    t.equal(wrong, 0, `${pieces} pieces, ${arena} characters: ${lookups} lookups, each the piece's count`);
    if (pieces >= 4096) t.ok(asked < lookups / 2, `remembered: asked ${asked} times for ${lookups} lookups`);
  }
  // Two pieces of one length with the same 32-bit FNV-1a hash (found by a birthday search over
  // random 8-letter words): the second is told apart by its characters.
  const memo = new PieceMemo(16);
  const count = (piece: string): number => (piece === 'rjlizpsq' ? 1 : 2);
  t.equal(memo.count('rjlizpsq', 0, 8, count), 1);
  t.equal(memo.count('ekaweyun', 0, 8, count), 2, 'a colliding hash is not the same piece');
  t.equal(memo.count('xrjlizpsqx', 1, 9, count), 1, 'found again inside another text');
});
