// A pack's index in an incremental build, patched from the old pack's index: the documents
// kept unchanged bring their units along as stored bytes (unit rows, slug and trail bytes,
// each posting's field mask and frequencies), the few documents analyzed anew add their
// units; old postings are renumbered in one pass over their varints, new terms are merged
// into the byte-ordered dictionary, and terms left without postings drop out.
//
// The bytes are exactly those of the full path, encodeIndex(buildIndexData(...)) over the
// same units (the old ones as PreviousIndex.unitsOf gives them back), for any index that
// encodeIndex wrote: its varints are minimal and its dictionary sorted, which is what lets
// stored bytes be copied instead of decoded and encoded again.

import { ByteWriter, IndexFormatError } from './bytes.js';
import { sortedTerms, type UnitInput } from './build-index.js';
import { compareTermAt, headerSize, sectionSize, writeHeader, writePosting, writeString, type IndexReader } from './index-format.js';

/** A document of the new index, in document order. */
export type PatchDoc =
  /** Every unit of the old index's document `oldDoc`, unchanged. */
  | { readonly kind: 'old'; readonly oldDoc: number }
  /** Freshly analyzed units (their `doc` field is ignored: the document is this one). */
  | { readonly kind: 'new'; readonly units: readonly UnitInput[] };

const utf8 = new TextEncoder();

/** The fresh units' postings, grouped by term and in unit order within a term. */
interface FreshPostings {
  /** New unit number of each posting. */
  readonly unit: Uint32Array;
  /** Index in `inputs` of each posting's unit, and of the term in that unit's terms. */
  readonly input: Uint32Array;
  readonly k: Uint32Array;
  readonly inputs: readonly UnitInput[];
}

/**
 * Writes fresh postings from `j` on, up to `jEnd` or the first of a unit above `below`,
 * after the posting of unit `prev`. Returns the next j; the last unit written is that
 * posting's fresh.unit[j - 1] (or `prev` when none was).
 */
function writeFresh(out: ByteWriter, fresh: FreshPostings, j: number, jEnd: number, below: number, prev: number, fieldCount: number): number {
  for (; j < jEnd; j++) {
    const nu = fresh.unit[j] as number;
    if (nu > below) break;
    writePosting(out, nu - prev, (fresh.inputs[fresh.input[j] as number] as UnitInput).terms.tfs, (fresh.k[j] as number) * fieldCount, fieldCount);
    prev = nu;
  }
  return j;
}

/** The fresh terms, in byte order, and where they go among the old ones. */
interface FreshTerms {
  /** Per fresh term: the old term it equals, else ~(index of the first greater old term). */
  readonly place: Int32Array;
  /** Per fresh term: its postings, fresh[postStart[r], postStart[r + 1]). */
  readonly postStart: Uint32Array;
}

/**
 * Reads one old term's postings (checked as the reader checks them, and the field mask and
 * frequencies checked to be what encodeIndex writes: minimal varints, a mask within the
 * fields, nonzero frequencies, since they are copied rather than encoded anew) and notes
 * per posting its new unit (-1: dropped), its unit delta, and where it starts. Kept
 * apart from the writing so that this loop, which every posting goes through, has no
 * branch that only a changed posting takes (the JIT compiles it once, early).
 */
class PostingScan {
  private readonly src: Uint8Array;
  private readonly oldToNew: Int32Array;
  private readonly maxMask: number;
  readonly newUnit: Int32Array;
  readonly delta: Uint32Array;
  /** Where each posting starts. */
  readonly start: Uint32Array;
  /** After scan(): 0 when every posting keeps its unit delta (its stored bytes stay). */
  changed = 0;

  constructor(src: Uint8Array, oldToNew: Int32Array, maxMask: number) {
    this.src = src;
    this.oldToNew = oldToNew;
    this.maxMask = maxMask;
    this.newUnit = new Int32Array(oldToNew.length);
    this.delta = new Uint32Array(oldToNew.length);
    this.start = new Uint32Array(oldToNew.length);
  }

  /** Scans `count` postings from src[pos]; returns where they end. */
  scan(pos: number, count: number): number {
    const { src, oldToNew, maxMask, newUnit, delta: deltas, start } = this;
    const end = src.length;
    const unitCount = oldToNew.length;
    if (pos > end || count > (end - pos) / 2 || count > unitCount) throw new IndexFormatError('postings out of range');
    let oldUnit = 0;
    let prev = 0;
    let changed = 0;
    for (let k = 0; k < count; k++) {
      if (pos >= end) throw new IndexFormatError('index is truncated');
      start[k] = pos;
      let b = src[pos++] as number;
      let delta = b & 0x7f;
      if (b >= 0x80) {
        let scale = 0x80;
        do {
          if (pos >= end || scale > 0x10000000) throw new IndexFormatError('posting out of range');
          b = src[pos++] as number;
          delta += (b & 0x7f) * scale;
          scale *= 0x80;
        } while (b >= 0x80);
        if (b === 0) throw new IndexFormatError('posting delta is not minimal');
      }
      oldUnit += delta;
      if ((delta === 0 && k > 0) || oldUnit >= unitCount) throw new IndexFormatError('posting out of range');
      if (pos >= end) throw new IndexFormatError('index is truncated');
      b = src[pos++] as number;
      let mask = b;
      if (b >= 0x80) {
        mask &= 0x7f;
        let scale = 0x80;
        do {
          if (pos >= end || scale > 0x4000) throw new IndexFormatError('bad field mask in postings');
          b = src[pos++] as number;
          mask += (b & 0x7f) * scale;
          scale *= 0x80;
        } while (b >= 0x80);
        if (b === 0) throw new IndexFormatError('bad field mask in postings');
      }
      if (mask >= maxMask) throw new IndexFormatError('bad field mask in postings');
      for (let m = mask; m !== 0; m &= m - 1) {
        if (pos >= end) throw new IndexFormatError('index is truncated');
        b = src[pos++] as number;
        if (b === 0) throw new IndexFormatError('bad frequency in postings');
        if (b >= 0x80) {
          let n = 1;
          do {
            if (pos >= end || n++ >= 5) throw new IndexFormatError('bad frequency in postings');
            b = src[pos++] as number;
          } while (b >= 0x80);
          if (b === 0) throw new IndexFormatError('bad frequency in postings');
        }
      }
      const nu = oldToNew[oldUnit] as number;
      newUnit[k] = nu;
      deltas[k] = delta;
      // Dropped (nu < 0: the sign bit), or another delta: without a branch.
      changed |= (nu >>> 31) | ((nu - prev) ^ delta);
      prev = nu;
    }
    this.changed = changed;
    return pos;
  }
}

/**
 * Writes the postings of an old term just scanned (src[from, end)), renumbered and merged
 * with fresh postings [j, jEnd); how many it wrote. Unchanged postings are copied in runs.
 */
function writeChanged(out: ByteWriter, sc: PostingScan, src: Uint8Array, from: number, end: number, count: number, fresh: FreshPostings, j: number, jEnd: number, fieldCount: number): number {
  const { newUnit, delta, start } = sc;
  let run = from;
  let prev = 0;
  let written = count + (jEnd - j);
  /** The unit of the next fresh posting (beyond every unit when none is left). */
  let nextFresh = j < jEnd ? (fresh.unit[j] as number) : 0x7fffffff;
  for (let k = 0; k < count; k++) {
    const nu = newUnit[k] as number;
    // The common case, a posting that keeps its bytes: nothing to do.
    if (nu >= 0 && nu - prev === delta[k] && nextFresh > nu) {
      prev = nu;
      continue;
    }
    const at = start[k] as number;
    const next = k + 1 < count ? (start[k + 1] as number) : end;
    if (at > run) out.range(src, run, at);
    run = next;
    if (nu < 0) {
      written--;
      continue;
    }
    if (nextFresh < nu) {
      j = writeFresh(out, fresh, j, jEnd, nu, prev, fieldCount);
      prev = fresh.unit[j - 1] as number;
      nextFresh = j < jEnd ? (fresh.unit[j] as number) : 0x7fffffff;
    }
    if (nu - prev === delta[k]) run = at;
    else {
      out.varint(nu - prev);
      out.range(src, at + varintSize(delta[k] as number), next);
    }
    prev = nu;
  }
  if (end > run) out.range(src, run, end);
  writeFresh(out, fresh, j, jEnd, Infinity, prev, fieldCount);
  return written;
}

/** Bytes of `value` as a (minimal) varint. */
function varintSize(value: number): number {
  let n = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) n++;
  return n;
}

/**
 * The postings section: old terms' postings renumbered by `oldToNew` (-1: dropped), fresh
 * terms' merged in, into `out`; per kept term (one with a posting) its stats and its `kept`
 * entry (old term index, or ~rank of a fresh term not in the old dictionary). Returns the
 * number of kept terms. Terms whose postings all keep their bytes are copied in long runs
 * (encodeIndex writes each term's postings right after the previous term's).
 */
function patchPostings(
  old: IndexReader,
  oldToNew: Int32Array,
  fresh: FreshPostings,
  terms: FreshTerms,
  fieldCount: number,
  out: ByteWriter,
  stats: Uint32Array,
  kept: Int32Array,
): number {
  const { postings: src, stats: oldStats } = old.sections();
  const sc = new PostingScan(src, oldToNew, 1 << fieldCount);
  const { place, postStart } = terms;
  const freshCount = place.length;
  let termCount = 0;
  let pos = 0;
  /** Stored bytes [run, pos) are still to be copied to `out` as they are. */
  let run = 0;
  let r = 0;
  for (let t = 0; t <= old.termCount; t++) {
    // Fresh terms that sort before old term t and are not in the old dictionary.
    while (r < freshCount && (place[r] as number) === ~t) {
      if (pos > run) out.range(src, run, pos);
      run = pos;
      stats[termCount * 2] = out.length;
      stats[termCount * 2 + 1] = (postStart[r + 1] as number) - (postStart[r] as number);
      kept[termCount++] = ~r;
      writeFresh(out, fresh, postStart[r] as number, postStart[r + 1] as number, Infinity, 0, fieldCount);
      r++;
    }
    if (t === old.termCount) break;
    let j = 0;
    let jEnd = 0;
    if (r < freshCount && place[r] === t) {
      j = postStart[r] as number;
      jEnd = postStart[r + 1] as number;
      r++;
    }
    const start = oldStats[t * 2] as number;
    const count = oldStats[t * 2 + 1] as number;
    if (start !== pos) {
      // Not right after the previous term's postings: the run ends there.
      if (pos > run) out.range(src, run, pos);
      run = start;
    }
    const end = sc.scan(start, count);
    pos = end;
    let written = count;
    let offset = out.length + (start - run);
    if (sc.changed !== 0 || j < jEnd) {
      if (start > run) out.range(src, run, start);
      offset = out.length;
      written = writeChanged(out, sc, src, start, end, count, fresh, j, jEnd, fieldCount);
      run = end;
    }
    if (written === 0) continue;
    stats[termCount * 2] = offset;
    stats[termCount * 2 + 1] = written;
    kept[termCount++] = t;
  }
  if (pos > run) out.range(src, run, pos);
  return termCount;
}

/**
 * The index bytes of `docs` (document d of the result is docs[d]), given the index
 * `old` that the 'old' documents come from. Old documents must be listed in ascending order
 * of their old numbers, each once (as a path-ordered rebuild lists them); `fieldCount` must
 * be the old index's. Throws IndexFormatError on damage found in the old bytes.
 */
export function patchIndex(old: IndexReader, docs: readonly PatchDoc[], fieldCount: number): Uint8Array {
  if (fieldCount !== old.fieldCount) throw new RangeError(`patchIndex: ${fieldCount} fields, the old index has ${old.fieldCount}`);
  const sec = old.sections();
  const words = 5 + fieldCount;
  const first = old.firstUnits();

  // Units: numbered in document order; old unit -> new unit (-1: dropped).
  let unitCount = 0;
  let lastOld = -1;
  for (const d of docs) {
    if (d.kind === 'old') {
      if (!Number.isInteger(d.oldDoc) || d.oldDoc <= lastOld || d.oldDoc >= old.docCount) {
        throw new RangeError(`patchIndex: old document ${d.oldDoc} is out of order or range`);
      }
      lastOld = d.oldDoc;
      unitCount += (first[d.oldDoc + 1] as number) - (first[d.oldDoc] as number);
    } else unitCount += d.units.length;
  }
  const oldToNew = new Int32Array(old.unitCount).fill(-1);
  const inputs: UnitInput[] = [];
  /** New unit number of each fresh unit. */
  const freshUnit = new Uint32Array(unitCount);
  const rows = new Uint32Array(unitCount * words);
  const stringOffsets = new Uint32Array(unitCount + 1);
  const blob = new ByteWriter(sec.strings.length + 1024);
  let unit = 0;
  for (let doc = 0; doc < docs.length; ) {
    const d = docs[doc] as PatchDoc;
    if (d.kind === 'old') {
      // A run of old documents numbered one after the other: their rows and strings are
      // copied in one piece, their units renumbered.
      let last = doc + 1;
      for (let o = d.oldDoc + 1; last < docs.length; last++, o++) {
        const next = docs[last] as PatchDoc;
        if (next.kind !== 'old' || next.oldDoc !== o) break;
      }
      const s = first[d.oldDoc] as number;
      const e = first[d.oldDoc + last - doc] as number;
      rows.set(sec.table.subarray(s * words, e * words), unit * words);
      const a = sec.stringOffsets[s] as number;
      const b = sec.stringOffsets[e] as number;
      if (a > b || b > sec.strings.length) throw new IndexFormatError(`unit ${s} strings out of range`);
      const shift = blob.length - a;
      for (let u = s, o = d.oldDoc; u < e; u++) {
        while (u >= (first[o + 1] as number)) o++;
        const at = sec.stringOffsets[u] as number;
        if (at < a || at > (sec.stringOffsets[u + 1] as number)) throw new IndexFormatError(`unit ${u} strings out of range`);
        stringOffsets[unit] = at + shift;
        rows[unit * words] = doc + (o - d.oldDoc);
        oldToNew[u] = unit++;
      }
      blob.range(sec.strings, a, b);
      doc = last;
      continue;
    }
    for (const u of d.units) {
      freshUnit[inputs.length] = unit;
      inputs.push(u);
      const row = unit * words;
      rows[row] = doc;
      rows[row + 1] = u.start;
      rows[row + 2] = u.end;
      rows[row + 3] = u.tokens;
      rows[row + 4] = u.words;
      for (let f = 0; f < fieldCount; f++) rows[row + 5 + f] = u.terms.lengths[f] as number;
      stringOffsets[unit] = blob.length;
      writeString(blob, u.slug);
      blob.varint(u.trail.length);
      for (const h of u.trail) writeString(blob, h);
      unit++;
    }
    doc++;
  }
  stringOffsets[unitCount] = blob.length;
  // Sums in unit order, as encodeIndex adds them (integers: exact either way).
  const sums = new Array<number>(fieldCount).fill(0);
  for (let f = 0; f < fieldCount; f++) {
    let sum = 0;
    for (let row = 5 + f; row < rows.length; row += words) sum += rows[row] as number;
    sums[f] = sum;
  }

  // The fresh units' terms: distinct strings, sorted as buildIndexData sorts them, each with
  // its place in the old dictionary; their postings grouped by term, in unit order.
  const { terms: freshTerms, ranks: maps } = sortedTerms(inputs);
  let freshPostings = 0;
  for (const u of inputs) freshPostings += u.terms.termIds.length;
  const freshBytes = freshTerms.map((term) => utf8.encode(term));
  /** Per fresh term (by rank): the old term it equals, else ~(index of the first greater old term). */
  const place = new Int32Array(freshBytes.length);
  let lo = 0;
  freshBytes.forEach((key, r) => {
    let hi = old.termCount; // lower bound in [lo, hi): ranks ascend, so places do too
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareTermAt(sec.termBlob, sec.termOffsets[mid] as number, sec.termOffsets[mid + 1] as number, key, mid) < 0) lo = mid + 1;
      else hi = mid;
    }
    const equal = lo < old.termCount && compareTermAt(sec.termBlob, sec.termOffsets[lo] as number, sec.termOffsets[lo + 1] as number, key, lo) === 0;
    place[r] = equal ? lo : ~lo;
  });
  const postStart = new Uint32Array(freshBytes.length + 1);
  for (const u of inputs) {
    const map = maps.get(u.dictionary) as Int32Array;
    for (const local of u.terms.termIds) {
      const r = map[local] as number;
      postStart[r + 1] = (postStart[r + 1] as number) + 1;
    }
  }
  for (let r = 0; r < freshBytes.length; r++) postStart[r + 1] = (postStart[r + 1] as number) + (postStart[r] as number);
  const fresh: FreshPostings = { unit: new Uint32Array(freshPostings), input: new Uint32Array(freshPostings), k: new Uint32Array(freshPostings), inputs };
  const filled = postStart.slice(0, freshBytes.length);
  inputs.forEach((u, i) => {
    const map = maps.get(u.dictionary) as Int32Array;
    const ids = u.terms.termIds;
    for (let k = 0; k < ids.length; k++) {
      const r = map[ids[k] as number] as number;
      const at = filled[r] as number;
      fresh.unit[at] = freshUnit[i] as number;
      fresh.input[at] = i;
      fresh.k[at] = k;
      filled[r] = at + 1;
    }
  });

  // Postings, term by term in the merged order.
  const post = new ByteWriter(sec.postings.length + freshPostings * (2 + 5 * fieldCount) + 1024);
  const stats = new Uint32Array((old.termCount + freshBytes.length) * 2);
  const kept = new Int32Array(old.termCount + freshBytes.length);
  const termCount = patchPostings(old, oldToNew, fresh, { place, postStart }, fieldCount, post, stats, kept);

  // The dictionary of the kept terms: runs of old ones copied as stored bytes.
  const termOffsets = new Uint32Array(termCount + 1);
  const termBlob = new ByteWriter(sec.termBlob.length + 1024);
  for (let k = 0; k < termCount; ) {
    const term = kept[k] as number;
    if (term < 0) {
      termOffsets[k++] = termBlob.length;
      termBlob.bytes(freshBytes[~term] as Uint8Array);
      continue;
    }
    let last = term;
    const a = sec.termOffsets[term] as number;
    const shift = termBlob.length - a;
    do {
      const s = sec.termOffsets[last] as number;
      if (s > (sec.termOffsets[last + 1] as number)) throw new IndexFormatError(`term ${last} out of range`);
      termOffsets[k++] = s + shift;
      last++;
    } while (k < termCount && kept[k] === last);
    const b = sec.termOffsets[last] as number;
    if (b > sec.termBlob.length) throw new IndexFormatError(`term ${last - 1} out of range`);
    termBlob.range(sec.termBlob, a, b);
  }
  termOffsets[termCount] = termBlob.length;

  // Each section written straight into the result, sized exactly: no copy of it after.
  const parts: [Uint32Array, Uint8Array][] = [
    [rows, new Uint8Array(0)],
    [stringOffsets, blob.view8()],
    [termOffsets, termBlob.view8()],
    [stats.subarray(0, termCount * 2), new Uint8Array(0)],
    [new Uint32Array(0), post.view8()],
  ];
  let size = headerSize(fieldCount);
  for (const [u32s, tail] of parts) size += sectionSize(u32s.byteLength + tail.length);
  const out = new ByteWriter(size);
  writeHeader(out, docs.length, unitCount, termCount, sums);
  for (const [u32s, tail] of parts) {
    out.u32(u32s.byteLength + tail.length);
    out.u32s(u32s);
    out.bytes(tail);
    out.align();
  }
  const result = out.view8();
  return result.byteLength === result.buffer.byteLength ? result : result.slice();
}
