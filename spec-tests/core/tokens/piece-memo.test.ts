// Checks lib/core/tokens/piece-memo.ts: the memo that "never gives a wrong count" ("Exact
// tokens for a fraction of the cost", Builds at native speed on real text, item 4). The
// merge of a new piece is checked in rank-table.test.ts.
import t from 'tap';
import fc from 'fast-check';
import { INLINE_CHARS, MEMO_MAX_CHARS, PieceMemo } from '../../../lib/core/tokens/piece-memo.js';

t.test('piece-memo.ts: the memo gives back each piece\'s own count, whatever it holds or forgets', async (t) => {
  // A tiny table: most pieces share slots (long probe runs) and it starts over often.
  for (const [pieces, arena] of [[2, 64], [8, 100], [64, 10_000], [4096, 65_536]] as const) {
    const memo = new PieceMemo(pieces, arena);
    let asked = 0;
    const count = (piece: string): number => {
      asked++;
      return piece.length * 7 + piece.charCodeAt(0);
    };
    // (NUL and lone-surrogate halves too: a short piece's characters are held two to a number.)
    const texts = fc.sample(fc.string({ unit: fc.constantFrom('a', 'b', 'ab', ' ', 'é', '😀', '\u0000', '\ud800', 'x'.repeat(MEMO_MAX_CHARS)), maxLength: 12 }), { numRuns: 400, seed: pieces });
    let wrong = 0;
    let lookups = 0;
    for (let round = 0; round < 3; round++) {
      for (const text of texts) {
        for (let start = 0; start < text.length; start += 3) {
          // (up to a little past MEMO_MAX_CHARS: pieces too long to be remembered are counted each time)
          const end = Math.min(text.length, start + 1 + ((start * 7 + round) % (MEMO_MAX_CHARS + 10)));
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
  // The same for pieces too long to be held in their slots (INLINE_CHARS), compared in the arena.
  t.ok('gqzsyvluvo'.length > INLINE_CHARS);
  const long = (piece: string): number => (piece === 'gqzsyvluvo' ? 3 : 4);
  t.equal(memo.count('gqzsyvluvo', 0, 10, long), 3);
  t.equal(memo.count('oqrtzmsqwh', 0, 10, long), 4, 'a colliding hash is not the same long piece');
  t.equal(memo.count('..gqzsyvluvo', 2, 12, long), 3, 'found again inside another text');
});
