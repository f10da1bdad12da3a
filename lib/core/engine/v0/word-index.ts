// An in-memory inverted index of v0 words (word -> postings of document and count), built
// once per loaded cache so that any new query term is answered by one lookup instead of a
// scan of every document. Its counts equal the scan's (ScoringCorpus) exactly: the keys are
// the words of `split_whitespace(to_lowercase(content))`, the same words the scan compares.

import type { WordStats } from './corpus.js';
import { lowercase, WHITE_SPACE_UNITS as WHITE } from '../../analysis/text.js';

// FNV-1a over UTF-16 code units. The build inlines this loop (see `add`); `hashOf` must
// stay the same function, or every lookup misses.
const FNV_OFFSET = -2128831035; // 0x811c9dc5 as int32
const FNV_PRIME = 16777619;

/** The hash of a word (exported for tests: two colliding words must stay two words). */
export function hashOf(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h;
}

function grow<T extends Uint32Array | Int32Array | Uint16Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  let size = Math.max(a.length * 2, 16);
  while (size < need) size *= 2;
  const b = make(size);
  b.set(a);
  return b;
}

const u32 = (n: number) => new Uint32Array(n);
const i32 = (n: number) => new Int32Array(n);
const u16 = (n: number) => new Uint16Array(n);

/**
 * The vocabulary lives in typed arrays, not in strings: `chars` holds every distinct word's
 * UTF-16 code units back to back (word w is chars[starts[w] .. starts[w+1])), and `table`
 * is an open-addressing hash table of word numbers (-1 = empty), at most half full.
 */
interface Vocabulary {
  readonly table: Int32Array;
  readonly hashes: Int32Array;
  readonly starts: Uint32Array;
  readonly chars: Uint16Array;
}

/** The word number of `term` in `v`, or -1 when no document holds it. */
function findWord(v: Vocabulary, term: string): number {
  const h = hashOf(term);
  const mask = v.table.length - 1;
  for (let slot = h & mask; ; slot = (slot + 1) & mask) {
    const w = v.table[slot] as number;
    if (w === -1) return -1;
    if (v.hashes[w] !== h) continue;
    const o = v.starts[w] as number;
    if ((v.starts[w + 1] as number) - o !== term.length) continue;
    let k = 0;
    while (k < term.length && v.chars[o + k] === term.charCodeAt(k)) k++;
    if (k === term.length) return w;
  }
}

/** A finished index: read-only, safe to keep for the life of a loaded cache. */
export class WordIndex {
  readonly documentCount: number;
  /** split_whitespace().count() of each document. */
  readonly totalWords: Uint32Array;
  private readonly vocabulary: Vocabulary;
  /** Word w's postings are postingDocs/postingCounts[postingStarts[w] .. postingStarts[w+1]], documents ascending. */
  private readonly postingStarts: Uint32Array;
  private readonly postingDocs: Uint32Array;
  private readonly postingCounts: Uint32Array;

  constructor(
    totalWords: Uint32Array,
    vocabulary: Vocabulary,
    postingStarts: Uint32Array,
    postingDocs: Uint32Array,
    postingCounts: Uint32Array,
  ) {
    this.documentCount = totalWords.length;
    this.totalWords = totalWords;
    this.vocabulary = vocabulary;
    this.postingStarts = postingStarts;
    this.postingDocs = postingDocs;
    this.postingCounts = postingCounts;
  }

  /** Distinct words over all documents. */
  get wordCount(): number {
    return this.vocabulary.starts.length - 1;
  }

  /** (document, count) pairs held. */
  get postingCount(): number {
    return this.postingDocs.length;
  }

  /** Bytes held in typed arrays (the index's whole payload; the object shells are a few hundred bytes). */
  get byteSize(): number {
    const v = this.vocabulary;
    return [this.totalWords, v.table, v.hashes, v.starts, v.chars, this.postingStarts, this.postingDocs, this.postingCounts].reduce(
      (sum, a) => sum + a.byteLength,
      0,
    );
  }

  /** Whole-word count of `term` (already lowercased, no White_Space) in every document. */
  counts(term: string): Uint32Array {
    const out = new Uint32Array(this.documentCount);
    const w = findWord(this.vocabulary, term);
    if (w === -1) return out;
    const end = this.postingStarts[w + 1] as number;
    for (let p = this.postingStarts[w] as number; p < end; p++) out[this.postingDocs[p] as number] = this.postingCounts[p] as number;
    return out;
  }

  /** The `WordStats` selection asks for; each distinct term is looked up once. */
  stats(terms: readonly string[]): WordStats {
    const termCounts = new Map<string, Uint32Array>();
    for (const t of terms) if (!termCounts.has(t)) termCounts.set(t, this.counts(t));
    return { totalWords: this.totalWords, termCounts };
  }
}

/**
 * Builds a `WordIndex` from documents given one by one, in document order. Postings are
 * first appended per document to a stream (word, count), then laid out word by word.
 */
export class WordIndexBuilder {
  private table = new Int32Array(1024).fill(-1);
  private hashes = i32(256);
  private starts = u32(257);
  private chars = u16(4096);
  private words = 0;
  /** Per word: the last document it occurred in and its stream position there. */
  private lastDoc = new Int32Array(256).fill(-1);
  private lastPos = u32(256);
  private streamWords = u32(4096);
  private streamCounts = u32(4096);
  private streamLength = 0;
  /** Stream position where each document starts. */
  private docStarts = u32(257);
  private totalWords = u32(256);
  private documents = 0;
  private finished = false;

  /** Indexes the next document; returns its split_whitespace().count(). */
  add(content: string): number {
    if (this.finished) throw new Error('WordIndexBuilder: add after finish');
    // Lowercase the whole text, as the scan does: word-by-word keys then are exactly the
    // scan's words (and Final_Sigma's context never crosses White_Space anyway).
    const text = lowercase(content);
    const n = text.length;
    const doc = this.documents++;
    this.docStarts = grow(this.docStarts, doc + 2, u32);
    this.totalWords = grow(this.totalWords, doc + 1, u32);
    this.docStarts[doc] = this.streamLength;
    // A document of n code units has at most ceil(n / 2) words, so at most that many
    // new stream entries: reserved here, nothing in the loop below needs to grow.
    const maxWords = (n + 1) >>> 1;
    this.streamWords = grow(this.streamWords, this.streamLength + maxWords, u32);
    this.streamCounts = grow(this.streamCounts, this.streamLength + maxWords, u32);
    const streamWords = this.streamWords;
    const streamCounts = this.streamCounts;
    let length = this.streamLength;
    // Hot loop: fields cached in locals, reloaded only after a new word (which may grow them).
    let { table, hashes, starts, chars, lastDoc, lastPos } = this;
    let mask = table.length - 1;
    let wordsInDoc = 0;
    let i = 0;
    while (i < n) {
      if (WHITE[text.charCodeAt(i)] === 1) {
        i++;
        continue;
      }
      const start = i;
      let h = FNV_OFFSET; // hashOf, inlined
      do {
        h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
        i++;
      } while (i < n && WHITE[text.charCodeAt(i)] === 0);
      const len = i - start;
      wordsInDoc++;
      let slot = h & mask;
      let w = table[slot] as number;
      while (w !== -1) {
        if (hashes[w] === h && (starts[w + 1] as number) - (starts[w] as number) === len) {
          const o = starts[w] as number;
          let k = 0;
          while (k < len && chars[o + k] === text.charCodeAt(start + k)) k++;
          if (k === len) break;
        }
        slot = (slot + 1) & mask;
        w = table[slot] as number;
      }
      if (w === -1) {
        w = this.insert(text, start, i, h, slot);
        ({ table, hashes, starts, chars, lastDoc, lastPos } = this);
        mask = table.length - 1;
      }
      if (lastDoc[w] === doc) {
        const p = lastPos[w] as number;
        streamCounts[p] = (streamCounts[p] as number) + 1;
      } else {
        lastDoc[w] = doc;
        lastPos[w] = length;
        streamWords[length] = w;
        streamCounts[length] = 1;
        length++;
      }
    }
    this.streamLength = length;
    this.docStarts[doc + 1] = length;
    this.totalWords[doc] = wordsInDoc;
    return wordsInDoc;
  }

  /** Adds text[start..end) as word number `words`, at `slot` of the table. */
  private insert(text: string, start: number, end: number, h: number, slot: number): number {
    const w = this.words++;
    const o = this.starts[w] as number;
    this.hashes = grow(this.hashes, w + 1, i32);
    this.starts = grow(this.starts, w + 2, u32);
    this.chars = grow(this.chars, o + end - start, u16);
    if (w >= this.lastDoc.length) {
      const lastDoc = new Int32Array(this.hashes.length).fill(-1);
      lastDoc.set(this.lastDoc);
      this.lastDoc = lastDoc;
      this.lastPos = grow(this.lastPos, this.hashes.length, u32);
    }
    for (let k = start; k < end; k++) this.chars[o + k - start] = text.charCodeAt(k);
    this.starts[w + 1] = o + end - start;
    this.hashes[w] = h;
    this.table[slot] = w;
    if (this.words * 2 > this.table.length) this.rehash(this.table.length * 2);
    return w;
  }

  private rehash(size: number): void {
    const table = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (let w = 0; w < this.words; w++) {
      let slot = (this.hashes[w] as number) & mask;
      while (table[slot] !== -1) slot = (slot + 1) & mask;
      table[slot] = w;
    }
    this.table = table;
  }

  /** Lays the postings out word by word (documents ascending) and trims every array. */
  finish(): WordIndex {
    if (this.finished) throw new Error('WordIndexBuilder: finish twice');
    this.finished = true;
    const words = this.words;
    const postingStarts = new Uint32Array(words + 1);
    for (let k = 0; k < this.streamLength; k++) {
      const w = this.streamWords[k] as number;
      postingStarts[w + 1] = (postingStarts[w + 1] as number) + 1;
    }
    for (let w = 0; w < words; w++) postingStarts[w + 1] = (postingStarts[w + 1] as number) + (postingStarts[w] as number);
    const cursor = postingStarts.slice(0, words);
    const postingDocs = new Uint32Array(this.streamLength);
    const postingCounts = new Uint32Array(this.streamLength);
    for (let d = 0; d < this.documents; d++) {
      const end = this.docStarts[d + 1] as number;
      for (let k = this.docStarts[d] as number; k < end; k++) {
        const w = this.streamWords[k] as number;
        const p = cursor[w] as number;
        cursor[w] = p + 1;
        postingDocs[p] = d;
        postingCounts[p] = this.streamCounts[k] as number;
      }
    }
    const vocabulary: Vocabulary = {
      table: this.table,
      hashes: this.hashes.slice(0, words),
      starts: this.starts.slice(0, words + 1),
      chars: this.chars.slice(0, this.starts[words] as number),
    };
    const index = new WordIndex(this.totalWords.slice(0, this.documents), vocabulary, postingStarts, postingDocs, postingCounts);
    // Drop the build-only arrays now; the builder object may outlive this call.
    this.streamWords = u32(0);
    this.streamCounts = u32(0);
    this.docStarts = u32(0);
    this.lastPos = u32(0);
    this.totalWords = u32(0);
    this.lastDoc = i32(0);
    this.hashes = i32(0);
    this.starts = u32(1);
    this.chars = u16(0);
    return index;
  }
}
