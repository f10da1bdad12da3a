// The memo of the exact token counter (count.ts): what each distinct piece costs.
//
// PieceMemo remembers each distinct piece's token count, keyed by the piece's characters
// where they stand in the text: a piece seen before is found without cutting it out as a
// string of its own (real text is mostly repeats: on 10,000 real-text files, 18.8 million
// pieces, 148,000 distinct). Open addressing over one typed array, each slot's hash, count,
// length and characters side by side, so a probe reads one cache line (counting ~10 % faster
// than with four arrays): a piece of up to INLINE_CHARS characters (most of them) is held in
// its slot, two characters to a number, and a longer one in a character arena, where the
// slot says (holding short pieces in their slots counts ~7 % faster again: one memory read
// less per piece). A piece is found again by a 32-bit FNV-1a hash of its characters, then
// compared character by character (a short one two at a time), so a hash collision never
// gives a wrong count. Once it holds the pieces it was made for, or its arena is full, it
// starts over (forgetting never changes a count). Pieces longer than MEMO_MAX_CHARS are not
// remembered. (A piece not seen before is merged by rank-table.ts's mergeCount.)

/**
 * Longest piece remembered, in UTF-16 code units: long runs of punctuation or spaces (table
 * rules, box-drawing lines, indented blanks) recur on real pages and cost a merge of many
 * bytes each time they are counted (on 10,000 real-text files ~3 % of o200k_base counting
 * when only pieces of up to 64 were remembered).
 */
export const MEMO_MAX_CHARS = 256;

/** Longest piece held in its slot rather than in the arena, in UTF-16 code units. */
export const INLINE_CHARS = 8;

// A slot: 8 numbers (32 bytes; two slots to a cache line).
const SLOT = 8;
const HASH = 0;
const COUNT = 1;
const LENGTH = 2; // 0: an empty slot
const ARENA_AT = 3; // a long piece's first character in the arena
const CHARS = 4; // 4 numbers: a short piece's characters, two to a number (low half first), 0 past its end

export class PieceMemo {
  readonly #mask: number;
  readonly #limit: number;
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
    this.#slots = new Int32Array(slots * SLOT);
    this.#arena = new Uint16Array(Math.max(arenaChars, MEMO_MAX_CHARS));
  }

  /** The count of `text.slice(start, end)`, from memory or from `count` (then remembered). */
  count(text: string, start: number, end: number, count: (piece: string) => number): number {
    const n = end - start;
    if (n > MEMO_MAX_CHARS) return count(text.slice(start, end));
    let h = 0x811c9dc5 | 0;
    // A short piece's characters as its slot holds them, taken while hashing.
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    let w3 = 0;
    if (n <= INLINE_CHARS) {
      for (let i = start, k = 0; i < end; i += 2, k++) {
        const a = text.charCodeAt(i);
        h = Math.imul(h ^ a, 16777619);
        let pair = a;
        if (i + 1 < end) {
          const b = text.charCodeAt(i + 1);
          h = Math.imul(h ^ b, 16777619);
          pair |= b << 16;
        }
        if (k === 0) w0 = pair;
        else if (k === 1) w1 = pair;
        else if (k === 2) w2 = pair;
        else w3 = pair;
      }
    } else {
      for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    }
    const mask = this.#mask;
    const slots = this.#slots;
    const arena = this.#arena;
    let slot = h & mask;
    for (let len = slots[slot * SLOT + LENGTH]!; len !== 0; len = slots[slot * SLOT + LENGTH]!) {
      const at = slot * SLOT;
      if (len === n && slots[at + HASH] === h) {
        if (n <= INLINE_CHARS) {
          if (slots[at + CHARS] === w0 && slots[at + CHARS + 1] === w1 && slots[at + CHARS + 2] === w2 && slots[at + CHARS + 3] === w3) return slots[at + COUNT]!;
        } else {
          let a = slots[at + ARENA_AT]!;
          let i = start;
          while (i < end && arena[a] === text.charCodeAt(i)) {
            a++;
            i++;
          }
          if (i === end) return slots[at + COUNT]!;
        }
      }
      slot = (slot + 1) & mask;
    }
    const c = count(text.slice(start, end));
    if (this.#used >= this.#limit || (n > INLINE_CHARS && this.#top + n > arena.length)) {
      slots.fill(0);
      this.#used = 0;
      this.#top = 0;
      slot = h & mask;
    }
    const at = slot * SLOT;
    slots[at + HASH] = h;
    slots[at + COUNT] = c;
    slots[at + LENGTH] = n;
    if (n <= INLINE_CHARS) {
      slots[at + ARENA_AT] = 0;
      slots[at + CHARS] = w0;
      slots[at + CHARS + 1] = w1;
      slots[at + CHARS + 2] = w2;
      slots[at + CHARS + 3] = w3;
    } else {
      const top = this.#top;
      for (let i = start; i < end; i++) arena[top + i - start] = text.charCodeAt(i);
      slots[at + ARENA_AT] = top;
      slots[at + CHARS] = 0;
      slots[at + CHARS + 1] = 0;
      slots[at + CHARS + 2] = 0;
      slots[at + CHARS + 3] = 0;
      this.#top = top + n;
    }
    this.#used++;
    return c;
  }
}
