// Checks context_resolve.md "--cache" (must pass cache verification) and context_cache.md
// "Invariants" (Complete, Portable) through lib/core/engine/v0/load.ts: every breakage is
// cache_invalid on load, a good cache loads without its sources, serial = parallel loading.
import t from 'tap';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCache, loadCacheParallel, type LoadedCache } from '../../../../lib/core/engine/v0/load.js';
import { BREAKAGES, build, buildBase, expectedCacheVersion, VA, VB, versionOf } from './fixture.js';

const plain = (c: LoadedCache): unknown => ({ cacheVersion: c.cacheVersion, documents: c.documents, stats: c.countWords(['text', 'alpha', 'x']) });

t.test('context_resolve.md "--cache": a valid cache loads, documents sorted by id, tokens = ceil(bytes/4)', async (t) => {
  const cache = buildBase(t.testdir({}));
  const loaded = loadCache(cache);
  t.equal(loaded.cacheVersion, expectedCacheVersion([['a.md', VA], ['b.md', VB]]));
  t.same(loaded.documents, [
    { id: 'a.md', version: VA, content: 'alpha text here', tokens: 4 },
    { id: 'b.md', version: VB, content: 'beta text', tokens: 3 },
  ]);
});

t.test('context_resolve.md "--cache": must pass cache verification — every breakage is cache_invalid', async (t) => {
  for (const b of BREAKAGES) {
    const cache = buildBase(t.testdir({}));
    b.apply(cache);
    t.throws(() => loadCache(cache), { code: 'cache_invalid' }, `${b.name} (${b.spec})`);
    await t.rejects(loadCacheParallel(cache, { threads: 2 }), { code: 'cache_invalid' }, `${b.name}: parallel loader too`);
  }
});

t.test('context_resolve.md "Error Categories": missing path or not a directory is cache_missing', async (t) => {
  const dir = t.testdir({ 'file': 'x', link: t.fixture('symlink', 'nowhere') });
  for (const p of ['nope', 'file', 'link']) {
    t.throws(() => loadCache(join(dir, p)), { code: 'cache_missing' }, p);
    await t.rejects(loadCacheParallel(join(dir, p)), { code: 'cache_missing' }, `${p} (parallel)`);
  }
});

t.test('context_cache.md Invariants 2 "Complete" and 5 "Portable": no source access, copies load the same', async (t) => {
  const dir = t.testdir({ src: { 'x.md': 'some content', 'y.md': 'more content here' } });
  build(join(dir, 'src'), join(dir, 'cache'));
  const before = plain(loadCache(join(dir, 'cache')));
  rmSync(join(dir, 'src'), { recursive: true });
  t.same(plain(loadCache(join(dir, 'cache'))), before, 'sources deleted: same load');
  cpSync(join(dir, 'cache'), join(dir, 'moved', 'elsewhere'), { recursive: true });
  t.same(plain(loadCache(join(dir, 'moved', 'elsewhere'))), before, 'copied: same load');
});

t.test('the reference fixture caches load here; future_version (build_config "999") is cache_invalid', async (t) => {
  const root = new URL('../../../fixtures/compat-v0/caches/', import.meta.url).pathname;
  t.same(loadCache(join(root, 'minimal')).documents.map((d) => d.id), ['goodbye.md', 'hello.md']);
  t.throws(() => loadCache(join(root, 'future_version')), { code: 'cache_invalid' });
});

t.test('loadCache and loadCacheParallel give the same result (in-process: the parallel path falls back to serial)', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1200; i++) files[`d${String(i).padStart(4, '0')}.md`] = `doc ${i} text ${i % 7 === 0 ? 'alpha' : 'beta'} \u00e9t\u00e9 ${'x '.repeat(i % 5)}`;
  const dir = t.testdir({ src: files });
  build(join(dir, 'src'), join(dir, 'cache'));
  const serial = loadCache(join(dir, 'cache'), { terms: ['alpha', 'text'] });
  const parallel = await loadCacheParallel(join(dir, 'cache'), { terms: ['alpha', 'text'], threads: 4 });
  t.equal(serial.documents.length, 1200);
  t.same(plain(parallel), plain(serial));
  t.equal(serial.documents[7]?.version, versionOf(files['d0007.md'] as string));
  // The spawned CLI exercises the worker-thread path: spec-tests/cli/resolve.test.ts.
});

t.test('issue 9 item 7: loading with index: true gives the same documents and word statistics as the scan', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`d${String(i).padStart(2, '0')}.md`] = `Doc ${i} text ${i % 7 === 0 ? 'ALPHA' : 'beta'} \u00e9t\u00e9 ΟΔΟΣ\u0085${'x '.repeat(i % 5)}`;
  files['empty.md'] = '';
  const dir = t.testdir({ src: files });
  build(join(dir, 'src'), join(dir, 'cache'));
  const scan = loadCache(join(dir, 'cache'), { terms: ['alpha'] });
  const indexed = loadCache(join(dir, 'cache'), { index: true });
  const parallel = await loadCacheParallel(join(dir, 'cache'), { index: true, threads: 4 });
  t.same(indexed.documents, scan.documents, 'documents');
  t.equal(indexed.cacheVersion, scan.cacheVersion);
  t.equal(scan.index, undefined, 'no index unless asked for');
  t.equal(indexed.index?.documentCount, 61);
  t.same(plain(indexed), plain(scan), 'the same statistics');
  const more = ['οδος', 'été', 'x', 'doc', 'alpha', 'missing'];
  t.same(plain({ ...indexed, countWords: () => indexed.countWords(more) }), plain({ ...scan, countWords: () => scan.countWords(more) }), 'for new terms too');
  t.same(plain(parallel), plain(indexed), 'loadCacheParallel with index: true loads the same (on this thread)');
  t.ok(parallel.index !== undefined);
});

t.test('more invariants on load: a document holding another id, duplicate manifest ids', async (t) => {
  const other = buildBase(t.testdir({}));
  const file = join(other, `documents/${VA.slice(7, 19)}.json`);
  writeFileSync(file, readFileSync(file, 'utf8').replace('"id":"a.md"', '"id":"z.md"'));
  t.throws(() => loadCache(other), { code: 'cache_invalid' }, 'document file id differs from its manifest entry');

  const dup = buildBase(t.testdir({}));
  const m = readFileSync(join(dup, 'manifest.json'), 'utf8');
  writeFileSync(join(dup, 'manifest.json'), m.replace('"id": "b.md"', '"id": "a.md"'));
  t.throws(() => loadCache(dup), { code: 'cache_invalid' }, 'Invariant 6 "Unique IDs": two manifest entries with one id');
});

t.test('context_resolve.md "--cache": must contain manifest.json, index.json and documents/', async (t) => {
  const dir = t.testdir({ src: {} });
  build(join(dir, 'src'), join(dir, 'empty'));
  t.same(loadCache(join(dir, 'empty')).documents, [], 'a 0-document cache loads');
  const cache = buildBase(dir);
  rmSync(join(cache, 'documents'), { recursive: true });
  t.throws(() => loadCache(cache), { code: 'cache_invalid' }, 'documents/ missing (2 documents)');
  writeFileSync(join(cache, 'documents'), '');
  t.throws(() => loadCache(cache), { code: 'cache_invalid' }, 'documents is a file');
});

t.test('context_resolve.md "--cache": a 0-document cache without documents/ is not a valid cache', async (t) => {
  const dir = t.testdir({ src: {} });
  build(join(dir, 'src'), join(dir, 'empty'));
  rmSync(join(dir, 'empty', 'documents'), { recursive: true });
  t.throws(() => loadCache(join(dir, 'empty')), { code: 'cache_invalid' });
});

t.test('document_model.md "Byte-for-byte fidelity" survives a load: content re-hashes to its version', async (t) => {
  const files: Record<string, Buffer> = {
    'bom.md': Buffer.from('\u{FEFF}# T\r\n', 'utf8'),
    'crlf.md': Buffer.from('a\r\nb\r\n'),
    'ctl.md': Buffer.from('tab\there \u0001 \u001f \u007f'),
    'slash-u.md': Buffer.from('C:\\users\\u0041 is not an escape'),
    'utf8.md': Buffer.from('été 😀 \u2028 \u0085', 'utf8'),
    'empty.md': Buffer.alloc(0),
  };
  const dir = t.testdir({ src: files });
  build(join(dir, 'src'), join(dir, 'cache'));
  const loaded = loadCache(join(dir, 'cache'));
  for (const doc of loaded.documents) {
    const raw = files[doc.id] as Buffer;
    t.ok(Buffer.from(doc.content, 'utf8').equals(raw), `${doc.id}: content is the source bytes`);
    t.equal(doc.version, versionOf(raw), `${doc.id}: version`);
    t.equal(doc.tokens, Math.ceil(raw.length / 4), `${doc.id}: tokens = ceil(UTF-8 bytes / 4)`);
  }
  t.equal(loaded.documents.length, 6);
});
