// `context verify` for cache format 20: every invariant, each reported by name.
//   manifest         manifest.json parses, has format 20's shape and a build_config this
//                    engine implements; the packs' documents are in path order across packs
//   cache_version    equals the hash recomputed from build_config and the packs' heads
//   documents_exist  every pack (packs/<sha256>.pack) and term file (packs/<sha256>.terms) is
//                    a regular file of the recorded size
//   pack             every pack hashes to the recorded sha256 (its name)
//   document_hashes  every document's bytes hash to its version and are UTF-8
//   index            every pack's head has the recorded size and sha256, and its document
//                    list and index decode (all of it)
//   index_rebuild    every pack's index equals the index rebuilt from its documents
//                    (analysis, sections, token counts, postings): the index is what the
//                    documents say
//   term_files       the packs are cut into segments by the rule (./segments.ts); each term
//                    file hashes to the recorded sha256 (its name), its top has the recorded
//                    size and sha256, and it equals the term file made again from its packs'
//                    heads (their leads, dictionaries and postings), byte for byte
//   no_orphans       the cache directory holds nothing but manifest.json and packs/ (and
//                    the build state, a hint for incremental builds: ./state.ts); packs/
//                    nothing but the packs the manifest lists

import { join } from 'node:path';
import { compareBytes } from '../../../json.js';
import { osFailure } from '../../../errors.js';
import { requireCacheDir } from '../../store/locate.js';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { IndexFormatError } from '../../index/bytes.js';
import type { IndexReader } from '../../index/index-format.js';
import { analyzeCorpus } from './analyze-corpus.js';
import { analyzedDocuments } from './assemble.js';
import { indexOfUnits } from './packs.js';
import { CACHE_FILES, OPTIONAL_FILES, computeCacheVersion, decodeHead, encodeHead, MANIFEST_FILE, type ManifestTop, packPath, PACKS_DIR, type PackHead, readManifest, termPath } from './manifest.js';
import { encodeSegment, segmentSizes } from './segments.js';

export const V1_CHECK_NAMES = [
  'manifest',
  'cache_version',
  'documents_exist',
  'pack',
  'document_hashes',
  'index',
  'index_rebuild',
  'term_files',
  'no_orphans',
] as const;
export type V1CheckName = (typeof V1_CHECK_NAMES)[number];

export interface V1VerifyReport {
  readonly cacheVersion: string;
  readonly valid: boolean;
  readonly checks: readonly { readonly name: V1CheckName; readonly ok: boolean; readonly problems: readonly string[] }[];
}

/** The bytes of file `name` of the cache at `dir`, or null when absent (or not a file). */
function readOrNull(dir: string, name: string): Buffer | null {
  try {
    return fs.readFile(join(dir, name));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw osFailure(err, { op: 'read', role: 'cache', subject: dir });
  }
}

export async function verifyV1(dir: string, threads = 1): Promise<V1VerifyReport> {
  requireCacheDir(dir);
  const problems = new Map<V1CheckName, string[]>(V1_CHECK_NAMES.map((n) => [n, []]));
  const fail = (check: V1CheckName, detail: string): void => void (problems.get(check) as string[]).push(detail);
  const skip = (checks: readonly V1CheckName[], why: string): void => {
    for (const c of checks) if ((problems.get(c) as string[]).length === 0) fail(c, `not checked: ${why}`);
  };

  let names: string[];
  try {
    names = fs.readDirNames(dir).sort(compareBytes);
  } catch (err) {
    throw osFailure(err, { op: 'list', role: 'cache', subject: dir });
  }
  for (const name of names) {
    if (!CACHE_FILES.includes(name) && !OPTIONAL_FILES.includes(name)) fail('no_orphans', `${name} is not part of the cache`);
  }

  const manifestBytes = readOrNull(dir, MANIFEST_FILE);
  const manifest = manifestBytes === null ? ['manifest.json is missing'] : readManifest(manifestBytes.toString('utf8'));
  if (Array.isArray(manifest)) {
    for (const p of manifest) fail('manifest', p);
    skip(V1_CHECK_NAMES.filter((n) => n !== 'manifest' && n !== 'no_orphans'), 'the manifest is unusable');
    return report('', problems);
  }
  if (computeCacheVersion(manifest.buildConfig, manifest.packs) !== manifest.cacheVersion) {
    fail('cache_version', 'cache_version does not match the recomputed hash');
  }

  // packs/: exactly the listed packs, each a regular file of its size hashing to its name,
  // its head as recorded and decoding whole.
  const listed = new Set([...manifest.packs.map((p) => packPath(p.sha256)), ...manifest.terms.map((t) => termPath(t.sha256))]);
  const packsDir = fs.lstatOrNull(join(dir, PACKS_DIR));
  if (packsDir !== null && packsDir.isDirectory()) {
    let inside: string[];
    try {
      inside = fs.readDirNames(join(dir, PACKS_DIR)).sort(compareBytes);
    } catch (err) {
      throw osFailure(err, { op: 'list', role: 'cache', subject: dir });
    }
    for (const name of inside) if (!listed.has(`${PACKS_DIR}/${name}`)) fail('no_orphans', `${PACKS_DIR}/${name} is not part of the cache`);
  } else if (packsDir !== null) fail('no_orphans', `${PACKS_DIR} is not a directory`);
  let packsReadable = true;
  let headsUsable = true;
  const packsHere = packsDir !== null && packsDir.isDirectory();
  const heads: { head: PackHead; bytes: Buffer }[] = [];
  for (const p of manifest.packs) {
    const name = packPath(p.sha256);
    const st = packsHere ? fs.lstatOrNull(join(dir, name)) : null;
    if (st === null || !st.isFile()) fail('documents_exist', `${name} is missing`);
    else if (st.size !== p.bytes) fail('documents_exist', `${name} does not have the recorded size`);
    else {
      const bytes = readOrNull(dir, name);
      if (bytes === null || sha256Hex(bytes) !== p.sha256) fail('pack', `${name} does not hash to the recorded sha256`);
      const headBytes = bytes === null || bytes.length < p.head.bytes ? null : Buffer.from(bytes.subarray(0, p.head.bytes));
      if (headBytes === null || sha256Hex(headBytes) !== p.head.sha256) {
        fail('index', `${name}: its head does not match the recorded size and sha256`);
        headsUsable = false;
        continue;
      }
      try {
        const head = decodeHead(headBytes, p);
        decodeWhole(head.index);
        heads.push({ head, bytes: headBytes });
      } catch (err) {
        fail('index', `${name}: ${err instanceof Error ? err.message : String(err)}`);
        headsUsable = false;
      }
      continue;
    }
    packsReadable = false;
  }
  if (!packsReadable) skip(['pack', 'index', 'document_hashes', 'index_rebuild'], 'a pack is unusable');
  else if (!headsUsable) skip(['document_hashes', 'index_rebuild'], 'a pack\'s head is unusable');
  else {
    const all = heads.flatMap(({ head }) => head.documents);
    for (let i = 1; i < all.length; i++) {
      if (compareBytes((all[i - 1] as { path: string }).path, (all[i] as { path: string }).path) >= 0) fail('manifest', `documents not sorted and distinct at ${(all[i] as { path: string }).path}`);
    }
  }

  if (packsReadable && headsUsable) {
    const { options } = manifest.config;
    const batches = await analyzeCorpus(
      {
        granularity: options.granularity,
        tokenizer: options.tokenizer,
        items: heads.flatMap(({ head }, k) => {
          const p = manifest.packs[k] as (typeof manifest.packs)[number];
          return head.documents.map((d) => ({ path: d.path, file: join(dir, packPath(p.sha256)), offset: p.head.bytes + d.offset, length: d.bytes }));
        }),
        keepContents: false,
      },
      threads,
      undefined,
      undefined,
      { role: 'cache', subject: dir },
    );
    const rebuilt = analyzedDocuments(batches);
    let damaged = rebuilt.skipped.length > 0;
    for (const s of rebuilt.skipped) fail('document_hashes', `${s.path}: ${s.reason}`);
    const versions = new Map(heads.flatMap(({ head }) => head.documents.map((d) => [d.path, d.version] as const)));
    for (const d of rebuilt.documents) {
      if (versions.get(d.path) !== d.version) {
        damaged = true;
        fail('document_hashes', `${d.path} does not hash to its version`);
      }
    }
    if (damaged) skip(['index_rebuild'], 'documents are damaged');
    else {
      let at = 0;
      heads.forEach(({ head, bytes }, k) => {
        const perDocument = head.documents.map((_, doc) => (rebuilt.documents[at + doc] as (typeof rebuilt.documents)[number]).units);
        at += head.documents.length;
        const again = encodeHead(head.documents, indexOfUnits(perDocument));
        if (!again.equals(bytes)) fail('index_rebuild', `${packPath((manifest.packs[k] as { sha256: string }).sha256)}: its index differs from the index rebuilt from its documents`);
      });
    }
  }
  const whole = packsReadable && headsUsable;
  checkTermFiles(dir, manifest, packsHere, whole ? heads : null, whole ? heads.map((h) => (h.head.documents[h.head.documents.length - 1] as { path: string }).path) : null, fail);
  return report(manifest.cacheVersion, problems);
}

/**
 * The term_files check (and documents_exist for the term files): segments as the rule cuts
 * them (after packs whose last documents are at `lastPaths`), each file whole and as
 * recorded, and equal to the one its packs' heads make (`heads`: every pack's; both null
 * when a pack could not be read).
 */
function checkTermFiles(dir: string, manifest: ManifestTop, packsHere: boolean, heads: readonly { readonly head: PackHead; readonly bytes: Buffer }[] | null, lastPaths: readonly string[] | null, fail: (check: V1CheckName, detail: string) => void): void {
  // Where the rule ends segments: after each pack's last path, as the heads list them.
  if (lastPaths !== null && segmentSizes(lastPaths).join(',') !== manifest.terms.map((t) => t.packs).join(',')) {
    fail('term_files', 'the term files do not cover the segments the packs\' paths make');
  }
  let first = 0;
  for (const t of manifest.terms) {
    const name = termPath(t.sha256);
    const st = packsHere ? fs.lstatOrNull(join(dir, name)) : null;
    const packs = manifest.packs.slice(first, first + t.packs);
    const from = first;
    first += t.packs;
    if (st === null || !st.isFile() || st.size !== t.bytes) {
      fail('documents_exist', st === null || !st.isFile() ? `${name} is missing` : `${name} does not have the recorded size`);
      fail('term_files', `${name}: not checked: it is unusable`);
      continue;
    }
    const bytes = readOrNull(dir, name);
    if (bytes === null || sha256Hex(bytes) !== t.sha256) {
      fail('term_files', `${name} does not hash to the recorded sha256`);
      continue;
    }
    if (t.top.bytes > bytes.length || sha256Hex(bytes.subarray(0, t.top.bytes)) !== t.top.sha256) {
      fail('term_files', `${name}: its top does not match the recorded size and sha256`);
      continue;
    }
    if (heads === null) {
      fail('term_files', `${name}: not compared with its packs: a pack is unusable`);
      continue;
    }
    const again = encodeSegment(packs.map((record, i) => {
      const h = heads[from + i] as { readonly head: PackHead; readonly bytes: Buffer };
      return { record, head: h.bytes, index: h.head.index };
    }));
    if (again.record.sha256 !== t.sha256 || again.record.top.sha256 !== t.top.sha256 || again.record.top.bytes !== t.top.bytes) {
      fail('term_files', `${name}: differs from the term file made again from its packs' heads`);
    }
  }
}

/**
 * Decodes what the reader decodes only on use (each unit's slug and trail, each term and its
 * postings) and checks the dictionary's order, which lookups rely on: "decodes" means all of
 * it. Throws IndexFormatError.
 */
function decodeWhole(r: IndexReader): void {
  for (let u = 0; u < r.unitCount; u++) r.unitStrings(u);
  let previous: string | null = null;
  for (let i = 0; i < r.termCount; i++) {
    const term = r.term(i);
    if (previous !== null && compareBytes(previous, term) >= 0) throw new IndexFormatError('terms are not sorted and distinct');
    previous = term;
    r.postings(i);
  }
}

function report(cacheVersion: string, problems: ReadonlyMap<V1CheckName, string[]>): V1VerifyReport {
  const checks = V1_CHECK_NAMES.map((name) => {
    const list = problems.get(name) ?? [];
    return { name, ok: list.length === 0, problems: list };
  });
  return { cacheVersion, valid: checks.every((c) => c.ok), checks };
}
