// A term file: what a query reads of a run of consecutive packs (a "segment",
// lib/core/engine/v1/segments.ts) — each pack's lead (its head up to the dictionary: the
// document list, the index's header, unit rows and strings), cut so that a query reads
// every pack's rank columns (each unit's token count and field lengths: what ranking
// needs) and the names (document list, the units' documents, offsets and word counts, and
// strings) of the packs its answer looks at only, and the packs' dictionaries
// merged into one, so that a query finds each of its terms in the segment with one small
// read instead of a binary search in every pack's dictionary, and reads its postings and
// nothing else of them. Everything in it is copied from the packs' heads: a term file
// follows from its packs, byte for byte (`verify` makes it again and compares).
// Little-endian:
//
//   top      "CTXTERMS" u32 format(1) u32 packs u32 terms u32 dictBlocks u32 postBlocks
//            u32 postBytes u32 0
//            per pack, in pack order: its head's sha256 (32 bytes); u32 lengths of its
//            document list (the head's magic, list and padding), its index's header, its
//            rank columns (per unit u32 tokens, then each field's u32 length), its answer
//            columns (per unit u32 document, start, end, words) and its strings section;
//            the header's bytes; the sha256 of its rank columns, then of its names (list,
//            answer columns and strings, as the body holds them: one after the other)
//            per dictionary block: u32 length, f64 where its first entry's postings start
//            in the postings, its 32-byte sha256
//            per postings block: its 32-byte sha256 (blocks of POST_BLOCK bytes, the last
//            shorter)
//            u32 × (dictBlocks + 1) offsets into the blob of each block's first term, the blob
//            zero padding to a multiple of 4
//   body     every pack's rank columns back to back, then every pack's names, the
//            dictionary blocks back to back, then the postings (cut into postings blocks)
//
// A dictionary block holds entries in UTF-8 byte order, ending after the entry that takes it
// to DICT_BLOCK bytes or more: varint term length, the term's bytes, varint count of packs
// holding it, then per pack: varint pack (the first absolute, each next as its distance
// from the one before), varint postings count, varint postings bytes. The postings hold, in
// entry order, each (term, pack)'s postings bytes exactly as that pack stores them. The
// top's bytes are what the manifest records a sha256 of; every block is checked against
// the top's sha256 for it when first read, so a damaged byte anywhere is found before it is
// used.

import { ByteReader, ByteWriter, IndexFormatError } from './bytes.js';
import { compareTermAt, headerSize, type IndexReader, type IndexSections } from './index-format.js';

export const TERM_FILE_MAGIC = 'CTXTERMS';
export const TERM_FILE_FORMAT = 2;
/** A dictionary block ends after the entry that takes it to this many bytes. */
export const DICT_BLOCK = 4096;
/** Postings blocks' size (the last is shorter). */
export const POST_BLOCK = 8192;

const MAGIC = new TextEncoder().encode(TERM_FILE_MAGIC);
const SHA_BYTES = 32;
/** A dictionary block's entry in the top: u32 length, f64 where its postings start, sha256. */
const DICT_ENTRY = 4 + 8 + SHA_BYTES;

/**
 * A pack as its term file is made from: its head's sha256 (raw), its lead's bytes, where in
 * the lead its index begins (after the document list) and its strings begin, and its index.
 */
export interface TermFilePack {
  readonly headSha256: Uint8Array;
  readonly lead: Uint8Array;
  readonly rowsAt: number;
  readonly stringsAt: number;
  readonly index: IndexReader;
}

/** The term file's bytes, and its top's length (what the manifest records a sha256 of). */
export interface EncodedTermFile {
  readonly bytes: Uint8Array;
  readonly topBytes: number;
}

/**
 * The term file of `packs` (consecutive packs, in order). `sha256` hashes a block (raw
 * 32 bytes): given, so that this module does no I/O nor crypto of its own choosing.
 */
export function encodeTermFile(packs: readonly TermFilePack[], sha256: (bytes: Uint8Array) => Uint8Array): EncodedTermFile {
  const k = packs.length;
  const m = mergeDictionaries(packs.map((p) => p.index.sections()), packs.map((p) => p.index.termCount));
  const dictBytes = m.dict;
  const postBytes = m.post;
  const dictBlocks = m.blockEnds.length;
  const postBlocks = Math.ceil(postBytes.length / POST_BLOCK);
  let headerBytes = 0;
  for (const p of packs) headerBytes += headerSize(p.index.fieldCount);
  const top = new ByteWriter(64 + k * (3 * SHA_BYTES + 20) + headerBytes + dictBlocks * 44 + postBlocks * SHA_BYTES + m.firstTerms.length);
  top.bytes(MAGIC);
  for (const v of [TERM_FILE_FORMAT, k, m.terms, dictBlocks, postBlocks, postBytes.length, 0]) top.u32(v);
  // The leads as the body holds them: every pack's rank columns, then every pack's names
  // (its document list, its units' answer columns, its strings section); the headers go in the top.
  let leadBytes = 0;
  let rankEnd = 0;
  for (const p of packs) {
    const fields = p.index.fieldCount;
    const units = p.index.unitCount;
    const h = headerSize(fields);
    const rowsBytes = units * (5 + fields) * 4;
    if (!(p.rowsAt >= 0 && p.rowsAt + h + 4 + rowsBytes === p.stringsAt && p.stringsAt <= p.lead.length)) throw new Error('encodeTermFile: a lead\'s parts are not where its index says');
    leadBytes += p.lead.length - h - 4;
    rankEnd += units * (1 + fields) * 4;
  }
  const leads = new Uint8Array(leadBytes);
  const view = new DataView(leads.buffer);
  let rankAt = 0;
  let namesAt = rankEnd;
  for (const p of packs) {
    if (p.headSha256.length !== SHA_BYTES) throw new Error('encodeTermFile: a head sha256 is 32 bytes');
    const fields = p.index.fieldCount;
    const units = p.index.unitCount;
    const words = 5 + fields;
    const rows = p.index.unitRows();
    const rankBytes = units * (1 + fields) * 4;
    const answerBytes = units * 16;
    const stringsBytes = p.lead.length - p.stringsAt;
    const answerAt = namesAt + p.rowsAt;
    for (let u = 0; u < units; u++) {
      const r = u * words;
      let at = rankAt + u * (1 + fields) * 4;
      view.setUint32(at, rows[r + 3] as number, true);
      for (let f = 0; f < fields; f++) view.setUint32((at += 4), rows[r + 5 + f] as number, true);
      const a = answerAt + u * 16;
      view.setUint32(a, rows[r] as number, true);
      view.setUint32(a + 4, rows[r + 1] as number, true);
      view.setUint32(a + 8, rows[r + 2] as number, true);
      view.setUint32(a + 12, rows[r + 4] as number, true);
    }
    leads.set(p.lead.subarray(0, p.rowsAt), namesAt);
    leads.set(p.lead.subarray(p.stringsAt), answerAt + answerBytes);
    const namesBytes = p.rowsAt + answerBytes + stringsBytes;
    const header = p.lead.subarray(p.rowsAt, p.rowsAt + headerSize(fields));
    top.bytes(p.headSha256);
    for (const v of [p.rowsAt, header.length, rankBytes, answerBytes, stringsBytes]) top.u32(v);
    top.bytes(header);
    top.bytes(sha256(leads.subarray(rankAt, rankAt + rankBytes)));
    top.bytes(sha256(leads.subarray(namesAt, namesAt + namesBytes)));
    rankAt += rankBytes;
    namesAt += namesBytes;
  }
  let from = 0;
  m.blockEnds.forEach((end, b) => {
    top.u32(end - from);
    top.f64(m.blockPost[b] as number);
    top.bytes(sha256(dictBytes.subarray(from, end)));
    from = end;
  });
  for (let b = 0; b < postBlocks; b++) top.bytes(sha256(postBytes.subarray(b * POST_BLOCK, Math.min(postBytes.length, (b + 1) * POST_BLOCK))));
  for (const o of m.firstOffsets) top.u32(o);
  top.bytes(m.firstTerms.view8());
  top.align();
  const topBytes = top.length;
  const out = new Uint8Array(topBytes + leadBytes + dictBytes.length + postBytes.length);
  out.set(top.view8(), 0);
  const at = topBytes + leadBytes;
  out.set(leads, topBytes);
  out.set(dictBytes, at);
  out.set(postBytes, at + dictBytes.length);
  return { bytes: out, topBytes };
}

interface Merged {
  readonly dict: Uint8Array;
  readonly post: Uint8Array;
  readonly blockEnds: number[];
  readonly blockPost: number[];
  readonly firstTerms: ByteWriter;
  readonly firstOffsets: number[];
  readonly terms: number;
}

/**
 * The merge key of bytes [a, e) of `blob`: its first 6 bytes as a big-endian number
 * (zero-padded), times 8, plus its length up to 7. Keys order byte strings as their bytes
 * do, except that two of 7 bytes or more with the same first 6 have one key (what follows
 * decides); equal keys of shorter ones are equal strings. A term has two: of its bytes, and
 * of its bytes after the sixth.
 */
function mergeKey(blob: Uint8Array, a: number, e: number): number {
  let v = 0;
  for (let i = 0; i < 6; i++) v = v * 256 + (a + i < e ? (blob[a + i] as number) : 0);
  return v * 8 + Math.min(Math.max(e - a, 0), 7);
}

/** Each term's two merge keys (mergeKey), for the `count` terms of a dictionary. */
function mergeKeys(blob: Uint8Array, offs: Uint32Array, count: number): { first: Float64Array; second: Float64Array; long: Uint8Array } {
  const first = new Float64Array(count);
  const second = new Float64Array(count);
  // 1 for a term of 13 bytes or more: two equal keys then leave its bytes to decide.
  const long = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    const a = offs[t] as number;
    const e = offs[t + 1] as number;
    if (a > e || e > blob.length) throw new IndexFormatError('term out of range');
    first[t] = mergeKey(blob, a, e);
    second[t] = e - a >= 7 ? mergeKey(blob, a + 6, e) : 0;
    long[t] = e - a >= 13 ? 1 : 0;
  }
  return { first, second, long };
}

/** The packs' dictionaries (`sections`, `counts` terms each) merged: entries, postings, blocks. */
function mergeDictionaries(sections: readonly IndexSections[], counts: readonly number[]): Merged {
  const k = sections.length;
  // Plain views (a Buffer's subclass would make the loop below see two kinds of array).
  const blobs = sections.map((s) => new Uint8Array(s.termBlob.buffer, s.termBlob.byteOffset, s.termBlob.byteLength));
  const offs = sections.map((s) => s.termOffsets);
  const stats = sections.map((s) => s.stats);
  const posts = sections.map((s) => new Uint8Array(s.postings.buffer, s.postings.byteOffset, s.postings.byteLength));
  const at = new Uint32Array(k);
  const keys = sections.map((s, p) => mergeKeys(blobs[p] as Uint8Array, s.termOffsets, counts[p] as number));
  const key = new Float64Array(k);
  const key2 = new Float64Array(k);
  const long = new Uint8Array(k);
  // A binary heap of the packs by their current term (equal terms: by pack).
  const heap = new Int32Array(k);
  let size = 0;
  const termAt = (p: number): void => {
    const t = at[p] as number;
    const ks = keys[p] as { first: Float64Array; second: Float64Array; long: Uint8Array };
    key[p] = ks.first[t] as number;
    key2[p] = ks.second[t] as number;
    long[p] = ks.long[t] as number;
  };
  const less = (a: number, b: number): boolean => {
    const ka = key[a] as number;
    const kb = key[b] as number;
    if (ka !== kb) return ka < kb;
    const la = key2[a] as number;
    const lb = key2[b] as number;
    if (la !== lb) return la < lb;
    if (long[a] === 1) {
      const oa = offs[a] as Uint32Array;
      const ob = offs[b] as Uint32Array;
      const ta = at[a] as number;
      const tb = at[b] as number;
      const c = compareRanges(blobs[a] as Uint8Array, oa[ta] as number, oa[ta + 1] as number, blobs[b] as Uint8Array, ob[tb] as number, ob[tb + 1] as number);
      if (c !== 0) return c < 0;
    }
    return a < b;
  };
  const down = (i: number): void => {
    const x = heap[i] as number;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const m = r < size && less(heap[r] as number, heap[l] as number) ? r : l;
      const y = heap[m] as number;
      if (!less(y, x)) break;
      heap[i] = y;
      i = m;
    }
    heap[i] = x;
  };
  for (let p = 0; p < k; p++) {
    if ((counts[p] as number) === 0) continue;
    termAt(p);
    heap[size++] = p;
  }
  for (let i = (size >> 1) - 1; i >= 0; i--) down(i);

  // Written in place, into buffers of their final size or more: every pack's postings are
  // copied once, so the postings take exactly their bytes; a dictionary entry at most its
  // term, two varints and three per pack holding it.
  let dictCap = 64;
  let postBytes = 0;
  for (let p = 0; p < k; p++) {
    dictCap += (blobs[p] as Uint8Array).length + (counts[p] as number) * 25;
    postBytes += (posts[p] as Uint8Array).length;
  }
  const d = new Uint8Array(dictCap);
  let dl = 0;
  const q = new Uint8Array(postBytes);
  let ql = 0;
  const blockEnds: number[] = [];
  const blockPost: number[] = [0];
  const firstTerms = new ByteWriter(1 << 12);
  const firstOffsets: number[] = [];
  let blockStart = 0;
  let terms = 0;
  const holders = new Int32Array(k);
  while (size > 0) {
    const p0 = heap[0] as number;
    const b0 = blobs[p0] as Uint8Array;
    const ts = (offs[p0] as Uint32Array)[at[p0] as number] as number;
    const te = (offs[p0] as Uint32Array)[(at[p0] as number) + 1] as number;
    const k0 = key[p0] as number;
    const k20 = key2[p0] as number;
    // Every pack holding this term, in pack order (equal terms leave the heap in pack order).
    let n = 0;
    while (size > 0) {
      const p = heap[0] as number;
      if (n > 0) {
        if (key[p] !== k0 || key2[p] !== k20) break;
        if (long[p] === 1) {
          const o = offs[p] as Uint32Array;
          const t = at[p] as number;
          if (compareRanges(blobs[p] as Uint8Array, o[t] as number, o[t + 1] as number, b0, ts, te) !== 0) break;
        }
      }
      holders[n++] = p;
      const next = (at[p] as number) + 1;
      at[p] = next; // its postings are read below, at at[p] - 1
      if (next >= (counts[p] as number)) heap[0] = heap[--size] as number;
      else termAt(p);
      if (size > 0) down(0);
    }
    if (dl === blockStart) {
      firstOffsets.push(firstTerms.length);
      firstTerms.range(b0, ts, te);
    }
    dl = writeVarint(d, dl, te - ts);
    for (let i = ts; i < te; i++) d[dl++] = b0[i] as number;
    dl = writeVarint(d, dl, n);
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const p = holders[i] as number;
      const st = stats[p] as Uint32Array;
      const pb = posts[p] as Uint8Array;
      const t = (at[p] as number) - 1;
      const start = st[t * 2] as number;
      const count = st[t * 2 + 1] as number;
      const end = t + 1 < (counts[p] as number) ? (st[t * 2 + 2] as number) : pb.length;
      if (end < start || end > pb.length || ql + end - start > q.length) throw new IndexFormatError('postings out of range');
      dl = writeVarint(d, dl, p - prev);
      dl = writeVarint(d, dl, count);
      dl = writeVarint(d, dl, end - start);
      prev = p;
      if (end - start > 32) q.set(pb.subarray(start, end), ql);
      else for (let i = start; i < end; i++) q[ql + i - start] = pb[i] as number;
      ql += end - start;
    }
    terms++;
    if (dl - blockStart >= DICT_BLOCK) {
      blockEnds.push(dl);
      blockPost.push(ql);
      blockStart = dl;
    }
  }
  if (dl > blockStart) blockEnds.push(dl);
  else blockPost.pop();
  firstOffsets.push(firstTerms.length);
  // (A write past a typed array's end is dropped, not thrown: the bound is checked here.)
  if (ql !== q.length || dl > d.length) throw new Error('mergeDictionaries: the buffers were sized wrong');
  return { dict: d.subarray(0, dl), post: q, blockEnds, blockPost, firstTerms, firstOffsets, terms };
}

/** Writes `value` (a u32) as a varint at `at` of `out` (room checked by the caller): where it ends. */
function writeVarint(out: Uint8Array, at: number, value: number): number {
  let v = value;
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[at++] = v;
  return at;
}

/** compareU8(a[as, ae), b[bs, be)) in place. */
function compareRanges(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const n = Math.min(ae - as, be - bs);
  for (let i = 0; i < n; i++) {
    const d = (a[as + i] as number) - (b[bs + i] as number);
    if (d !== 0) return d;
  }
  return ae - as - (be - bs);
}

/** One pack's postings of a term found in a term file. */
export interface TermPostings {
  /** The pack's number within the segment. */
  readonly pack: number;
  readonly count: number;
  /** Where its bytes are among the file's postings, and how many. */
  readonly start: number;
  readonly bytes: number;
}

/** A term file's top, decoded and bounds-checked (its bytes were checked against the manifest first). */
export class TermFileTop {
  readonly packs: number;
  readonly terms: number;
  readonly topBytes: number;
  readonly postBytes: number;
  /** Raw sha256 of each pack's head, in order. */
  readonly heads: Uint8Array[] = [];
  /** Per pack: its index's header; where its rank columns and its names are in the file, their lengths and sha256s; its names' parts. */
  private readonly headers: Uint8Array[] = [];
  private readonly rankStarts: number[] = [];
  private readonly rankLengths: number[] = [];
  private readonly rankSha: Uint8Array[] = [];
  private readonly nameStarts: number[] = [];
  private readonly listLengths: number[] = [];
  private readonly answerLengths: number[] = [];
  private readonly nameLengths: number[] = [];
  private readonly nameSha: Uint8Array[] = [];
  /** Where the rank columns end (the names begin) and the names end, in the file. */
  readonly rankEnd: number;
  readonly leadsEnd: number;
  /** The top's bytes: the block table's sha256s are read from them where they stand. */
  private readonly top: Uint8Array;
  /** Where each dictionary block starts in the file (and where the last ends), where its first entry's postings start. */
  private readonly dictStarts: Float64Array;
  private readonly dictPost: Float64Array;
  /** Where the dictionary blocks' table and the postings blocks' sha256s are in the top. */
  private readonly dictTable: number;
  private readonly postShas: number;
  private readonly postBlocks: number;
  private readonly firstOffsets: Uint32Array;
  private readonly firstBlob: Uint8Array;

  /** `bytes`: the top, exactly (its length is the manifest's record of it). */
  constructor(bytes: Uint8Array) {
    const r = new ByteReader(bytes);
    const magic = r.take(MAGIC.length);
    for (let i = 0; i < MAGIC.length; i++) if (magic[i] !== MAGIC[i]) throw new IndexFormatError('not a term file');
    if (r.u32() !== TERM_FILE_FORMAT) throw new IndexFormatError('unknown term file format');
    this.packs = r.u32();
    this.terms = r.u32();
    const dictBlocks = r.u32();
    const postBlocks = r.u32();
    this.postBytes = r.u32();
    if (r.u32() !== 0 || postBlocks !== Math.ceil(this.postBytes / POST_BLOCK) || dictBlocks > this.terms || (dictBlocks === 0) !== (this.terms === 0)) throw new IndexFormatError('bad term file header');
    let rankAt = bytes.length;
    for (let p = 0; p < this.packs; p++) {
      this.heads.push(r.take(SHA_BYTES));
      const list = r.u32();
      const header = r.u32();
      const rank = r.u32();
      const answer = r.u32();
      const strings = r.u32();
      if (list % 4 !== 0 || header % 4 !== 0 || rank % 4 !== 0 || answer % 16 !== 0) throw new IndexFormatError('bad term file lead lengths');
      this.headers.push(r.take(header));
      this.rankStarts.push(rankAt);
      this.rankLengths.push(rank);
      this.listLengths.push(list);
      this.answerLengths.push(answer);
      this.nameLengths.push(list + answer + strings);
      this.rankSha.push(r.take(SHA_BYTES));
      this.nameSha.push(r.take(SHA_BYTES));
      rankAt += rank;
    }
    this.rankEnd = rankAt;
    let at = rankAt;
    for (let p = 0; p < this.packs; p++) {
      this.nameStarts.push(at);
      at += this.nameLengths[p] as number;
    }
    this.leadsEnd = at;
    // The block tables read in place (a large cache's tops list ~100,000 blocks).
    this.top = bytes;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.dictTable = r.pos;
    r.take(dictBlocks * DICT_ENTRY);
    this.dictStarts = new Float64Array(dictBlocks + 1);
    this.dictPost = new Float64Array(dictBlocks);
    let prevPost = 0;
    for (let b = 0; b < dictBlocks; b++) {
      const length = view.getUint32(this.dictTable + b * DICT_ENTRY, true);
      const postStart = view.getFloat64(this.dictTable + b * DICT_ENTRY + 4, true);
      if (length === 0 || !Number.isSafeInteger(postStart) || postStart < prevPost || postStart > this.postBytes) throw new IndexFormatError('bad term file block table');
      prevPost = postStart;
      this.dictStarts[b] = at;
      this.dictPost[b] = postStart;
      at += length;
    }
    this.dictStarts[dictBlocks] = at;
    this.postShas = r.pos;
    this.postBlocks = postBlocks;
    r.take(postBlocks * SHA_BYTES);
    if (r.end - r.pos < (dictBlocks + 1) * 4) throw new IndexFormatError('term file is truncated');
    const offsets = new Uint32Array(dictBlocks + 1);
    const firsts = r.pos;
    r.take((dictBlocks + 1) * 4);
    for (let b = 0; b <= dictBlocks; b++) offsets[b] = view.getUint32(firsts + b * 4, true);
    this.firstOffsets = offsets;
    const blobLength = offsets[dictBlocks] as number;
    this.firstBlob = r.take(blobLength);
    for (let b = 0; b < dictBlocks; b++) if ((offsets[b] as number) > (offsets[b + 1] as number)) throw new IndexFormatError('bad term file first terms');
    r.align();
    if (r.pos !== bytes.length) throw new IndexFormatError('trailing bytes after the term file top');
    this.topBytes = bytes.length;
  }

  get dictBlocks(): number {
    return this.dictPost.length;
  }

  /** Bytes of the whole file its top describes. */
  get fileBytes(): number {
    return this.postOffset + this.postBytes;
  }

  /** Pack `p`'s index header (a view of the top). */
  header(p: number): Uint8Array {
    const header = this.headers[p];
    if (header === undefined) throw new IndexFormatError('pack out of range');
    return header;
  }

  /** Where pack `p`'s rank columns are in the file, their length and sha256. */
  rank(p: number): { offset: number; length: number; sha256: Uint8Array } {
    const length = this.rankLengths[p];
    if (length === undefined) throw new IndexFormatError('pack out of range');
    return { offset: this.rankStarts[p] as number, length, sha256: this.rankSha[p] as Uint8Array };
  }

  /**
   * Where pack `p`'s names are in the file — its document list (`list` bytes: the head's
   * magic, list and padding), its answer columns (`answer` bytes), then its strings
   * section — their length and sha256.
   */
  names(p: number): { offset: number; length: number; list: number; answer: number; sha256: Uint8Array } {
    const length = this.nameLengths[p];
    if (length === undefined) throw new IndexFormatError('pack out of range');
    return { offset: this.nameStarts[p] as number, length, list: this.listLengths[p] as number, answer: this.answerLengths[p] as number, sha256: this.nameSha[p] as Uint8Array };
  }

  /** Where dictionary block `b` is in the file, its length and its sha256. */
  dictBlock(b: number): { offset: number; length: number; sha256: Uint8Array; postStart: number } {
    if (!(b >= 0 && b < this.dictPost.length)) throw new IndexFormatError('dictionary block out of range');
    const at = this.dictTable + b * DICT_ENTRY + 12;
    return { offset: this.dictStarts[b] as number, length: (this.dictStarts[b + 1] as number) - (this.dictStarts[b] as number), sha256: this.top.subarray(at, at + SHA_BYTES), postStart: this.dictPost[b] as number };
  }

  /** Where the postings begin in the file (after the leads and the dictionary blocks). */
  get postOffset(): number {
    return this.dictStarts[this.dictPost.length] as number;
  }

  /** Postings block `b`'s sha256. */
  postBlockSha(b: number): Uint8Array {
    if (!(b >= 0 && b < this.postBlocks)) throw new IndexFormatError('postings block out of range');
    return this.top.subarray(this.postShas + b * SHA_BYTES, this.postShas + (b + 1) * SHA_BYTES);
  }

  /** The dictionary block that would hold `key` (the last whose first term is ≤ it), or -1. */
  blockOf(key: Uint8Array): number {
    let lo = 0;
    let hi = this.dictPost.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareTermAt(this.firstBlob, this.firstOffsets[mid] as number, this.firstOffsets[mid + 1] as number, key, mid);
      if (c <= 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}

/**
 * `key`'s postings per pack in dictionary block `block` (its checked bytes) whose first
 * entry's postings start at `postStart`, or null when the block does not hold it. `packs`:
 * how many packs the file covers (pack numbers are checked against it).
 */
export function findInBlock(block: Uint8Array, postStart: number, key: Uint8Array, packs: number, postBytes: number): TermPostings[] | null {
  const r = new ByteReader(block);
  let post = postStart;
  while (r.pos < r.end) {
    const length = r.varint();
    if (length > r.end - r.pos) throw new IndexFormatError('term file entry is truncated');
    const s = r.pos;
    r.pos += length;
    const c = compareTermAt(block, s, s + length, key, 0);
    const n = r.varint();
    if (n === 0) throw new IndexFormatError('term file entry without packs');
    const found: TermPostings[] | null = c === 0 ? [] : null;
    let pack = 0;
    for (let i = 0; i < n; i++) {
      const delta = r.varint();
      if (i > 0 && delta === 0) throw new IndexFormatError('term file packs not ascending');
      pack += delta;
      const count = r.varint();
      const bytes = r.varint();
      if (pack >= packs || post + bytes > postBytes || bytes < 2 * count) throw new IndexFormatError('term file entry out of range');
      found?.push({ pack, count, start: post, bytes });
      post += bytes;
    }
    if (c >= 0) return found;
  }
  return null;
}
