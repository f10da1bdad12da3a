// The index.bin of an incremental build, patched from the index it replaces: the documents
// kept unchanged bring their units along as stored bytes (unit rows, slug and trail bytes,
// each posting's field mask and frequencies), the few documents analyzed anew add their
// units; old postings are renumbered in one pass over their varints, new terms are merged
// into the byte-ordered dictionary, and terms left without postings drop out.
//
// The bytes are exactly those of the full path, encodeIndex(buildIndexData(...)) over the
// same units (the old ones as PreviousIndex.unitsOf gives them back), for any index that
// encodeIndex wrote: its varints are minimal and its dictionary sorted, which is what lets
// stored bytes be copied instead of decoded and encoded again.

import { compareBytes } from '../../json.js';
import { ByteWriter, IndexFormatError } from './bytes.js';
import type { UnitInput } from './build-index.js';
import { compareU8, headerSize, section, sectionSize, writeHeader, writePosting, writeString, type IndexReader } from './index-format.js';

/** A document of the new index, in document order. */
export type PatchDoc =
  /** Every unit of the old index's document `oldDoc`, unchanged. */
  | { readonly kind: 'old'; readonly oldDoc: number }
  /** Freshly analyzed units (their `doc` field is ignored: the document is this one). */
  | { readonly kind: 'new'; readonly units: readonly UnitInput[] };

const utf8 = new TextEncoder();

/** a[s, e) against b, in byte order (the sign of compareU8). */
function compareRange(a: Uint8Array, s: number, e: number, b: Uint8Array): number {
  const n = Math.min(e - s, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[s + i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return e - s - b.length;
}

/**
 * The index.bin bytes of `docs` (document d of the result is docs[d]), given the index
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
  const fresh: UnitInput[] = [];
  /** New unit number of each fresh unit. */
  const freshUnit = new Uint32Array(unitCount);
  const sums = new Array<number>(fieldCount).fill(0);
  const table = new ByteWriter(unitCount * words * 4);
  const stringOffsets = new Uint32Array(unitCount + 1);
  const blob = new ByteWriter(sec.strings.length + 1024);
  let unit = 0;
  docs.forEach((d, doc) => {
    if (d.kind === 'old') {
      const s = first[d.oldDoc] as number;
      const e = first[d.oldDoc + 1] as number;
      for (let u = s; u < e; u++) {
        oldToNew[u] = unit;
        table.u32(doc);
        for (let w = 1; w < words; w++) table.u32(sec.table[u * words + w] as number);
        for (let f = 0; f < fieldCount; f++) sums[f] = (sums[f] as number) + (sec.table[u * words + 5 + f] as number);
        const a = sec.stringOffsets[u] as number;
        const b = sec.stringOffsets[u + 1] as number;
        if (a > b || b > sec.strings.length) throw new IndexFormatError(`unit ${u} strings out of range`);
        stringOffsets[unit] = blob.length;
        blob.range(sec.strings, a, b);
        unit++;
      }
      return;
    }
    for (const u of d.units) {
      freshUnit[fresh.length] = unit;
      fresh.push(u);
      for (const v of [doc, u.start, u.end, u.tokens, u.words]) table.u32(v);
      for (let f = 0; f < fieldCount; f++) {
        const len = u.terms.lengths[f] as number;
        table.u32(len);
        sums[f] = (sums[f] as number) + len;
      }
      stringOffsets[unit] = blob.length;
      writeString(blob, u.slug);
      blob.varint(u.trail.length);
      for (const h of u.trail) writeString(blob, h);
      unit++;
    }
  });
  stringOffsets[unitCount] = blob.length;

  // The fresh units' terms: distinct strings, sorted as buildIndexData sorts them, each with
  // its place in the old dictionary; their postings grouped by term, in unit order.
  const termOf = new Map<string, number>();
  const freshTerms: string[] = [];
  const maps = new Map<readonly string[], Int32Array>();
  let freshPostings = 0;
  for (const u of fresh) {
    let map = maps.get(u.dictionary);
    if (map === undefined) maps.set(u.dictionary, (map = new Int32Array(u.dictionary.length).fill(-1)));
    for (const local of u.terms.termIds) {
      freshPostings++;
      if ((map[local] as number) >= 0) continue;
      const term = u.dictionary[local] as string;
      let id = termOf.get(term);
      if (id === undefined) {
        id = freshTerms.length;
        freshTerms.push(term);
        termOf.set(term, id);
      }
      map[local] = id;
    }
  }
  const order = freshTerms.map((_, i) => i).sort((a, b) => compareBytes(freshTerms[a] as string, freshTerms[b] as string));
  const rank = new Int32Array(freshTerms.length);
  order.forEach((id, r) => (rank[id] = r));
  const freshBytes = order.map((id) => utf8.encode(freshTerms[id] as string));
  /** Per fresh term (by rank): the old term it equals, else ~(index of the first greater old term). */
  const place = new Int32Array(freshBytes.length);
  let lo = 0;
  freshBytes.forEach((key, r) => {
    let hi = old.termCount; // lower bound in [lo, hi): ranks ascend, so places do too
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareRange(sec.termBlob, sec.termOffsets[mid] as number, sec.termOffsets[mid + 1] as number, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    const equal = lo < old.termCount && compareRange(sec.termBlob, sec.termOffsets[lo] as number, sec.termOffsets[lo + 1] as number, key) === 0;
    place[r] = equal ? lo : ~lo;
  });
  const postStart = new Uint32Array(freshBytes.length + 1);
  for (const u of fresh) {
    const map = maps.get(u.dictionary) as Int32Array;
    for (const local of u.terms.termIds) {
      const r = rank[map[local] as number] as number;
      postStart[r + 1] = (postStart[r + 1] as number) + 1;
    }
  }
  for (let r = 0; r < freshBytes.length; r++) postStart[r + 1] = (postStart[r + 1] as number) + (postStart[r] as number);
  /** Per fresh posting (grouped by term rank, in unit order): its fresh unit, its index in the unit's terms. */
  const postUnit = new Uint32Array(freshPostings);
  const postK = new Uint32Array(freshPostings);
  const filled = postStart.slice(0, freshBytes.length);
  fresh.forEach((u, i) => {
    const map = maps.get(u.dictionary) as Int32Array;
    const ids = u.terms.termIds;
    for (let k = 0; k < ids.length; k++) {
      const r = rank[map[ids[k] as number] as number] as number;
      const at = filled[r] as number;
      postUnit[at] = i;
      postK[at] = k;
      filled[r] = at + 1;
    }
  });

  // Postings, term by term in the merged order; kept terms (with a posting) are listed as
  // the old term's index, or ~rank of a fresh term found nowhere in the old dictionary.
  const bytes = sec.postings;
  const end = bytes.length;
  const post = new ByteWriter(end + freshPostings * (2 + 5 * fieldCount) + 1024);
  const stats = new ByteWriter((old.termCount + freshBytes.length) * 8 + 8);
  const kept = new Int32Array(old.termCount + freshBytes.length);
  let termCount = 0;
  const maxMask = 1 << fieldCount;

  let prev = 0;
  /** Writes fresh postings from j on, up to jEnd or the first of a unit above `below`; the next j. */
  const writeFresh = (j: number, jEnd: number, below: number): number => {
    for (; j < jEnd; j++) {
      const i = postUnit[j] as number;
      const nu = freshUnit[i] as number;
      if (nu > below) break;
      writePosting(post, nu - prev, (fresh[i] as UnitInput).terms.tfs, (postK[j] as number) * fieldCount, fieldCount);
      prev = nu;
    }
    return j;
  };
  /** Reads a varint of at most `max` bytes, which must be minimal (no 0x00 last byte after others); its value. */
  const minimal = (max: number, what: string): number => {
    let value = 0;
    let scale = 1;
    for (let n = 0; n < max; n++) {
      if (pos >= end) throw new IndexFormatError('index is truncated');
      const b = bytes[pos++] as number;
      value += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (b === 0 && n > 0) break;
        return value;
      }
      scale *= 0x80;
    }
    throw new IndexFormatError(`bad ${what} in postings`);
  };
  let pos = 0;

  /** Old term t's postings renumbered, merged with fresh postings [j, jEnd); how many were written. */
  const writeOld = (t: number, j: number, jEnd: number): number => {
    pos = sec.stats[t * 2] as number;
    const count = sec.stats[t * 2 + 1] as number;
    if (pos > end || count > (end - pos) / 2) throw new IndexFormatError('postings out of range');
    const j0 = j;
    let oldUnit = 0;
    let written = 0;
    prev = 0;
    for (let k = 0; k < count; k++) {
      // The unit delta is decoded; the field mask and frequencies are checked (minimal
      // varints, frequencies nonzero, as encodeIndex writes them) and copied as they are.
      let delta = 0;
      let scale = 1;
      let b: number;
      do {
        if (pos >= end || scale > 0x10000000) throw new IndexFormatError('posting out of range');
        b = bytes[pos++] as number;
        delta += (b & 0x7f) * scale;
        scale *= 0x80;
      } while (b >= 0x80);
      oldUnit += delta;
      if ((k > 0 && delta === 0) || oldUnit >= old.unitCount) throw new IndexFormatError('posting out of range');
      const from = pos;
      const mask = minimal(3, 'field mask');
      if (mask >= maxMask) throw new IndexFormatError('bad field mask in postings');
      for (let m = mask; m !== 0; m &= m - 1) if (minimal(5, 'frequency') === 0) throw new IndexFormatError('bad frequency in postings');
      const nu = oldToNew[oldUnit] as number;
      if (nu < 0) continue;
      j = writeFresh(j, jEnd, nu);
      post.varint(nu - prev);
      post.range(bytes, from, pos);
      prev = nu;
      written++;
    }
    writeFresh(j, jEnd, Infinity);
    return written + (jEnd - j0);
  };

  const keep = (term: number, offset: number, count: number): void => {
    if (count === 0) return;
    kept[termCount++] = term;
    stats.u32(offset);
    stats.u32(count);
  };
  let r = 0;
  for (let t = 0; t <= old.termCount; t++) {
    // Fresh terms that sort before old term t and are not in the old dictionary.
    while (r < freshBytes.length && (place[r] as number) === ~t) {
      const offset = post.length;
      prev = 0;
      writeFresh(postStart[r] as number, postStart[r + 1] as number, Infinity);
      keep(~r, offset, (postStart[r + 1] as number) - (postStart[r] as number));
      r++;
    }
    if (t === old.termCount) break;
    const offset = post.length;
    if (r < freshBytes.length && place[r] === t) {
      keep(t, offset, writeOld(t, postStart[r] as number, postStart[r + 1] as number));
      r++;
    } else keep(t, offset, writeOld(t, 0, 0));
  }

  // The dictionary of the kept terms: old ones copied as stored bytes.
  const dict = new ByteWriter((termCount + 1) * 4 + sec.termBlob.length + 1024);
  let blobLength = 0;
  for (let k = 0; k < termCount; k++) {
    dict.u32(blobLength);
    const term = kept[k] as number;
    if (term >= 0) {
      const a = sec.termOffsets[term] as number;
      const b = sec.termOffsets[term + 1] as number;
      if (a > b || b > sec.termBlob.length) throw new IndexFormatError(`term ${term} out of range`);
      blobLength += b - a;
    } else blobLength += (freshBytes[~term] as Uint8Array).length;
  }
  dict.u32(blobLength);
  for (let k = 0; k < termCount; k++) {
    const term = kept[k] as number;
    if (term >= 0) dict.range(sec.termBlob, sec.termOffsets[term] as number, sec.termOffsets[term + 1] as number);
    else dict.bytes(freshBytes[~term] as Uint8Array);
  }

  const strings = new ByteWriter((unitCount + 1) * 4 + blob.length);
  for (let u = 0; u <= unitCount; u++) strings.u32(stringOffsets[u] as number);
  strings.bytes(blob.view8());

  const bodies = [table, strings, dict, stats, post];
  let size = headerSize(fieldCount);
  for (const b of bodies) size += sectionSize(b.length);
  const out = new ByteWriter(size);
  writeHeader(out, docs.length, unitCount, termCount, sums);
  for (const b of bodies) section(out, b);
  const result = out.view8();
  // The writer was sized exactly: its buffer is the result, no copy needed.
  return result.byteLength === result.buffer.byteLength ? result : result.slice();
}
