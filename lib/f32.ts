// Prints a binary32 value the way Rust's serde_json prints an f32 (the ryu crate): the
// shortest decimal digits that round-trip in binary32, laid out as ryu's `format32` does —
// `0.0`, `0.75`, `0.33333334`, `2.0`, `0.000001`, `1e-7`, `5.9604645e-8`.

/** Shortest digits (no trailing zeros) and the power of ten of the last digit. */
function shortestDigits(v: number): { digits: string; exp: number } {
  bitsCell[0] = v;
  const bits = bitsOf[0] as number;
  const biased = bits >>> 23;
  // Away from a power of two (and from subnormals) the values that round to v lie
  // symmetrically around it, so when the nearest p-digit decimal misses, both its
  // neighbours (no nearer) miss too: only the nearest is tried (the same digits as
  // byCandidates, ~5x faster; spec-tests/f32.test.ts compares the two).
  if ((bits & 0x7fffff) === 0 || biased === 0 || biased === 0xff) return byCandidates(v);
  for (let p = 1; p <= 9; p++) {
    const text = v.toExponential(p - 1);
    if (Math.fround(Number(text)) !== v) continue;
    const e = text.indexOf('e');
    let digits = p === 1 ? text.slice(0, 1) : text.slice(0, 1) + text.slice(2, e);
    let shift = Number(text.slice(e + 1)) - (p - 1);
    let end = digits.length;
    while (end > 1 && digits.charCodeAt(end - 1) === 0x30) {
      end--;
      shift++;
    }
    if (end < digits.length) digits = digits.slice(0, end);
    return { digits, exp: shift };
  }
  /* c8 ignore next 2 */
  throw new RangeError('f32: no round-trip representation found');
}

const bitsCell = new Float32Array(1);
const bitsOf = new Uint32Array(bitsCell.buffer);

/**
 * shortestDigits for every value: at each precision the nearest decimal, then both its
 * neighbours (needed at a power of two, where the rounding interval is lopsided).
 */
export function byCandidates(v: number): { digits: string; exp: number } {
  for (let p = 1; p <= 9; p++) {
    // toExponential gives the correctly rounded p-digit decimal nearest to v (exact here:
    // v is a binary32 value, exactly representable as a double).
    const [mant, e] = v.toExponential(p - 1).split('e') as [string, string];
    const nearest = BigInt(mant.replace('.', ''));
    const exp = Number(e) - (p - 1);
    // Near a power of two the rounding interval is lopsided, so the nearest p-digit
    // decimal may miss it while its neighbour hits it: try nearest first, then both sides.
    for (const candidate of [nearest, nearest - 1n, nearest + 1n]) {
      if (candidate <= 0n) continue;
      if (Math.fround(Number(`${candidate}e${exp}`)) === v) {
        let digits = candidate.toString();
        let shift = exp;
        while (digits.length > 1 && digits.endsWith('0')) {
          digits = digits.slice(0, -1);
          shift++;
        }
        return { digits, exp: shift };
      }
    }
  }
  /* c8 ignore next 2 */
  throw new RangeError('f32: no round-trip representation found');
}

/** The shortest digits of a positive finite binary32 value `v` (for tests). */
export function shortestDigitsOf(v: number): { digits: string; exp: number } {
  return shortestDigits(v);
}

// Printed values, remembered: an answer-scope choice prints the same scores many times while
// it prices entries, and finding the shortest digits is the costly part of printing. Bounded
// (started over when full), so it never holds more than FORMATTED_MAX strings.
const FORMATTED_MAX = 4096;
const formatted = new Map<number, string>();

/** Formats a finite binary32 value (given as a number holding it exactly). */
export function formatF32(value: number): string {
  if (value === 0) return formatNew(value); // the map would take -0 for 0
  const known = formatted.get(value);
  if (known !== undefined) return known;
  const text = formatNew(value);
  if (formatted.size >= FORMATTED_MAX) formatted.clear();
  formatted.set(value, text);
  return text;
}

function formatNew(value: number): string {
  const v = Math.fround(value);
  if (!Number.isFinite(v)) throw new RangeError('f32: not finite');
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const sign = v < 0 ? '-' : '';
  const { digits, exp: k } = shortestDigits(Math.abs(v));
  const length = digits.length;
  const kk = length + k; // 10^(kk-1) <= |v| < 10^kk
  let body: string;
  if (k >= 0 && kk <= 13) {
    body = digits + '0'.repeat(k) + '.0';
  } else if (kk > 0 && kk <= 13) {
    body = digits.slice(0, kk) + '.' + digits.slice(kk);
  } else if (kk > -6 && kk <= 0) {
    body = '0.' + '0'.repeat(-kk) + digits;
  } else if (length === 1) {
    body = `${digits}e${kk - 1}`;
  } else {
    body = `${digits[0]}.${digits.slice(1)}e${kk - 1}`;
  }
  return sign + body;
}

/** term_matches / total_words in binary32 (each converted to f32, f32 division). */
export function f32Ratio(numerator: number, denominator: number): number {
  if (denominator === 0) return 0;
  return Math.fround(Math.fround(numerator) / Math.fround(denominator));
}

// Sort keys for "score descending (as binary32), then a rank ascending", shared by v0's
// selection and v1's unit queue: the score's binary32 bits, inverted so that a higher
// score sorts first (for non-negative floats the bit patterns order as the values do),
// above the rank in the low 21 bits — 32 + 21 = 53 bits, exact in a double, so a
// Float64Array of keys sorts (or heaps) natively, several times faster than a comparator.
export const RANK_BITS = 2 ** 21;
const keyCell = new Float32Array(1);
const keyBits = new Uint32Array(keyCell.buffer);

/** The key of a non-negative `score` (rounded to binary32) and a `rank` below RANK_BITS. */
export function descendingScoreKey(score: number, rank: number): number {
  keyCell[0] = score;
  return (0xffffffff - (keyBits[0] as number)) * RANK_BITS + rank;
}

/** The score part of a key: equal exactly when the binary32 scores are equal. */
export function scorePartOfKey(key: number): number {
  return Math.floor(key / RANK_BITS);
}
