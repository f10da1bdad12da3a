// Cache format 20 (engine v1): a small manifest and the documents in content-addressed pack
// files, each pack self-contained: its documents, their index and their contents.
//
//   manifest.json   pretty JSON: cache_version, build_config, created_at, source_root,
//                   label (only when the build was given one), document_count, files.packs
//                   [{bytes, sha256, documents, units, head: {bytes, sha256}}] in path order
//                   of their documents, files.terms [{bytes, sha256, packs, top: {bytes,
//                   sha256}}] in the same order
//   packs/<sha256>.pack
//                   named by the sha256 of its bytes: a head, then the contents.
//                   head = "CTXPACK3", u32 length of the list, the list (compact JSON
//                   [[path, version, offset, bytes], …], sorted by path in UTF-8 byte
//                   order, offsets from the end of the head), zero padding to a multiple
//                   of 4, the pack's index (../../index/index-format.ts, its documents
//                   numbered in list order). Each distinct content of the pack once.
//   packs/<sha256>.terms
//                   named by the sha256 of its bytes: what a query reads of a segment of
//                   consecutive packs — each one's lead (its head up to the index's
//                   dictionary: its units' rank columns apart from its names — document
//                   list, answer columns, strings —, which a query reads only for the packs
//                   its answer looks at)
//                   and their dictionaries merged, with their postings (./segments.ts,
//                   ../../index/term-file.ts); it follows from those packs' heads.
//
// Why: everything a pack holds follows from its own documents (which documents it holds
// follows from their paths and sizes, ./packs.ts), so a rebuild after a few edits
// rewrites the packs those edits fall in and links every other from the cache it replaces
// (./build.ts); nothing it writes or reads grows with the corpus but the manifest's pack
// list and the build state's stamps.
//
// cache_version = "sha256:" + hex(sha256(compact JSON {"build_config": …, "packs":
// [head sha256, …]})). A head holds its documents' paths and versions (which bind their
// contents) and their index, so the version covers every document and everything an
// answer is computed from; created_at, source_root and label are informational and not
// hashed.

import { compact, compactPlain, compareBytes, parseJson, prettyPlain, type Json, type PlainJson } from '../../../json.js';
import { sha256Hex } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import { IndexReader, type LateUnits, scopedFromLead, type ScopedTerm } from '../../index/index-format.js';
import { EARLIER_FORMATS, FORMAT_VERSION, parseBuildConfig, type V1Config } from './config.js';
import { isLabel } from './label.js';

export const MANIFEST_FILE = 'manifest.json';
export const PACKS_DIR = 'packs';
export const CACHE_FILES: readonly string[] = [MANIFEST_FILE, PACKS_DIR];
/** The cache-relative path of the pack whose bytes hash to `sha256` (hex). */
export const packPath = (sha256: string): string => `${PACKS_DIR}/${sha256}.pack`;
/** The manifest's list of term files (files.terms); they are kept beside the packs. */
export const TERMS_KEY = 'terms';
/** The cache-relative path of the term file whose bytes hash to `sha256` (hex). */
export const termPath = (sha256: string): string => `${PACKS_DIR}/${sha256}.terms`;
/** Not part of the cache's identity, but allowed in it: the build state (./state.ts). */
export const OPTIONAL_FILES: readonly string[] = ['build-state.json'];

const VERSION = /^sha256:[0-9a-f]{64}$/;
const HEX = /^[0-9a-f]{64}$/;
const HEAD_MAGIC = Buffer.from('CTXPACK3', 'latin1');

export interface FileRecord {
  readonly bytes: number;
  readonly sha256: string;
}

/** A pack as the manifest lists it: the file, how many documents it holds, its head. */
export interface PackRecord extends FileRecord {
  readonly documents: number;
  /** Units its index holds (documents, or sections). */
  readonly units: number;
  readonly head: FileRecord;
}

/** A term file as the manifest lists it: the file, how many packs it covers (the next ones), its top. */
export interface TermRecord extends FileRecord {
  readonly packs: number;
  readonly top: FileRecord;
}

/** A document as a pack's head lists it; `offset` counts from the end of the head. */
export interface HeadDocument {
  readonly path: string;
  readonly version: string;
  readonly offset: number;
  readonly bytes: number;
}

export interface PackedDocument {
  /** `/`-separated path from the sources root, as on disk. */
  readonly path: string;
  readonly version: string;
  /** Which pack (of files.packs) holds it, and the byte range of its content in that file. */
  readonly pack: number;
  readonly offset: number;
  readonly bytes: number;
}

/** manifest.json, checked: what it says without opening a pack. */
export interface ManifestTop {
  readonly cacheVersion: string;
  readonly buildConfig: Json;
  readonly config: V1Config;
  readonly createdAt: string;
  readonly sourceRoot: string | null;
  /** The build's label (./label.ts), or null: written only when there is one. */
  readonly label: string | null;
  readonly documentCount: number;
  readonly packs: readonly PackRecord[];
  /** The term files, in order: each covers the next `packs` packs (./segments.ts). */
  readonly terms: readonly TermRecord[];
}

/** The manifest with every pack's documents, as the heads list them. */
export interface V1Manifest extends ManifestTop {
  readonly documents: DocumentList;
}

/**
 * The documents of a cache in order (numbered across its packs, as a PackedIndex numbers
 * them): all read (a whole load), or each pack's read the first time one of them is asked
 * for (LazyDocuments: a query).
 */
export interface DocumentList {
  readonly length: number;
  /** Document `i`, 0 ≤ i < length (RangeError otherwise). */
  at(i: number): PackedDocument;
}

/** The DocumentList of documents already read. */
export function documentList(documents: readonly PackedDocument[]): DocumentList {
  return {
    length: documents.length,
    at(i: number): PackedDocument {
      const d = documents[i];
      if (d === undefined) throw new RangeError(`no document ${i}`);
      return d;
    },
  };
}

/**
 * The documents of packs holding `counts` documents each (the manifest's records), pack k's
 * list being `lists[k]()`, called the first time one of its documents is asked for (it
 * throws what reading them met: then again at the next ask).
 */
export class LazyDocuments implements DocumentList {
  readonly length: number;
  /** First document of each pack, and the total at the end. */
  private readonly firsts: Float64Array;
  private readonly known: (readonly PackedDocument[] | undefined)[];

  constructor(counts: readonly number[], private readonly lists: readonly (() => readonly PackedDocument[])[]) {
    if (counts.length !== lists.length) throw new Error('LazyDocuments: one list per pack');
    this.firsts = new Float64Array(counts.length + 1);
    counts.forEach((n, k) => (this.firsts[k + 1] = (this.firsts[k] as number) + n));
    this.length = this.firsts[counts.length] as number;
    this.known = new Array<readonly PackedDocument[] | undefined>(counts.length);
  }

  at(i: number): PackedDocument {
    if (!(i >= 0 && i < this.length) || !Number.isInteger(i)) throw new RangeError(`no document ${i}`);
    // The pack holding it: the last whose first document is at most i.
    let lo = 0;
    let hi = this.known.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.firsts[mid] as number) <= i) lo = mid;
      else hi = mid - 1;
    }
    let list = this.known[lo];
    if (list === undefined) {
      list = (this.lists[lo] as () => readonly PackedDocument[])();
      this.known[lo] = list;
    }
    return list[i - (this.firsts[lo] as number)] as PackedDocument;
  }
}

export function computeCacheVersion(buildConfig: Json, packs: readonly { readonly head: FileRecord }[]): string {
  return 'sha256:' + sha256Hex(`{"build_config":${compact(buildConfig)},"packs":[${packs.map((p) => `"${p.head.sha256}"`).join(',')}]}`);
}

export function manifestText(m: Omit<ManifestTop, 'config'>): string {
  // prettyPlain: pretty()'s bytes, natively; a build_config holds strings, booleans, lists
  // and finite numbers only.
  return prettyPlain({
    cache_version: m.cacheVersion,
    build_config: m.buildConfig as PlainJson,
    created_at: m.createdAt,
    source_root: m.sourceRoot,
    // Only when given: a manifest without a label is byte for byte what it was before labels.
    ...(m.label === null ? {} : { label: m.label }),
    document_count: m.documentCount,
    files: {
      [PACKS_DIR]: m.packs.map((p) => ({ bytes: p.bytes, sha256: p.sha256, documents: p.documents, units: p.units, head: { bytes: p.head.bytes, sha256: p.head.sha256 } })),
      [TERMS_KEY]: m.terms.map((t) => ({ bytes: t.bytes, sha256: t.sha256, packs: t.packs, top: { bytes: t.top.bytes, sha256: t.top.sha256 } })),
    },
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Whether `r` is a {bytes, sha256} record (a count, 64 lowercase hex digits). */
export const isFileRecord = (r: unknown): r is FileRecord =>
  isObject(r) && isCount(r['bytes']) && typeof r['sha256'] === 'string' && HEX.test(r['sha256']);

/** Whether `r` is a pack record (a file record with counts and a head inside the file). */
export function isPackRecord(r: unknown): r is PackRecord {
  if (!isFileRecord(r)) return false;
  const o = r as unknown as Record<string, unknown>;
  return isCount(o['documents']) && isCount(o['units']) && isFileRecord(o['head']) && o['head'].bytes <= r.bytes;
}

/** Whether a parsed manifest declares an engine v1 cache (format 20), which this engine reads. */
export function isV1Manifest(manifest: unknown): boolean {
  return isObject(manifest) && isObject(manifest['build_config']) && manifest['build_config']['engine'] === 'v1';
}

/** Checks manifest.json's shape (not the packs): returns it, or the list of problems. */
export function readManifest(text: string, parsed?: { readonly value: unknown }): ManifestTop | string[] {
  let m: unknown;
  if (parsed !== undefined) m = parsed.value; // already parsed from this text by the caller
  else {
    try {
      m = parseJson(text);
    } catch {
      return ['manifest.json is not JSON'];
    }
  }
  if (!isObject(m)) return ['manifest.json is not a JSON object'];
  const problems: string[] = [];
  const config = parseBuildConfig(m['build_config']);
  if (typeof config === 'string') problems.push(config);
  const packs = examineFields(m, problems);
  const terms = examineTerms(m, packs.length, problems);
  if (problems.length > 0 || typeof config === 'string') return problems;
  return {
    cacheVersion: m['cache_version'] as string,
    buildConfig: m['build_config'] as Json,
    config,
    createdAt: m['created_at'] as string,
    sourceRoot: m['source_root'] as string | null,
    label: (m['label'] ?? null) as string | null,
    documentCount: m['document_count'] as number,
    packs,
    terms,
  };
}

/** What format 18 added to examineFields' checks: the term files, which cover the `packs` packs once, in order. */
function examineTerms(m: Record<string, unknown>, packs: number, problems: string[]): TermRecord[] {
  const files = isObject(m['files']) ? m['files'] : {};
  const list = files[TERMS_KEY];
  const terms: TermRecord[] = [];
  if (!Array.isArray(list)) {
    problems.push(`files.${TERMS_KEY} is not a list`);
    return terms;
  }
  let covered = 0;
  list.forEach((r: unknown, k) => {
    const o = r as Record<string, unknown>;
    if (!isFileRecord(r) || !isCount(o['packs']) || o['packs'] === 0 || !isFileRecord(o['top']) || o['top'].bytes > r.bytes) {
      problems.push(`files.${TERMS_KEY}[${k}] is not {bytes, sha256, packs, top: {bytes, sha256}}`);
      return;
    }
    covered += o['packs'];
    terms.push({ bytes: r.bytes, sha256: r.sha256, packs: o['packs'], top: { bytes: o['top'].bytes, sha256: o['top'].sha256 } });
  });
  if (problems.length === 0 && covered !== packs) problems.push(`files.${TERMS_KEY} do not cover the packs once`);
  return terms;
}

/**
 * Checks the fields of a parsed manifest but build_config (formats 3 to 5 write the same
 * ones), adding to `problems`; returns the pack records.
 */
function examineFields(m: Record<string, unknown>, problems: string[]): PackRecord[] {
  if (typeof m['cache_version'] !== 'string' || !VERSION.test(m['cache_version'])) problems.push('cache_version is not sha256:<hex>');
  if (typeof m['created_at'] !== 'string') problems.push('created_at is not a string');
  const root = m['source_root'];
  if (root !== null && typeof root !== 'string') problems.push('source_root is not a string or null');
  if (m['label'] !== undefined && !isLabel(m['label'])) problems.push('label is not a label (1 to 64 of A-Z a-z 0-9 . _ @ / + -)');
  const files = isObject(m['files']) ? m['files'] : {};
  if (!isObject(m['files'])) problems.push('files is not an object');
  const list = files[PACKS_DIR];
  const packs: PackRecord[] = [];
  if (!Array.isArray(list)) problems.push(`files.${PACKS_DIR} is not a list`);
  else {
    const names = new Set<string>();
    list.forEach((r: unknown, k) => {
      if (!isPackRecord(r)) {
        problems.push(`files.${PACKS_DIR}[${k}] is not {bytes, sha256, documents, units, head: {bytes, sha256}}`);
        return;
      }
      if (names.has(r.sha256)) problems.push(`files.${PACKS_DIR}[${k}] is listed twice`);
      names.add(r.sha256);
      if (r.documents === 0) problems.push(`files.${PACKS_DIR}[${k}] holds no document`);
      packs.push({ bytes: r.bytes, sha256: r.sha256, documents: r.documents, units: r.units, head: { bytes: r.head.bytes, sha256: r.head.sha256 } });
    });
  }
  const count = m['document_count'];
  if (!isCount(count)) problems.push('document_count is not a count');
  else if (problems.length === 0 && packs.reduce((n, p) => n + p.documents, 0) !== count) problems.push('document_count does not match the packs');
  return packs;
}

/** The formats of engine v1 this program has written: it reads FORMAT_VERSION and refuses the others with the advice to rebuild (./config.ts). */
const WRITTEN_FORMATS: readonly unknown[] = [...EARLIER_FORMATS, FORMAT_VERSION];

/** Format 2's files beside the manifest (never released): its one index, and at first one pack of every document. */
export const FORMAT2_FILES = { index: 'index.bin', pack: 'documents.pack' } as const;

/**
 * Whether `text` is a manifest engine v1 wrote, of any format it has written (2 to 7) and
 * under any rules it records: readManifest's checks, but for the one that build_config is
 * exactly what this version writes. A cache this version no longer answers from (an
 * earlier format, another analyzer) is still a cache, and `build --force` is how it is
 * rebuilt; what that may replace is decided by this (./layout.ts).
 */
export function isV1ManifestText(text: string): boolean {
  let m: unknown;
  try {
    m = parseJson(text);
  } catch {
    return false;
  }
  if (!isObject(m)) return false;
  const config = m['build_config'];
  if (!isObject(config) || config['engine'] !== 'v1' || config['hash_algorithm'] !== 'sha256' || !WRITTEN_FORMATS.includes(config['version'])) return false;
  const problems: string[] = [];
  if (config['version'] === '2') examineFormat2(m, problems);
  else examineFields(m, problems);
  return problems.length === 0;
}

/** Format 2's manifest: the fields of later formats but files.index.bin and a documents list. */
function examineFormat2(m: Record<string, unknown>, problems: string[]): void {
  if (typeof m['cache_version'] !== 'string' || !VERSION.test(m['cache_version'])) problems.push('cache_version is not sha256:<hex>');
  if (typeof m['created_at'] !== 'string') problems.push('created_at is not a string');
  if (m['source_root'] !== null && typeof m['source_root'] !== 'string') problems.push('source_root is not a string or null');
  if (!isObject(m['files']) || !isFileRecord(m['files'][FORMAT2_FILES.index])) problems.push(`files.${FORMAT2_FILES.index} is not {bytes, sha256}`);
  const docs = m['documents'];
  if (!Array.isArray(docs) || m['document_count'] !== docs.length) problems.push('document_count does not match documents');
}

/** A pack's head bytes: the magic, its document list and its index (see the top of this file). */
export function encodeHead(documents: readonly HeadDocument[], index: Uint8Array): Buffer {
  const list = Buffer.from(compactPlain(documents.map((d) => [d.path, d.version, d.offset, d.bytes])), 'utf8');
  const pad = (4 - (list.length % 4)) % 4;
  const head = Buffer.alloc(HEAD_MAGIC.length + 4 + list.length + pad + index.length);
  HEAD_MAGIC.copy(head, 0);
  head.writeUInt32LE(list.length, HEAD_MAGIC.length);
  list.copy(head, HEAD_MAGIC.length + 4);
  head.set(index, HEAD_MAGIC.length + 4 + list.length + pad);
  return head;
}

/** A pack's head, decoded and checked. */
export interface PackHead {
  /** Its documents, as PackedDocument: the pack and offsets as decodeHead was told. */
  readonly documents: readonly PackedDocument[];
  readonly index: IndexReader;
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a pack's head (`head`, the first record.head.bytes bytes of the pack) and checks
 * it against its record: the documents sorted by path, distinct, each a version with a
 * range inside the pack's contents, equal versions sharing one range, as many as the
 * record says; the index decodes and counts as many documents and units. Each document is
 * given pack number `pack` and its offset plus `base` (0: offsets from the end of the head,
 * as stored; the head's size: offsets in the pack file). Throws a message.
 */
export function decodeHead(head: Uint8Array, record: PackRecord, pack = 0, base = 0): PackHead {
  const { documents, indexAt } = decodeDocumentList(head, record, pack, base);
  let index: IndexReader;
  try {
    index = new IndexReader(head.subarray(indexAt));
  } catch (err) {
    if (err instanceof IndexFormatError) throw new Error(`index: ${err.message}`);
    throw err;
  }
  return { documents, index: checkedIndex(index, documents, record) };
}

/** A pack's lead as a query reads it (decodeRows): its index, and its documents when asked for. */
export interface PackLead {
  readonly index: IndexReader;
  /** Its documents, decoded and checked (the first call reads its names: it may throw a message). */
  documents(): readonly PackedDocument[];
}

/**
 * Decodes a pack's lead as a term file holds it (../../index/term-file.ts): its index's
 * header (`header`) and its units' rank columns (`rank`: tokens and field lengths) now,
 * checked against the record; its units' answer columns and strings section (`late()`)
 * and its document list (`list()`: the head's magic, list and padding) when first asked
 * for, each checked as decodeHead checks them in a head but two checks that reading a
 * document makes anyway (each version's form, one range per content:
 * decodeDocumentList). The index holds the terms `found` (distinct, in byte order) with
 * their postings (read from the term files, ./segments.ts). Throws a message.
 */
export function decodeRows(header: Uint8Array, rank: Uint32Array, record: PackRecord, found: readonly ScopedTerm[], late: () => LateUnits, list: () => Uint8Array, pack = 0, base = 0): PackLead {
  let index: IndexReader;
  try {
    index = scopedFromLead(header, found, { rank, late });
  } catch (err) {
    if (err instanceof IndexFormatError) throw new Error(`index: ${err.message}`);
    throw err;
  }
  if (index.docCount !== record.documents) throw new Error('index: document count differs from the manifest');
  if (index.unitCount !== record.units) throw new Error('index: unit count differs from the manifest');
  let documents: readonly PackedDocument[] | null = null;
  return {
    index,
    documents(): readonly PackedDocument[] {
      if (documents === null) {
        const bytes = list();
        const decoded = decodeDocumentList(bytes, record, pack, base, true);
        if (decoded.indexAt !== bytes.length) throw new Error('the document list does not end where the index begins');
        documents = decoded.documents;
      }
      return documents;
    },
  };
}

/** `index`, checked to count the head's documents and the record's units. */
function checkedIndex(index: IndexReader, documents: readonly PackedDocument[], record: PackRecord): IndexReader {
  if (index.docCount !== documents.length) throw new Error('index: document count differs from the head');
  if (index.unitCount !== record.units) throw new Error('index: unit count differs from the manifest');
  return index;
}

/** A head's (or lead's) document list, checked as decodeHead says, and where its index begins. */
function decodeDocumentList(head: Uint8Array, record: PackRecord, pack: number, base: number, reading = false): { documents: PackedDocument[]; indexAt: number } {
  const buf = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (buf.length < HEAD_MAGIC.length + 4 || !buf.subarray(0, HEAD_MAGIC.length).equals(HEAD_MAGIC)) throw new Error('not a pack head');
  const n = buf.readUInt32LE(HEAD_MAGIC.length);
  const listEnd = HEAD_MAGIC.length + 4 + n;
  const indexAt = listEnd + ((4 - (n % 4)) % 4);
  if (indexAt > buf.length) throw new Error('the document list runs past the head');
  let list: unknown;
  try {
    list = parseJson(utf8Fatal.decode(buf.subarray(HEAD_MAGIC.length + 4, listEnd)));
  } catch {
    throw new Error('the document list is not JSON');
  }
  if (!Array.isArray(list)) throw new Error('the document list is not a list');
  if (list.length !== record.documents) throw new Error('the head lists another number of documents than the manifest');
  const contentBytes = record.bytes - record.head.bytes;
  const documents: PackedDocument[] = [];
  const ranges = new Map<string, PackedDocument>();
  let prev: string | null = null;
  for (const e of list as unknown[]) {
    if (!Array.isArray(e) || e.length !== 4 || typeof e[0] !== 'string' || typeof e[1] !== 'string' || !isCount(e[2]) || !isCount(e[3])) {
      throw new Error('a document entry is not [path, version, offset, bytes]');
    }
    const path = e[0];
    const version = e[1];
    const offset: number = e[2];
    const bytes: number = e[3];
    if (prev !== null && compareBytes(prev, path) >= 0) throw new Error(`documents not sorted and distinct at ${path}`);
    prev = path;
    if (offset + bytes > contentBytes) throw new Error(`range of ${path} lies outside its pack`);
    const doc: PackedDocument = { path, version, pack, offset: base + offset, bytes };
    // What a reader need not check (`reading`): a document's bytes are hashed against its
    // version whenever they are read, so a malformed version, or one content at two ranges,
    // is refused then. A head's own checks (decodeHead: verify, rebuilds, a server's load) keep them.
    if (!reading) {
      if (!VERSION.test(version)) throw new Error(`bad version for ${path}`);
      const seen = ranges.get(version);
      if (seen === undefined) ranges.set(version, doc);
      else if (seen.offset !== doc.offset || seen.bytes !== bytes) throw new Error(`content of ${path} is packed twice`);
    }
    documents.push(doc);
  }
  return { documents, indexAt };
}
