// Checks DESIGN.md "Byte-exact output": score is a binary32 value (term_matches /
// total_words, both converted to f32, f32 division) printed as Rust's serde_json/ryu
// prints an f32. The vectors were produced by Rust itself (scripts/gen-f32-vectors.rs).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { descendingScoreKey, f32Ratio, formatF32, RANK_BITS, scorePartOfKey } from '../lib/f32.js';

const vectors = readFileSync(new URL('./fixtures/f32-scores.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => line.split(' ') as [string, string, string]);

t.test('every Rust-generated score prints identically', async (t) => {
  t.ok(vectors.length > 12000, 'the vector file is complete');
  const mismatches: string[] = [];
  for (const [m, w, expected] of vectors) {
    const got = formatF32(f32Ratio(Number(m), Number(w)));
    if (got !== expected) mismatches.push(`${m}/${w}: got ${got}, want ${expected}`);
  }
  t.same(mismatches.slice(0, 20), [], 'no score prints differently from Rust');
});

t.test('the examples DESIGN.md names', async (t) => {
  t.equal(formatF32(0), '0.0');
  t.equal(formatF32(0.75), '0.75');
  t.equal(formatF32(f32Ratio(1, 3)), '0.33333334');
  t.equal(formatF32(1), '1.0');
  t.equal(formatF32(2), '2.0');
  t.equal(formatF32(f32Ratio(1, 10_000_000)), '1e-7', 'very small values use the exponent form');
});

t.test('f32 division, not f64', async (t) => {
  t.not(f32Ratio(1, 3), 1 / 3, 'the ratio is rounded to binary32');
  t.equal(f32Ratio(1, 3), Math.fround(1 / 3));
  t.equal(f32Ratio(5, 0), 0, 'zero words score 0.0');
});

t.test('plain doubles (not scores) print losslessly', async (t) => {
  const { compact } = await import('../lib/json.js');
  t.equal(compact({ a: 87.5, b: 87.34, c: 1 / 3, d: 1e-7, e: 3 }), '{"a":87.5,"b":87.34,"c":0.3333333333333333,"d":1e-7,"e":3}');
  t.throws(() => compact({ a: Number.NaN }), TypeError, 'NaN is refused, never printed as null');
});

t.test('sort keys: score descending as binary32, then rank ascending; exact below RANK_BITS', async (t) => {
  const cases: [number, number][] = [[0, 5], [0.75, 0], [0.75, 3], [1e-7, 1], [3.9991407, RANK_BITS - 1], [2, 2], [0.1, 7]];
  const byKey = [...cases].sort((a, b) => descendingScoreKey(a[0], a[1]) - descendingScoreKey(b[0], b[1]));
  const byRule = [...cases].sort((a, b) => Math.fround(b[0]) - Math.fround(a[0]) || a[1] - b[1]);
  t.same(byKey, byRule);
  // Two binary64 values with one binary32 rounding share a score part; ranks keep them apart.
  const a = 0.1;
  const b = 0.1 + 1e-12;
  t.equal(Math.fround(a), Math.fround(b));
  t.equal(scorePartOfKey(descendingScoreKey(a, 0)), scorePartOfKey(descendingScoreKey(b, RANK_BITS - 1)));
  t.ok(Number.isSafeInteger(descendingScoreKey(0, RANK_BITS - 1)), 'the largest key is an exact integer');
});

// lib/f32.ts: "Printed values, remembered ... Bounded (started over when full)": a value
// printed again, or after the memo started over, prints the same; 0 and -0 stay apart.
t.test('a remembered value prints as it did the first time', async (t) => {
  const values = Array.from({ length: 10_000 }, (_, i) => Math.fround((i * 7919) / 977 + i / 3));
  const first = values.map((v) => formatF32(v));
  const again = values.map((v) => formatF32(v));
  t.same(again, first, '10,000 values (more than the memo holds), printed twice');
  t.equal(formatF32(values[0]!), first[0], 'and after it started over');
  t.equal(formatF32(-0), '-0.0');
  t.equal(formatF32(0), '0.0');
  t.equal(formatF32(-0), '-0.0', '-0 is not taken for 0');
  t.equal(formatF32(0.1), formatF32(0.1 + 1e-12), 'two doubles with one binary32 rounding print alike');
  t.throws(() => formatF32(Number.POSITIVE_INFINITY), RangeError);
  t.throws(() => formatF32(Number.POSITIVE_INFINITY), RangeError, 'refused again, never remembered');
});

// lib/f32.ts shortestDigits: away from powers of two only the nearest decimal of each
// precision is tried; it must give the digits the full candidate search gives, everywhere.
t.test('the nearest-only search gives the candidate search digits', async (t) => {
  const { byCandidates, shortestDigitsOf } = await import('../lib/f32.js');
  const cell = new Float32Array(1);
  const bits = new Uint32Array(cell.buffer);
  let state = 0x9e3779b9;
  const random = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const values: number[] = [];
  for (let i = 0; i < 150_000; i++) {
    bits[0] = random() & 0x7fffffff;
    if (bits[0] >>> 23 === 0xff || bits[0] === 0) continue;
    values.push(cell[0] as number);
  }
  // Scores as selection prints them (BM25 sums in 0..100), and every power of two with its neighbours.
  for (let i = 1; i < 50_000; i++) values.push(Math.fround((i * 7919) / 977 + i / 3), Math.fround(i / 4093));
  for (let e = 1; e < 255; e++) {
    for (let d = -3; d <= 3; d++) {
      bits[0] = ((e << 23) + d) >>> 0;
      if (bits[0] >>> 23 !== 0xff && bits[0] !== 0 && bits[0] < 0x80000000) values.push(cell[0] as number);
    }
  }
  const mismatches: string[] = [];
  for (const v of values) {
    const fast = shortestDigitsOf(v);
    const full = byCandidates(v);
    if (fast.digits !== full.digits || fast.exp !== full.exp) mismatches.push(`${v}: ${fast.digits}e${fast.exp} against ${full.digits}e${full.exp}`);
  }
  t.ok(values.length > 240_000, 'random values, scores and powers of two');
  t.same(mismatches.slice(0, 10), [], 'the same digits for every value');
});
