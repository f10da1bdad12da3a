// Reads, verifies and measures a run of a cache's documents: each is parsed, re-hashed and
// checked against its manifest entry (the first failure throws cache_invalid), then its
// word count and the counts of the query's terms are taken (or, given an index builder, the
// document is indexed in the same pass). The unit of work a loader thread does; results are
// plain data so they cross thread boundaries unchanged.

import { throwFirst, readDocument, type CheckedDocument } from './check.js';
import type { ManifestEntry } from './format.js';
import { countDocumentTerms, type TermMatchers, termMatchers } from './corpus.js';
import { countWords } from '../../analysis/text.js';
import type { WordIndexBuilder } from './word-index.js';

export interface DocumentBatch {
  readonly documents: CheckedDocument[];
  readonly totalWords: Uint32Array;
  /** Per distinct term (in the order given), its count in each document of the batch. */
  readonly termCounts: Uint32Array[];
}

/**
 * With `index`, each document is added to it while its text is at hand (its word count comes
 * from there too) and `terms` must be empty: an index answers every term later.
 */
export function readBatch(
  dir: string,
  entries: readonly ManifestEntry[],
  terms: readonly string[],
  index?: WordIndexBuilder,
): DocumentBatch {
  const documents: CheckedDocument[] = [];
  const totalWords = new Uint32Array(entries.length);
  const termCounts = terms.map(() => new Uint32Array(entries.length));
  const matchers: TermMatchers = termMatchers(terms);
  const row = new Uint32Array(terms.length);
  entries.forEach((entry, i) => {
    const doc = readDocument(dir, entry, throwFirst) as CheckedDocument;
    documents.push(doc);
    if (index !== undefined) {
      totalWords[i] = index.add(doc.content);
      return;
    }
    totalWords[i] = countWords(doc.content);
    row.fill(0);
    countDocumentTerms(doc, undefined, matchers, row);
    for (let k = 0; k < terms.length; k++) (termCounts[k] as Uint32Array)[i] = row[k] as number;
  });
  return { documents, totalWords, termCounts };
}


/**
 * A batch as a worker posts it: every content joined into one string, which structured
 * clone copies in one piece, instead of thousands of strings cloned one by one.
 */
export interface PackedBatch {
  readonly documents: Omit<CheckedDocument, 'content'>[];
  readonly contents: string;
  readonly lengths: Uint32Array;
  readonly totalWords: Uint32Array;
  readonly termCounts: Uint32Array[];
}

export function packBatch(batch: DocumentBatch): PackedBatch {
  const lengths = Uint32Array.from(batch.documents.map((d) => d.content.length));
  const documents = batch.documents.map(({ id, version, source, ascii, bytes }) => ({ id, version, source, ascii, bytes }));
  return { documents, contents: batch.documents.map((d) => d.content).join(''), lengths, totalWords: batch.totalWords, termCounts: batch.termCounts };
}

export function unpackBatch(packed: PackedBatch): DocumentBatch {
  let offset = 0;
  const documents = packed.documents.map((d, i) => {
    const length = packed.lengths[i] as number;
    const content = packed.contents.slice(offset, offset + length);
    offset += length;
    return { ...d, content };
  });
  return { documents, totalWords: packed.totalWords, termCounts: packed.termCounts };
}
