// The unit of work of a v1 build (and of `verify`'s index rebuild): read a run of documents
// (source files, or ranges of a pack), check them, hash them and analyze them into units.
// It runs on the main thread or a worker; its result is plain data in a few large arrays,
// cheap to post between threads, and depends only on the documents, never on the thread.

import { TermCounter, FIELD_COUNT, type UnitTerms } from '../../analysis/term-counter.js';
import * as fs from '../../fs.js';
import { TermOrder } from '../../index/build-index.js';
import { versionOf } from '../../hash.js';
import { loadTokenCounter, type TokenizerName } from '../../tokens/count.js';
import { analyzeDocument } from './analyze.js';
import type { Granularity } from './config.js';
import type { LocalPack } from './packs.js';

export interface BatchItem {
  /** The document's path (its identity). */
  readonly path: string;
  /** Where its bytes are: a file, and a range of it (length -1: the whole file). */
  readonly file: string;
  readonly offset: number;
  readonly length: number;
  /** An incremental build's version of this path in the old cache: if the bytes still hash
   *  to it, the document's analysis is taken from the old index instead of redone. */
  readonly previousVersion?: string;
}

export interface BatchTask {
  readonly granularity: Granularity;
  readonly tokenizer: TokenizerName;
  readonly items: readonly BatchItem[];
  /** Return the documents' bytes (a build writes them to the pack). */
  readonly keepContents: boolean;
  /** Also encode the packs that lie whole in each chunk (a full build: ./packs.ts packsWithin). */
  readonly encodePacks?: boolean;
}

export interface BatchDocument {
  readonly path: string;
  readonly version: string;
  /** UTF-8 bytes of the content. */
  readonly bytes: number;
  /** Why the file is not a document (then it has no units), or null. */
  readonly skip: string | null;
  /** Its bytes hash to its previous version: no units here, the old index has them. */
  readonly unchanged: boolean;
}

export interface BatchUnit {
  /** Index into the batch's documents. */
  readonly doc: number;
  readonly start: number;
  readonly end: number;
  readonly slug: string;
  readonly trail: readonly string[];
  readonly tokens: number;
  readonly words: number;
  readonly lengths: readonly number[];
  /** This unit's terms: termIds/tfs[termStart, termStart + termCount) of the batch. */
  readonly termStart: number;
  readonly termCount: number;
}

export interface BatchResult {
  readonly dictionary: string[];
  readonly documents: BatchDocument[];
  readonly units: BatchUnit[];
  readonly termIds: Uint32Array;
  readonly tfs: Uint32Array;
  /** The documents' bytes back to back (skipped ones left out), when asked for. */
  readonly contents: Uint8Array | null;
  /** The packs encoded beside the analysis (`first`: among the documents not skipped), when asked for. */
  readonly packs: readonly LocalPack[] | null;
}

/** An OS failure reading an item, reported with the item (a batch never throws for one). */
export class BatchReadError extends Error {
  readonly code: string | undefined;
  readonly path: string;
  constructor(path: string, code: string | undefined) {
    super(`cannot read ${path}`);
    this.path = path;
    this.code = code;
  }
}

/** Reads items; ranges of one file (a pack) share one open descriptor. */
class ItemReader {
  private fd: number | null = null;
  private fdFile = '';

  read(item: BatchItem): Buffer {
    try {
      if (item.length < 0) return fs.readFile(item.file);
      if (this.fd === null || this.fdFile !== item.file) {
        this.close();
        this.fd = fs.openRead(item.file);
        this.fdFile = item.file;
      }
      return fs.readAt(this.fd, item.length, item.offset);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new BatchReadError(item.path, typeof code === 'string' ? code : undefined);
    }
  }

  close(): void {
    if (this.fd !== null) fs.closeFile(this.fd);
    this.fd = null;
  }
}

export async function runBatch(task: BatchTask): Promise<BatchResult> {
  return (await analyzeBatch(task)).result;
}

/**
 * A batch's result, and the byte order of its dictionary's terms (a build's packs made on
 * the analysing thread need it: ./assemble.ts withPacks; asked only then, as it sorts).
 */
export async function analyzeBatch(task: BatchTask): Promise<{ result: BatchResult; order: () => TermOrder }> {
  const countTokens = await loadTokenCounter(task.tokenizer);
  const counter = new TermCounter();
  const documents: BatchDocument[] = [];
  const units: BatchUnit[] = [];
  const terms: UnitTerms[] = [];
  const contents: Buffer[] = [];
  let termTotal = 0;
  // Every item is read before any is analysed: reads in a row take about half the time of
  // reads between analyses (a build's 10,000 real-text files: ~300 -> ~160 ms a thread), and
  // a build keeps the bytes for its packs anyway (a chunk is at most CHUNK_ITEMS documents).
  // A read that fails is thrown where it stood in the loop, after the items before it.
  const read: Buffer[] = [];
  let failed: unknown = null;
  const reader = new ItemReader();
  try {
    for (const item of task.items) read.push(reader.read(item));
  } catch (err) {
    failed = err;
  } finally {
    reader.close();
  }
  for (let k = 0; k < task.items.length; k++) {
    if (k === read.length) throw failed;
    const item = task.items[k] as BatchItem;
    const bytes = read[k] as Buffer;
    const version = versionOf(bytes);
    if (!fs.isUtf8(bytes)) {
      documents.push({ path: item.path, version, bytes: bytes.length, skip: 'content is not UTF-8', unchanged: false });
      continue;
    }
    const doc = documents.length;
    const unchanged = version === item.previousVersion;
    documents.push({ path: item.path, version, bytes: bytes.length, skip: null, unchanged });
    if (task.keepContents) contents.push(bytes);
    if (unchanged) continue;
    const ascii = fs.isAscii(bytes);
    const text = bytes.toString(ascii ? 'latin1' : 'utf8');
    for (const u of analyzeDocument(item.path, text, task.granularity, countTokens, counter)) {
      units.push({
        doc,
        start: u.start,
        end: u.end,
        slug: u.slug,
        trail: u.trail,
        tokens: u.tokens,
        words: u.words,
        lengths: u.terms.lengths,
        termStart: termTotal,
        termCount: u.terms.termIds.length,
      });
      terms.push(u.terms);
      termTotal += u.terms.termIds.length;
    }
  }
  const termIds = new Uint32Array(termTotal);
  const tfs = new Uint32Array(termTotal * FIELD_COUNT);
  units.forEach((u, k) => {
    const t = terms[k] as UnitTerms;
    termIds.set(t.termIds, u.termStart);
    tfs.set(t.tfs, u.termStart * FIELD_COUNT);
  });
  const result: BatchResult = {
    dictionary: counter.terms,
    documents,
    units,
    termIds,
    tfs,
    contents: task.keepContents ? Buffer.concat(contents) : null,
    packs: null,
  };
  return { result, order: () => new TermOrder([counter.terms], counter.byteRanks()) };
}

/** A unit's terms as views into its batch's arrays. */
export function unitTerms(batch: BatchResult, u: BatchUnit): UnitTerms {
  return {
    termIds: batch.termIds.subarray(u.termStart, u.termStart + u.termCount),
    tfs: batch.tfs.subarray(u.termStart * FIELD_COUNT, (u.termStart + u.termCount) * FIELD_COUNT),
    lengths: u.lengths,
  };
}
