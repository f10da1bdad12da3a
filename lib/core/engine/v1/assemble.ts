// A build's analyzed documents, in path order, each with its units and where its bytes are
// in its batch's contents; files that cannot be documents are set aside with their reason.
// What goes into which pack, and the packs' indexes, is ./packs.ts's and ./build.ts's.

import type { TermOrder, UnitInput } from '../../index/build-index.js';
import type { SkippedSource } from '../../sources/walk.js';
import { unitTerms, type BatchResult } from './batch.js';
import type { PackFile } from './early-packs.js';
import { packPath } from './manifest.js';
import { packsWithin, placeContents } from './packs.js';

export interface AnalyzedDocument {
  readonly path: string;
  readonly version: string;
  readonly bytes: number;
  /** Its bytes hash to the version it had in the cache being replaced (then it has no units here). */
  readonly unchanged: boolean;
  /** Its units, fresh from analysis (their `doc` is -1: set where the document lands). */
  readonly units: readonly UnitInput[];
  readonly batch: number;
  /** Where its bytes start in its batch's contents (when the batch kept them). */
  readonly contentOffset: number;
}

/** Each document's units in `batch` (by its number in the batch). */
function unitsByDocument(batch: BatchResult): UnitInput[][] {
  const unitsOf: UnitInput[][] = batch.documents.map(() => []);
  for (const u of batch.units) {
    (unitsOf[u.doc] as UnitInput[]).push({ doc: -1, start: u.start, end: u.end, tokens: u.tokens, words: u.words, slug: u.slug, trail: u.trail, terms: unitTerms(batch, u), dictionary: batch.dictionary });
  }
  return unitsOf;
}

/**
 * The batches' documents in order (batches hold contiguous runs of the path order). A
 * document's units are made when first asked for, a batch at a time: a full build asks only
 * for those of packs its threads did not make.
 */
export function analyzedDocuments(batches: readonly BatchResult[]): { documents: AnalyzedDocument[]; skipped: SkippedSource[] } {
  const documents: AnalyzedDocument[] = [];
  const skipped: SkippedSource[] = [];
  batches.forEach((batch, b) => {
    let unitsOf: UnitInput[][] | null = null;
    let offset = 0;
    batch.documents.forEach((d, doc) => {
      if (d.skip !== null) {
        skipped.push({ path: d.path, reason: d.skip });
        return;
      }
      documents.push({
        path: d.path,
        version: d.version,
        bytes: d.bytes,
        unchanged: d.unchanged,
        get units(): readonly UnitInput[] {
          unitsOf ??= unitsByDocument(batch);
          return unitsOf[doc] as UnitInput[];
        },
        batch: b,
        contentOffset: offset,
      });
      offset += d.bytes;
    });
  });
  return { documents, skipped };
}

/**
 * `batch` with its packs encoded (a full build's chunk, contents kept): those it holds whole
 * if a pack begins at its first document (`last`: its documents end the build's, so the
 * last pack ends with them). `order` gives its dictionary's byte order, asked only if a pack
 * is encoded.
 */
export function withPacks(batch: BatchResult, order: () => TermOrder, last: boolean): BatchResult {
  const contents = batch.contents;
  if (contents === null) throw new Error('withPacks: the batch kept no contents');
  const { documents } = analyzedDocuments([batch]);
  const inputs = documents.map((d) => {
    if (d.unchanged) throw new Error('withPacks: a full build has no unchanged documents');
    return { path: d.path, version: d.version, units: d.units, old: null, content: contents.subarray(d.contentOffset, d.contentOffset + d.bytes) };
  });
  return { ...batch, packs: packsWithin(inputs, order, last) };
}

/**
 * The pack files `batch`'s thread made (withPacks), each with its name and bytes: its head,
 * then each distinct content once, in the order its documents list them (./packs.ts
 * placeContents: the bytes encodePack writes).
 */
export function localPackFiles(batch: BatchResult): PackFile[] {
  const packs = batch.packs ?? [];
  if (packs.length === 0) return [];
  const contents = batch.contents;
  if (contents === null) throw new Error('localPackFiles: the batch kept no contents');
  const { documents } = analyzedDocuments([batch]);
  return packs.map((p) => {
    const inputs = documents.slice(p.first, p.first + p.count).map((d) => ({ path: d.path, version: d.version, content: contents.subarray(d.contentOffset, d.contentOffset + d.bytes) }));
    return { name: packPath(p.record.sha256), chunks: [p.head, ...placeContents(inputs).contents] };
  });
}

/** Whether `batch`'s packs (withPacks) hold every document of it and were all `written`. */
export function packsHoldAll(batch: BatchResult, written: (name: string) => boolean): boolean {
  const packs = batch.packs ?? [];
  const documents = batch.documents.filter((d) => d.skip === null).length;
  return packs.reduce((n, p) => n + p.count, 0) === documents && packs.every((p) => written(packPath(p.record.sha256)));
}

const NO_BYTES = new Uint8Array(0);

/**
 * `batch` without what only its packs' bytes needed (contents, units, terms, dictionary,
 * heads): its documents and its packs' records. Its contents are null, so a pack asked of it
 * after all fails loudly (never with other bytes).
 */
export function withoutContents(batch: BatchResult): BatchResult {
  return {
    dictionary: [],
    documents: batch.documents,
    units: [],
    termIds: new Uint32Array(0),
    tfs: new Uint32Array(0),
    contents: null,
    packs: (batch.packs ?? []).map((p) => ({ first: p.first, count: p.count, record: p.record, head: NO_BYTES })),
  };
}
