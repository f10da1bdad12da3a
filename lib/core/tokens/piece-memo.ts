// Two helpers of the exact token counter (count.ts), both about what a piece costs.
//
// PieceMemo remembers each distinct piece's token count, keyed by the piece's characters
// where they stand in the text: a piece seen before is found without cutting it out as a
// string of its own (real text is mostly repeats: on 10,000 real-text files, 18.8 million
// pieces, 148,000 distinct). Open addressing over typed arrays; each remembered piece's
// characters are copied once into one character arena, and found again by a 32-bit FNV-1a
// hash of its characters, then compared character by character, so a hash collision never
// gives a wrong count. Once it holds the pieces it was made for, or its arena is full, it
// starts over (forgetting never changes a count). Pieces longer than MEMO_MAX_CHARS are not
// remembered.
//
// asciiMergeCount counts the tokens of an ASCII piece by byte-pair merging, as the encoding
// does: start from single bytes, repeatedly merge the adjacent pair whose joined bytes have
// the lowest rank (the leftmost such pair on a tie), until no adjacent pair is a token; the
// count is the number of parts left. For ASCII a character is a byte, so the encoding's
// rank table is asked with plain string slices (gpt-tokenizer's own merge converts each
// candidate pair from bytes to a string through a TextDecoder, most of the cost of counting
// a piece it has not seen). A test holds the count equal to the package's encoding on every
// ASCII piece of the dev sets and on random pieces.

/** Longest piece remembered, in UTF-16 code units. */
export const MEMO_MAX_CHARS = 64;

export class PieceMemo {
  readonly #mask: number;
  readonly #limit: number;
  readonly #hashes: Int32Array;
  readonly #starts: Int32Array;
  readonly #counts: Int32Array;
  readonly #lengths: Uint8Array; // 0: an empty slot
  readonly #arena: Uint16Array;
  #used = 0;
  #top = 0;

  /** Starts over after `pieces` distinct pieces (in at least twice as many slots, a power of two). */
  constructor(pieces: number, arenaChars = pieces * 16) {
    let slots = 2;
    while (slots < pieces * 2) slots *= 2;
    this.#mask = slots - 1;
    this.#limit = Math.max(1, pieces);
    this.#hashes = new Int32Array(slots);
    this.#starts = new Int32Array(slots);
    this.#counts = new Int32Array(slots);
    this.#lengths = new Uint8Array(slots);
    this.#arena = new Uint16Array(Math.max(arenaChars, MEMO_MAX_CHARS));
  }

  /** The count of `text.slice(start, end)`, from memory or from `count` (then remembered). */
  count(text: string, start: number, end: number, count: (piece: string) => number): number {
    const n = end - start;
    if (n > MEMO_MAX_CHARS) return count(text.slice(start, end));
    let h = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    const mask = this.#mask;
    const lengths = this.#lengths;
    const arena = this.#arena;
    let slot = h & mask;
    for (let len = lengths[slot]!; len !== 0; len = lengths[slot]!) {
      if (len === n && this.#hashes[slot] === h) {
        let a = this.#starts[slot]!;
        let i = start;
        while (i < end && arena[a] === text.charCodeAt(i)) {
          a++;
          i++;
        }
        if (i === end) return this.#counts[slot]!;
      }
      slot = (slot + 1) & mask;
    }
    const c = count(text.slice(start, end));
    if (this.#used >= this.#limit || this.#top + n > arena.length) {
      lengths.fill(0);
      this.#used = 0;
      this.#top = 0;
      slot = h & mask;
    }
    const top = this.#top;
    for (let i = start; i < end; i++) arena[top + i - start] = text.charCodeAt(i);
    lengths[slot] = n;
    this.#hashes[slot] = h;
    this.#starts[slot] = top;
    this.#counts[slot] = c;
    this.#top = top + n;
    this.#used++;
    return c;
  }
}

/** Whether every character of `piece` is ASCII. */
export function isAsciiPiece(piece: string): boolean {
  for (let i = 0; i < piece.length; i++) if (piece.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * Tokens of the ASCII `piece` under the byte-pair ranks `ranks` (token text to rank, as the
 * encoding holds them) by merging alone: see the top of this file. (The encoding first asks
 * whether the whole piece is a token; the caller does that.)
 */
export function asciiMergeCount(piece: string, ranks: ReadonlyMap<string, number>): number {
  const n = piece.length;
  if (n < 2) return n;
  // Part k starts at starts[k]; rank[k] is the rank of parts k and k+1 joined (Infinity: none).
  const starts: number[] = [];
  const rank: number[] = [];
  for (let i = 0; i < n; i++) {
    starts.push(i);
    rank.push(i + 2 <= n ? (ranks.get(piece.slice(i, i + 2)) ?? Infinity) : Infinity);
  }
  starts.push(n);
  let parts = n;
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let k = 0; k < parts - 1; k++) {
      if (rank[k]! < best) {
        best = rank[k]!;
        at = k;
      }
    }
    if (at < 0) return parts;
    // Join parts at and at+1; then re-rank the pairs that changed.
    starts.splice(at + 1, 1);
    rank.splice(at + 1, 1);
    parts--;
    rank[at] = at + 2 <= parts ? (ranks.get(piece.slice(starts[at]!, starts[at + 2]!)) ?? Infinity) : Infinity;
    if (at > 0) rank[at - 1] = ranks.get(piece.slice(starts[at - 1]!, starts[at + 1]!)) ?? Infinity;
  }
}
