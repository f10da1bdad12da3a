// Which documents a v1 cache's packs hold (./manifest.ts). Documents are taken in path
// order; a pack ends after a document whose path "cuts" (the top PACK_CUT_BITS bits of its
// 32-bit FNV-1a hash over the path's UTF-16 code units are zero: one path in 32), or once
// its contents (each distinct content of the pack once) reach PACK_MAX_BYTES. Where a pack
// ends depends only on the documents since the pack began, so an edit, add or delete
// changes the pack it falls in (and, when it moves a cut, the next one), never the rest:
// a rebuild writes those packs and links every other from the cache it replaces. A full
// build and an incremental one cut by this same rule, which is why both write the same
// packs, byte for byte.

import { FIELD_COUNT } from '../../analysis/term-counter.js';
import { encodeUnits, type TermOrder, type UnitInput } from '../../index/build-index.js';
import { patchIndex, type PatchDoc } from '../../index/patch-index.js';
import { sha256HexOfBoth } from '../../hash.js';
import { encodeHead, type HeadDocument, type PackRecord } from './manifest.js';
import type { PreviousIndex } from './previous.js';

export const PACK_CUT_BITS = 5;
export const PACK_MAX_BYTES = 8 * 1024 * 1024;

/** The 32-bit FNV-1a hash of `path`'s UTF-16 code units (where packs and segments end). */
export function pathHash(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function cutsPack(path: string): boolean {
  return pathHash(path) >>> (32 - PACK_CUT_BITS) === 0;
}

/** Whether a pack whose last document is at `path`, holding `contentBytes`, ends there. */
export function packEnds(path: string, contentBytes: number): boolean {
  return contentBytes >= PACK_MAX_BYTES || cutsPack(path);
}

/**
 * A document going into a pack, with its content and its units: fresh ones (their `doc` is
 * ignored), or those it has in the index of an old pack (`old`, the document's number there).
 */
export interface PackInput {
  readonly path: string;
  readonly version: string;
  readonly content: Uint8Array;
  readonly units: readonly UnitInput[] | null;
  readonly old: { readonly previous: PreviousIndex; readonly doc: number } | null;
}

export interface EncodedPack {
  readonly record: PackRecord;
  /** The file's bytes: the head, then each content (written one after the other, never joined). */
  readonly chunks: readonly Uint8Array[];
}

/**
 * The index of a pack's documents. When every old document comes from one old pack, in its
 * order (the usual rebuild: a few edits in one pack), the old index is patched
 * (../../index/patch-index.ts, the same bytes) instead of decoded and encoded again.
 */
function packIndex(documents: readonly PackInput[], order?: TermOrder): { index: Uint8Array; units: number } {
  let previous: PreviousIndex | null = null;
  let last = -1;
  let patchable = true;
  let units = 0;
  for (const d of documents) {
    if (d.old === null) {
      units += (d.units as readonly UnitInput[]).length;
      continue;
    }
    units += d.old.previous.unitCountOf(d.old.doc);
    if ((previous !== null && d.old.previous !== previous) || d.old.doc <= last) patchable = false;
    previous = d.old.previous;
    last = d.old.doc;
  }
  if (previous !== null && patchable) {
    const parts: PatchDoc[] = documents.map((d) => (d.old === null ? { kind: 'new', units: d.units as readonly UnitInput[] } : { kind: 'old', oldDoc: d.old.doc }));
    return { index: patchIndex(previous.index, parts, FIELD_COUNT), units };
  }
  return { index: indexOfUnits(documents.map((d, doc) => (d.old === null ? (d.units as readonly UnitInput[]) : d.old.previous.unitsOf(d.old.doc, doc))), order), units };
}

/**
 * The index of documents whose units are `perDocument` (each unit's `doc` set to its
 * document's place); `order`: the build's dictionaries sorted once (../../index/build-index.ts).
 */
export function indexOfUnits(perDocument: readonly (readonly UnitInput[])[], order?: TermOrder): Uint8Array {
  const all: UnitInput[] = [];
  perDocument.forEach((units, doc) => {
    for (const u of units) all.push({ ...u, doc });
  });
  return encodeUnits(perDocument.length, FIELD_COUNT, all, order);
}

/** Where each document's bytes go in a pack: each distinct content once, in order of first use. */
export function placeContents(documents: readonly Pick<PackInput, 'path' | 'version' | 'content'>[]): { listed: HeadDocument[]; contents: Uint8Array[]; bytes: number } {
  const placed = new Map<string, number>();
  const listed: HeadDocument[] = [];
  const contents: Uint8Array[] = [];
  let offset = 0;
  for (const d of documents) {
    let at = placed.get(d.version);
    if (at === undefined) {
      at = offset;
      placed.set(d.version, at);
      contents.push(d.content);
      offset += d.content.length;
    }
    listed.push({ path: d.path, version: d.version, offset: at, bytes: d.content.length });
  }
  return { listed, contents, bytes: offset };
}

/** The pack file of `documents` (path order): its head (list and index), then the contents. */
export function encodePack(documents: readonly PackInput[], order?: TermOrder): EncodedPack {
  const { listed, contents, bytes } = placeContents(documents);
  const { index, units } = packIndex(documents, order);
  const head = encodeHead(listed, index);
  const sha256 = sha256HexOfBoth(head, contents);
  return {
    record: { bytes: head.length + bytes, sha256: sha256.all, documents: documents.length, units, head: { bytes: head.length, sha256: sha256.first } },
    chunks: [head, ...contents],
  };
}

/** A pack encoded where its documents were analysed: `count` documents from the `first`. */
export interface LocalPack {
  readonly first: number;
  readonly count: number;
  readonly record: PackRecord;
  readonly head: Uint8Array;
}

/**
 * The packs of `documents` (fresh, a contiguous run of a full build's documents in path
 * order, all counted by one dictionary, whose byte order `order` gives) if a pack begins at
 * the first: each ends where the rule ends it (packEnds), and when `last` (the run ends the
 * build's documents) the documents after the last such end are the last pack. Where a pack
 * ends depends only on where it began, so these are the build's packs wherever one of them
 * begins where the build's previous pack ended: the build (./build.ts) takes each that does
 * and makes the rest itself. Analysing threads call this on their chunks, which begin where
 * a pack does (./analyze-corpus.ts chunkStarts), so the packs' indexes, heads and hashes are
 * made on every core, beside the analysis.
 */
export function packsWithin(documents: readonly PackInput[], order: () => TermOrder, last: boolean): LocalPack[] {
  let sorted: TermOrder | undefined;
  const packs: LocalPack[] = [];
  let first = 0;
  let contentBytes = 0;
  const placed = new Set<string>();
  for (let j = 0; j < documents.length; j++) {
    const d = documents[j] as PackInput;
    if (d.old !== null) throw new Error('packsWithin: documents must be fresh');
    if (!placed.has(d.version)) {
      placed.add(d.version);
      contentBytes += d.content.length;
    }
    if (!packEnds(d.path, contentBytes) && !(last && j === documents.length - 1)) continue;
    sorted ??= order();
    const encoded = encodePack(documents.slice(first, j + 1), sorted);
    packs.push({ first, count: j + 1 - first, record: encoded.record, head: encoded.chunks[0] as Uint8Array });
    first = j + 1;
    contentBytes = 0;
    placed.clear();
  }
  return packs;
}
