// `context status` (issue 10 "Freshness of a cache against its sources"; docs/engine.md "Is
// the cache current?"): added, changed and removed documents by content hash, never mtime.
import t, { type Test } from 'tap';
import { appendFileSync, renameSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { cacheStatus, statusText } from '../../../lib/core/operations/status.js';
import { buildCache } from '../../../lib/core/engine/v0/build.js';
import { buildCacheV1 } from '../../../lib/core/engine/v1/build.js';

const CREATED_AT = '2026-01-01T00:00:00Z';

async function v1Cache(t: Test): Promise<{ src: string; cache: string }> {
  const dir = t.testdir({ caches: {}, docs: { 'a.md': '# A\n\nalpha\n', 'b.md': '# B\n\nbeta\n', sub: { 'c.md': 'gamma\n' }, 'skip.json': 'not a document' } });
  const src = join(dir, 'docs');
  const cache = join(dir, 'caches', 'docs');
  await buildCacheV1({ sources: src, cache, force: false, createdAt: CREATED_AT, options: { granularity: 'file', tokenizer: 'bytes4', include: [], exclude: [] } });
  return { src, cache };
}

const recorded = { sources: null, sourcesLabel: null };

t.test('a fresh v1 cache is current; the sources it records are used, named as recorded (relative)', async (t) => {
  const { cache } = await v1Cache(t);
  const r = cacheStatus(cache, recorded);
  t.equal(r.current, true);
  t.equal(r.sources, '../../docs', 'source_root, relative to the cache directory');
  t.same([r.added, r.changed, r.removed, r.unchanged], [[], [], [], 3]);
});

t.test('"touch-only changes: current" — content, never mtime', async (t) => {
  const { src, cache } = await v1Cache(t);
  utimesSync(join(src, 'a.md'), new Date('2030-01-01'), new Date('2030-01-01'));
  t.equal(cacheStatus(cache, recorded).current, true);
});

t.test('"an edit (changed)", even with its mtime put back', async (t) => {
  const { src, cache } = await v1Cache(t);
  const path = join(src, 'b.md');
  const before = new Date('2021-05-05');
  utimesSync(path, before, before);
  appendFileSync(path, 'more\n');
  utimesSync(path, before, before);
  const r = cacheStatus(cache, recorded);
  t.same([r.current, r.changed, r.added, r.removed], [false, ['b.md'], [], []]);
});

t.test('"a rename (one removed, one added)"; a new file is added, a deleted one removed', async (t) => {
  const { src, cache } = await v1Cache(t);
  renameSync(join(src, 'sub', 'c.md'), join(src, 'sub', 'C2.md'));
  const r = cacheStatus(cache, recorded);
  t.same([r.current, r.added, r.removed, r.changed, r.unchanged], [false, ['sub/C2.md'], ['sub/c.md'], [], 2]);
});

t.test('sources given explicitly are named as given; the output is one JSON line', async (t) => {
  const { src, cache } = await v1Cache(t);
  const text = statusText(cache, { sources: src, sourcesLabel: 'docs' });
  t.match(text, /^\{"cache_version":"sha256:[0-9a-f]{64}","engine":"v1","sources":"docs","current":true,"note":null,"added":\[\],"changed":\[\],"removed":\[\],"unchanged":3,"skipped":\[\]\}\n$/);
});

t.test('"on a v0 cache": without sources it says it cannot tell; with sources it compares v0 ids', async (t) => {
  const dir = t.testdir({ docs: { 'Read.md': 'one', 'two.md': 'two' } });
  const src = join(dir, 'docs');
  const cache = join(dir, 'v0');
  buildCache({ sources: src, cache, force: false, createdAt: CREATED_AT });
  const unknown = cacheStatus(cache, recorded);
  t.same([unknown.engine, unknown.current, unknown.sources], ['v0', null, null]);
  t.match(unknown.note, /does not record its sources/);
  const known = cacheStatus(cache, { sources: src, sourcesLabel: 'docs' });
  t.same([known.current, known.unchanged], [true, 2], 'v0 ids are lowercased paths: Read.md is read.md');
  appendFileSync(join(src, 'two.md'), '!');
  t.same(cacheStatus(cache, { sources: src, sourcesLabel: 'docs' }).changed, ['two.md']);
});

t.test('errors: a missing cache is cache_missing; missing sources io_error', async (t) => {
  const { cache } = await v1Cache(t);
  t.throws(() => cacheStatus(join(cache, 'nope'), recorded), { code: 'cache_missing' });
  t.throws(() => cacheStatus(cache, { sources: join(cache, 'nowhere'), sourcesLabel: 'nowhere' }), { code: 'io_error' });
});
