// An encoding's byte-pair ranks as one file that loads in a few milliseconds.
//
// gpt-tokenizer holds each encoding as a JavaScript module: a 2.4 MB array literal that V8
// compiles and runs, then a Map from every token's text to its rank. Loading o200k_base
// that way costs ~140 ms of every process that counts (a one-shot `context resolve`, each
// build thread, the MCP server's start), more than the rest of a cold resolve's work. So
// `npm run build` writes each encoding's tokens once more, from the package's own table
// (scripts/rank-tables.mjs), as plain bytes:
//
//   "CTXRANK2"                      8 bytes
//   count                           u32 little-endian: ranks 0 .. count-1
//   slot count                      u32 little-endian: a power of two, at least 2 * count
//   digest                          32 bytes: the sha256 of everything after these 48 bytes
//   ends[0 .. count-1]              u32 little-endian: token r is arena[ends[r-1] .. ends[r])
//                                   (ends[-1] = 0; a rank the encoding does not use is empty)
//   slots[0 .. slot count-1]        i32 little-endian: the open-addressing table below (-1: empty)
//   arena                           every token's bytes, in rank order
//
// and RankTable reads it: a token is found by its bytes through an open-addressing table of
// ranks (FNV-1a of the bytes, then a byte compare). The table is built once, when the file
// is written, and stored in it: a process that counts checks the digest (~3 ms) and reads
// the ends and slots where they lie in the file, instead of hashing every token again
// (~200,000 hashes: ~20 ms of a cold process, such as a one-shot `context resolve`, in
// cold code). mergeCount counts a piece's tokens by byte-pair merging on it, as the encoding
// does: start from single bytes, repeatedly join the adjacent pair whose joined bytes have
// the lowest rank (the leftmost such pair on a tie), until no adjacent pair is a token; the
// count is the parts left. The ranks of two-byte pairs, which a merge asks of every pair of
// a piece's bytes first, are remembered as they are asked (`pairRank`). A piece of up to
// 128 bytes is merged by scanning its pairs for the lowest at each join, a longer one over a
// heap of its pairs (the same joins, O(log n) each instead of O(n)), so a piece of any
// length costs time about linear in its bytes. Tests hold every rank equal to the package's table and every count
// equal to the package's countTokens (count.test.ts, rank-table.test.ts).

import { fnv1a, sha256Hex } from '../hash.js';

const MAGIC = 'CTXRANK2';
const HEADER_BYTES = 48;
const DIGEST_AT = 16;
/** Typed arrays read the file's little-endian words as they lie only on a little-endian machine. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

export class RankTableError extends Error {
  override readonly name = 'RankTableError';
}

export class RankTable {
  readonly #arena: Uint8Array;
  readonly #ends: Uint32Array;
  readonly #slots: Int32Array; // a rank, or -1: empty
  readonly #mask: number;
  /** The rank of each two-byte token (a << 8 | b), -1: none, -2: not asked yet (filled as asked). */
  #pairs: Int32Array | null = null;

  /**
   * Token r is `arena[ends[r-1] .. ends[r])` (an empty range: a rank not used). The slots
   * are built here, or given (`slots`: as this constructor built them, read from a file
   * whose digest was checked).
   */
  constructor(arena: Uint8Array, ends: Uint32Array, slots?: Int32Array) {
    this.#arena = arena;
    this.#ends = ends;
    if (slots !== undefined) {
      this.#slots = slots;
      this.#mask = slots.length - 1;
      return;
    }
    let size = 2;
    while (size < ends.length * 2) size *= 2;
    this.#mask = size - 1;
    this.#slots = new Int32Array(size).fill(-1);
    let start = 0;
    for (let r = 0; r < ends.length; r++) {
      const end = ends[r]!;
      if (end < start || end > arena.length) throw new RankTableError(`rank ${r} ends outside the table`);
      if (end > start) {
        let slot = fnv1a(arena, start, end) & this.#mask;
        while (this.#slots[slot] !== -1) {
          if (this.#sameBytes(this.#slots[slot]!, arena, start, end)) throw new RankTableError(`rank ${r} repeats rank ${this.#slots[slot]}'s bytes`);
          slot = (slot + 1) & this.#mask;
        }
        this.#slots[slot] = r;
      }
      start = end;
    }
  }

  /** The table in `file`'s bytes (the format above); RankTableError when they are not one. */
  static fromBytes(file: Uint8Array): RankTable {
    if (file.length < HEADER_BYTES || String.fromCharCode(...file.subarray(0, 8)) !== MAGIC) throw new RankTableError('not a rank table');
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    const count = view.getUint32(8, true);
    const slotCount = view.getUint32(12, true);
    if ((slotCount & (slotCount - 1)) !== 0 || slotCount < Math.max(2, count * 2)) throw new RankTableError('the slot count is not a power of two at least twice the ranks');
    const slotsAt = HEADER_BYTES + 4 * count;
    const arenaStart = slotsAt + 4 * slotCount;
    if (arenaStart > file.length) throw new RankTableError('truncated');
    if (sha256Hex(file.subarray(HEADER_BYTES)) !== Buffer.from(file.subarray(DIGEST_AT, HEADER_BYTES)).toString('hex')) throw new RankTableError('the bytes do not match their digest');
    let ends: Uint32Array;
    let slots: Int32Array;
    if (LITTLE_ENDIAN && file.byteOffset % 4 === 0) {
      ends = new Uint32Array(file.buffer, file.byteOffset + HEADER_BYTES, count);
      slots = new Int32Array(file.buffer, file.byteOffset + slotsAt, slotCount);
    } else {
      ends = new Uint32Array(count);
      for (let r = 0; r < count; r++) ends[r] = view.getUint32(HEADER_BYTES + 4 * r, true);
      slots = new Int32Array(slotCount);
      for (let k = 0; k < slotCount; k++) slots[k] = view.getInt32(slotsAt + 4 * k, true);
    }
    const arena = file.subarray(arenaStart);
    if ((count === 0 ? 0 : ends[count - 1]!) !== arena.length) throw new RankTableError('the arena is not the size the ranks say');
    return new RankTable(arena, ends, slots);
  }

  /** The file's bytes for `tokens` (token r's bytes at index r; empty: a rank not used). */
  static toBytes(tokens: readonly Uint8Array[]): Uint8Array {
    const arenaBytes = tokens.reduce((n, t) => n + t.length, 0);
    const arena = new Uint8Array(arenaBytes);
    const ends = new Uint32Array(tokens.length);
    let end = 0;
    tokens.forEach((t, r) => {
      arena.set(t, end);
      end += t.length;
      ends[r] = end;
    });
    const slots = new RankTable(arena, ends).#slots; // RankTableError when two ranks share bytes
    const slotsAt = HEADER_BYTES + 4 * tokens.length;
    const arenaStart = slotsAt + 4 * slots.length;
    const out = new Uint8Array(arenaStart + arenaBytes);
    const view = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) out[i] = MAGIC.charCodeAt(i);
    view.setUint32(8, tokens.length, true);
    view.setUint32(12, slots.length, true);
    ends.forEach((e, r) => view.setUint32(HEADER_BYTES + 4 * r, e, true));
    slots.forEach((v, k) => view.setInt32(slotsAt + 4 * k, v, true));
    out.set(arena, arenaStart);
    out.set(Buffer.from(sha256Hex(out.subarray(HEADER_BYTES)), 'hex'), DIGEST_AT);
    return out;
  }

  /** Ranks 0 .. size-1. */
  get size(): number {
    return this.#ends.length;
  }

  /** Token `r`'s bytes. */
  bytesOf(r: number): Uint8Array {
    return this.#arena.subarray(r === 0 ? 0 : this.#ends[r - 1]!, this.#ends[r]!);
  }

  /** The rank of the token whose bytes are `bytes[start .. end)`, or -1 when none is. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let slot = fnv1a(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
      const r = slots[slot]!;
      if (r === -1) return -1;
      if (this.#sameBytes(r, bytes, start, end)) return r;
    }
  }

  /**
   * The rank of the two bytes `a`, `b` as one token, or -1: `rank` of those two bytes,
   * remembered (a merge asks it of every adjacent pair of a piece's bytes).
   */
  pairRank(a: number, b: number): number {
    const pairs = (this.#pairs ??= new Int32Array(65536).fill(-2));
    const key = (a << 8) | b;
    let r = pairs[key]!;
    if (r === -2) {
      PAIR[0] = a;
      PAIR[1] = b;
      r = this.rank(PAIR, 0, 2);
      pairs[key] = r;
    }
    return r;
  }

  #sameBytes(r: number, bytes: Uint8Array, start: number, end: number): boolean {
    const arena = this.#arena;
    let a = r === 0 ? 0 : this.#ends[r - 1]!;
    if (this.#ends[r]! - a !== end - start) return false;
    for (let i = start; i < end; i++, a++) if (arena[a] !== bytes[i]) return false;
    return true;
  }
}


/** Two bytes asked of `rank` by pairRank. */
const PAIR = new Uint8Array(2);

// Scratch arrays of the merge, grown as pieces need.
let starts = new Int32Array(256);
let ranks = new Float64Array(256);

/**
 * Longest piece, in bytes, merged by scanning its pairs (scanMergeCount); a longer one is
 * merged over a heap (heapMergeCount). Both join the same pairs in the same order, so the
 * count is the same whichever runs (tested); the scan costs O(n) a join, O(n^2) a piece (a
 * 10 KB heading that is one word took ~1 s of a build, 40 KB minutes), the heap O(log n) a
 * join. Measured on the dev sets' distinct multi-token pieces (2026-11-27, best of 3, a
 * loaded 2-core host): up to 128 bytes the scan is as fast or faster (1.3 against 1.7 us a
 * piece of up to 8 bytes, 62 against 66 us for 65-128), from 129 bytes on the heap (73
 * against 60 us for 129-256, 337 against 240 us beyond); a 16 KB word 270 ms against 6-16 ms.
 */
export const SCAN_MERGE_MAX_BYTES = 128;

/**
 * The tokens of the piece `bytes[0 .. n)` by merging alone (above). The encoding first asks
 * whether the whole piece is a token; a caller that knows it is not may skip that, the
 * count is the same. Work bounded per byte (O(n log n) a piece): pieces over
 * SCAN_MERGE_MAX_BYTES are merged over a heap (heapMergeCount).
 */
export function mergeCount(bytes: Uint8Array, n: number, table: RankTable): number {
  return n > SCAN_MERGE_MAX_BYTES ? heapMergeCount(bytes, n, table) : scanMergeCount(bytes, n, table);
}

/** The rank of bytes[from .. to) as one token, Infinity when none is. */
function rankOf(bytes: Uint8Array, from: number, to: number, table: RankTable): number {
  const r = to - from === 2 ? table.pairRank(bytes[from]!, bytes[from + 1]!) : table.rank(bytes, from, to);
  return r < 0 ? Infinity : r;
}

/** mergeCount by scanning every pair for the lowest rank at each join: O(n) a join. */
export function scanMergeCount(bytes: Uint8Array, n: number, table: RankTable): number {
  if (n < 2) return n;
  if (starts.length < n + 1) {
    let size = starts.length;
    while (size < n + 1) size *= 2;
    starts = new Int32Array(size);
    ranks = new Float64Array(size);
  }
  // Part k starts at starts[k]; ranks[k] is the rank of parts k and k+1 joined (Infinity: none).
  for (let i = 0; i < n; i++) {
    starts[i] = i;
    ranks[i] = i + 2 <= n ? rankOf(bytes, i, i + 2, table) : Infinity;
  }
  starts[n] = n;
  let parts = n;
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let k = 0; k < parts - 1; k++) {
      if (ranks[k]! < best) {
        best = ranks[k]!;
        at = k;
      }
    }
    if (at < 0) return parts;
    // Join parts at and at+1 (drop start at+1), then re-rank the pairs that changed.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at + 1, at + 2, parts);
    parts--;
    ranks[at] = at + 2 <= parts ? rankOf(bytes, starts[at]!, starts[at + 2]!, table) : Infinity;
    if (at > 0) ranks[at - 1] = rankOf(bytes, starts[at - 1]!, starts[at + 1]!, table);
  }
}

// The heap merge's scratch: the parts as a list linked by their starts, each part's pair rank,
// and a binary min-heap of keys rank * 2^32 + start (exact in a double: ranks < 2^21).
let next = new Int32Array(0);
let prev = new Int32Array(0);
let pairRanks = new Float64Array(0);
let heap = new Float64Array(0);
let heapSize = 0;
const START = 2 ** 32;

/** Puts `key` in the heap. */
function heapPush(key: number): void {
  const h = heap;
  let i = heapSize++;
  while (i > 0) {
    const up = (i - 1) >> 1;
    const k = h[up]!;
    if (k <= key) break;
    h[i] = k;
    i = up;
  }
  h[i] = key;
}

/** Moves `key` down from slot i of the heap to where it belongs. */
function heapSift(i: number, key: number): void {
  const h = heap;
  const size = heapSize;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && h[c + 1]! < h[c]!) c++;
    const k = h[c]!;
    if (k >= key) break;
    h[i] = k;
    i = c;
  }
  h[i] = key;
}

/**
 * mergeCount over a heap: the same joins in the same order as the scan, O(log n) each. The
 * parts are a list linked by their first byte (next[s], prev[s]; next of the last part: n);
 * pairRanks[s] is the rank of the part starting at s joined with the one after it (Infinity:
 * none; -1: s no longer starts a part). The heap holds a key rank * 2^32 + s for every pair
 * ranked, the lowest first, so among the lowest rank the leftmost pair comes first: the
 * encoding's rule. A key is pushed again each time its pair is re-ranked and the old one
 * left in the heap; a key popped is the pair's current one when pairRanks[s] still equals
 * its rank (a key equal to the current one stands for the same pair, so taking it is right
 * whichever copy it is), else it is passed over.
 */
export function heapMergeCount(bytes: Uint8Array, n: number, table: RankTable): number {
  if (n < 2) return n;
  if (next.length < n + 1) {
    next = new Int32Array(n + 1);
    prev = new Int32Array(n + 1);
    pairRanks = new Float64Array(n + 1);
  }
  // At most n - 1 keys at first, then two per join (n - 1 joins at most).
  if (heap.length < 3 * n) heap = new Float64Array(3 * n);
  const h = heap;
  const nx = next;
  const pv = prev;
  const pr = pairRanks;
  heapSize = 0;
  for (let i = 0; i < n; i++) {
    nx[i] = i + 1;
    pv[i] = i - 1;
    let r = Infinity;
    if (i + 1 < n) {
      const q = table.pairRank(bytes[i]!, bytes[i + 1]!);
      if (q >= 0) {
        r = q;
        h[heapSize++] = q * START + i;
      }
    }
    pr[i] = r;
  }
  for (let i = (heapSize >> 1) - 1; i >= 0; i--) heapSift(i, h[i]!); // the first keys made a heap in O(n)
  let parts = n;
  while (heapSize > 0) {
    const key = h[0]!;
    const last = h[--heapSize]!;
    if (heapSize > 0) heapSift(0, last);
    const r = Math.floor(key / START); // exact: START is a power of two
    const s = (key - r * START) | 0;
    if (pr[s] !== r) continue; // a key left from before the pair changed, or s gone
    // Join the part at s with the one after it.
    const gone = nx[s]!;
    const after = nx[gone]!;
    nx[s] = after;
    if (after < n) pv[after] = s;
    pr[gone] = -1;
    parts--;
    let nr = Infinity;
    if (after < n) {
      const q = table.rank(bytes, s, nx[after]!);
      if (q >= 0) {
        nr = q;
        heapPush(q * START + s);
      }
    }
    pr[s] = nr;
    const p = pv[s]!;
    if (p >= 0) {
      const q = table.rank(bytes, p, after);
      const before = q >= 0 ? q : Infinity;
      pr[p] = before;
      if (q >= 0) heapPush(q * START + p);
    }
  }
  return parts;
}
