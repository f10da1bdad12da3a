// Puts a build's documents together: in path order, each from an analyzed batch or, in an
// incremental build, from the cache being replaced (a file whose stat stamp is unchanged,
// or whose bytes still hash to its old version); files that cannot be documents are set
// aside with their reason; index.bin is encoded from all their units, or, in an incremental
// build, patched from the old index.bin (lib/core/index/patch-index.ts: the same bytes).

import { compareBytes } from '../../../json.js';
import { FIELD_COUNT } from '../../analysis/term-counter.js';
import { buildIndexData, type UnitInput } from '../../index/build-index.js';
import { encodeIndex } from '../../index/index-format.js';
import { patchIndex, type PatchDoc } from '../../index/patch-index.js';
import type { SkippedSource } from '../../sources/walk.js';
import { unitTerms, type BatchResult } from './batch.js';
import type { PreviousIndex } from './previous.js';

/** Where a document comes from: a batch's document, or an old document never read again. */
export type DocumentOrigin =
  | { readonly kind: 'batch'; readonly batch: number; readonly doc: number }
  | { readonly kind: 'previous'; readonly path: string; readonly version: string; readonly bytes: number; readonly oldDoc: number };

export interface AssembledDocument {
  readonly path: string;
  readonly version: string;
  readonly bytes: number;
  readonly origin: DocumentOrigin;
  /** Where its bytes start in its batch's contents (batch origin, contents kept). */
  readonly contentOffset: number;
}

export interface Assembled {
  readonly documents: readonly AssembledDocument[];
  readonly skipped: readonly SkippedSource[];
  readonly index: Uint8Array;
  readonly unitCount: number;
}

export interface Reuse {
  readonly previous: PreviousIndex;
  /** Old document number of each path in the cache being replaced. */
  readonly oldDocOf: ReadonlyMap<string, number>;
  /** Documents trusted by their stamp, in path order (merged with the batches' by path). */
  readonly trusted: readonly Extract<DocumentOrigin, { kind: 'previous' }>[];
}

/** Every batch document in order (batches hold contiguous runs of the path order). */
function batchOrigins(batches: readonly BatchResult[]): { origin: Extract<DocumentOrigin, { kind: 'batch' }>; path: string; offset: number }[] {
  const out: { origin: Extract<DocumentOrigin, { kind: 'batch' }>; path: string; offset: number }[] = [];
  batches.forEach((batch, b) => {
    let offset = 0;
    batch.documents.forEach((d, doc) => {
      out.push({ origin: { kind: 'batch', batch: b, doc }, path: d.path, offset });
      if (d.skip === null) offset += d.bytes;
    });
  });
  return out;
}

export function assemble(batches: readonly BatchResult[], reuse: Reuse | null = null): Assembled {
  const fromBatches = batchOrigins(batches);
  const trusted = reuse?.trusted ?? [];
  const documents: AssembledDocument[] = [];
  const skipped: SkippedSource[] = [];
  /** Per document, in order: its units, fresh from a batch or kept from the old index. */
  const parts: PatchDoc[] = [];
  const unitsOfBatchDoc = new Map<string, UnitInput[]>();
  batches.forEach((batch, b) => {
    for (const u of batch.units) {
      const key = `${b}:${u.doc}`;
      let list = unitsOfBatchDoc.get(key);
      if (list === undefined) unitsOfBatchDoc.set(key, (list = []));
      list.push({ doc: -1, start: u.start, end: u.end, tokens: u.tokens, words: u.words, slug: u.slug, trail: u.trail, terms: unitTerms(batch, u), dictionary: batch.dictionary });
    }
  });
  // Merge the two path-ordered runs.
  let i = 0;
  let j = 0;
  while (i < fromBatches.length || j < trusted.length) {
    const a = fromBatches[i];
    const t = trusted[j];
    if (t !== undefined && (a === undefined || compareBytes(t.path, a.path) < 0)) {
      documents.push({ path: t.path, version: t.version, bytes: t.bytes, origin: t, contentOffset: 0 });
      parts.push({ kind: 'old', oldDoc: t.oldDoc });
      j++;
      continue;
    }
    const { origin, path, offset } = a as (typeof fromBatches)[number];
    i++;
    const d = (batches[origin.batch] as BatchResult).documents[origin.doc] as BatchResult['documents'][number];
    if (d.skip !== null) {
      skipped.push({ path: d.path, reason: d.skip });
      continue;
    }
    documents.push({ path, version: d.version, bytes: d.bytes, origin, contentOffset: offset });
    if (d.unchanged && reuse !== null) parts.push({ kind: 'old', oldDoc: reuse.oldDocOf.get(path) as number });
    else parts.push({ kind: 'new', units: unitsOfBatchDoc.get(`${origin.batch}:${origin.doc}`) ?? [] });
  }
  let unitCount = 0;
  for (const p of parts) unitCount += p.kind === 'old' ? (reuse as Reuse).previous.unitCountOf(p.oldDoc) : p.units.length;
  // Old documents come in path order, which is their old order (the old manifest is sorted
  // by path): patchIndex renumbers the old index's units and postings instead of decoding
  // and encoding them again, and writes the same bytes as the full path below.
  if (reuse !== null && ascendingOldDocs(parts)) {
    return { documents, skipped, index: patchIndex(reuse.previous.index, parts, FIELD_COUNT), unitCount };
  }
  const units: UnitInput[] = [];
  parts.forEach((p, doc) => {
    if (p.kind === 'old') units.push(...(reuse as Reuse).previous.unitsOf(p.oldDoc, doc));
    else for (const u of p.units) units.push({ ...u, doc });
  });
  const index = encodeIndex(buildIndexData(documents.length, FIELD_COUNT, units));
  return { documents, skipped, index, unitCount };
}

/** Whether each old document is listed once, in ascending order (what patchIndex takes). */
function ascendingOldDocs(parts: readonly PatchDoc[]): boolean {
  let last = -1;
  for (const p of parts) {
    if (p.kind !== 'old') continue;
    if (p.oldDoc <= last) return false;
    last = p.oldDoc;
  }
  return true;
}
