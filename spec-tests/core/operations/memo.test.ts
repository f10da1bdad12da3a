// Checks that lib/core/operations/memo.ts (the MCP server's cache memo) never answers from stale
// memory: context_resolve.md "--cache: must pass cache verification" holds for every call, so
// a document rewritten in place after a first load is cache_invalid on the next get.
import t from 'tap';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CacheMemo } from '../../../lib/core/operations/memo.js';
import { openEngine, type Engine } from '../../../lib/core/engine/engine.js';
import { compact } from '../../../lib/json.js';
import { build, buildBase, fileOf, readCacheFile, VA } from '../engine/v0/fixture.js';

const rewriteSameSize = (cache: string): void => {
  const path = join(cache, fileOf(VA));
  const text = readCacheFile(cache, fileOf(VA));
  const changed = text.replace('"content":"alpha text here"', '"content":"alpha text HERE"');
  if (changed === text || changed.length !== text.length) throw new Error('fixture: rewrite failed');
  writeFileSync(path, changed);
};

/** The ids a v0 engine selects for an empty query and an ample budget: every document. */
const idsOf = (engine: Engine): string[] =>
  (engine.resolve('', 1_000_000) as { documents: { id: string }[] }).documents.map((d) => d.id);

t.test('a repeated get returns the memoized cache', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const cache = buildBase(t.testdir({}));
  const first = memo.get(cache);
  t.equal(memo.get(cache), first, 'same object: no reload when nothing changed');
  t.same(idsOf(first), ['a.md', 'b.md']);
});

t.test('issue 9 item 7: the memo loads a v0 cache with its word index once; new queries give the scan\'s bytes', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const dir = t.testdir({ src: { 'a.md': 'Alpha ΟΔΟΣ text', 'b.md': 'beta text TEXT', 'e.md': ' ' } });
  const cache = join(dir, 'cache');
  build(join(dir, 'src'), cache);
  const engine = memo.get(cache);
  t.ok(engine.wordIndex !== undefined, 'the memoized v0 engine carries its index');
  // Words by hand: alpha, οδος, text, beta = 4 distinct; postings a:3, b:2 (text twice, one posting).
  t.equal(engine.wordIndex?.wordCount, 4);
  t.equal(engine.wordIndex?.postingCount, 5);
  const scan = openEngine(cache); // no index: the scan path, as the one-shot CLI loads
  t.equal(scan.wordIndex, undefined);
  for (const query of ['text', 'ΟΔΟΣ alpha ALPHA', 'zzz', '', 'beta text']) {
    t.equal(compact(engine.resolve(query, 100)), compact(scan.resolve(query, 100)), `query ${JSON.stringify(query)}: same bytes`);
  }
  t.equal(memo.get(cache).wordIndex, engine.wordIndex, 'a repeated get reuses the index (built once per load)');
});

t.test('a document rewritten in place (same size) is noticed by the next call: cache_invalid', async (t) => {
  // The MCP tool awaits memo.settle() before every get: one event-loop turn, so the watch
  // event queued by the rewrite marks the entry dirty first (no sleeping, no stat sweep).
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const cache = buildBase(t.testdir({}));
  memo.get(cache);
  rewriteSameSize(cache);
  await memo.settle();
  t.throws(() => memo.get(cache), { code: 'cache_invalid' }, 'the very next call, one turn later');
});

t.test('a document rewritten in place is noticed after the watcher fires too', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const cache = buildBase(t.testdir({}));
  memo.get(cache);
  rewriteSameSize(cache);
  await sleep(200);
  t.throws(() => memo.get(cache), { code: 'cache_invalid' });
  t.throws(() => memo.get(cache), { code: 'cache_invalid' }, 'and stays invalid (a failed load is not memoized)');
});

t.test('a deleted document, manifest or cache is noticed', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const dir = t.testdir({});
  const c1 = buildBase(dir, 'c1');
  const c2 = buildBase(dir, 'c2');
  const c3 = buildBase(dir, 'c3');
  for (const c of [c1, c2, c3]) memo.get(c);
  rmSync(join(c1, fileOf(VA)));
  t.throws(() => memo.get(c1), { code: 'cache_invalid' }, 'document removed');
  rmSync(join(c2, 'manifest.json'));
  t.throws(() => memo.get(c2), { code: 'cache_invalid' }, 'manifest removed');
  rmSync(c3, { recursive: true });
  t.throws(() => memo.get(c3), { code: 'cache_missing' }, 'cache removed');
});

t.test('a cache rebuilt with --force is reloaded with its new documents', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const dir = t.testdir({ src: { 'new.md': 'brand new' } });
  const cache = buildBase(dir);
  memo.get(cache);
  build(join(dir, 'src'), cache, true);
  t.same(idsOf(memo.get(cache)), ['new.md']);
});

t.test('more caches than the capacity: every get still answers correctly', async (t) => {
  const memo = new CacheMemo(2);
  t.teardown(() => memo.close());
  const dir = t.testdir({});
  const caches = ['k1', 'k2', 'k3', 'k4'].map((n) => buildBase(dir, n));
  for (let round = 0; round < 2; round++) {
    for (const c of caches) t.same(idsOf(memo.get(c)), ['a.md', 'b.md']);
  }
  rewriteSameSize(caches[0] as string);
  t.throws(() => memo.get(caches[0] as string), { code: 'cache_invalid' }, 'an evicted cache is re-verified');
});

t.test('without a working directory watch (e.g. inotify limit reached) the stat stamp alone notices a rewrite', async (t) => {
  const fs = await import('../../../lib/core/fs.js');
  const { CacheMemo: UnwatchedMemo } = await t.mockImport<typeof import('../../../lib/core/operations/memo.js')>('../../../lib/core/operations/memo.js', {
    '../../../lib/core/fs.js': { ...fs, watchDir: () => { throw Object.assign(new Error('watch failed'), { code: 'ENOSPC' }); } },
  });
  const memo = new UnwatchedMemo();
  t.teardown(() => memo.close());
  const cache = buildBase(t.testdir({}));
  const first = memo.get(cache);
  t.equal(memo.get(cache), first, 'still memoized while nothing changes');
  await sleep(20);
  rewriteSameSize(cache);
  t.throws(() => memo.get(cache), { code: 'cache_invalid' }, 'same-size rewrite of a document file');
});
