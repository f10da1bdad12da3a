// The index of a v1 pack (the end of each pack's head, lib/core/engine/v1/manifest.ts):
// every unit (a file or a section) with its field lengths, token count and address in its
// document, the term dictionary in UTF-8 byte order, and per term its postings (unit,
// frequency per field). Little-endian, 4-byte aligned:
//
//   header   "CTXINDEX" u32 format(1) u32 docs u32 units u32 terms u32 fields(4) u32 0
//            f64 × fields: sum over units of each field's length
//   units    u32 × 9 per unit: doc, start, end (UTF-16 offsets in the document's text),
//            tokens, words, length of each field
//   strings  u32 × (units + 1) offsets, then per unit: varint-prefixed UTF-8 slug, varint
//            count of trail headings, each varint-prefixed UTF-8
//   terms    u32 × (terms + 1) offsets into the UTF-8 term blob, the blob (padded)
//   stats    u32 × 2 per term: postings offset, postings count (= units holding the term)
//   postings per posting: varint unit delta (first from 0), varint field mask, varint
//            frequency of each field in the mask, in field order
//
// Every section is prefixed by its u32 byte length. The reader checks bounds on every
// access, so damaged bytes raise IndexFormatError rather than yield wrong numbers; the
// cache's manifest also records the sha256 of the head holding it, checked before the
// reader runs.

import { fnv1a } from '../hash.js';
import { ByteReader, ByteWriter, IndexFormatError, LITTLE_ENDIAN_HOST } from './bytes.js';

export const INDEX_MAGIC = 'CTXINDEX';
export const INDEX_FORMAT = 1;

export interface IndexUnit {
  readonly doc: number;
  readonly start: number;
  readonly end: number;
  readonly tokens: number;
  readonly words: number;
  /** Field lengths (term occurrences), in FIELDS order. */
  readonly lengths: readonly number[];
  readonly slug: string;
  readonly trail: readonly string[];
}

export interface IndexPostings {
  /** Unit numbers, ascending. */
  readonly units: Uint32Array;
  /** `fieldCount` frequencies per posting. */
  readonly tfs: Uint32Array;
}

/** The sections of an index as stored, without copies (for lib/core/index/patch-index.ts). */
export interface IndexSections {
  /** 5 + fieldCount u32 per unit: doc, start, end, tokens, words, field lengths. */
  readonly table: Uint32Array;
  /** units + 1 offsets into `strings`. */
  readonly stringOffsets: Uint32Array;
  readonly strings: Uint8Array;
  /** terms + 1 offsets into `termBlob`. */
  readonly termOffsets: Uint32Array;
  readonly termBlob: Uint8Array;
  /** Postings offset and count per term. */
  readonly stats: Uint32Array;
  readonly postings: Uint8Array;
}

export interface IndexData {
  readonly docCount: number;
  readonly fieldCount: number;
  readonly units: readonly IndexUnit[];
  /** Sorted by UTF-8 byte order, distinct. */
  readonly terms: readonly string[];
  /** Postings of each term, in `terms` order. */
  readonly postings: readonly IndexPostings[];
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const MAGIC_BYTES = utf8.encode(INDEX_MAGIC);

/** A section: its u32 byte length, its bytes, zero padding to a multiple of 4. */
function section(out: ByteWriter, body: ByteWriter): void {
  out.u32(body.length);
  out.bytes(body.view8());
  out.align();
}

/** Bytes `section` writes for a body of `length` bytes. */
export function sectionSize(length: number): number {
  return 4 + length + ((4 - (length % 4)) % 4);
}

/** A varint-prefixed UTF-8 string (a slug or heading in the strings section). */
export function writeString(w: ByteWriter, s: string): void {
  let ascii = true;
  for (let i = 0; ascii && i < s.length; i++) ascii = s.charCodeAt(i) < 0x80;
  if (ascii) {
    w.varint(s.length);
    w.utf8(s);
    return;
  }
  const b = utf8.encode(s);
  w.varint(b.length);
  w.bytes(b);
}

/** Bytes of the header of an index with `fieldCount` fields. */
export function headerSize(fieldCount: number): number {
  return MAGIC_BYTES.length + 6 * 4 + 8 * fieldCount;
}

/** The header: magic, format, counts, and the sum over units of each field's length. */
export function writeHeader(out: ByteWriter, docCount: number, unitCount: number, termCount: number, lengthSums: readonly number[]): void {
  out.bytes(MAGIC_BYTES);
  for (const v of [INDEX_FORMAT, docCount, unitCount, termCount, lengthSums.length, 0]) out.u32(v);
  for (const sum of lengthSums) out.f64(sum);
}

/**
 * One posting: the unit's delta from the previous posting's unit, the mask of fields with a
 * nonzero frequency, those frequencies (tfs[at + f], f < fieldCount).
 */
export function writePosting(w: ByteWriter, unitDelta: number, tfs: Uint32Array, at: number, fieldCount: number): void {
  w.varint(unitDelta);
  let mask = 0;
  for (let f = 0; f < fieldCount; f++) if ((tfs[at + f] as number) > 0) mask |= 1 << f;
  w.varint(mask);
  for (let f = 0; f < fieldCount; f++) {
    const tf = tfs[at + f] as number;
    if (tf > 0) w.varint(tf);
  }
}

/** Postings of every term back to back: term t's are [starts[t], starts[t + 1]). */
export interface FlatPostings {
  readonly starts: Uint32Array;
  /** Unit numbers, ascending within each term. */
  readonly units: Uint32Array;
  /** `fieldCount` frequencies per posting. */
  readonly tfs: Uint32Array;
}

/** The index bytes of `data`. */
export function encodeIndex(data: IndexData): Uint8Array {
  const { postings, fieldCount } = data;
  const starts = new Uint32Array(postings.length + 1);
  postings.forEach((p, t) => (starts[t + 1] = (starts[t] as number) + p.units.length));
  const total = starts[postings.length] as number;
  const units = new Uint32Array(total);
  const tfs = new Uint32Array(total * fieldCount);
  postings.forEach((p, t) => {
    units.set(p.units, starts[t] as number);
    tfs.set(p.tfs, (starts[t] as number) * fieldCount);
  });
  return encodeIndexFlat(data.docCount, fieldCount, data.units, data.terms, { starts, units, tfs });
}

/** The index bytes of `units`, `terms` (distinct, in UTF-8 byte order) and their postings. */
export function encodeIndexFlat(docCount: number, fieldCount: number, units: readonly IndexUnit[], terms: readonly string[], postings: FlatPostings): Uint8Array {
  const out = new ByteWriter();
  const sums: number[] = [];
  for (let f = 0; f < fieldCount; f++) {
    let sum = 0;
    for (const u of units) sum += u.lengths[f] as number;
    sums.push(sum);
  }
  writeHeader(out, docCount, units.length, terms.length, sums);

  const table = new ByteWriter(units.length * (5 + fieldCount) * 4);
  for (const u of units) {
    table.u32(u.doc);
    table.u32(u.start);
    table.u32(u.end);
    table.u32(u.tokens);
    table.u32(u.words);
    for (let f = 0; f < fieldCount; f++) table.u32(u.lengths[f] as number);
  }
  section(out, table);

  const strings = new ByteWriter();
  const blob = new ByteWriter();
  for (const u of units) {
    strings.u32(blob.length);
    writeString(blob, u.slug);
    blob.varint(u.trail.length);
    for (const h of u.trail) writeString(blob, h);
  }
  strings.u32(blob.length);
  strings.bytes(blob.view8());
  section(out, strings);

  section(out, dictionaryOf(terms));
  const stats = new ByteWriter(terms.length * 8);
  const post = new ByteWriter();
  writeTermPostings(stats, post, terms.length, postings, fieldCount);
  section(out, stats);
  section(out, post);
  return out.view8().slice();
}

// encodeIndexFlat's long loops are functions of their own: code optimized while a loop runs
// (on-stack replacement) has seen nothing of what follows it, and was dropped there and made
// again (9 times in a build thread's half of the real-text corpus); each alone is made once.

/** The dictionary section: each term's offset into the blob of their UTF-8 bytes, then the blob. */
function dictionaryOf(terms: readonly string[]): ByteWriter {
  const dict = new ByteWriter((terms.length + 1) * 4);
  const termBlob = new ByteWriter();
  for (const t of terms) {
    dict.u32(termBlob.length);
    termBlob.utf8(t);
  }
  dict.u32(termBlob.length);
  dict.bytes(termBlob.view8());
  return dict;
}

/** Each term's postings (units as gaps, then their frequencies) into `post`, where they start and how many into `stats`. */
function writeTermPostings(stats: ByteWriter, post: ByteWriter, termCount: number, postings: FlatPostings, fieldCount: number): void {
  const { starts, units: postingUnits, tfs } = postings;
  for (let t = 0; t < termCount; t++) {
    const from = starts[t] as number;
    const to = starts[t + 1] as number;
    stats.u32(post.length);
    stats.u32(to - from);
    let prev = 0;
    for (let k = from; k < to; k++) {
      const unit = postingUnits[k] as number;
      writePosting(post, unit - prev, tfs, k * fieldCount, fieldCount);
      prev = unit;
    }
  }
}

/**
 * An index of `reader`'s documents and units (rows, slugs and trails as they are) holding
 * only the terms whose UTF-8 bytes are among `keys`, with their postings: all that a query
 * of those terms reads of the index, in a buffer of its own (the rest of `reader`'s bytes,
 * the whole dictionary and every other term's postings, can then be dropped). A term's
 * postings are copied as stored — the bytes from its offset to the next term's (the writer
 * lays them out in dictionary order, back to back) — and decoded, with every check, when
 * ranked; their counts are checked against the bytes here as any read checks them.
 */
export function scopedIndex(reader: IndexReader, keys: readonly Uint8Array[]): IndexReader {
  const found: ScopedTerm[] = [];
  const { termOffsets, termBlob, stats: allStats, postings: allPostings } = reader.sections();
  let last = -1;
  for (const key of [...keys].sort(compareU8)) {
    const at = reader.findTermBytes(key);
    if (at < 0 || at === last) continue;
    last = at;
    const count = reader.postingCount(at);
    const start = allStats[at * 2] as number;
    const end = at + 1 < reader.termCount ? (allStats[at * 2 + 2] as number) : allPostings.length;
    if (end < start || end > allPostings.length || end - start < 2 * count) throw new IndexFormatError('postings out of range');
    found.push({ term: termBlob.subarray(termOffsets[at] as number, termOffsets[at + 1] as number), count, postings: allPostings.subarray(start, end) });
  }
  // The lead copied (a Buffer's slice would be a view): the whole index's bytes (a buffer
  // its reader may use again) are let go.
  return scopedFromLead(new Uint8Array(reader.bytes.subarray(0, indexLeadBytes(reader.bytes))), found);
}

/** A term of a scoped index: its UTF-8 bytes, its postings count and bytes as stored. */
export interface ScopedTerm {
  readonly term: Uint8Array;
  readonly count: number;
  readonly postings: Uint8Array;
}

/**
 * Where an index's lead ends (its header, unit rows and strings, everything before its
 * dictionary: a term file holds it apart, ./term-file.ts, so that a query reads it without
 * the rest), and where its strings section begins (the unit rows are read for every
 * question, the strings only for the units an answer looks at). IndexFormatError if `index`
 * is shorter than its lead says.
 */
export function indexLeadParts(index: Uint8Array): { stringsAt: number; end: number } {
  const r = new ByteReader(index);
  r.take(MAGIC_BYTES.length + 16);
  const fieldCount = r.u32();
  if (fieldCount === 0 || fieldCount > 16) throw new IndexFormatError('bad index header');
  r.take(4 + 8 * fieldCount);
  r.take(r.u32());
  r.align();
  const stringsAt = r.pos;
  r.take(r.u32());
  r.align();
  return { stringsAt, end: r.pos };
}

/** Bytes of an index's lead (indexLeadParts). */
export function indexLeadBytes(index: Uint8Array): number {
  return indexLeadParts(index).end;
}

/**
 * The index whose lead (header, unit rows, strings: `lead`, as stored) is given, holding
 * only the terms `found` (distinct, in UTF-8 byte order) with their postings as stored:
 * the bytes scopedIndex makes of the whole index for those terms. The reader keeps `lead`
 * as it is (a view: not to be written to while the reader lives). With `strings`, `lead`
 * ends after the unit rows and `strings` gives the strings section as stored, called when
 * a unit's slug or trail is first asked for (a query reads the strings of the packs its
 * answer looks at, not of every pack: ../engine/v1/segments.ts).
 */
export function scopedFromLead(lead: Uint8Array, found: readonly ScopedTerm[], strings?: () => Uint8Array): IndexReader {
  let termBytes = 0;
  let postBytes = 0;
  for (const f of found) {
    termBytes += f.term.length;
    postBytes += f.postings.length;
  }
  const dictLength = (found.length + 1) * 4 + termBytes;
  const out = new ByteWriter(sectionSize(dictLength) + sectionSize(found.length * 8) + sectionSize(postBytes));
  out.u32(dictLength);
  let at = 0;
  for (const f of found) {
    out.u32(at);
    at += f.term.length;
  }
  out.u32(at);
  for (const f of found) out.bytes(f.term);
  out.align();
  out.u32(found.length * 8);
  at = 0;
  for (const f of found) {
    out.u32(at);
    out.u32(f.count);
    at += f.postings.length;
  }
  out.u32(postBytes);
  for (const f of found) out.bytes(f.postings);
  out.align();
  return new IndexReader(lead, { tail: out.view8(), termCount: found.length, ...(strings === undefined ? {} : { strings }) });
}

/**
 * A unit's fields from a table of rows, 5 + fieldCount u32 per unit: document, start, end,
 * tokens, words, then each field's length. IndexReader reads one index's table;
 * PackedIndex (./packed-index.ts) joins several.
 */
export abstract class UnitRows {
  protected rows: Uint32Array = new Uint32Array(0);
  protected rowWords = 5;

  unitDoc(u: number): number {
    return this.rows[u * this.rowWords] as number;
  }

  unitStart(u: number): number {
    return this.rows[u * this.rowWords + 1] as number;
  }

  unitEnd(u: number): number {
    return this.rows[u * this.rowWords + 2] as number;
  }

  unitTokens(u: number): number {
    return this.rows[u * this.rowWords + 3] as number;
  }

  unitWordCount(u: number): number {
    return this.rows[u * this.rowWords + 4] as number;
  }

  unitLength(u: number, field: number): number {
    return this.rows[u * this.rowWords + 5 + field] as number;
  }
}

/** Random access to an index's bytes, bounds-checked. */
export class IndexReader extends UnitRows {
  readonly docCount: number;
  readonly unitCount: number;
  readonly termCount: number;
  readonly fieldCount: number;
  /** Sum over units of each field's length. */
  readonly lengthSums: readonly number[];
  #stringOffsets: Uint32Array | null = null;
  #strings: Uint8Array | null = null;
  /** The strings section as stored, not read yet (a scoped index's `strings`). */
  #lateStrings: (() => Uint8Array) | null;
  private readonly termOffsets: Uint32Array;
  private readonly termBlob: Uint8Array;
  private readonly stats: Uint32Array;
  private readonly postingBytes: Uint8Array;

  #bytes: Uint8Array;
  /** A scoped index's dictionary, stats and postings sections, apart from its lead (scopedFromLead). */
  #tail: Uint8Array | null;

  /**
   * The index in `bytes`; or, with `scoped`, the index whose header, unit rows and strings
   * are `bytes` (a lead, as stored: its header's term count is the whole index's) and whose
   * dictionary, stats and postings sections are `scoped.tail`, holding `scoped.termCount`
   * terms (scopedFromLead: the lead is not copied). With `scoped.strings`, `bytes` ends
   * after the unit rows and the strings section is what `scoped.strings` returns, read and
   * checked when a unit's slug or trail is first asked for.
   */
  constructor(bytes: Uint8Array, scoped?: { readonly tail: Uint8Array; readonly termCount: number; readonly strings?: () => Uint8Array }) {
    super();
    this.#bytes = bytes;
    this.#tail = scoped?.tail ?? null;
    this.#lateStrings = scoped?.strings ?? null;
    let r = new ByteReader(bytes);
    // Compared as bytes: damaged magic need not be UTF-8, and must still be IndexFormatError.
    if (compareU8(r.take(MAGIC_BYTES.length), MAGIC_BYTES) !== 0) throw new IndexFormatError('not an index file');
    const format = r.u32();
    if (format !== INDEX_FORMAT) throw new IndexFormatError(`unknown index format ${format}`);
    this.docCount = r.u32();
    this.unitCount = r.u32();
    const termCount = r.u32();
    this.termCount = scoped === undefined ? termCount : scoped.termCount;
    this.fieldCount = r.u32();
    if (r.u32() !== 0 || this.fieldCount === 0 || this.fieldCount > 16) throw new IndexFormatError('bad index header');
    const sums: number[] = [];
    for (let f = 0; f < this.fieldCount; f++) sums.push(r.f64());
    this.lengthSums = sums;
    const sectionOf = (): ByteReader => {
      const n = r.u32();
      const body = new ByteReader(r.bytes, r.pos, r.pos + n);
      r.take(n);
      r.align();
      return body;
    };
    const words = 5 + this.fieldCount;
    this.rowWords = words;
    this.rows = u32s(sectionOf(), this.unitCount * words, 'units');
    if (this.#lateStrings === null) this.readStrings(sectionOf());
    if (scoped !== undefined) {
      if (r.pos !== bytes.length) throw new IndexFormatError(this.#lateStrings === null ? 'the lead does not end where its index\'s dictionary begins' : 'the unit rows do not end where the strings begin');
      r = new ByteReader(scoped.tail);
    }
    const dict = sectionOf();
    this.termOffsets = u32s(dict, this.termCount + 1, 'terms');
    this.termBlob = dict.take(dict.end - dict.pos);
    this.stats = u32s(sectionOf(), this.termCount * 2, 'term stats');
    const post = sectionOf();
    this.postingBytes = post.take(post.end - post.pos);
    if (r.pos !== r.bytes.length) throw new IndexFormatError('trailing bytes after the index');
    for (let u = 0; u < this.unitCount; u++) {
      const at = u * words;
      if ((this.rows[at] as number) >= this.docCount || (this.rows[at + 1] as number) > (this.rows[at + 2] as number)) {
        throw new IndexFormatError(`unit ${u} is out of range`);
      }
    }
  }

  /** The strings section (`body`: its bytes after its length), checked. */
  private readStrings(body: ByteReader): void {
    this.#stringOffsets = u32s(body, this.unitCount + 1, 'strings');
    this.#strings = body.take(body.end - body.pos);
  }

  /** The strings section's offsets and bytes, read first if they were not. */
  private stringsSection(): { offsets: Uint32Array; strings: Uint8Array } {
    const late = this.#lateStrings;
    if (late !== null) {
      const bytes = late();
      const r = new ByteReader(bytes);
      const n = r.u32();
      this.readStrings(new ByteReader(bytes, r.pos, r.pos + n));
      r.take(n);
      r.align();
      if (r.pos !== bytes.length) throw new IndexFormatError('the strings do not end where the lead does');
      // Joined to the rows for `bytes` (the strings' thunk is not called twice).
      this.#lateStrings = null;
      const rows = this.#bytes;
      const joined = new Uint8Array(rows.length + bytes.length);
      joined.set(rows, 0);
      joined.set(bytes, rows.length);
      this.#bytes = joined;
    }
    return { offsets: this.#stringOffsets as Uint32Array, strings: this.#strings as Uint8Array };
  }

  /**
   * The index's bytes (its sections are views of them): as given, or for a scoped index
   * its lead and sections joined, its header counting its own terms (made when first asked).
   */
  get bytes(): Uint8Array {
    if (this.#tail !== null) {
      this.stringsSection();
      const joined = new Uint8Array(this.#bytes.length + this.#tail.length);
      joined.set(this.#bytes, 0);
      joined.set(this.#tail, this.#bytes.length);
      new DataView(joined.buffer).setUint32(MAGIC_BYTES.length + 12, this.termCount, true);
      this.#bytes = joined;
      this.#tail = null;
    }
    return this.#bytes;
  }

  /** The stored sections as they are (views, not copies; not to be written to). */
  sections(): IndexSections {
    const { offsets, strings } = this.stringsSection();
    return {
      table: this.rows,
      stringOffsets: offsets,
      strings,
      termOffsets: this.termOffsets,
      termBlob: this.termBlob,
      stats: this.stats,
      postings: this.postingBytes,
    };
  }

  /** The unit rows as stored (a view, not to be written to): 5 + fieldCount u32 per unit. */
  unitRows(): Uint32Array {
    return this.rows;
  }

  /**
   * First unit of each document (and the unit count at the end): units are stored in
   * document order, each document's units contiguous.
   */
  firstUnits(): Uint32Array {
    const first = new Uint32Array(this.docCount + 1);
    const { rows: table, rowWords: unitWords } = this;
    let u = 0;
    for (let d = 0; d < this.docCount; d++) {
      first[d] = u;
      while (u < this.unitCount && table[u * unitWords] === d) u++;
    }
    first[this.docCount] = u;
    return first;
  }

  /** The unit's slug and heading trail. */
  unitStrings(u: number): { slug: string; trail: string[] } {
    const r = this.stringsReader(u);
    const read = (): string => decode(r.take(r.varint()));
    const slug = read();
    const n = r.varint();
    const trail: string[] = [];
    for (let k = 0; k < n; k++) trail.push(read());
    return { slug, trail };
  }

  /** The unit's slug alone (its id needs no trail). */
  unitSlug(u: number): string {
    const r = this.stringsReader(u);
    return decode(r.take(r.varint()));
  }

  private stringsReader(u: number): ByteReader {
    const { offsets, strings } = this.#strings === null ? this.stringsSection() : { offsets: this.#stringOffsets as Uint32Array, strings: this.#strings };
    const start = offsets[u] as number;
    const end = offsets[u + 1] as number;
    if (start > end || end > strings.length) throw new IndexFormatError(`unit ${u} strings out of range`);
    return new ByteReader(strings, start, end);
  }

  /** The term at `index` of the sorted dictionary. */
  term(index: number): string {
    return decode(this.termBytes(index));
  }

  private termBytes(index: number): Uint8Array {
    const s = this.termOffsets[index] as number;
    const e = this.termOffsets[index + 1] as number;
    if (s > e || e > this.termBlob.length) throw new IndexFormatError(`term ${index} out of range`);
    return this.termBlob.subarray(s, e);
  }

  /** The dictionary index of `term`, or -1 (binary search in UTF-8 byte order). */
  findTerm(term: string): number {
    return this.findTermBytes(utf8.encode(term));
  }

  /** The dictionary index of the term whose UTF-8 bytes are `key`, or -1 (compared in place: no copies). */
  findTermBytes(key: Uint8Array): number {
    const offsets = this.termOffsets;
    const blob = this.termBlob;
    let lo = 0;
    let hi = this.termCount - 1;
    const samples = this.samples;
    if (samples !== null) {
      // Narrowed first by the samples (every SAMPLE_EVERY-th term's first four bytes, a
      // small array that stays in the CPU's cache), then searched as below: a dictionary
      // read at random costs a cache miss a step, and a server asks every pack.
      const p = prefixOf(key, 0, key.length);
      let a = 0;
      let b = samples.length;
      // The first sample whose prefix is above the key's: it and every term after it are above the key.
      while (a < b) {
        const mid = (a + b) >>> 1;
        if ((samples[mid] as number) > p) b = mid;
        else a = mid + 1;
      }
      if (a < samples.length) hi = a * SAMPLE_EVERY - 1;
      // The last sample whose prefix is below the key's: it and every term before it are below.
      let c = 0;
      let d = a;
      while (c < d) {
        const mid = (c + d) >>> 1;
        if ((samples[mid] as number) < p) c = mid + 1;
        else d = mid;
      }
      if (c > 0) lo = (c - 1) * SAMPLE_EVERY + 1;
    }
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = offsets[mid] as number;
      const e = offsets[mid + 1] as number;
      const c = compareTermAt(blob, s, e, key, mid);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * False when the dictionary surely lacks the term whose UTF-8 bytes hashed (termHash) to
   * `hash`; true when it may hold it (a Bloom filter of the dictionary: 16–32 bits a term,
   * a power of two, two probes, 0.5–1.4 % false positives, built on first use). A server's
   * index asks every pack for each new term; most packs lack it, and this answers them
   * without a binary search.
   */
  mayHold(hash: number): boolean {
    const bits = this.filter ?? this.buildFilter();
    const mask = bits.length * 32 - 1;
    const a = hash & mask;
    const b = secondProbe(hash) & mask;
    return ((bits[a >>> 5] as number) & (1 << (a & 31))) !== 0 && ((bits[b >>> 5] as number) & (1 << (b & 31))) !== 0;
  }

  /** Builds what mayHold and findTermBytes use (see there) now, if not built yet. */
  prepareFilter(): void {
    if (this.filter === null) this.buildFilter();
  }

  /** Whether prepareFilter (or a mayHold) has built the filter. */
  get filterReady(): boolean {
    return this.filter !== null;
  }

  private filter: Uint32Array | null = null;
  /** The first four bytes (prefixOf) of every SAMPLE_EVERY-th term, built with the filter. */
  private samples: Uint32Array | null = null;

  private buildFilter(): Uint32Array {
    // 16 bits a term, a power of two: probes are masks.
    let words = 1;
    while (words * 32 < this.termCount * 16) words *= 2;
    const bits = new Uint32Array(words);
    const mask = words * 32 - 1;
    const offsets = this.termOffsets;
    for (let t = 0; t < this.termCount; t++) {
      const s = offsets[t] as number;
      const e = offsets[t + 1] as number;
      if (s > e || e > this.termBlob.length) throw new IndexFormatError(`term ${t} out of range`);
      const h = fnv1a(this.termBlob, s, e);
      const a = h & mask;
      const b = secondProbe(h) & mask;
      bits[a >>> 5] = (bits[a >>> 5] as number) | (1 << (a & 31));
      bits[b >>> 5] = (bits[b >>> 5] as number) | (1 << (b & 31));
    }
    const samples = new Uint32Array(Math.ceil(this.termCount / SAMPLE_EVERY));
    for (let k = 0; k < samples.length; k++) {
      const t = k * SAMPLE_EVERY;
      samples[k] = prefixOf(this.termBlob, offsets[t] as number, offsets[t + 1] as number);
    }
    this.samples = samples;
    this.filter = bits;
    return bits;
  }

  /** The term's postings, or null when no unit holds it. */
  termPostings(term: string): IndexPostings | null {
    const at = this.findTerm(term);
    return at < 0 ? null : this.postings(at);
  }

  /** How many units hold the term. */
  documentFrequency(index: number): number {
    return this.stats[index * 2 + 1] as number;
  }

  /**
   * How many postings term `index` has, checked against the postings' bytes (a posting takes
   * at least two: unit delta and field mask), so that a damaged count never sizes an array.
   */
  postingCount(index: number): number {
    const offset = this.stats[index * 2] as number;
    const count = this.stats[index * 2 + 1] as number;
    if (offset > this.postingBytes.length || count > (this.postingBytes.length - offset) / 2) {
      throw new IndexFormatError('postings out of range');
    }
    return count;
  }

  postings(index: number): IndexPostings {
    const count = this.postingCount(index);
    const units = new Uint32Array(count);
    const tfs = new Uint32Array(count * this.fieldCount);
    this.postingsInto(index, units, tfs, 0, 0);
    return { units, tfs };
  }

  /**
   * Decodes term `index`'s postings into `units` and `tfs` (zeroed) from posting `at` on, each
   * unit plus `base` (the unit numbering of several indexes read as one); returns how many.
   */
  postingsInto(index: number, units: Uint32Array, tfs: Uint32Array, at: number, base: number): number {
    const count = this.postingCount(index);
    const fields = this.fieldCount;
    // ByteReader's varints, read here with a local cursor and a one-byte fast path (a new
    // question decodes every pack's postings of its new terms: tens of thousands of
    // postings, most of whose numbers are one byte). The same values and the same errors.
    const bytes = this.postingBytes;
    const end = bytes.length;
    let pos = this.stats[index * 2] as number;
    let unit = 0;
    for (let k = 0; k < count; k++) {
      let delta: number;
      if (pos < end && (bytes[pos] as number) < 0x80) delta = bytes[pos++] as number;
      else {
        delta = varintAt(bytes, pos, end);
        pos = cursor;
      }
      if (k > 0 && delta === 0) throw new IndexFormatError('posting out of range');
      unit += delta;
      if (unit >= this.unitCount) throw new IndexFormatError('posting out of range');
      units[at + k] = base + unit;
      let mask: number;
      if (pos < end && (bytes[pos] as number) < 0x80) mask = bytes[pos++] as number;
      else {
        mask = varintAt(bytes, pos, end);
        pos = cursor;
      }
      for (let f = 0; f < fields; f++) {
        if ((mask & (1 << f)) === 0) continue;
        let tf: number;
        if (pos < end && (bytes[pos] as number) < 0x80) tf = bytes[pos++] as number;
        else {
          tf = varintAt(bytes, pos, end);
          pos = cursor;
        }
        tfs[(at + k) * fields + f] = tf;
      }
    }
    return count;
  }
}

/** One dictionary term in this many is sampled (IndexReader.samples). */
const SAMPLE_EVERY = 16;

/**
 * The first four bytes of bytes[s, e) as a big-endian number, zeros after its end. When two
 * terms' prefixes differ, they compare as the terms do in byte order (a term ending inside
 * the four bytes compares as its zeros, below any byte a longer term has there); equal
 * prefixes say nothing.
 */
export function prefixOf(bytes: Uint8Array, s: number, e: number): number {
  const n = e - s;
  return (
    ((n > 0 ? (bytes[s] as number) : 0) * 0x1000000 +
      ((n > 1 ? (bytes[s + 1] as number) : 0) << 16) +
      ((n > 2 ? (bytes[s + 2] as number) : 0) << 8) +
      (n > 3 ? (bytes[s + 3] as number) : 0))
  );
}

/** Where varintAt stopped. */
let cursor = 0;

/** ByteReader.varint at `pos` of `bytes` (read up to `end`): its value, and `cursor` set past it. */
function varintAt(bytes: Uint8Array, pos: number, end: number): number {
  let value = 0;
  let scale = 1;
  for (let k = 0; k < 8; k++) {
    if (pos + 1 > end) throw new IndexFormatError('index is truncated');
    const b = bytes[pos++] as number;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      cursor = pos;
      return value;
    }
    scale *= 0x80;
  }
  throw new IndexFormatError('varint is too long');
}

/** The hash IndexReader.mayHold takes: FNV-1a of the term's UTF-8 bytes. */
export function termHash(key: Uint8Array): number {
  return fnv1a(key, 0, key.length);
}

/** A second probe of a term's filter bits, from its hash (bits mixed so that it differs from the first). */
function secondProbe(h: number): number {
  const x = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return x ^ (x >>> 13);
}

function decode(bytes: Uint8Array): string {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    throw new IndexFormatError('index string is not UTF-8');
  }
}

/**
 * compareU8(blob[s, e), key) in place, without a subarray: term `term` of a dictionary
 * against a key (IndexFormatError if its range is not inside the blob).
 */
export function compareTermAt(blob: Uint8Array, s: number, e: number, key: Uint8Array, term: number): number {
  if (s > e || e > blob.length) throw new IndexFormatError(`term ${term} out of range`);
  const n = Math.min(e - s, key.length);
  for (let i = 0; i < n; i++) {
    const d = (blob[s + i] as number) - (key[i] as number);
    if (d !== 0) return d;
  }
  return e - s - key.length;
}

/** Byte-order comparison of two byte strings (the dictionary's order). */
export function compareU8(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** `count` little-endian u32 values from the reader, as an aligned native array. */
function u32s(r: ByteReader, count: number, what: string): Uint32Array {
  if (r.end - r.pos < count * 4) throw new IndexFormatError(`${what} table is truncated`);
  const bytes = r.take(count * 4);
  if (LITTLE_ENDIAN_HOST && bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, count);
  const out = new Uint32Array(count);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let k = 0; k < count; k++) out[k] = dv.getUint32(k * 4, true);
  return out;
}
