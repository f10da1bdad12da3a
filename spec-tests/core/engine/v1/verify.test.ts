// Checks docs/cache-format.md "What is checked, and when" and issue 9 "An index in the cache" ("a
// corrupted index is cache_invalid, never a wrong answer"; "verify names the failing check;
// resolve says cache_invalid") against lib/core/engine/v1/verify.ts and load.ts/resolve.ts:
// a breakage table over a real format-3 cache, like spec-tests/core/engine/v0/verify.test.ts for
// v0. For each way to damage the cache, `verify` fails exactly the named checks (exit 5) and
// `resolve` is cache_invalid (exit 5) — or, where the damage cannot change an answer (an
// orphan file, a pack no longer named by its hash), gives exactly the intact cache's answer.
// A pack's head (its document list and index) is damaged two ways: in place (the pack no
// longer matches its records), or forged (the pack rewritten and renamed, its records and
// cache_version made to agree), where only the logical damage is left to find.
import t from 'tap';
import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveText, verifyText } from '../../../../lib/core/operations/api.js';
import { V1_CHECK_NAMES, verifyV1 } from '../../../../lib/core/engine/v1/verify.js';
import { IndexReader } from '../../../../lib/core/index/index-format.js';
import { encodeSegment } from '../../../../lib/core/engine/v1/segments.js';
import { run } from '../../../cli/harness.js';
import { computeCacheVersion, decodeHead } from '../../../../lib/core/engine/v1/manifest.js';
import type { Json } from '../../../../lib/json.js';
import { buildV1, documentsOf, headOf, packFile, rawManifestOf, sha256, versionOf, type RawManifestJson } from './fixture.js';

const SOURCES = { 'a.md': 'alpha text here', 'b.md': 'beta text', 'c.md': 'gamma text, gamma', 'd.md': 'alpha text here' };
const QUERY = 'text'; // every document holds it, so every document is read
const ALL_BUT_ORPHANS = V1_CHECK_NAMES.filter((n) => n !== 'no_orphans');
/** Without an engine v1 manifest the cache is read as v0, whose checks all fail (the rest "not checked"). */
const V0_CHECKS = ['manifest', 'cache_version', 'documents_exist', 'document_hashes', 'no_orphans', 'index'];

/**
 * 'verify-only': a pack's head was forged (another index, or another path), consistent with
 * its records. Resolve trusts those records (it must not re-analyze the corpus), so only
 * `verify` — which rebuilds the index from the documents — can tell; no claim on resolve.
 */
type Resolve = 'cache_invalid' | 'intact' | 'verify-only';
interface Breakage {
  readonly name: string;
  /** Exactly the checks that fail. */
  readonly fails: readonly string[];
  /** What resolve answers for QUERY. */
  readonly resolve: Resolve;
  readonly apply: (cache: string) => void;
  /** The report is v0's (the damage hides that the cache is engine v1's). */
  readonly v0Report?: true;
}

const manifestPath = (c: string): string => join(c, 'manifest.json');
/**
 * Rewrites the manifest; `recompute` makes cache_version agree again (a consistent edit),
 * through the engine's own serializer, which prints a double above 2^53 (1e39) in full digits
 * where JSON.stringify uses an exponent (the independent formula is checked in build.test.ts).
 */
function editManifest(c: string, edit: (m: RawManifestJson) => void, recompute = false): void {
  const m = rawManifestOf(c);
  edit(m);
  if (recompute) m.cache_version = computeCacheVersion(m.build_config as Json, m.files.packs);
  writeFileSync(manifestPath(c), JSON.stringify(m, null, 2));
}
type Entry = [string, string, number, number];
/**
 * Forges pack 0's head: its document list and index edited, the pack rewritten under the
 * sha256 of its new bytes, and the manifest's record (size, sha256, document count, head)
 * and cache_version made to agree: only what the edit broke is left to find.
 */
function forgeHead(c: string, edit: (h: { list: Entry[]; index: Buffer }) => { list: Entry[]; index: Buffer }): void {
  const m = rawManifestOf(c);
  const record = m.files.packs[0]!;
  const old = readFileSync(pack0(c));
  const h = headOf(old, record.head.bytes);
  const { list, index } = edit({ list: h.list, index: Buffer.from(h.index) });
  const json = Buffer.from(JSON.stringify(list), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const head = Buffer.concat([Buffer.from('CTXPACK3', 'latin1'), len, json, Buffer.alloc((4 - (json.length % 4)) % 4), index]);
  const pack = Buffer.concat([head, old.subarray(record.head.bytes)]);
  rmSync(pack0(c));
  writeFileSync(join(c, 'packs', `${sha256(pack)}.pack`), pack);
  const forged = { bytes: pack.length, sha256: sha256(pack), documents: list.length, units: record.units, head: { bytes: head.length, sha256: sha256(head) } };
  // The term file made again from the forged head, when it decodes: what a forger who
  // knows the format writes (then only what the edit broke is left to find).
  let terms = m.files.terms;
  try {
    const made = encodeSegment([{ record: forged, head, index: decodeHead(head, forged).index }]);
    rmSync(join(c, 'packs', `${terms[0]!.sha256}.terms`));
    writeFileSync(join(c, 'packs', `${made.record.sha256}.terms`), made.bytes);
    terms = [made.record];
  } catch {
    // A head that does not decode makes no term file: the old one stays.
  }
  editManifest(c, (m) => {
    m.files.packs[0] = forged;
    m.files.terms = terms;
    m.document_count = list.length;
  }, true);
}
/** Forges pack 0's index (see forgeHead). */
const forgeIndex = (c: string, edit: (b: Buffer) => Buffer): void => forgeHead(c, ({ list, index }) => ({ list, index: edit(index) }));
/** Forges pack 0's document list (see forgeHead). */
const forgeList = (c: string, edit: (list: Entry[]) => void): void => forgeHead(c, ({ list, index }) => (edit(list), { list, index }));
/** The fixture's one pack (SOURCES fill a single pack: the table test checks that). */
const pack0 = (c: string): string => packFile(c, rawManifestOf(c), 0);
/** Where pack 0's index starts in the pack file. */
const index0 = (c: string): number => headOf(readFileSync(pack0(c)), rawManifestOf(c).files.packs[0]!.head.bytes).indexAt;
/** Moves pack 0 to the name of another hash and records that hash: the pack is no longer named by its bytes. */
function misnamePack(c: string): void {
  const other = sha256('x');
  renameSync(pack0(c), join(c, 'packs', `${other}.pack`));
  editManifest(c, (m) => void (m.files.packs[0]!.sha256 = other));
}
function flipByte(path: string, at: number): void {
  const b = readFileSync(path);
  b[at] = (b[at] as number) ^ 0x20;
  writeFileSync(path, b);
}
/** Where each of an index's five sections' bodies starts (lib/core/index/index-format.ts). */
function sectionsOf(b: Buffer): number[] {
  const bodies: number[] = [];
  let at = 8 + 6 * 4 + 4 * 8; // magic, six u32, four f64 sums
  for (let k = 0; k < 5; k++) {
    bodies.push(at + 4);
    at += 4 + ((b.readUInt32LE(at) + 3) & ~3);
  }
  return bodies;
}
/** Offset in an index of the first posting of `term`. */
function postingOf(b: Buffer, term: string): number {
  const [, , , stats, postings] = sectionsOf(b) as [number, number, number, number, number];
  const index = new IndexReader(b).findTerm(term);
  if (index < 0) throw new Error(`fixture: no term ${term}`);
  return postings + b.readUInt32LE(stats + 8 * index);
}
/** Offset in an index of the first byte of the first dictionary term. */
function firstTermAt(b: Buffer): number {
  const [, , dict] = sectionsOf(b) as [number, number, number];
  return dict + 4 * (new IndexReader(b).termCount + 1);
}
/** Pack 0's index in the cache `other` (built with other token counts). */
const otherIndex = (c: string): Buffer => {
  const o = join(c, '..', 'other');
  return Buffer.from(headOf(readFileSync(pack0(o)), rawManifestOf(o).files.packs[0]!.head.bytes).index);
};
const config = (edit: (cfg: Record<string, unknown>) => void) => (c: string) =>
  editManifest(c, (m) => edit(m.build_config), true);
const sub = (key: string, edit: (o: Record<string, unknown>) => void) => (cfg: Record<string, unknown>) => edit(cfg[key] as Record<string, unknown>);

/** A pack unusable (missing, resized): nothing in it can be checked. */
const PACK_GONE = ['documents_exist', 'pack', 'document_hashes', 'index', 'index_rebuild', 'term_files'];
/** A head that does not decode: its documents cannot be read, nor its index rebuilt. */
const HEAD_BAD = ['document_hashes', 'index', 'index_rebuild', 'term_files'];

const BREAKAGES: readonly Breakage[] = [
  // packs/
  { name: 'a byte of a document in a pack changed', fails: ['pack', 'document_hashes', 'index_rebuild'], resolve: 'cache_invalid', apply: (c) => flipByte(pack0(c), rawManifestOf(c).files.packs[0]!.head.bytes + 2) },
  { name: 'a pack truncated', fails: PACK_GONE, resolve: 'cache_invalid', apply: (c) => truncateSync(pack0(c), 20) },
  { name: 'a pack with bytes appended', fails: PACK_GONE, resolve: 'cache_invalid', apply: (c) => appendFileSync(pack0(c), 'x') },
  { name: 'a pack deleted', fails: PACK_GONE, resolve: 'cache_invalid', apply: (c) => rmSync(pack0(c)) },
  { name: 'a pack replaced by a directory', fails: PACK_GONE, resolve: 'cache_invalid', apply: (c) => { const p = pack0(c); rmSync(p); mkdirSync(p); } },
  { name: 'packs/ replaced by a file', fails: [...PACK_GONE, 'no_orphans'], resolve: 'cache_invalid', apply: (c) => { rmSync(join(c, 'packs'), { recursive: true }); writeFileSync(join(c, 'packs'), 'x'); } },
  { name: 'a stray file in packs/', fails: ['no_orphans'], resolve: 'intact', apply: (c) => writeFileSync(join(c, 'packs', `${sha256('stray')}.pack`), 'stray') },
  { name: 'a pack renamed to another hash, the manifest recording that hash', fails: ['pack'], resolve: 'intact', apply: misnamePack },
  // a pack's head, damaged in place: a query reads the term files (the packs' leads and
  // postings are copied there) and the documents' bytes, not the heads
  { name: 'a byte of a pack\'s index changed', fails: ['pack', 'document_hashes', 'index', 'index_rebuild', 'term_files'], resolve: 'intact', apply: (c) => flipByte(pack0(c), index0(c) + 70) },
  { name: 'a byte of a pack\'s document list changed', fails: ['pack', 'document_hashes', 'index', 'index_rebuild', 'term_files'], resolve: 'intact', apply: (c) => flipByte(pack0(c), 14) },
  { name: 'a pack\'s magic changed', fails: ['pack', 'document_hashes', 'index', 'index_rebuild', 'term_files'], resolve: 'intact', apply: (c) => flipByte(pack0(c), 0) },
  // a pack's head, forged (pack renamed, records and cache_version agreeing)
  { name: 'an index truncated, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeIndex(c, (b) => b.subarray(0, b.length - 4)) },
  { name: 'an index with a bad magic, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeIndex(c, (b) => Buffer.concat([Buffer.from([0xff]), b.subarray(1)])) },
  { name: 'a posting of the query\'s term out of range, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeIndex(c, (b) => { b[postingOf(b, QUERY)] = 0x7f; return b; }) },
  { name: 'a unit ending past its document, forged', fails: ['index_rebuild'], resolve: 'cache_invalid', apply: (c) => forgeIndex(c, (b) => { b.writeUInt32LE(0x7fffffff, 64 + 4 + 8); return b; }) },
  { name: 'a dictionary term renamed out of order, forged', fails: HEAD_BAD, resolve: 'verify-only', apply: (c) => forgeIndex(c, (b) => {
    b[firstTermAt(b)] = 0x7e; // "~" sorts after every letter: the first term is now out of order
    return b;
  }) },
  { name: 'the index of another build (other token counts), forged', fails: ['index_rebuild'], resolve: 'verify-only', apply: (c) => forgeIndex(c, () => otherIndex(c)) },
  { name: 'a document version edited, forged', fails: ['document_hashes', 'index_rebuild'], resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void (l[2]![1] = versionOf('other'))) },
  { name: 'a document offset moved inside the pack, forged', fails: ['document_hashes', 'index_rebuild'], resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void (l[1]![2] -= 1)) },
  { name: 'a document byte count changed, forged', fails: ['document_hashes', 'index_rebuild'], resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void (l[1]![3] -= 1)) },
  { name: 'a document range past the end of its pack, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void (l[2]![2] += 1000)) },
  { name: 'a negative offset, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void (l[0]![2] = -1)) },
  { name: 'two ranges for one content, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => { l[3]![2] = l[1]![2]; l[3]![3] = l[0]![3]; }) },
  { name: 'documents not sorted by path, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void l.reverse()) },
  { name: 'a path listed twice, forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void (l[1]![0] = 'a.md')) },
  { name: 'a document renamed, forged', fails: ['index_rebuild'], resolve: 'verify-only', apply: (c) => forgeList(c, (l) => void (l[3]![0] = 'e.md')) },
  { name: 'a document removed (the index counts another number), forged', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => forgeList(c, (l) => void l.pop()) },
  // manifest.json
  { name: 'manifest.json deleted', fails: V0_CHECKS, resolve: 'cache_invalid', v0Report: true, apply: (c) => rmSync(manifestPath(c)) },
  { name: 'manifest.json not JSON', fails: V0_CHECKS, resolve: 'cache_invalid', v0Report: true, apply: (c) => writeFileSync(manifestPath(c), '{"cache_version": "sha256:') },
  { name: 'manifest.json a JSON array', fails: V0_CHECKS, resolve: 'cache_invalid', v0Report: true, apply: (c) => writeFileSync(manifestPath(c), '[]') },
  { name: 'cache_version edited', fails: ['cache_version'], resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.cache_version = versionOf('another'))) },
  { name: 'cache_version not sha256:<hex>', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.cache_version = 'sha256:XYZ')) },
  { name: 'document_count wrong', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.document_count = 5)) },
  { name: 'files.packs[0] bytes edited', fails: PACK_GONE, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.files.packs[0]!.bytes += 1)) },
  { name: 'files.packs[0] sha256 edited (the pack is found by it)', fails: [...PACK_GONE, 'no_orphans'], resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.files.packs[0]!.sha256 = sha256('x'))) },
  { name: 'files.packs[0] head sha256 edited', fails: ['cache_version', ...HEAD_BAD], resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.files.packs[0]!.head.sha256 = sha256('x'))) },
  { name: 'files.packs[0] head sha256 edited, cache_version recomputed', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.files.packs[0]!.head.sha256 = sha256('x')), true) },
  { name: 'files.packs[0] head bytes edited', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.files.packs[0]!.head.bytes -= 4)) },
  { name: 'files.packs[0] head larger than the pack', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.files.packs[0]!.head.bytes = m.files.packs[0]!.bytes + 1)) },
  { name: 'files.packs[0] documents one fewer (document_count too)', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => { m.files.packs[0]!.documents -= 1; m.document_count -= 1; }) },
  { name: 'files.packs[0] units edited', fails: HEAD_BAD, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void (m.files.packs[0]!.units += 1)) },
  { name: 'files.packs[0] holding no document', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => { m.files.packs[0]!.documents = 0; m.document_count = 0; }) },
  { name: 'files.packs missing', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void delete (m.files as Record<string, unknown>)['packs']) },
  { name: 'a pack listed twice', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => { m.files.packs.push({ ...m.files.packs[0]! }); m.document_count *= 2; }) },
  { name: 'created_at not a string', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void ((m as unknown as Record<string, unknown>)['created_at'] = 0)) },
  { name: 'source_root a number', fails: ALL_BUT_ORPHANS, resolve: 'cache_invalid', apply: (c) => editManifest(c, (m) => void ((m as unknown as Record<string, unknown>)['source_root'] = 1)) },
  // build_config values this engine does not implement (cache_version recomputed, so only the config is wrong)
  ...([
    ['build_config version "21"', (cfg) => void (cfg['version'] = '21')],
    ['build_config version "8" (a P.txt read beside its page P.html)', (cfg) => void (cfg['version'] = '8')],
    ['build_config version "9" (an HTML page\'s asides dropped inside its main region)', (cfg) => void (cfg['version'] = '9')],
    ['build_config version "7" (a Sphinx source copy, NAME.rst.txt, read as plain text)', (cfg) => void (cfg['version'] = '7')],
    ['build_config version "6" (HTML units offsets into the page source)', (cfg) => void (cfg['version'] = '6')],
    ['build_config version "5" (front matter in the first unit, leading parts unnamed)', (cfg) => void (cfg['version'] = '5')],
    ['build_config version "4" (units merged up to the cap)', (cfg) => void (cfg['version'] = '4')],
    ['build_config version "3" (sections before units that fit)', (cfg) => void (cfg['version'] = '3')],
    ['build_config version "2" (a format-2 cache)', (cfg) => void (cfg['version'] = '2')],
    ['hash_algorithm "sha512"', (cfg) => void (cfg['hash_algorithm'] = 'sha512')],
    ['engine "v2"', (cfg) => void (cfg['engine'] = 'v2')],
    ['granularity "paragraph"', (cfg) => void (cfg['granularity'] = 'paragraph')],
    ['tokenizer "gpt2"', (cfg) => void (cfg['tokenizer'] = 'gpt2')],
    ['analyzer version 4', sub('analyzer', (a) => void (a['version'] = 4))], // the analyzer is version 3 ("Terms: the analyzer" rule 6)
    ['another stemmer', sub('analyzer', (a) => void (a['stemmer'] = 'porter2 (wink-porter2-stemmer 3.0.0)'))],
    ['max_token_length 64', sub('analyzer', (a) => void (a['max_token_length'] = 64))],
    ['case folding "none"', sub('analyzer', (a) => void (a['case'] = 'none'))],
    ['index format 2', sub('index', (i) => void (i['format'] = 2))],
    ['section rules on a file cache', (cfg) => void (cfg['sections'] = { split_level: 2, min_bytes: 512 })],
    ['gitignore false', sub('sources', (s) => void (s['gitignore'] = false))],
    ['hidden files taken', sub('sources', (s) => void (s['hidden'] = true))],
    ['another extension', sub('sources', (s) => void (s['extensions'] = ['markdown', 'md', 'mdx', 'txt']))],
    ['an extension fewer', sub('sources', (s) => void (s['extensions'] = ['adoc', 'asciidoc', 'markdown', 'md', 'mdx', 'rst', 'txt']))],
    ['include not a list', sub('sources', (s) => void (s['include'] = '*.md'))],
    ['ranking model "bm25f"', sub('ranking', (r) => void (r['model'] = 'bm25f'))],
    ['k1 negative', sub('ranking', (r) => void (r['k1'] = -1))],
    ['b above 1', sub('ranking', (r) => void (r['b'] = 1.5))],
    ['a field weight missing', sub('ranking', (r) => void delete (r['fields'] as Record<string, unknown>)['title'])],
    ['an unknown field', sub('ranking', (r) => void ((r['fields'] as Record<string, unknown>)['code'] = 1))],
    ['a weight as a string', sub('ranking', (r) => void ((r['fields'] as Record<string, unknown>)['body'] = '1'))],
    ['a field weight of 1e39 (scores past binary32\'s range)', sub('ranking', (r) => void ((r['fields'] as Record<string, unknown>)['path'] = 1e39))],
    ['k1 of 1e6', sub('ranking', (r) => void (r['k1'] = 1e6))],
    ['an extra key', (cfg) => void (cfg['extra'] = true)],
  ] as [string, (cfg: Record<string, unknown>) => void][]).map(([what, edit]): Breakage => ({
    name: `build_config: ${what}`,
    fails: what === 'engine "v2"' ? V0_CHECKS : ALL_BUT_ORPHANS,
    resolve: 'cache_invalid',
    apply: config(edit),
    ...(what === 'engine "v2"' ? { v0Report: true as const } : {}),
  })),
  // orphans
  { name: 'an orphan file', fails: ['no_orphans'], resolve: 'intact', apply: (c) => writeFileSync(join(c, 'notes.txt'), 'hi') },
  { name: 'an orphan directory', fails: ['no_orphans'], resolve: 'intact', apply: (c) => mkdirSync(join(c, 'documents')) },
  { name: 'a leftover v0 index.json', fails: ['no_orphans'], resolve: 'intact', apply: (c) => writeFileSync(join(c, 'index.json'), '{}') },
  { name: 'a leftover format-2 index.bin', fails: ['no_orphans'], resolve: 'intact', apply: (c) => writeFileSync(join(c, 'index.bin'), 'x') },
  { name: 'an orphan symlink', fails: ['no_orphans'], resolve: 'intact', apply: (c) => symlinkSync('manifest.json', join(c, 'link')) },
];

t.test('cache-format.md "What is checked": a freshly built cache passes every check, named in order', async (t) => {
  const dir = t.testdir({ src: SOURCES });
  for (const granularity of ['file', 'section'] as const) {
    const cache = join(dir, granularity);
    await buildV1(join(dir, 'src'), cache, { granularity });
    const report = await verifyV1(cache);
    t.same(report.checks.map((c) => c.name), ['manifest', 'cache_version', 'documents_exist', 'pack', 'document_hashes', 'index', 'index_rebuild', 'term_files', 'no_orphans']);
    t.equal(report.valid, true, granularity);
    t.equal(report.cacheVersion, rawManifestOf(cache).cache_version);
    const cli = await run(['verify', '--cache', cache, '--format', 'json']);
    t.same([cli.code, cli.err], [0, ''], `${granularity}: context verify exits 0`);
  }
});

t.test('cache-format.md "What is checked": every breakage fails its checks by name; resolve never answers wrongly', async (t) => {
  const dir = t.testdir({ src: SOURCES });
  const intact = join(dir, 'intact');
  await buildV1(join(dir, 'src'), intact);
  await buildV1(join(dir, 'src'), join(dir, 'other'), { tokenizer: 'o200k_base' });
  const intactAnswer = resolveText(intact, QUERY, 100000);
  // d.md repeats a.md's text: its entry is a.md's (engine.md "Repeated text"), and d.md is
  // read to find that out, so the query still reads every document.
  t.same((JSON.parse(intactAnswer) as { documents: { id: string }[] }).documents.map((d) => d.id).sort(), ['a.md', 'b.md', 'c.md'], 'the query reads every document; d.md repeats a.md');
  t.equal(rawManifestOf(intact).files.packs.length, 1, 'the documents fill one pack (the table damages pack 0)');
  for (const [i, b] of BREAKAGES.entries()) {
    const cache = join(dir, `c${i}`);
    cpSync(intact, cache, { recursive: true, verbatimSymlinks: true });
    b.apply(cache);
    const { report } = await verifyText(cache, 'json');
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.name);
    t.equal(report.valid, false, `${b.name}: invalid`);
    t.same(failed, b.fails, `${b.name}: fails ${b.fails.join(', ')}`);
    for (const c of report.checks) {
      t.equal(c.ok, c.problems.length === 0, `${b.name}: ${c.name} says what is wrong exactly when it fails`);
      for (const p of c.problems) t.notOk(p.includes(dir), `${b.name}: "${p}" names no absolute path`);
    }
    if (b.v0Report === undefined) t.same(report.checks.map((c) => c.name), [...V1_CHECK_NAMES], `${b.name}: the format-3 checks`);
    const cliVerify = await run(['verify', '--cache', cache]);
    t.equal(cliVerify.code, 5, `${b.name}: context verify exits 5`);
    t.equal(cliVerify.err, `error: cache_invalid: failed checks: ${b.fails.join(', ')}\n`, `${b.name}: stderr names the failed checks`);

    let answer: string;
    try {
      answer = resolveText(cache, QUERY, 100000);
    } catch (err) {
      answer = `error ${(err as { code?: string }).code ?? String(err)}`;
    }
    if (b.resolve === 'verify-only') continue;
    if (b.resolve === 'cache_invalid') t.equal(answer, 'error cache_invalid', `${b.name}: resolve is cache_invalid`);
    else t.equal(answer, intactAnswer, `${b.name}: resolve answers exactly as the intact cache`);
    const cliResolve = await run(['resolve', '--cache', cache, '--query', QUERY, '--budget', '100000']);
    t.equal(cliResolve.code, b.resolve === 'cache_invalid' ? 5 : 0, `${b.name}: context resolve exit code`);
  }
});

t.test('a damaged document that a query does not select does not change that query\'s answer', async (t) => {
  // Resolve re-hashes only what it reads: the other answers stay those of the intact cache.
  const dir = t.testdir({ src: SOURCES });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const before = resolveText(cache, 'beta', 1000);
  const c = documentsOf(cache).find((d) => d.path === 'c.md')!;
  flipByte(packFile(cache, rawManifestOf(cache), c.pack), c.offset);
  t.equal(resolveText(cache, 'beta', 1000), before, 'beta reads b.md only');
  t.throws(() => resolveText(cache, 'gamma', 1000), { code: 'cache_invalid' }, 'gamma reads the damaged c.md');
  t.equal((await verifyV1(cache)).valid, false, 'verify reads everything');
});

t.test('engine.md: ranking constants recorded in build_config are the ones resolve uses', async (t) => {
  // A cache whose build_config records k1 = 2 (cache_version consistent) is a valid cache that
  // answers with k1 = 2: resolve is a function of the cache's bytes, the query and the budget.
  const dir = t.testdir({ src: SOURCES });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const before = JSON.parse(resolveText(cache, 'alpha text', 1000, 'json', undefined, undefined, true)) as { documents: { score: number }[] };
  editManifest(cache, (m) => void ((m.build_config['ranking'] as Record<string, unknown>)['k1'] = 2), true);
  t.equal((await verifyV1(cache)).valid, true);
  const after = JSON.parse(resolveText(cache, 'alpha text', 1000, 'json', undefined, undefined, true)) as { documents: { score: number }[] };
  t.not(after.documents[0]?.score, before.documents[0]?.score, 'another k1, another score');
});
