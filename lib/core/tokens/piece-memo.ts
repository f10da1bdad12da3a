// The memo of the exact token counter (count.ts): what each distinct piece costs.
//
// PieceMemo remembers each distinct piece's token count, keyed by the piece's characters
// where they stand in the text: a piece seen before is found without cutting it out as a
// string of its own (real text is mostly repeats: on 10,000 real-text files, 18.8 million
// pieces, 148,000 distinct). Open addressing over one typed array, each slot's hash, start,
// count and length side by side, so a probe reads one cache line (counting ~10 % faster than
// with four arrays); each remembered piece's characters are copied once into one character
// arena, and found again by a 32-bit FNV-1a hash of its characters, then compared character
// by character, so a hash collision never gives a wrong count. Once it holds the pieces it
// was made for, or its arena is full, it starts over (forgetting never changes a count).
// Pieces longer than MEMO_MAX_CHARS are not remembered. (A piece not seen before is merged
// by rank-table.ts's mergeCount.)

/** Longest piece remembered, in UTF-16 code units. */
export const MEMO_MAX_CHARS = 64;

export class PieceMemo {
  readonly #mask: number;
  readonly #limit: number;
  /**
   * Per slot, four numbers side by side (one probe reads one cache line): the piece's hash,
   * where its characters start in the arena, its count, and its length (0: an empty slot).
   */
  readonly #slots: Int32Array;
  readonly #arena: Uint16Array;
  #used = 0;
  #top = 0;

  /** Starts over after `pieces` distinct pieces (in at least twice as many slots, a power of two). */
  constructor(pieces: number, arenaChars = pieces * 16) {
    let slots = 2;
    while (slots < pieces * 2) slots *= 2;
    this.#mask = slots - 1;
    this.#limit = Math.max(1, pieces);
    this.#slots = new Int32Array(slots * 4);
    this.#arena = new Uint16Array(Math.max(arenaChars, MEMO_MAX_CHARS));
  }

  /** The count of `text.slice(start, end)`, from memory or from `count` (then remembered). */
  count(text: string, start: number, end: number, count: (piece: string) => number): number {
    const n = end - start;
    if (n > MEMO_MAX_CHARS) return count(text.slice(start, end));
    let h = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    const mask = this.#mask;
    const slots = this.#slots;
    const arena = this.#arena;
    let slot = h & mask;
    for (let len = slots[slot * 4 + 3]!; len !== 0; len = slots[slot * 4 + 3]!) {
      if (len === n && slots[slot * 4] === h) {
        let a = slots[slot * 4 + 1]!;
        let i = start;
        while (i < end && arena[a] === text.charCodeAt(i)) {
          a++;
          i++;
        }
        if (i === end) return slots[slot * 4 + 2]!;
      }
      slot = (slot + 1) & mask;
    }
    const c = count(text.slice(start, end));
    if (this.#used >= this.#limit || this.#top + n > arena.length) {
      slots.fill(0);
      this.#used = 0;
      this.#top = 0;
      slot = h & mask;
    }
    const top = this.#top;
    for (let i = start; i < end; i++) arena[top + i - start] = text.charCodeAt(i);
    slots[slot * 4] = h;
    slots[slot * 4 + 1] = top;
    slots[slot * 4 + 2] = c;
    slots[slot * 4 + 3] = n;
    this.#top = top + n;
    this.#used++;
    return c;
  }
}
