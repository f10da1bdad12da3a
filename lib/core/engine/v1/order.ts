// The selection order of v1 units: printed score (binary32) descending, then id ascending
// in byte order. Units are taken lazily from a binary heap of sort keys (the score and the
// unit's position in the match list, ../../../f32.ts) — so a query pays for the
// units its budget reaches, not for sorting every match. Units of equal score come out
// together and are put in id order: by the caller's comparison of two units' ids, or, once a
// group of many ties appears, by its table of id ranks (numbers, not strings).

import { descendingScoreKey, RANK_BITS, scorePartOfKey } from '../../../f32.js';

const MANY_TIES = 256;

/** Matched units in selection order, one at a time (-1 when none is left). */
export class UnitQueue {
  private readonly units: Uint32Array;
  private readonly heap: Float64Array;
  private size: number;
  private group: number[] = [];
  private at = 0;
  private readonly compareIds: (a: number, b: number) => number;
  private readonly ranks: () => Uint32Array;
  /** A fallback for more units than RANK_BITS: the whole order, sorted up front. */
  private readonly sorted: number[] | null = null;

  /**
   * `compareIds(a, b)`: units a and b in the byte order of their ids; `ranks()`: every unit's
   * rank in that order (asked for once a group of many ties appears).
   */
  constructor(units: Uint32Array, scores: Float64Array, compareIds: (a: number, b: number) => number, ranks: () => Uint32Array) {
    this.units = units;
    this.compareIds = compareIds;
    this.ranks = ranks;
    const n = units.length;
    this.heap = new Float64Array(n > RANK_BITS ? 0 : n);
    this.size = this.heap.length;
    if (n > RANK_BITS) {
      const f32 = (u: number): number => Math.fround(scores[u] as number);
      this.sorted = Array.from(units).sort((a, b) => f32(b) - f32(a) || compareIds(a, b));
      return;
    }
    // binary64 scores, keyed by their binary32 rounding: the value printed.
    for (let i = 0; i < n; i++) this.heap[i] = descendingScoreKey(scores[units[i] as number] as number, i);
    for (let i = (n >>> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  next(): number {
    if (this.sorted !== null) return this.at < this.sorted.length ? (this.sorted[this.at++] as number) : -1;
    if (this.at < this.group.length) return this.group[this.at++] as number;
    if (this.size === 0) return -1;
    const first = this.pop();
    const score = scorePartOfKey(first);
    const group = [this.units[first % RANK_BITS] as number];
    while (this.size > 0 && scorePartOfKey(this.heap[0] as number) === score) {
      group.push(this.units[this.pop() % RANK_BITS] as number);
    }
    if (group.length > 1) {
      if (group.length >= MANY_TIES) {
        const rankOf = this.ranks();
        group.sort((a, b) => (rankOf[a] as number) - (rankOf[b] as number));
      } else group.sort(this.compareIds);
    }
    this.group = group;
    this.at = 1;
    return group[0] as number;
  }

  private pop(): number {
    const heap = this.heap;
    const top = heap[0] as number;
    this.size--;
    if (this.size > 0) {
      heap[0] = heap[this.size] as number;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const size = this.size;
    const key = heap[i] as number;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && (heap[r] as number) < (heap[l] as number) ? r : l;
      if ((heap[c] as number) >= key) break;
      heap[i] = heap[c] as number;
      i = c;
    }
    heap[i] = key;
  }
}
