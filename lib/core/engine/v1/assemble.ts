// Puts analyzed batches together: the documents in order (files that could not be
// documents set aside with their reason), and index.bin from all their units.

import { FIELD_COUNT } from '../../analysis/term-counter.js';
import { buildIndexData, type UnitInput } from '../../index/build-index.js';
import { encodeIndex } from '../../index/index-format.js';
import type { SkippedSource } from '../../sources/walk.js';
import { unitTerms, type BatchResult } from './batch.js';

export interface AssembledDocument {
  readonly path: string;
  readonly version: string;
  readonly bytes: number;
  /** Its batch, and where its bytes start in the batch's contents (when kept). */
  readonly batch: number;
  readonly contentOffset: number;
}

export interface Assembled {
  readonly documents: readonly AssembledDocument[];
  readonly skipped: readonly SkippedSource[];
  readonly index: Uint8Array;
  readonly unitCount: number;
}

export function assemble(batches: readonly BatchResult[]): Assembled {
  const documents: AssembledDocument[] = [];
  const skipped: SkippedSource[] = [];
  const units: UnitInput[] = [];
  batches.forEach((batch, b) => {
    const docNumber: number[] = [];
    let contentOffset = 0;
    for (const d of batch.documents) {
      if (d.skip !== null) {
        skipped.push({ path: d.path, reason: d.skip });
        docNumber.push(-1);
        continue;
      }
      docNumber.push(documents.length);
      documents.push({ path: d.path, version: d.version, bytes: d.bytes, batch: b, contentOffset });
      contentOffset += d.bytes;
    }
    for (const u of batch.units) {
      units.push({
        doc: docNumber[u.doc] as number,
        start: u.start,
        end: u.end,
        tokens: u.tokens,
        words: u.words,
        slug: u.slug,
        trail: u.trail,
        terms: unitTerms(batch, u),
        dictionary: batch.dictionary,
      });
    }
  });
  const index = encodeIndex(buildIndexData(documents.length, FIELD_COUNT, units));
  return { documents, skipped, index, unitCount: units.length };
}
