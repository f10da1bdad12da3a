// Checks docs/cache-format.md (three files; the manifest's fields; cache_version;
// "Identical content at two paths is two documents; the pack stores that content once"),
// "Sources" (skipped files reported with their reason) and issue 9 "Builds every real tree"
// / "a test proves two identical files build" / "two builds byte-identical" against
// lib/core/engine/v1/build.ts, plus the atomic --force replacement every build promises.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCache } from '../../../../lib/core/engine/v0/build.js';
import { verifyV1 } from '../../../../lib/core/engine/v1/verify.js';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { namesIn, snapshot } from '../v0/fixture.js';
import { BIN } from '../../../mcp/spawn-server.js';
import { IndexReader, indexLeadParts } from '../../../../lib/core/index/index-format.js';
import { buildV1, CREATED_AT, expectedCacheVersion, headOf, manifestOf, packBytes, packedBytes, packFile, rawManifestOf, sha256, versionOf } from './fixture.js';

/** docs/cache-format.md: the build_config of a default file build, written out. */
const FILE_CONFIG = {
  version: '20',
  hash_algorithm: 'sha256',
  engine: 'v1',
  granularity: 'file',
  sources: { extensions: ['adoc', 'asciidoc', 'htm', 'html', 'markdown', 'md', 'mdx', 'rst', 'txt'], include: [], exclude: [], gitignore: true, hidden: false },
  analyzer: {
    name: 'words-identifiers-code',
    version: 3,
    normalization: 'NFKC',
    case: 'unicode-lowercase, ß->ss, ς->σ',
    stemmer: 'porter2 (wink-porter2-stemmer 2.0.1)',
    max_token_length: 128,
    code_characters: '._-:<>()?!&#@$+',
    cjk: 'character bigrams of Han, Hiragana, Katakana and Hangul runs',
    query_stopwords: '@orama/stopwords 3.1.18 english, plus a, less let, own',
  },
  sections: null,
  ranking: { model: 'bm25-fields', k1: 1.2, b: 0.75, fields: { body: 1, headings: 0.75, title: 1.5, path: 2.5 } },
  tokenizer: 'bytes4',
  index: { format: 1 },
};

t.test('cache-format.md: a manifest and packs, the manifest\'s fields in order, each pack a head then contents, cache_version by its formula', async (t) => {
  const dir = t.testdir({ src: { 'Guide.md': 'Install the guide', 'b.md': 'beta text', sub: { 'c.mdx': 'gamma' } } });
  const cache = join(dir, 'cache');
  const summary = await buildV1(join(dir, 'src'), cache);
  // The manifest, the packs, and the build state (stat stamps for incremental rebuilds: a
  // hint, not part of the cache's identity, see docs/engine.md) — no per-document files.
  t.same(namesIn(cache), ['build-state.json', 'manifest.json', 'packs'], 'no per-document files');
  const text = readFileSync(join(cache, 'manifest.json'), 'utf8');
  const raw = rawManifestOf(cache);
  t.equal(text, JSON.stringify(raw, null, 2), 'pretty JSON, two-space indent, no trailing newline');
  t.same(Object.keys(raw), ['cache_version', 'build_config', 'created_at', 'source_root', 'document_count', 'files']);
  t.same(raw.build_config, FILE_CONFIG);
  t.same(Object.keys(raw.build_config), Object.keys(FILE_CONFIG), 'build_config keys in the documented order');
  t.equal(raw.created_at, CREATED_AT);
  t.equal(raw.source_root, '../src', 'the sources as seen from the cache directory');
  t.equal(raw.document_count, 3);
  t.same(Object.keys(raw.files), ['packs', 'terms']);
  const docs = [
    { path: 'Guide.md', content: 'Install the guide' },
    { path: 'b.md', content: 'beta text' },
    { path: 'sub/c.mdx', content: 'gamma' },
  ];
  const m = manifestOf(cache);
  t.same(m.documents.map((d) => [d.path, d.version]), docs.map((d) => [d.path, versionOf(d.content)]), 'paths as on disk (case kept), sorted by bytes');
  const packs = raw.files.packs.map((_, k) => readFileSync(packFile(cache, raw, k)));
  t.equal(packs.length, 1);
  const pack = packs[0] as Buffer;
  const record = raw.files.packs[0]!;
  t.same(Object.keys(record), ['bytes', 'sha256', 'documents', 'units', 'head']);
  const head = pack.subarray(0, record.head.bytes);
  t.same(record, { bytes: pack.length, sha256: sha256(pack), documents: 3, units: 3, head: { bytes: head.length, sha256: sha256(head) } }, 'each pack: its size, the sha256 it is named by, its counts, its head');
  // Format 18: one segment here (three paths, none ends one), so one term file, made from the pack's head.
  const terms = (raw.files as unknown as { terms: { bytes: number; sha256: string; packs: number; top: { bytes: number; sha256: string } }[] }).terms;
  t.equal(terms.length, 1, 'one term file for the one segment');
  const termBytes = readFileSync(join(cache, 'packs', `${terms[0]!.sha256}.terms`));
  t.same(terms[0], { bytes: termBytes.length, sha256: sha256(termBytes), packs: 1, top: { bytes: terms[0]!.top.bytes, sha256: sha256(termBytes.subarray(0, terms[0]!.top.bytes)) } }, 'a term file: its size, the sha256 it is named by, how many packs, its top');
  t.equal(termBytes.subarray(0, 8).toString('latin1'), 'CTXTERMS', 'the term file\'s magic');
  // Right after its top, the pack's lead (its head up to the index's dictionary) cut as
  // format 19 cuts it: its rank columns (per unit its tokens and field lengths), then its
  // names (its document list, its answer columns — per unit document, start, end, words —
  // and its strings section); the index's header is in the top.
  const h0 = headOf(pack, record.head.bytes);
  const parts = indexLeadParts(h0.index);
  const after = terms[0]!.top.bytes;
  const rows = new IndexReader(h0.index).unitRows();
  const u32le = (values: number[]): Buffer => Buffer.from(new Uint32Array(values).buffer);
  const rank = u32le([...Array(3).keys()].flatMap((u) => [rows[u * 9 + 3]!, ...[5, 6, 7, 8].map((f) => rows[u * 9 + f]!)]));
  const answer = u32le([...Array(3).keys()].flatMap((u) => [0, 1, 2, 4].map((k) => rows[u * 9 + k]!)));
  const names = Buffer.concat([head.subarray(0, h0.indexAt), answer, head.subarray(h0.indexAt + parts.stringsAt, h0.indexAt + parts.end)]);
  t.same(termBytes.subarray(after, after + rank.length), rank, 'the pack\'s rank columns, copied after the top');
  t.same(termBytes.subarray(after + rank.length, after + rank.length + names.length), names, 'then its names: its document list, its answer columns and its strings');
  const header = head.subarray(h0.indexAt, h0.indexAt + 64);
  t.ok(termBytes.subarray(0, after).includes(header), 'its index\'s header in the top');
  const h = headOf(pack, record.head.bytes);
  t.same(h.list, [['Guide.md', versionOf('Install the guide'), 0, 17], ['b.md', versionOf('beta text'), 17, 9], ['sub/c.mdx', versionOf('gamma'), 26, 5]], 'the head lists [path, version, offset, bytes], offsets after the head');
  t.equal(h.indexAt % 4, 0, 'the index starts 4-byte aligned');
  t.equal(new IndexReader(h.index).docCount, 3, 'the head ends with the pack\'s index, over its documents');
  t.equal(pack.subarray(record.head.bytes).toString('utf8'), 'Install the guidebeta textgamma', 'then the contents, back to back, nothing else');
  const cv = expectedCacheVersion(FILE_CONFIG, raw.files.packs);
  t.equal(raw.cache_version, cv, 'sha256 of compact {"build_config", "packs": [head sha256, ...]}');
  t.same(summary, { cacheVersion: cv, documentCount: 3, unitCount: 3, skipped: [], reused: 0, analyzed: 3, unchanged: false, formats: { md: 3 } });
  t.same(namesIn(join(cache, 'packs')), [...raw.files.packs.map((p) => `${p.sha256}.pack`), ...terms.map((f) => `${f.sha256}.terms`)].sort(), 'packs/ holds the listed packs and term files, nothing else');
  for (const d of docs) t.equal(packedBytes(cache, d.path).toString('utf8'), d.content, `${d.path}: its range of its pack holds its bytes`);
});

t.test('cache-format.md: identical content at two paths is two documents; the pack stores it once', async (t) => {
  const same = 'Same bytes, twice over.\n';
  const dir = t.testdir({ src: { 'a.md': same, 'A.md': same, sub: { 'b.md': same }, 'other.md': 'different' } });
  const cache = join(dir, 'cache');
  const summary = await buildV1(join(dir, 'src'), cache);
  t.equal(summary.documentCount, 4, 'A.md and a.md are distinct paths, so distinct documents');
  const m = manifestOf(cache);
  const copies = m.documents.filter((d) => d.version === versionOf(same));
  t.same(copies.map((d) => d.path), ['A.md', 'a.md', 'sub/b.md']);
  t.equal(new Set(copies.map((d) => `${d.pack}:${d.offset}:${d.bytes}`)).size, 1, 'all three share one range of one pack');
  t.equal(packBytes(m), Buffer.byteLength(same) + Buffer.byteLength('different'), 'the content is stored once');
  // Three tied units of one text: the first in id byte order answers, the other two are
  // named as holding the same text (engine.md "Repeated text").
  const answer = JSON.parse(resolveText(cache, 'same bytes', 1000, 'json', undefined, undefined, true)) as { documents: { id: string; same_text?: { id: string }[] }[] };
  t.same(answer.documents.map((d) => d.id), ['A.md'], 'one entry: the first of the three in id byte order');
  t.same(answer.documents[0]?.same_text, [{ id: 'a.md' }, { id: 'sub/b.md' }], 'the other two paths hold the same text');
  t.equal((await verifyV1(cache)).valid, true);
});

t.test('issue 9 "Builds every real tree": a tree reproducing vite/repomix/serena duplicate Markdown builds (v0 cannot)', async (t) => {
  const templateReadme = '# Vite template\n\nThis template provides a minimal setup to get started.\n';
  const license = '# MIT License\n\nCopyright (c) 2019-present, VoidZero Inc. and Vite contributors\n';
  const localized = '# Getting started\n\nRun `npx repomix` in your repository.\n';
  const tree = {
    'README.md': '# Vite\n\nNext generation frontend tooling.\n',
    'CHANGELOG.md': '',
    packages: {
      'create-vite': {
        'template-vanilla': { 'README.md': templateReadme },
        'template-vanilla-ts': { 'README.md': templateReadme },
        'template-react': { 'README.md': templateReadme },
        'template-react-ts': { 'README.md': templateReadme },
      },
      vite: { 'LICENSE.md': license, 'CHANGELOG.md': '' },
      'plugin-legacy': { 'LICENSE.md': license, 'README.md': '# @vitejs/plugin-legacy\n' },
    },
    website: { client: { src: { en: { guide: { 'index.md': localized } }, 'zh-cn': { guide: { 'index.md': localized } }, ja: { guide: { 'index.md': localized } } } } },
    test: { resources: { repos: { markdown: { 'README.md': templateReadme, 'empty.md': '' } } } },
    '.github': { ISSUE_TEMPLATE: { 'bug_report.md': 'hidden' }, 'PULL_REQUEST_TEMPLATE.md': 'hidden' },
    '.serena': { memories: { 'overview.md': localized } },
    node_modules: { vitepress: { 'README.md': templateReadme } },
  };
  const dir = t.testdir({ src: tree });
  t.throws(() => buildCache({ sources: join(dir, 'src'), cache: join(dir, 'v0'), force: false, createdAt: CREATED_AT }), { code: 'cache_invalid' }, 'v0 refuses identical contents (its file-name collision)');
  const cache = join(dir, 'v1');
  const summary = await buildV1(join(dir, 'src'), cache);
  t.equal(summary.documentCount, 15, 'every visible Markdown file outside node_modules is a document');
  t.same(summary.skipped, []);
  const m = manifestOf(cache);
  t.notOk(m.documents.some((d) => d.path.startsWith('.') || d.path.includes('node_modules')), 'no hidden or node_modules paths');
  const distinct = new Set(m.documents.map((d) => d.version));
  t.equal(distinct.size, 6, 'six distinct contents');
  const distinctBytes = [...distinct].reduce((n, v) => n + (m.documents.find((d) => d.version === v)?.bytes ?? 0), 0);
  t.equal(packBytes(m), distinctBytes, 'each distinct content is packed once');
  t.equal((await verifyV1(cache)).valid, true, 'and the cache verifies');
  const sections = await buildV1(join(dir, 'src'), join(dir, 'v1s'), { granularity: 'section' });
  t.equal(sections.documentCount, 15, 'with sections too');
});

t.test('sources.md "Formats and files": files that cannot be documents are skipped and reported, the rest builds', async (t) => {
  const dir = t.testdir({ src: { 'good.md': 'fine', 'latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'truncated.md': Buffer.from([0x61, 0xe2, 0x82]), 'broken.md': t.fixture('symlink', 'nowhere.md') } });
  writeFileSync(Buffer.concat([Buffer.from(join(dir, 'src', 'n')), Buffer.from([0xff]), Buffer.from('.md')]), 'fine name? no');
  const cache = join(dir, 'cache');
  const summary = await buildV1(join(dir, 'src'), cache);
  t.same(summary.skipped, [
    { path: 'broken.md', reason: 'symlink does not lead to a regular file' },
    { path: 'latin1.md', reason: 'content is not UTF-8' },
    { path: 'n\uFFFD.md', reason: 'file name is not UTF-8' },
    { path: 'truncated.md', reason: 'content is not UTF-8' },
  ], 'sorted by path, each with its reason');
  t.same(manifestOf(cache).documents.map((d) => d.path), ['good.md']);
  t.equal(packBytes(manifestOf(cache)), 4, 'skipped contents are not packed');
});

t.test('sources.md "Formats and files": a FIFO named *.md is never opened — the build finishes and reports it', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'alpha' } });
  if (spawnSync('mkfifo', [join(dir, 'src', 'pipe.md')]).status !== 0) {
    t.plan(0, 'mkfifo is not available here');
    return;
  }
  // Through the real bin, in a child with a timeout: opening the FIFO would block it forever.
  const r = spawnSync('/bin/sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', process.execPath, BIN, 'build', '--engine', 'v1', '--sources', 'src', '--cache', 'cache'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SOURCE_DATE_EPOCH: '0' },
  });
  t.equal(r.signal, null, 'not killed by the timeout: the build did not block');
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /"document_count":1,/);
  t.match(r.stdout, /"skipped":\[\{"path":"pipe\.md","reason":"not a regular file"\}\]\}\n$/);
});

t.test('issue 9 "determinism": two builds of the same sources are byte-identical; copies elsewhere share cache_version', async (t) => {
  const src = () => ({ 'x.md': '# One\n\nuseState and snake_case\n', d: { 'Y.md': 'two\r\n', 'z.md': '', 'é.mdx': 'accent' }, 'dup.md': 'two\r\n' });
  const dir = t.testdir({ src: src(), elsewhere: { deeper: src() } });
  for (const granularity of ['file', 'section'] as const) {
    const a = await buildV1(join(dir, 'src'), join(dir, `${granularity}-1`), { granularity });
    const b = await buildV1(join(dir, 'src'), join(dir, `${granularity}-2`), { granularity });
    t.same(a, b, `${granularity}: same summary`);
    t.same(snapshot(join(dir, `${granularity}-1`)), snapshot(join(dir, `${granularity}-2`)), `${granularity}: every file byte-identical`);
    const c = await buildV1(join(dir, 'elsewhere', 'deeper'), join(dir, `${granularity}-3`), { granularity });
    t.equal(c.cacheVersion, a.cacheVersion, `${granularity}: sources elsewhere, same cache_version`);
    const s1 = snapshot(join(dir, `${granularity}-1`));
    const s3 = snapshot(join(dir, `${granularity}-3`));
    const packsOf = (s: Record<string, string>): string[] => Object.keys(s).filter((k) => k.startsWith('packs/')).map((k) => `${k}=${s[k] ?? ''}`);
    t.same(packsOf(s3), packsOf(s1), `${granularity}: same packs`);
    t.equal(s3['manifest.json'], s1['manifest.json']?.replace('"source_root": "../src"', '"source_root": "../elsewhere/deeper"'), `${granularity}: manifests differ by source_root only`);
  }
});

t.test('cache-format.md: created_at and source_root are not hashed', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'alpha' } });
  const { buildCacheV1 } = await import('../../../../lib/core/engine/v1/build.js');
  const a = await buildV1(join(dir, 'src'), join(dir, 'out', 'c1'));
  const b = await buildCacheV1({ sources: join(dir, 'src'), cache: join(dir, 'c2'), force: false, createdAt: '1999-12-31T23:59:59Z', options: { granularity: 'file', tokenizer: 'bytes4', include: [], exclude: [] } });
  t.equal(a.cacheVersion, b.cacheVersion);
  t.equal(manifestOf(join(dir, 'out', 'c1')).source_root, '../../src');
  t.equal(manifestOf(join(dir, 'c2')).created_at, '1999-12-31T23:59:59Z');
});

t.test('engine.md: every parameter that shapes an answer is in build_config, so in cache_version', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'alpha', 'b.md': 'beta' } });
  const variants = [
    {},
    { granularity: 'section' as const },
    { tokenizer: 'o200k_base' as const },
    { tokenizer: 'cl100k_base' as const },
    { include: ['*.md'] },
    { exclude: ['nothing/'] },
    { include: ['*.md', 'b.md'] },
    { include: ['b.md', '*.md'] },
  ];
  const versions: string[] = [];
  for (const [i, v] of variants.entries()) {
    const summary = await buildV1(join(dir, 'src'), join(dir, `c${i}`), v);
    t.equal(summary.documentCount, 2, JSON.stringify(v));
    versions.push(summary.cacheVersion);
    const m = manifestOf(join(dir, `c${i}`));
    t.equal(m.cache_version, expectedCacheVersion(m.build_config, m.files.packs), `${JSON.stringify(v)}: formula holds`);
  }
  t.equal(new Set(versions).size, variants.length, 'each option gives its own cache_version (glob order included)');
  const section = manifestOf(join(dir, 'c1')).build_config;
  t.same(section['sections'], { split_level: 2, min_bytes: 256, merge_max_bytes: 768, max_bytes: 1536 }, 'section rules recorded, the cap included ("Answers that fit, by default" item 2: a cap recorded in build_config)');
  t.same(manifestOf(join(dir, 'c6')).build_config['sources'], { extensions: ['adoc', 'asciidoc', 'htm', 'html', 'markdown', 'md', 'mdx', 'rst', 'txt'], include: ['*.md', 'b.md'], exclude: [], gitignore: true, hidden: false }, 'globs as given, in order');
});

t.test('engine.md: an empty source tree, and empty documents, build valid caches', async (t) => {
  const dir = t.testdir({ none: { 'notes.json': 'x' }, empties: { 'a.md': '', 'b.md': '' } });
  const none = await buildV1(join(dir, 'none'), join(dir, 'c0'));
  t.same(none, { cacheVersion: expectedCacheVersion(FILE_CONFIG, []), documentCount: 0, unitCount: 0, skipped: [], reused: 0, analyzed: 0, unchanged: false, formats: {} });
  t.same(manifestOf(join(dir, 'c0')).files.packs, [], 'no documents, no packs');
  t.equal((await verifyV1(join(dir, 'c0'))).valid, true);
  t.equal(resolveText(join(dir, 'c0'), 'anything', 100, 'json', undefined, 'content', true), '{"documents":[],"selection":{"query":"anything","budget":100,"tokens_used":0,"documents_considered":0,"documents_selected":0,"documents_excluded_by_budget":0,"documents_matched":0,"engine":"v1","granularity":"file","tokenizer":"bytes4","terms":["anyth"]}}\n', 'the explained answer');
  t.equal(resolveText(join(dir, 'c0'), 'anything', 100, 'json', undefined, 'content'), '{"documents":[],"selection":{"budget":100,"budget_scope":"content","tokens_used":0,"matched":0}}\n', 'the lean answer (the default)');
  const empties = await buildV1(join(dir, 'empties'), join(dir, 'c1'));
  t.equal(empties.documentCount, 2);
  const heads = rawManifestOf(join(dir, 'c1')).files.packs[0]!.head.bytes;
  t.same(manifestOf(join(dir, 'c1')).documents.map((d) => [d.pack, d.offset, d.bytes]), [[0, heads, 0], [0, heads, 0]], 'both empty: one empty range, right after the head');
  t.equal((await verifyV1(join(dir, 'c1'))).valid, true);
});

t.test('errors before writing: missing or non-directory --sources, an existing --cache without --force', async (t) => {
  const dir = t.testdir({ 'file.md': 'x', src: { 'a.md': 'x' }, taken: { 'keep.txt': 'mine' } });
  await t.rejects(buildV1(join(dir, 'nope'), join(dir, 'c1')), { code: 'io_error' });
  await t.rejects(buildV1(join(dir, 'file.md'), join(dir, 'c2')), { code: 'io_error' });
  const before = snapshot(dir);
  await t.rejects(buildV1(join(dir, 'src'), join(dir, 'taken')), { code: 'io_error' }, 'an existing output is refused');
  t.same(snapshot(dir), before, 'nothing changed');
});

t.test('--force replaces a cache (v0 or v1) only with a complete new one', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'version one' }, src2: { 'b.md': 'version two' } });
  const cache = join(dir, 'cache');
  buildCache({ sources: join(dir, 'src'), cache, force: false, createdAt: CREATED_AT });
  await buildV1(join(dir, 'src2'), cache, {}, true);
  t.same(namesIn(cache), ['build-state.json', 'manifest.json', 'packs'], 'a v0 cache replaced wholesale by a v1 one');
  t.same(manifestOf(cache).documents.map((d) => d.path), ['b.md']);
  t.same(namesIn(dir), ['cache', 'src', 'src2'], 'no temp or old dir left');
});

t.test('Invariant "Atomic": an injected write or rename failure leaves no partial cache, and an old one intact', async (t) => {
  const realFs = await import('../../../../lib/core/fs.js');
  const failing = async (what: 'writeFile' | 'rename', nth: number): Promise<typeof import('../../../../lib/core/engine/v1/build.js')> => {
    let calls = 0;
    const fail = (): never => {
      throw Object.assign(new Error('injected'), { code: 'EIO' });
    };
    const mockedFs = {
      ...realFs,
      writeFile: (p: string, d: string | Uint8Array) => (what === 'writeFile' && ++calls === nth ? fail() : realFs.writeFile(p, d)),
      createFile: (p: string, d: string | Uint8Array) => (what === 'writeFile' && ++calls === nth ? fail() : realFs.createFile(p, d)),
      createFileFrom: (p: string, d: readonly Uint8Array[]) => (what === 'writeFile' && ++calls === nth ? fail() : realFs.createFileFrom(p, d)),
      rename: (a: string, b: string) => (what === 'rename' && ++calls === nth ? fail() : realFs.rename(a, b)),
    };
    const staging = await t.mockImport('../../../../lib/core/store/staging.js', { '../../../../lib/core/fs.js': mockedFs });
    // A full build writes its packs through early-packs.ts (into the staging directory, while it analyses).
    const early = await t.mockImport('../../../../lib/core/engine/v1/early-packs.js', {
      '../../../../lib/core/fs.js': mockedFs,
      '../../../../lib/core/store/staging.js': staging,
    });
    return t.mockImport<typeof import('../../../../lib/core/engine/v1/build.js')>('../../../../lib/core/engine/v1/build.js', {
      '../../../../lib/core/fs.js': mockedFs,
      '../../../../lib/core/store/staging.js': staging,
      '../../../../lib/core/engine/v1/early-packs.js': early,
    });
  };
  const opts = (sources: string, cache: string, force: boolean) => ({
    sources, cache, force, createdAt: CREATED_AT, threads: 1,
    options: { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] },
  });
  // A fresh build failing at each of its three file writes (its one pack, the manifest and
  // the build state): no cache, no temp dir.
  for (const nth of [1, 2, 3]) {
    const dir = t.testdir({ src: { 'a.md': 'one', 'b.md': 'two' }, out: {} });
    const m = await failing('writeFile', nth);
    await t.rejects(m.buildCacheV1(opts(join(dir, 'src'), join(dir, 'out', 'cache'), false)), { code: 'io_error' }, `write ${nth} fails`);
    t.same(namesIn(join(dir, 'out')), [], `fresh build, write ${nth} failing: nothing left`);
  }
  // A --force build failing while writing: the old cache is untouched.
  const dir = t.testdir({ src: { 'a.md': 'one', 'b.md': 'two' }, src2: { 'c.md': 'three' } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const before = snapshot(cache);
  for (const nth of [1, 2, 3]) {
    const m = await failing('writeFile', nth);
    await t.rejects(m.buildCacheV1(opts(join(dir, 'src2'), cache, true)), { code: 'io_error' });
    t.same(snapshot(cache), before, `--force, write ${nth} failing: old cache intact`);
    t.same(namesIn(dir), ['cache', 'src', 'src2'], 'no temp dir');
  }
  // The final rename failing after the old cache was moved aside: it is put back.
  const m = await failing('rename', 2);
  await t.rejects(m.buildCacheV1(opts(join(dir, 'src2'), cache, true)), { code: 'io_error' });
  t.same(snapshot(cache), before, '--force rename failure: old cache restored');
  t.same(namesIn(dir), ['cache', 'src', 'src2'], 'no temp or old dir');
  t.equal((await verifyV1(cache)).valid, true, 'and it still verifies');
});

t.test('a failed read of a source fails the build with io_error and writes nothing', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'fine', 'locked.md': 'secret' }, out: {} });
  const realFs = await import('../../../../lib/core/fs.js');
  const mockedFs = {
    ...realFs,
    readFile: (p: string) => {
      if (p.endsWith('locked.md')) throw Object.assign(new Error('denied'), { code: 'EACCES' });
      return realFs.readFile(p);
    },
  };
  const batch = await t.mockImport('../../../../lib/core/engine/v1/batch.js', { '../../../../lib/core/fs.js': mockedFs });
  const corpus = await t.mockImport('../../../../lib/core/engine/v1/analyze-corpus.js', { '../../../../lib/core/engine/v1/batch.js': batch });
  const m = await t.mockImport<typeof import('../../../../lib/core/engine/v1/build.js')>('../../../../lib/core/engine/v1/build.js', {
    '../../../../lib/core/engine/v1/analyze-corpus.js': corpus,
  });
  await t.rejects(
    m.buildCacheV1({ sources: join(dir, 'src'), cache: join(dir, 'out', 'cache'), force: false, createdAt: CREATED_AT, options: { granularity: 'file', tokenizer: 'bytes4', include: [], exclude: [] } }),
    { code: 'io_error' },
  );
  t.same(namesIn(join(dir, 'out')), [], 'nothing written');
});

t.test('the sources root may be a symlink; a copied cache is still valid', async (t) => {
  const dir = t.testdir({ real: { 'a.md': 'alpha' } });
  symlinkSync('real', join(dir, 'src'));
  t.equal((await buildV1(join(dir, 'src'), join(dir, 'cache'))).documentCount, 1);
  cpSync(join(dir, 'cache'), join(dir, 'copy'), { recursive: true });
  t.equal((await verifyV1(join(dir, 'copy'))).valid, true, 'Portable: a copy elsewhere verifies');
  t.ok(existsSync(join(dir, 'copy', 'manifest.json')));
});

t.test('cache-format.md: a cache of many packs reads every document with at most 16 packs open', { skip: process.platform !== 'linux' ? 'counts descriptors in /proc/self/fd' : false }, async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) files[`p${String(i).padStart(4, '0')}.md`] = `page ${i} shared words\n`;
  const dir = t.testdir({ src: files });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const m = manifestOf(cache);
  t.ok(m.files.packs.length > 16, `more packs than may stay open (${m.files.packs.length})`);
  const { openV1 } = await import('../../../../lib/core/engine/v1/load.js');
  const openFds = (): number => readdirSync('/proc/self/fd').length;
  const v1 = openV1(cache);
  const before = openFds();
  let peak = before;
  const wrong: string[] = [];
  for (let round = 0; round < 2; round++) {
    m.documents.forEach((d, i) => {
      if (v1.text(i) !== files[d.path]) wrong.push(d.path);
      peak = Math.max(peak, openFds());
    });
  }
  t.same(wrong, [], 'every document read back as its bytes, twice over (packs closed and opened again)');
  t.ok(peak - before <= 16, `at most 16 packs open at once (${peak - before})`);
  v1.close();
  t.equal(openFds(), before, 'close() releases them');
});
