// Checks context_cache.md "Inspect", seed 004 (context.inspect_cache) and DESIGN.md's two
// decided deviations through lib/core/operations/inspect.ts and api.ts inspectText: total_bytes
// = regular files directly in the cache dir; a bad manifest never fails, it reads valid:false.
import t from 'tap';
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectCache } from '../../../lib/core/operations/inspect.js';
import { inspectText, resolveText } from '../../../lib/core/operations/api.js';
import { buildBase, expectedCacheVersion, readCacheFile, VA, VB } from '../engine/v0/fixture.js';

const CV = expectedCacheVersion([['a.md', VA], ['b.md', VB]]);
const INVALID = { cache_version: '', document_count: 0, total_bytes: 0, valid: false };

t.test('context_cache.md "Inspect": the four fields of a valid cache, exact bytes', async (t) => {
  const cache = buildBase(t.testdir({}));
  const bytes = Buffer.byteLength(readCacheFile(cache, 'manifest.json')) + Buffer.byteLength(readCacheFile(cache, 'index.json'));
  t.same(inspectCache(cache), { cache_version: CV, document_count: 2, total_bytes: bytes, valid: true });
  // seed 004 "Output Schema": field order cache_version, document_count, total_bytes, valid.
  t.equal(inspectText(cache, 'json'), `{"cache_version":"${CV}","document_count":2,"total_bytes":${bytes},"valid":true}`);
  t.equal(inspectText(cache, 'pretty'), `{\n  "cache_version": "${CV}",\n  "document_count": 2,\n  "total_bytes": ${bytes},\n  "valid": true\n}`);
});

t.test('DESIGN.md deviation: total_bytes = regular files directly in the dir, non-recursive, symlinks not followed', async (t) => {
  const dir = t.testdir({ big: 'B'.repeat(10_000) });
  const cache = buildBase(dir);
  writeFileSync(join(cache, 'notes.txt'), 'seventeen bytes!!');
  writeFileSync(join(cache, 'empty'), '');
  mkdirSync(join(cache, 'sub'));
  writeFileSync(join(cache, 'sub', 'deep.txt'), 'x'.repeat(500));
  symlinkSync(join(dir, 'big'), join(cache, 'link-to-file'));
  symlinkSync(join(cache, 'sub'), join(cache, 'link-to-dir'));
  const expected = statSync(join(cache, 'manifest.json')).size + statSync(join(cache, 'index.json')).size + 17;
  const r = inspectCache(cache);
  t.equal(r.total_bytes, expected, 'manifest + index + notes.txt; not documents/, sub/, nor the 10,000-byte symlink target');
  t.equal(r.valid, true);
});

t.test('DESIGN.md deviation: inspect never fails on a bad manifest (valid:false, zeros, "" unless present)', async (t) => {
  const cases: [string, (cache: string) => void, object][] = [
    ['missing', (c) => rmSync(join(c, 'manifest.json')), INVALID],
    ['unparseable', (c) => writeFileSync(join(c, 'manifest.json'), '{"cache_version": "sha256:'), INVALID],
    ['empty file', (c) => writeFileSync(join(c, 'manifest.json'), ''), INVALID],
    ['a directory', (c) => { rmSync(join(c, 'manifest.json')); mkdirSync(join(c, 'manifest.json')); }, INVALID],
    ['JSON null', (c) => writeFileSync(join(c, 'manifest.json'), 'null'), INVALID],
    ['JSON array', (c) => writeFileSync(join(c, 'manifest.json'), '[1,2]'), INVALID],
    ['empty object', (c) => writeFileSync(join(c, 'manifest.json'), '{}'), INVALID],
    ['document_count only', (c) => writeFileSync(join(c, 'manifest.json'), '{"document_count": 7}'),
      { cache_version: '', document_count: 7, total_bytes: 0, valid: false }],
    ['cache_version only', (c) => writeFileSync(join(c, 'manifest.json'), '{"cache_version": "sha256:abc"}'),
      { cache_version: 'sha256:abc', document_count: 0, total_bytes: 0, valid: false }],
    ['cache_version not a string', (c) => writeFileSync(join(c, 'manifest.json'), '{"cache_version": 5, "document_count": 1}'),
      { cache_version: '', document_count: 1, total_bytes: 0, valid: false }],
    ['document_count not an integer', (c) => writeFileSync(join(c, 'manifest.json'), '{"cache_version": "v", "document_count": "2"}'),
      { cache_version: 'v', document_count: 0, total_bytes: 0, valid: false }],
  ];
  for (const [label, breakIt, expected] of cases) {
    const cache = buildBase(t.testdir({}));
    breakIt(cache);
    t.same(inspectCache(cache), expected, label);
  }
  const cache = buildBase(t.testdir({}));
  rmSync(join(cache, 'manifest.json'));
  t.equal(inspectText(cache, 'json'), '{"cache_version":"","document_count":0,"total_bytes":0,"valid":false}', 'exact bytes');
});

t.test('"valid" agrees with what resolve accepts ("Nothing lost, nothing leaked" item 5; was shallow)', async (t) => {
  // The red-team pass found valid:true in 585 of 647 cases where resolve said cache_invalid.
  // A missing document file: resolve refuses the cache, so inspect says valid:false, and
  // still reports what the manifest holds.
  const cache = buildBase(t.testdir({}));
  t.equal(inspectCache(cache).valid, true, 'a whole cache is valid');
  rmSync(join(cache, 'documents'), { recursive: true });
  t.throws(() => resolveText(cache, 'alpha', 100), { code: 'cache_invalid' }, 'resolve refuses it');
  t.equal(inspectCache(cache).valid, false, 'so inspect says invalid');
  t.equal(inspectCache(cache).document_count, 2, 'document_count comes from the manifest, not a scan');
  const other = buildBase(t.testdir({}));
  const manifestPath = join(other, 'manifest.json');
  // A manifest resolve itself rejects: cache_version not the one its entries give.
  writeFileSync(manifestPath, readFileSync(manifestPath, 'utf8').replace(/"cache_version": "sha256:[0-9a-f]{4}/, '"cache_version": "sha256:0000'));
  t.throws(() => resolveText(other, 'alpha', 100), { code: 'cache_invalid' });
  t.equal(inspectCache(other).valid, false, 'a manifest resolve rejects is not valid either');
});

t.test('seed 004 "cache_missing": the path does not exist or is not a directory', async (t) => {
  const dir = t.testdir({ 'file': '{}', dangling: t.fixture('symlink', 'nowhere') });
  for (const p of ['nope', 'file', 'dangling']) t.throws(() => inspectCache(join(dir, p)), { code: 'cache_missing' }, p);
});
