// Checks issue 9 "The MCP server loads a cache once and answers every new query from the
// index" with lib/core/operations/memo.ts on format-2 caches, and that the warm server never
// answers from stale memory either: a rebuilt cache is reloaded, and a pack or index
// changed in place is noticed on the next call (cache_invalid, never a wrong answer).
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CacheMemo } from '../../../lib/core/operations/memo.js';
import type { Engine } from '../../../lib/core/engine/engine.js';
import { buildV1, manifestOf, packFile } from '../engine/v1/fixture.js';

const SOURCES = { 'a.md': 'alpha text here', 'b.md': 'beta text' };
const idsOf = (engine: Engine, query: string): string[] =>
  (engine.resolve(query, 1_000_000) as { documents: { id: string }[] }).documents.map((d) => d.id);

t.test('a v1 cache is loaded once; new queries are answered by the same engine', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const dir = t.testdir({ src: SOURCES });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const first = memo.get(cache);
  t.equal(first.name, 'v1');
  t.same(idsOf(first, 'alpha'), ['a.md']);
  t.equal(memo.get(cache), first, 'the same engine: not reloaded');
  t.same(idsOf(memo.get(cache), 'beta'), ['b.md'], 'a new query, from the loaded index');
  t.same(idsOf(memo.get(cache), 'text'), ['b.md', 'a.md']);
});

t.test('idle work (CacheMemo.prepare): term filters built a slice at a time, answers unchanged', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  // Enough paths for several packs (a pack ends at one path in 32, docs/cache-format.md).
  const src = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${String(i).padStart(3, '0')}.md`, `# Page ${i}\n\nalpha ${i % 7 === 0 ? 'rare ' : ''}text number ${i}\n`]));
  const dir = t.testdir({ src });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const packs = manifestOf(cache).files.packs.length;
  t.ok(packs > 2, `several packs (${packs})`);
  t.equal(memo.prepare(1), true, 'nothing loaded: nothing to prepare');
  const engine = memo.get(cache);
  t.equal(memo.prepare(1), false, 'loaded, one slice of one pack: packs are left');
  let slices = 1;
  while (!memo.prepare(1)) slices++;
  t.equal(slices + 1, packs, 'one pack a slice, every pack once');
  // A memo whose cache was never prepared answers first (its lookups prepare packs as they go).
  const fresh = new CacheMemo();
  t.teardown(() => fresh.close());
  for (const q of ['rare text', 'alpha', 'number 150']) t.same(idsOf(engine, q), idsOf(fresh.get(cache), q), `${q}: the same answer, prepared or not`);
});

t.test('preload: the cache loaded ahead of a get, which then answers from it; failures left for get to report', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const dir = t.testdir({ src: SOURCES, src2: { 'c.md': 'gamma text' } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  await Promise.all([memo.preload(cache, 2), memo.preload(cache, 2)]);
  const held = memo.get(cache);
  t.same(idsOf(held, 'text'), ['b.md', 'a.md'], 'the preloaded cache answers');
  t.equal(memo.get(cache), held, 'get takes it: not loaded again');
  await memo.preload(cache, 2);
  t.equal(memo.get(cache), held, 'a second preload leaves what is held');
  const fresh = new CacheMemo();
  t.teardown(() => fresh.close());
  for (const q of ['alpha', 'beta text']) t.same(idsOf(held, q), idsOf(fresh.get(cache), q), `${q}: as a cache loaded by get`);
  // Rebuilt: what is held is stale; preload leaves it to get, which reloads it as before.
  await buildV1(join(dir, 'src2'), cache, {}, true);
  await memo.settle();
  await memo.preload(cache, 2);
  const reloaded = memo.get(cache);
  t.not(reloaded, held, 'reloaded by get');
  t.same(idsOf(reloaded, 'text'), ['c.md']);
  // Nothing there: preload does not throw; get reports it.
  await memo.preload(join(dir, 'absent'), 2);
  t.throws(() => memo.get(join(dir, 'absent')), { code: 'cache_missing' }, 'get reports the missing cache');
  // A damaged cache: preload loads nothing; get reports it.
  const other = new CacheMemo();
  t.teardown(() => other.close());
  const m = manifestOf(cache);
  const file = packFile(cache, m, 0);
  const bytes = readFileSync(file);
  bytes[80] = (bytes[80] as number) ^ 0x20;
  writeFileSync(file, bytes);
  await other.preload(cache, 2);
  t.throws(() => other.get(cache), { code: 'cache_invalid' }, 'a damaged head: get reports it');
});

t.test('a v1 cache rebuilt with --force is reloaded on the next call', async (t) => {
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const dir = t.testdir({ src: SOURCES, src2: { 'c.md': 'gamma text' } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const first = memo.get(cache);
  await buildV1(join(dir, 'src2'), cache, {}, true);
  await memo.settle();
  const second = memo.get(cache);
  t.not(second, first, 'reloaded');
  t.same(idsOf(second, 'text'), ['c.md']);
});

t.test('a pack changed in place (same size), in a document or in its head: cache_invalid on the next call', async (t) => {
  for (const which of ['a document', 'a pack\'s head']) {
    const memo = new CacheMemo();
    t.teardown(() => memo.close());
    const dir = t.testdir({ src: SOURCES });
    const cache = join(dir, 'cache');
    await buildV1(join(dir, 'src'), cache);
    memo.get(cache);
    const m = manifestOf(cache);
    const first = m.documents[0];
    const file = packFile(cache, m, first?.pack ?? 0);
    const bytes = readFileSync(file);
    const at = which === 'a document' ? (first?.offset ?? 0) : 80;
    bytes[at] = (bytes[at] as number) ^ 0x20;
    writeFileSync(file, bytes);
    await memo.settle();
    t.throws(() => idsOf(memo.get(cache), 'alpha text'), { code: 'cache_invalid' }, `${which}: the next call`);
  }
});
