// Checks context_cache.md "Operations / Build", "Storage Format", "Cache Version" and
// "Invariants" (plus DESIGN.md "Cache format") against lib/core/engine/v0/build.ts: which files
// are sources, the exact bytes written, determinism, atomicity and --force replacement.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCache, documentId, findSources } from '../../../../lib/core/engine/v0/build.js';
import { BUILD_CONFIG_JSON, build, CREATED_AT, expectedCacheVersion, fileOf, namesIn, readCacheFile, snapshot, versionOf } from './fixture.js';

const manifestOf = (cache: string): { cache_version: string; documents: { id: string; version: string; file: string }[] } =>
  JSON.parse(readCacheFile(cache, 'manifest.json')) as { cache_version: string; documents: { id: string; version: string; file: string }[] };
const idsOf = (cache: string): string[] => manifestOf(cache).documents.map((d) => d.id);

t.test('context_cache.md "Storage Format" + "The Manifest": exact bytes of a two-document cache', async (t) => {
  const dir = t.testdir({ src: { 'b.md': 'Bee text', 'A.md': 'Ay text' } });
  const cache = join(dir, 'cache');
  const summary = build(join(dir, 'src'), cache);
  const va = versionOf('Ay text');
  const vb = versionOf('Bee text');
  const cv = expectedCacheVersion([['a.md', va], ['b.md', vb]]);
  t.same(summary, { cacheVersion: cv, documentCount: 2, skipped: [] });
  t.same(namesIn(cache), ['documents', 'index.json', 'manifest.json'], 'exactly the v0 layout, nothing else');
  // manifest.json: pretty (2 spaces), fields in the spec's order, entries sorted by id, no trailing newline.
  t.equal(
    readCacheFile(cache, 'manifest.json'),
    '{\n' +
      `  "cache_version": "${cv}",\n` +
      '  "build_config": {\n' +
      '    "version": "1",\n' +
      '    "hash_algorithm": "sha256"\n' +
      '  },\n' +
      `  "created_at": "${CREATED_AT}",\n` +
      '  "document_count": 2,\n' +
      '  "documents": [\n' +
      '    {\n' +
      '      "id": "a.md",\n' +
      `      "version": "${va}",\n` +
      `      "file": "${fileOf(va)}"\n` +
      '    },\n' +
      '    {\n' +
      '      "id": "b.md",\n' +
      `      "version": "${vb}",\n` +
      `      "file": "${fileOf(vb)}"\n` +
      '    }\n' +
      '  ]\n' +
      '}',
  );
  // index.json: pretty, keys sorted, no trailing newline.
  t.equal(readCacheFile(cache, 'index.json'), `{\n  "a.md": "${fileOf(va)}",\n  "b.md": "${fileOf(vb)}"\n}`);
  // documents/<12 hex>.json: compact, fields id, version, source, content, metadata; source keeps case.
  t.same(namesIn(join(cache, 'documents')), [fileOf(va), fileOf(vb)].map((f) => f.slice('documents/'.length)).sort());
  t.equal(readCacheFile(cache, fileOf(va)), `{"id":"a.md","version":"${va}","source":"A.md","content":"Ay text","metadata":{}}`);
  t.equal(readCacheFile(cache, fileOf(vb)), `{"id":"b.md","version":"${vb}","source":"b.md","content":"Bee text","metadata":{}}`);
});

t.test('context_cache.md "Cache Version": formula checked against the reference fixture cache', async (t) => {
  // compat/fixtures/v0/caches/minimal was built by the reference from these two documents.
  const fixture = new URL('../../../fixtures/compat-v0/caches/minimal/manifest.json', import.meta.url);
  const reference = (JSON.parse(readFileSync(fixture, 'utf8')) as { cache_version: string }).cache_version;
  const cv = expectedCacheVersion([['hello.md', versionOf('Hello world')], ['goodbye.md', versionOf('Goodbye world')]]);
  t.equal(cv, reference, 'the independent formula reproduces the reference value');
  const dir = t.testdir({ src: { 'hello.md': 'Hello world', 'goodbye.md': 'Goodbye world' } });
  t.equal(build(join(dir, 'src'), join(dir, 'cache')).cacheVersion, reference);
  t.equal(manifestOf(join(dir, 'cache')).cache_version, reference);
});

t.test('context_cache.md "Operations / Build": an empty document set produces a valid cache with 0 documents', async (t) => {
  const dir = t.testdir({ src: { 'notes.txt': 'not markdown', sub: {} } });
  const cache = join(dir, 'cache');
  const summary = build(join(dir, 'src'), cache);
  const cv = versionOf(BUILD_CONFIG_JSON);
  t.same(summary, { cacheVersion: cv, documentCount: 0, skipped: [] });
  t.equal(
    readCacheFile(cache, 'manifest.json'),
    `{\n  "cache_version": "${cv}",\n  "build_config": {\n    "version": "1",\n    "hash_algorithm": "sha256"\n  },\n` +
      `  "created_at": "${CREATED_AT}",\n  "document_count": 0,\n  "documents": []\n}`,
  );
  t.equal(readCacheFile(cache, 'index.json'), '{}');
  t.same(namesIn(join(cache, 'documents')), [], 'documents/ exists and is empty');
});

t.test('CLI "context build": only files whose extension is exactly "md" (case-sensitive)', async (t) => {
  const dir = t.testdir({
    src: {
      'README.MD': 'upper', 'x.Md': 'mixed', '.md': 'no stem', 'x.md.txt': 'txt', 'xmd': 'no dot', 'x.markdown': 'long',
      'a.b.md': 'dotted', '.hidden.md': 'hidden', 'plain.md': 'plain',
      'dir.md': { 'inner.md': 'in a dir named like a source' },
      '.dot': { 'deep.md': 'hidden dir' },
    },
  });
  build(join(dir, 'src'), join(dir, 'cache'));
  t.same(idsOf(join(dir, 'cache')), ['.dot/deep.md', '.hidden.md', 'a.b.md', 'dir.md/inner.md', 'plain.md']);
});

t.test('context_cache.md "Build": all .md files recursively; DESIGN.md: the walk sorts by file name (byte order)', async (t) => {
  const dir = t.testdir({
    src: { 'a.md': '1', a: { 'x.md': '2', B: { 'y.md': '3' } }, 'Z.md': '4', 'é.md': '5', 'b-c.md': '6' },
  });
  // Depth first, each directory's entries in byte order: "a" < "a.md", so a/ is walked first.
  t.same(findSources(join(dir, 'src')), ['Z.md', 'a/B/y.md', 'a/x.md', 'a.md', 'b-c.md', 'é.md']);
  build(join(dir, 'src'), join(dir, 'cache'));
  // The manifest is sorted by id in byte order ("-" < "." < "/"), independent of walk order.
  t.same(idsOf(join(dir, 'cache')), ['a.md', 'a/b/y.md', 'a/x.md', 'b-c.md', 'z.md', 'é.md']);
});

t.test('context_cache.md "Cache Version": ids sorted by UTF-8 bytes, not UTF-16 units', async (t) => {
  // U+FFFD sorts before U+1F600 in UTF-8 (EF.. < F0..) but after it in UTF-16 (FFFD > D83D).
  const dir = t.testdir({ src: { '\u{FFFD}.md': 'replacement', '\u{1F600}.md': 'emoji' } });
  const summary = build(join(dir, 'src'), join(dir, 'cache'));
  t.same(idsOf(join(dir, 'cache')), ['\u{FFFD}.md', '\u{1F600}.md']);
  t.equal(summary.cacheVersion, expectedCacheVersion([['\u{1F600}.md', versionOf('emoji')], ['\u{FFFD}.md', versionOf('replacement')]]));
  t.equal(readCacheFile(join(dir, 'cache'), 'index.json'),
    `{\n  "\u{FFFD}.md": "${fileOf(versionOf('replacement'))}",\n  "\u{1F600}.md": "${fileOf(versionOf('emoji'))}"\n}`);
});

t.test('DESIGN.md "Cache format": a symlink to a file is read; a symlinked directory is not descended', async (t) => {
  const dir = t.testdir({
    outside: { 'far.md': 'far away', 'target.txt': 'linked content' },
    src: {
      'link.md': t.fixture('symlink', '../outside/target.txt'),
      'linkdir': t.fixture('symlink', '../outside'),
      'dirlink.md': t.fixture('symlink', '../outside'),
      'broken.md': t.fixture('symlink', 'nowhere.md'),
      'loop.md': t.fixture('symlink', 'loop.md'),
      'real.md': 'real',
    },
  });
  const cache = join(dir, 'cache');
  build(join(dir, 'src'), cache);
  t.same(idsOf(cache), ['link.md', 'real.md'], 'no far.md (linkdir not walked), no dirlink.md, no broken.md, no loop.md (ELOOP: not a file, as Rust is_file says)');
  const v = versionOf('linked content');
  t.equal(readCacheFile(cache, fileOf(v)), `{"id":"link.md","version":"${v}","source":"link.md","content":"linked content","metadata":{}}`);
});

t.test('context_cache.md "Build": duplicate document ids are a fatal build error that leaves nothing behind', async (t) => {
  for (const [label, src] of [
    ['A.md and a.md', { 'A.md': 'upper', 'a.md': 'lower' }],
    ['Dir/x.md and dir/x.md', { Dir: { 'x.md': 'one' }, dir: { 'x.md': 'two' } }],
  ] as const) {
    const dir = t.testdir({ src, out: {} });
    const cache = join(dir, 'out', 'cache');
    t.throws(() => build(join(dir, 'src'), cache), { code: 'cache_invalid' }, label);
    t.same(namesIn(join(dir, 'out')), [], `${label}: no cache, no temp dir`);
  }
});

t.test('context_cache.md "Document Files": a file name collision (identical content twice) is fatal', async (t) => {
  const dir = t.testdir({ src: { 'one.md': 'same bytes', sub: { 'two.md': 'same bytes' } }, out: {} });
  t.throws(() => build(join(dir, 'src'), join(dir, 'out', 'cache')), { code: 'cache_invalid' });
  t.same(namesIn(join(dir, 'out')), [], 'nothing left behind');
});

t.test('issue 11 hostile inputs: a file or directory name that is not UTF-8 is cache_invalid, named as such (was io_error ENOENT)', async (t) => {
  for (const [label, name] of [
    ['a document', (dir: string) => Buffer.concat([Buffer.from(`${dir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')])],
    ['a directory', (dir: string) => Buffer.concat([Buffer.from(`${dir}/sub-`), Buffer.from([0xc0])])],
  ] as const) {
    const dir = t.testdir({ src: { 'good.md': 'fine' }, out: {} });
    const path = name(join(dir, 'src'));
    if (label === 'a directory') {
      mkdirSync(path);
      writeFileSync(Buffer.concat([path, Buffer.from('/x.md')]), 'inside');
    } else writeFileSync(path, 'text');
    t.throws(() => build(join(dir, 'src'), join(dir, 'out', 'cache')), { code: 'cache_invalid', detail: /^file name is not valid UTF-8: (bad|sub)-\uFFFD/ }, label);
    t.same(namesIn(join(dir, 'out')), [], `${label}: nothing left behind`);
  }
  const fine = t.testdir({ src: { 'real-\uFFFD.md': 'a real U+FFFD in a name is fine' } });
  t.equal(build(join(fine, 'src'), join(fine, 'cache')).documentCount, 1);
});

t.test('document_model.md "Invariants" 4: invalid UTF-8 fails the build with no partial artifact', async (t) => {
  for (const [label, bytes] of [
    ['lone continuation byte', [0x61, 0x80, 0x62]],
    ['overlong encoding', [0xc0, 0xaf]],
    ['encoded surrogate', [0xed, 0xa0, 0x80]],
    ['truncated sequence', [0x61, 0xe2, 0x82]],
    ['Latin-1 text', [0x63, 0x61, 0x66, 0xe9]],
  ] as const) {
    const dir = t.testdir({ src: { 'good.md': 'fine', 'z.md': 'fine too', 'bad.md': Buffer.from(bytes) }, out: {} });
    t.throws(() => build(join(dir, 'src'), join(dir, 'out', 'cache')), { code: 'cache_invalid' }, label);
    t.same(namesIn(join(dir, 'out')), [], `${label}: no cache dir, no temp dir in the parent`);
  }
  // Not even the missing parent directories of the cache are created.
  const dir = t.testdir({ src: { 'bad.md': Buffer.from([0xff]) } });
  t.throws(() => build(join(dir, 'src'), join(dir, 'new', 'deeper', 'cache')), { code: 'cache_invalid' });
  t.same(namesIn(dir), ['src']);
  // A non-.md file is never read, so its bytes do not matter.
  const ok = t.testdir({ src: { 'a.md': 'fine', 'blob.bin': Buffer.from([0xff, 0xfe]) } });
  t.same(build(join(ok, 'src'), join(ok, 'cache')).documentCount, 1);
});

t.test('context_cache.md "Build": fails if the cache dir exists (no implicit overwrite)', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'new' }, empty: {}, file: 'x', old: { 'keep.txt': 'mine' } });
  for (const name of ['empty', 'file', 'old']) {
    const before = snapshot(dir);
    t.throws(() => build(join(dir, 'src'), join(dir, name)), { code: 'io_error' }, `${name} is refused`);
    t.same(snapshot(dir), before, `${name}: nothing changed, no temp dir`);
  }
});

t.test('context_cache.md "Rebuild": --force replaces the old cache, and only with a complete new one', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'version one' }, src2: { 'b.md': 'version two' }, bad: { 'x.md': Buffer.from([0x80]) } });
  const cache = join(dir, 'cache');
  build(join(dir, 'src'), cache);
  // (A stray file of someone's in it would make it no cache --force replaces: issue 44,
  // spec-tests/cli/build-target.test.ts.)
  const old = snapshot(cache);

  // A failed --force build (invalid UTF-8, duplicate id) leaves the old cache intact.
  t.throws(() => build(join(dir, 'bad'), cache, true), { code: 'cache_invalid' });
  t.same(snapshot(cache), old, 'old cache untouched after a failed --force build');
  mkdirSync(join(dir, 'dup'));
  writeFileSync(join(dir, 'dup', 'X.md'), '1');
  writeFileSync(join(dir, 'dup', 'x.md'), '2');
  t.throws(() => build(join(dir, 'dup'), cache, true), { code: 'cache_invalid' });
  t.same(snapshot(cache), old, 'old cache untouched after a duplicate-id --force build');
  t.same(namesIn(dir), ['bad', 'cache', 'dup', 'src', 'src2'], 'no temp or old dirs beside it');

  // A successful one replaces it wholesale: the old document is gone.
  const summary = build(join(dir, 'src2'), cache, true);
  t.equal(summary.cacheVersion, expectedCacheVersion([['b.md', versionOf('version two')]]));
  t.same(namesIn(cache), ['documents', 'index.json', 'manifest.json']);
  t.same(idsOf(cache), ['b.md']);
  t.same(namesIn(dir), ['bad', 'cache', 'dup', 'src', 'src2'], 'no temp or old dirs left after success');
  // --force without an existing cache is a plain build.
  t.equal(build(join(dir, 'src'), join(dir, 'fresh'), true).documentCount, 1);
});

t.test('context_cache.md "Determinism Check": same inputs -> same cache_version and identical files', async (t) => {
  const dir = t.testdir({ src: { 'x.md': 'one', d: { 'Y.md': 'two\r\n', 'z.md': '' } } });
  const a = build(join(dir, 'src'), join(dir, 'c1'));
  const b = buildCache({ sources: join(dir, 'src'), cache: join(dir, 'c2'), force: false, createdAt: '1999-12-31T23:59:59Z' });
  t.equal(a.cacheVersion, b.cacheVersion, 'created_at does not affect cache_version');
  const s1 = snapshot(join(dir, 'c1'));
  const s2 = snapshot(join(dir, 'c2'));
  t.not(s1['manifest.json'], s2['manifest.json'], 'manifests differ only by created_at');
  t.equal(s1['manifest.json']?.replace(CREATED_AT, '1999-12-31T23:59:59Z'), s2['manifest.json']);
  delete s1['manifest.json'];
  delete s2['manifest.json'];
  t.same(s1, s2, 'index and documents are byte-identical');
  // Building from a copy of the sources somewhere else gives the same cache_version.
  const other = t.testdir({ elsewhere: { 'x.md': 'one', d: { 'Y.md': 'two\r\n', 'z.md': '' } } });
  t.equal(build(join(other, 'elsewhere'), join(other, 'c')).cacheVersion, a.cacheVersion);
});

t.test('context_cache.md "Invalidation": adding, removing or changing a document changes the cache_version', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'alpha', 'b.md': 'beta' } });
  const base = build(join(dir, 'src'), join(dir, 'c0')).cacheVersion;
  writeFileSync(join(dir, 'src', 'c.md'), 'gamma');
  const added = build(join(dir, 'src'), join(dir, 'c1')).cacheVersion;
  writeFileSync(join(dir, 'src', 'a.md'), 'alpha!');
  const changed = build(join(dir, 'src'), join(dir, 'c2')).cacheVersion;
  t.equal(new Set([base, added, changed]).size, 3);
  t.equal(changed, expectedCacheVersion([['a.md', versionOf('alpha!')], ['b.md', versionOf('beta')], ['c.md', versionOf('gamma')]]));
});

t.test('errors before writing: a missing or non-directory --sources', async (t) => {
  const dir = t.testdir({ 'file.md': 'x' });
  t.throws(() => build(join(dir, 'nope'), join(dir, 'c1')), { code: 'io_error' });
  t.throws(() => build(join(dir, 'file.md'), join(dir, 'c2')), { code: 'io_error' });
  t.notOk(existsSync(join(dir, 'c1')) || existsSync(join(dir, 'c2')));
});

t.test('documentId is exported for the document-model tests', async (t) => {
  t.equal(documentId('./Docs/Deployment.md'), 'docs/deployment.md', 'document_model.md "Identity" example');
});

t.test('context_cache.md Invariant 4 "Atomic": an I/O failure while writing leaves no partial cache', async (t) => {
  const realFs = await import('../../../../lib/core/fs.js');
  const failing = async (what: 'writeFile' | 'rename', nth: number): Promise<typeof import('../../../../lib/core/engine/v0/build.js')> => {
    let calls = 0;
    const fail = (): never => {
      throw Object.assign(new Error('injected'), { code: 'EIO' });
    };
    const mockedFs = {
      ...realFs,
      writeFile: (p: string, d: string | Uint8Array) => (what === 'writeFile' && ++calls === nth ? fail() : realFs.writeFile(p, d)),
      rename: (a: string, b: string) => (what === 'rename' && ++calls === nth ? fail() : realFs.rename(a, b)),
    };
    // The swap into place lives in staging.js: it gets the same failing file system.
    const staging = await t.mockImport('../../../../lib/core/store/staging.js', { '../../../../lib/core/fs.js': mockedFs });
    return t.mockImport<typeof import('../../../../lib/core/engine/v0/build.js')>('../../../../lib/core/engine/v0/build.js', {
      '../../../../lib/core/fs.js': mockedFs,
      '../../../../lib/core/store/staging.js': staging,
    });
  };
  const opts = (dir: string, cache: string, force: boolean) => ({ sources: join(dir, 'src'), cache, force, createdAt: CREATED_AT });

  // A fresh build failing at its second file write: no cache, no temp dir.
  const dir = t.testdir({ src: { 'a.md': 'one', 'b.md': 'two' }, out: {} });
  const m1 = await failing('writeFile', 2);
  t.throws(() => m1.buildCache(opts(dir, join(dir, 'out', 'cache'), false)), { code: 'io_error' });
  t.same(namesIn(join(dir, 'out')), [], 'fresh build: nothing left');

  // A --force build failing while writing: the old cache is untouched.
  const dir2 = t.testdir({ src: { 'a.md': 'one', 'b.md': 'two' }, old: { 'a.md': 'old' } });
  const cache2 = join(dir2, 'cache');
  buildCache(opts(dir2, cache2, false));
  const before = snapshot(cache2);
  const m2 = await failing('writeFile', 3);
  t.throws(() => m2.buildCache(opts(dir2, cache2, true)), { code: 'io_error' });
  t.same(snapshot(cache2), before, '--force write failure: old cache intact');
  t.same(namesIn(dir2), ['cache', 'old', 'src'], 'no temp dir');

  // A --force build whose final rename fails after the old cache was moved aside: put back.
  const m3 = await failing('rename', 2);
  t.throws(() => m3.buildCache(opts(dir2, cache2, true)), { code: 'io_error' });
  t.same(snapshot(cache2), before, '--force rename failure: old cache restored');
  t.same(namesIn(dir2), ['cache', 'old', 'src'], 'no temp or old dir');
});

t.test('sources through a symlinked directory; an existing dangling symlink at OUT is refused', async (t) => {
  const dir = t.testdir({ real: { 'a.md': 'x' }, src: t.fixture('symlink', 'real'), out: t.fixture('symlink', 'nowhere') });
  t.same(build(join(dir, 'src'), join(dir, 'cache')).documentCount, 1, 'the --sources root itself may be a symlink');
  t.throws(() => build(join(dir, 'src'), join(dir, 'out')), { code: 'io_error' }, 'OUT exists (as a dangling link): refused');
});
