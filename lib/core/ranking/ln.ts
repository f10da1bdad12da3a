// A natural logarithm computed with IEEE-754 basic operations only (+, -, *, /), each
// correctly rounded by the standard, in a fixed order: the same bits on every machine and
// JavaScript engine. Math.log is not specified to that precision (ECMAScript leaves it
// "implementation-approximated"), so scores that depend on it could differ by an ulp.

const SQRT2 = Math.SQRT2;
const SQRT1_2 = Math.SQRT1_2;
const LN2 = Math.LN2;
/** Odd powers summed: |s| <= 0.1716 after range reduction, so s^41 is far below an ulp. */
const SERIES_TERMS = 20;

/** ln(x) for finite x > 0: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), then the atanh series. */
export function ln(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) throw new RangeError(`ln: ${x} is not a finite positive number`);
  let m = x;
  let e = 0;
  // Scaling by 2 is exact for normal numbers, so range reduction adds no rounding.
  while (m >= SQRT2) {
    m /= 2;
    e++;
  }
  while (m < SQRT1_2) {
    m *= 2;
    e--;
  }
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  let power = s;
  let sum = 0;
  for (let k = 0; k < SERIES_TERMS; k++) {
    sum += power / (2 * k + 1);
    power *= s2;
  }
  return 2 * sum + e * LN2;
}
