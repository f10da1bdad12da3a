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
 * as it is (a view: not to be written to while the reader lives). With `split`, `lead` is
 * the index's header alone, `split.rank` its units' rank columns and `split.late` gives
 * their answer columns and the strings section, called when first needed (a query reads
 * those of the packs its answer looks at, not of every pack: ../engine/v1/segments.ts).
 */
export function scopedFromLead(lead: Uint8Array, found: readonly ScopedTerm[], split?: { readonly rank: Uint32Array; readonly late: () => LateUnits }): IndexReader {
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
  return new IndexReader(lead, { tail: out.view8(), termCount: found.length, ...(split === undefined ? {} : { split }) });
}

/**
 * What ranking reads of each unit, its token count and the length of each field, as u32s
 * `rankStride` apart (a pack's rows as stored: 5 + fieldCount per unit, tokens the 4th and
 * the lengths from the 6th; or a term file's rank columns: 1 + fieldCount, tokens first):
 * IndexReader reads one index's, PackedIndex (./packed-index.ts) joins several. A unit's
 * document, offsets and word count are each class's own.
 */
export abstract class UnitRows {
  protected rank: Uint32Array = new Uint32Array(0);
  protected rankStride = 1;
  protected tokensAt = 0;
  protected lengthsAt = 1;

  abstract unitDoc(u: number): number;
  abstract unitStart(u: number): number;
  abstract unitEnd(u: number): number;
  abstract unitWordCount(u: number): number;

  unitTokens(u: number): number {
    return this.rank[u * this.rankStride + this.tokensAt] as number;
  }

  unitLength(u: number, field: number): number {
    return this.rank[u * this.rankStride + this.lengthsAt + field] as number;
  }
}

/** A split index's late part (IndexReader's `scoped.split`): its units' answer columns and its strings section, as stored. */
export interface LateUnits {
  /** Per unit: document, start, end, words (4 u32, little-endian). */
  readonly answer: Uint8Array;
  /** The strings section: its u32 length, its bytes, zero padding to a multiple of 4. */
  readonly strings: Uint8Array;
}

/** Random access to an index's bytes, bounds-checked. */
export class IndexReader extends UnitRows {
  readonly docCount: number;
  readonly unitCount: number;
  readonly termCount: number;
  readonly fieldCount: number;
  /** Sum over units of each field's length. */
  readonly lengthSums: readonly number[];
  /** The unit rows as stored (5 + fieldCount u32 per unit); a split index's are made when asked for (unitRows). */
  #rows: Uint32Array | null = null;
  /** Each unit's document, start, end (u32s `#answerStride` apart from 0) and word count (at `#wordsAt`). */
  #answer: Uint32Array | null = null;
  #answerStride = 4;
  #wordsAt = 3;
  /** A split index's rank columns as given (null: its rows hold them). */
  #rankColumns: Uint32Array | null = null;
  #stringOffsets: Uint32Array | null = null;
  #strings: Uint8Array | null = null;
  /** A split index's strings section as stored (for `bytes`). */
  #stringsSection: Uint8Array | null = null;
  /** A split index's answer columns and strings, not read yet. */
  #late: (() => LateUnits) | null;
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
   * terms (scopedFromLead: the lead is not copied). With `scoped.split`, `bytes` is the
   * header alone, the units' rank columns are `scoped.split.rank` (1 + fieldCount u32 per
   * unit: tokens, each field's length; kept as given) and their answer columns and the
   * strings section are what `scoped.split.late` returns, read and checked when a unit's
   * document, offsets, word count, slug or trail is first asked for.
   */
  constructor(bytes: Uint8Array, scoped?: { readonly tail: Uint8Array; readonly termCount: number; readonly split?: { readonly rank: Uint32Array; readonly late: () => LateUnits } }) {
    super();
    this.#bytes = bytes;
    this.#tail = scoped?.tail ?? null;
    const split = scoped?.split ?? null;
    this.#late = split?.late ?? null;
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
    if (split !== null) {
      if (r.pos !== bytes.length) throw new IndexFormatError('the header does not end where the unit rows begin');
      if (split.rank.length !== this.unitCount * (1 + this.fieldCount)) throw new IndexFormatError('the rank columns do not count the header\'s units');
      this.#rankColumns = split.rank;
      this.rank = split.rank;
      this.rankStride = 1 + this.fieldCount;
      this.tokensAt = 0;
      this.lengthsAt = 1;
    } else {
      const rows = u32s(sectionOf(), this.unitCount * words, 'units');
      this.#rows = rows;
      this.rank = rows;
      this.rankStride = words;
      this.tokensAt = 3;
      this.lengthsAt = 5;
      this.setAnswer(rows, words, 4);
      this.readStrings(sectionOf());
    }
    if (scoped !== undefined) {
      if (r.pos !== bytes.length) throw new IndexFormatError('the lead does not end where its index\'s dictionary begins');
      r = new ByteReader(scoped.tail);
    }
    const dict = sectionOf();
    this.termOffsets = u32s(dict, this.termCount + 1, 'terms');
    this.termBlob = dict.take(dict.end - dict.pos);
    this.stats = u32s(sectionOf(), this.termCount * 2, 'term stats');
    const post = sectionOf();
    this.postingBytes = post.take(post.end - post.pos);
    if (r.pos !== r.bytes.length) throw new IndexFormatError('trailing bytes after the index');
  }

  /** Takes `answer` (document, start, end at 0, 1, 2 and the word count at `wordsAt`, `stride` apart), each unit checked. */
  private setAnswer(answer: Uint32Array, stride: number, wordsAt: number): void {
    for (let u = 0, at = 0; u < this.unitCount; u++, at += stride) {
      if ((answer[at] as number) >= this.docCount || (answer[at + 1] as number) > (answer[at + 2] as number)) {
        throw new IndexFormatError(`unit ${u} is out of range`);
      }
    }
    this.#answer = answer;
    this.#answerStride = stride;
    this.#wordsAt = wordsAt;
  }

  /** The strings section (`body`: its bytes after its length), checked. */
  private readStrings(body: ByteReader): void {
    this.#stringOffsets = u32s(body, this.unitCount + 1, 'strings');
    this.#strings = body.take(body.end - body.pos);
  }

  /** A split index's late part read and checked (the thunk is called until it succeeds once). */
  private readLate(): void {
    const late = this.#late;
    if (late === null) return;
    const { answer, strings } = late();
    const columns = u32s(new ByteReader(answer), this.unitCount * 4, 'answer');
    if (answer.length !== this.unitCount * 16) throw new IndexFormatError('the answer columns do not count the header\'s units');
    const r = new ByteReader(strings);
    const n = r.u32();
    const body = new ByteReader(strings, r.pos, r.pos + n);
    r.take(n);
    r.align();
    if (r.pos !== strings.length) throw new IndexFormatError('the strings do not end where the lead does');
    this.setAnswer(columns, 4, 3);
    this.readStrings(body);
    this.#stringsSection = strings;
    this.#late = null;
  }

  private answerColumns(): Uint32Array {
    if (this.#answer === null) this.readLate();
    return this.#answer as Uint32Array;
  }

  unitDoc(u: number): number {
    return this.answerColumns()[u * this.#answerStride] as number;
  }

  unitStart(u: number): number {
    return this.answerColumns()[u * this.#answerStride + 1] as number;
  }

  unitEnd(u: number): number {
    return this.answerColumns()[u * this.#answerStride + 2] as number;
  }

  unitWordCount(u: number): number {
    return this.answerColumns()[u * this.#answerStride + this.#wordsAt] as number;
  }

  /** A split index's rank columns (1 + fieldCount u32 per unit: tokens, lengths) as given; null for an index read whole. */
  rankColumns(): Uint32Array | null {
    return this.#rankColumns;
  }

  /** The strings section's offsets and bytes, read first if they were not. */
  private stringsSection(): { offsets: Uint32Array; strings: Uint8Array } {
    if (this.#strings === null) this.readLate();
    return { offsets: this.#stringOffsets as Uint32Array, strings: this.#strings as Uint8Array };
  }

  /**
   * The index's bytes (its sections are views of them): as given, or for a scoped index
   * its lead and sections joined, its header counting its own terms (made when first asked).
   */
  get bytes(): Uint8Array {
    if (this.#tail !== null) {
      let lead = this.#bytes;
      if (this.#rankColumns !== null) {
        // A split index's lead as its head stores it: header, unit rows, strings section.
        const rows = this.unitRows();
        this.stringsSection();
        const section = this.#stringsSection as Uint8Array;
        lead = new Uint8Array(this.#bytes.length + 4 + rows.length * 4 + section.length);
        lead.set(this.#bytes, 0);
        new DataView(lead.buffer).setUint32(this.#bytes.length, rows.length * 4, true);
        lead.set(new Uint8Array(rows.buffer, rows.byteOffset, rows.length * 4), this.#bytes.length + 4);
        lead.set(section, this.#bytes.length + 4 + rows.length * 4);
      }
      const joined = new Uint8Array(lead.length + this.#tail.length);
      joined.set(lead, 0);
      joined.set(this.#tail, lead.length);
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
      table: this.unitRows(),
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
    if (this.#rows === null) {
      // A split index's rows as its head stores them: document, start, end, tokens, words, lengths.
      const fields = this.fieldCount;
      const words = 5 + fields;
      const answer = this.answerColumns();
      const rank = this.rank;
      const rows = new Uint32Array(this.unitCount * words);
      for (let u = 0; u < this.unitCount; u++) {
        const at = u * words;
        const a = u * 4;
        const k = u * (1 + fields);
        rows[at] = answer[a] as number;
        rows[at + 1] = answer[a + 1] as number;
        rows[at + 2] = answer[a + 2] as number;
        rows[at + 3] = rank[k] as number;
        rows[at + 4] = answer[a + 3] as number;
        for (let f = 0; f < fields; f++) rows[at + 5 + f] = rank[k + 1 + f] as number;
      }
      this.#rows = rows;
    }
    return this.#rows;
  }

  /**
   * First unit of each document (and the unit count at the end): units are stored in
   * document order, each document's units contiguous.
   */
  firstUnits(): Uint32Array {
    const first = new Uint32Array(this.docCount + 1);
    let u = 0;
    for (let d = 0; d < this.docCount; d++) {
      first[d] = u;
      while (u < this.unitCount && this.unitDoc(u) === d) u++;
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
