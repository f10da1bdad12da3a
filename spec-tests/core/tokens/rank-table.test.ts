// Checks lib/core/tokens/rank-table.ts and scripts/rank-tables.mjs: "`npm run build` writes
// each encoding's tokens once more, from the package's own table ... as plain bytes" and
// "mergeCount counts a piece's tokens by byte-pair merging on it, as the encoding does"
// (Builds at native speed on real text, item 4: exact tokens for a fraction of the cost;
// item 6: cold resolve near the process floor).
import t from 'tap';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { devPages } from './dev-pages.js';
import { heapMergeCount, mergeCount, RankTable, SCAN_MERGE_MAX_BYTES, scanMergeCount } from '../../../lib/core/tokens/rank-table.js';
import { counterSource, SPLIT_PATTERNS, tokenCounter } from '../../../lib/core/tokens/count.js';

const require = createRequire(import.meta.url);
interface Core {
  tokenSplitRegex: RegExp;
  bytePairRankDecoder: (string | number[] | undefined)[];
  bytePairEncode(piece: string): number[];
}
const coreOf = (name: string): Core =>
  (require(`gpt-tokenizer/cjs/encoding/${name}`) as { default: { bytePairEncodingCoreProcessor: Core } }).default.bytePairEncodingCoreProcessor;
const utf8 = new TextEncoder();
const tableFile = (name: string): URL => new URL(`../../../dist/ranks/${name}.ranks`, import.meta.url);
const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

t.test('rank-tables.mjs: the file holds every token of the package\'s table, its bytes at its rank', async (t) => {
  for (const name of ['o200k_base', 'cl100k_base']) {
    const table = RankTable.fromBytes(readFileSync(tableFile(name)));
    const decoder = coreOf(name).bytePairRankDecoder;
    t.equal(table.size, decoder.length, `${name}: ${decoder.length} ranks`);
    let wrong = 0;
    for (let r = 0; r < decoder.length; r++) {
      const v = decoder[r];
      const want = v === undefined ? new Uint8Array(0) : typeof v === 'string' ? utf8.encode(v) : Uint8Array.from(v);
      const got = table.bytesOf(r);
      if (!same(got, want)) wrong++;
      else if (got.length > 0 && table.rank(got, 0, got.length) !== r) wrong++; // found again by its bytes
    }
    t.equal(wrong, 0, `${name}: every rank's bytes, and each found again by them`);
    t.equal(table.rank(utf8.encode('\u0000\u0001\u0002\u0003zzqqxxjj'), 0, 12), -1, `${name}: bytes that are no token have no rank`);
  }
});

t.test('rank-table.ts: the file format is checked, a damaged file is refused', async (t) => {
  const tokens = [utf8.encode('a'), utf8.encode('b'), new Uint8Array(0), utf8.encode('ab'), Uint8Array.from([0xff, 0xfe])];
  const bytes = RankTable.toBytes(tokens);
  const table = RankTable.fromBytes(bytes);
  t.equal(table.size, 5);
  t.same([...table.bytesOf(3)], [...utf8.encode('ab')]);
  t.equal(table.rank(utf8.encode('xab'), 1, 3), 3, 'a range inside other bytes');
  t.equal(table.rank(Uint8Array.from([0xff, 0xfe]), 0, 2), 4, 'bytes that are not UTF-8');
  t.equal(table.rank(new Uint8Array(0), 0, 0), -1, 'an unused rank is never found');
  // Bytes that differ from a token in one byte only are not it, though they land where it
  // is ('A' and 'a' are 32 apart: FNV-1a's low bits, the slot, are the same for both).
  const upper = 'ABCDEFGHIJKLM';
  const near = RankTable.fromBytes(RankTable.toBytes([...upper].map((c) => utf8.encode(`q${c}`))));
  t.same([...upper].map((c) => near.rank(utf8.encode(`q${c}`), 0, 2)), [...upper].map((_, i) => i), 'each token found');
  t.same([...upper.toLowerCase()].map((c) => near.rank(utf8.encode(`q${c}`), 0, 2)), [...upper].map(() => -1), 'every byte is compared');
  t.throws(() => RankTable.fromBytes(bytes.subarray(0, bytes.length - 1)), { name: 'RankTableError' }, 'truncated arena');
  t.throws(() => RankTable.fromBytes(bytes.subarray(0, 10)), { name: 'RankTableError' }, 'truncated header');
  const wrongMagic = Uint8Array.from(bytes);
  wrongMagic[0] = 0x41;
  t.throws(() => RankTable.fromBytes(wrongMagic), { name: 'RankTableError' }, 'not a rank table');
  t.throws(() => RankTable.fromBytes(RankTable.toBytes([utf8.encode('a'), utf8.encode('a')])), { name: 'RankTableError' }, 'two ranks with the same bytes');
  const badEnds = Uint8Array.from(bytes);
  new DataView(badEnds.buffer).setUint32(48, 99, true); // rank 0 ends past the arena
  t.throws(() => RankTable.fromBytes(badEnds), { name: 'RankTableError', message: 'the bytes do not match their digest' }, 'a rank outside the arena: its digest no longer matches');
  const badSlot = Uint8Array.from(bytes);
  new DataView(badSlot.buffer).setInt32(48 + 4 * 5, 3, true); // a slot's rank changed
  t.throws(() => RankTable.fromBytes(badSlot), { name: 'RankTableError', message: 'the bytes do not match their digest' }, 'a changed slot: refused, never a wrong lookup');
  const badCount = Uint8Array.from(bytes);
  new DataView(badCount.buffer).setUint32(12, 12, true);
  t.throws(() => RankTable.fromBytes(badCount), { name: 'RankTableError' }, 'a slot count that is not a power of two');
  const tooFew = Uint8Array.from(bytes);
  new DataView(tooFew.buffer).setUint32(12, 4, true);
  t.throws(() => RankTable.fromBytes(tooFew), { name: 'RankTableError' }, 'fewer slots than twice the ranks');
  // A file read at an offset that is not a multiple of 4 (no typed array view there): read word by word, the same table.
  const shifted = new Uint8Array(bytes.length + 1);
  shifted.set(bytes, 1);
  const copied = RankTable.fromBytes(shifted.subarray(1));
  t.same([0, 1, 3, 4].map((r) => copied.rank(table.bytesOf(r), 0, table.bytesOf(r).length)), [0, 1, 3, 4], 'every token found in a table read from unaligned bytes');
  t.equal(copied.rank(utf8.encode('ba'), 0, 2), -1);
});

t.test('rank-table.ts: the slots stored in a file are the ones built from its tokens', async (t) => {
  for (const name of ['o200k_base', 'cl100k_base']) {
    const file = readFileSync(tableFile(name));
    const read = RankTable.fromBytes(file);
    const tokens = Array.from({ length: read.size }, (_, r) => read.bytesOf(r));
    t.ok(same(RankTable.toBytes(tokens), file), `${name}: written again from its tokens, the same bytes`);
  }
});

t.test('rank-table.ts: the byte merge leaves as many tokens as the package\'s byte-pair encoding', async (t) => {
  const pages = devPages();
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const core = coreOf(name);
    const table = RankTable.fromBytes(readFileSync(tableFile(name)));
    const countOf = (piece: string): number => {
      const b = utf8.encode(piece);
      return table.rank(b, 0, b.length) >= 0 ? 1 : mergeCount(b, b.length, table);
    };
    // Every distinct piece of the dev sets, ASCII or not.
    const pieces = new Set<string>();
    for (const page of pages) for (const m of page.matchAll(new RegExp(SPLIT_PATTERNS[name], 'gu'))) pieces.add(m[0]);
    let wrong = 0;
    let nonAscii = 0;
    for (const piece of pieces) {
      if (/[^\x00-\x7f]/u.test(piece)) nonAscii++;
      if (countOf(piece) !== core.bytePairEncode(piece).length) wrong++;
    }
    t.equal(wrong, 0, `${name}: ${pieces.size} distinct pieces of the dev sets (${nonAscii} not ASCII)`);
    const piece = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
      fc.array(fc.constantFrom('a', 'th', 'ing', 'é', 'ü', '日本', 'Ωμ', '😀', '\u0301', '\ud800', ' ', '_', '0'), { minLength: 1, maxLength: 20 }).map((u) => u.join('')),
    );
    fc.assert(fc.property(piece, (p) => countOf(p) === core.bytePairEncode(p).length), { numRuns: 3000, seed: 7 });
    t.pass(`${name}: 3,000 random pieces (any code point, lone surrogates)`);
  }
  const toy = (...tokens: string[]): RankTable => RankTable.fromBytes(RankTable.toBytes(tokens.map((x) => utf8.encode(x))));
  const merge = (s: string, table: RankTable): number => mergeCount(utf8.encode(s), s.length, table);
  const ab = toy('a', 'b', 'c', 'ab');
  t.equal(mergeCount(new Uint8Array(0), 0, ab), 0);
  t.equal(merge('c', ab), 1);
  t.equal(merge('ccc', ab), 3, 'no pair is a token: one per byte');
  t.equal(merge('abab', ab), 2, 'both equal pairs merge');
  t.equal(merge('ab'.repeat(600), ab), 600, 'a piece longer than the scratch arrays first held');
  t.equal(merge('abc', toy('a', 'b', 'c', 'bc', 'ab', 'abc')), 1, 'the lowest rank first, then the joined parts');
  // "aaab": the leftmost "aa" joins first, leaving aa|a|b (no more tokens); the right one
  // would have left a|aa|b and then a|aab.
  t.equal(merge('aaab', toy('a', 'b', 'aa', 'aab')), 3, 'the leftmost pair on a tie');
});

// Issue 44 item 2, "bounded work per token": docs/engine.md "Counting pieces once" — pieces
// over SCAN_MERGE_MAX_BYTES are merged over a heap, O(n log n), with the same joins in the
// same order as the scan, so every count stays exact at every length.
t.test('rank-table.ts: the heap merge leaves what the scan and the package leave, at every length', async (t) => {
  t.equal(SCAN_MERGE_MAX_BYTES, 128, 'the documented bound');
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const core = coreOf(name);
    const table = RankTable.fromBytes(readFileSync(tableFile(name)));
    const three = (piece: string): [number, number, number] => {
      const b = utf8.encode(piece);
      return [heapMergeCount(b, b.length, table), scanMergeCount(b, b.length, table), core.bytePairEncode(piece).length];
    };
    // Long runs of one letter (every pair ties: the leftmost rule decides all), of a few
    // letters, of digits-free words repeated, across the bound and well past it.
    for (const n of [2, 3, 127, 128, 129, 130, 255, 256, 257, 1000, 2049]) {
      for (const piece of ['a'.repeat(n), 'ab'.repeat(n).slice(0, n), 'é'.repeat(n), ' '.repeat(n), '='.repeat(n)]) {
        const [heap, scan, want] = three(piece);
        if (heap !== want || scan !== want) t.fail(`${name}: ${JSON.stringify(piece.slice(0, 8))} x${piece.length}: heap ${heap}, scan ${scan}, package ${want}`);
      }
    }
    // Random pieces of any length up to 3,000 characters: words of cased letters, any code
    // point, punctuation runs, with repeats (ties) and multi-byte characters.
    const piece = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 400 }),
      fc.array(fc.constantFrom('a', 'e', 'th', 'ing', 'tion', 'Z', 'é', 'ü', '日本', 'Ωμ', '😀', '\u0301', '\ud800', '_', '=', '/'), { minLength: 1, maxLength: 1200 }).map((u) => u.join('')),
      fc.tuple(fc.constantFrom('a', 'x', 'ab', 'abc', 'q', '-'), fc.integer({ min: 1, max: 3000 })).map(([u, k]) => u.repeat(k)),
    );
    fc.assert(
      fc.property(piece, (p) => {
        const [heap, scan, want] = three(p);
        return heap === want && scan === want;
      }),
      { numRuns: 200, seed: 44 },
    );
    t.pass(`${name}: 200 random pieces of up to 3,000 characters: heap = scan = the package's bytePairEncode`);
  }
  const toy = (...tokens: string[]): RankTable => RankTable.fromBytes(RankTable.toBytes(tokens.map((x) => utf8.encode(x))));
  const heap = (s: string, table: RankTable): number => heapMergeCount(utf8.encode(s), s.length, table);
  t.equal(heap('aaab', toy('a', 'b', 'aa', 'aab')), 3, 'the leftmost pair on a tie');
  t.equal(heap('abc', toy('a', 'b', 'c', 'bc', 'ab', 'abc')), 1, 'the lowest rank first, then the joined parts');
  t.equal(heap('ab'.repeat(3000), toy('a', 'b', 'c', 'ab')), 3000, 'a piece longer than the heap first held');
  t.equal(heap('x', toy('x')), 1);
  t.equal(heapMergeCount(new Uint8Array(0), 0, toy('a')), 0);
});

t.test('rank-table.ts: a piece of 1 MB merges in time linear in its bytes (the heap), not quadratic (the scan)', async (t) => {
  const table = RankTable.fromBytes(readFileSync(tableFile('o200k_base')));
  // One lower-case word of pseudo-random letters: no piece repeats, every byte merged.
  const word = (n: number): Uint8Array => {
    let x = 99;
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      b[i] = 97 + ((x >> 8) % 26);
    }
    return b;
  };
  const cpu = (b: Uint8Array): number => {
    let best = Infinity;
    for (let k = 0; k < 3; k++) {
      const c0 = process.cpuUsage();
      mergeCount(b, b.length, table);
      const c = process.cpuUsage(c0);
      best = Math.min(best, c.user + c.system);
    }
    return best;
  };
  const small = word(1 << 16);
  const large = word(1 << 18);
  cpu(small);
  const ratio = cpu(large) / Math.max(1, cpu(small));
  // Linear: 4x the bytes, ~4x the time (n log n: ~4.5x); the scan's O(n^2): ~16x.
  t.ok(ratio < 9, `256 KB against 64 KB: ${ratio.toFixed(1)}x the CPU time (linear: 4, quadratic: 16)`);
  const whole = word(1 << 20);
  const c0 = process.cpuUsage();
  const n = mergeCount(whole, whole.length, table);
  const c = process.cpuUsage(c0);
  t.ok(n > 0 && n < whole.length, `1 MB word: ${n} tokens in ${((c.user + c.system) / 1000).toFixed(0)} ms of CPU`);
});

// pairRank: "`rank` of those two bytes, remembered".
t.test('rank-table.ts: pairRank is rank of the two bytes, for every pair, asked once or twice', async (t) => {
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const table = RankTable.fromBytes(readFileSync(tableFile(name)));
    let wrong = 0;
    let tokens = 0;
    for (let round = 0; round < 2; round++) {
      for (let a = 0; a < 256; a++) {
        for (let b = 0; b < 256; b++) {
          const r = table.rank(Uint8Array.of(a, b), 0, 2);
          if (round === 0 && r >= 0) tokens++;
          if (table.pairRank(a, b) !== r) wrong++;
        }
      }
    }
    t.equal(wrong, 0, `${name}: 2 x 65,536 pairs (${tokens} of them tokens)`);
  }
});

t.test('count.ts: a built checkout counts from its rank files, exactly as the package does', async (t) => {
  const ORDINARY = { disallowedSpecial: new Set<string>() };
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const count = tokenCounter(name);
    t.equal(counterSource(name), 'table', `${name}: the ranks came from dist/ranks, not the package`);
    const encoding = require(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens(text: string, o: object): number };
    const text = 'naïve café 日本語 😀 <|endoftext|> \ud800 don\'t    stop\r\n';
    t.equal(count(text), encoding.countTokens(text, ORDINARY), `${name}: mixed text`);
    t.equal(count(''), 0);
  }
  t.equal(counterSource('bytes4'), null, 'bytes4 needs no ranks');
});
