// Checks "Nothing lost, nothing leaked", what to build item 3: "A `--force` rebuild never
// carries a damaged pack into the new cache: reused packs are checked (cheaply enough to keep
// the no-op and 10-edit rebuild targets) and a damaged one is rebuilt from sources; `status`
// does not call a cache with a damaged pack current." The report's reproductions: one byte
// of a pack flipped, then `build --force` with nothing changed (it said "unchanged": true and
// kept the pack), and after an edit in another pack (it hard-linked the damaged pack).
import t, { type Test } from 'tap';
import { appendFileSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCacheV1, type V1BuildSummary } from '../../../../lib/core/engine/v1/build.js';
import { readManifest } from '../../../../lib/core/engine/v1/manifest.js';
import { verifyV1 } from '../../../../lib/core/engine/v1/verify.js';
import { PackCheck } from '../../../../lib/core/engine/v1/pack-check.js';
import { readState, STATE_FILE } from '../../../../lib/core/engine/v1/state.js';
import { cacheStatus } from '../../../../lib/core/operations/status.js';

const build = (sources: string, cache: string, force: boolean): Promise<V1BuildSummary> =>
  buildCacheV1({ sources, cache, force, createdAt: '2026-01-01T00:00:00Z', options: { granularity: 'file', tokenizer: 'bytes4', include: [], exclude: [] } });

const N = 200;
function corpus(): Record<string, string> {
  return Object.fromEntries(Array.from({ length: N }, (_, i) => [`d${String(i).padStart(3, '0')}.md`, `# Doc ${i}\n\nrollback step ${i} of the deployment\n`]));
}

/** Sources older than the racy window, so a rebuild trusts their stamps (the steady state the bench measures). */
function age(dir: string): void {
  const old = new Date('2020-01-01T00:00:00Z');
  for (const name of readdirSync(dir)) utimesSync(join(dir, name), old, old);
}

interface Pack {
  readonly name: string;
  readonly first: number;
  readonly documents: number;
}

function packsOf(cache: string): Pack[] {
  const top = readManifest(readFileSync(join(cache, 'manifest.json'), 'utf8'));
  if (Array.isArray(top)) throw new Error('manifest');
  let first = 0;
  return top.packs.map((p) => {
    const pack = { name: `packs/${p.sha256}.pack`, first, documents: p.documents };
    first += p.documents;
    return pack;
  });
}

/** Flips one byte near the end of a pack (in its content, past the head resolve checks), by an ordinary write. */
function flip(cache: string, pack: Pack): void {
  const path = join(cache, pack.name);
  const bytes = readFileSync(path);
  bytes[bytes.length - 3] = (bytes[bytes.length - 3] as number) ^ 1;
  writeFileSync(path, bytes);
}

async function setUp(t: Test): Promise<{ src: string; cache: string; packs: Pack[] }> {
  const dir = t.testdir({ src: corpus() });
  const src = join(dir, 'src');
  age(src);
  const cache = join(dir, 'cache');
  await build(src, cache, false);
  const packs = packsOf(cache);
  t.ok(packs.length >= 3, `a cache of ${packs.length} packs`);
  t.equal((await verifyV1(cache)).valid, true, 'verify passes before the damage');
  return { src, cache, packs };
}

t.test('nothing changed but a pack is damaged: the rebuild writes it anew, never reports unchanged', async (t) => {
  const { src, cache, packs } = await setUp(t);
  const noop = await build(src, cache, true);
  t.equal(noop.unchanged, true, 'an intact cache: unchanged (the no-op path)');
  const victim = packs[1] as Pack;
  flip(cache, victim);
  t.equal((await verifyV1(cache)).valid, false, 'verify sees the damage');
  const status = cacheStatus(cache, { sources: null, sourcesLabel: null });
  t.equal(status.current, false, 'status does not call the cache current');
  t.match(status.note ?? '', /damaged/, 'and says why');
  const rebuilt = await build(src, cache, true);
  t.equal(rebuilt.unchanged, false, 'not "unchanged": the cache was rewritten');
  t.equal((await verifyV1(cache)).valid, true, 'verify passes after the rebuild');
  t.equal(cacheStatus(cache, { sources: null, sourcesLabel: null }).current, true, 'and status calls it current again');
  const again = await build(src, cache, true);
  t.equal(again.unchanged, true, 'the next rebuild is a no-op again');
});

t.test('a damaged pack is never hard-linked into the new cache after an edit elsewhere', async (t) => {
  const { src, cache, packs } = await setUp(t);
  const victim = packs[0] as Pack;
  const edited = packs[packs.length - 1] as Pack;
  flip(cache, victim);
  const damagedIno = statSync(join(cache, victim.name)).ino;
  appendFileSync(join(src, `d${String(edited.first).padStart(3, '0')}.md`), 'edited\n');
  const rebuilt = await build(src, cache, true);
  t.equal(rebuilt.unchanged, false);
  t.equal((await verifyV1(cache)).valid, true, 'verify passes: no damaged pack carried over');
  const names = readdirSync(join(cache, 'packs')).map((n) => `packs/${n}`);
  for (const n of names) t.not(statSync(join(cache, n)).ino, damagedIno, `${n} is not the damaged file`);
});

t.test('an intact cache whose packs were written after its state (a copy, say) is hashed once, then trusted', async (t) => {
  const { src, cache, packs } = await setUp(t);
  // Touch every pack: no byte changes, but the state no longer vouches for them.
  const later = new Date(Date.now() + 60_000);
  for (const p of packs) utimesSync(join(cache, p.name), later, later);
  const first = await build(src, cache, true);
  t.equal(first.unchanged, true, 'found intact by hashing: unchanged');
  t.equal((await verifyV1(cache)).valid, true);
});

// The race the first version of the check lost under load: file times come from a coarse
// clock, so a byte flipped within the clock tick that wrote the build state got the state's
// very time, and a "modified after the state" rule trusted the damaged pack.
t.test('a pack damaged right after the build that wrote it (the same clock tick) is still found', async (t) => {
  const dir = t.testdir({ src: corpus() });
  const src = join(dir, 'src');
  age(src);
  for (let round = 0; round < 5; round++) {
    const cache = join(dir, `cache${round}`);
    await build(src, cache, false);
    flip(cache, packsOf(cache)[round] as Pack);
    const status = cacheStatus(cache, { sources: null, sourcesLabel: null });
    t.equal(status.current, false, `round ${round}: status does not call the cache current`);
    t.equal((await build(src, cache, true)).unchanged, false, `round ${round}: the rebuild rewrites the cache`);
    t.equal((await verifyV1(cache)).valid, true, `round ${round}: verify passes after the rebuild`);
  }
});

t.test('the state is written in a later clock tick than every pack, so a fresh cache is trusted without hashing', async (t) => {
  const { cache } = await setUp(t);
  const state = readState(readFileSync(join(cache, STATE_FILE), 'utf8'), statSync(join(cache, STATE_FILE), { bigint: true }).mtimeNs);
  if (state === null) throw new Error('no build state');
  const check = new PackCheck(cache, state);
  const top = readManifest(readFileSync(join(cache, 'manifest.json'), 'utf8'));
  if (Array.isArray(top)) throw new Error('manifest');
  t.ok(top.packs.every((p) => check.isIntact(p)), 'every pack intact');
  t.equal(check.hashed, 0, 'and none hashed: each was written before the state');
  t.same(readdirSync(cache).filter((n) => n.includes('tick')), [], 'no probe file left in the cache');
});

// lib/core/engine/v1/load.ts: "The last texts read are kept (TEXTS_KEPT characters in all) ...
// each was hashed against its version when read." A text read once is served as verified;
// one never read is read and checked (a damaged pack is cache_invalid); a closed cache
// keeps nothing, and opening it again checks again.
t.test('a loaded cache keeps the texts it verified, checks every text it has not read', async (t) => {
  const { openV1 } = await import('../../../../lib/core/engine/v1/load.js');
  const { cache, packs } = await setUp(t);
  // flip() damages the pack's last document; its first one stays intact on disk.
  const pack = packs.find((p) => p.documents > 1) as Pack;
  const first = pack.first;
  const last = pack.first + pack.documents - 1;
  const loaded = openV1(cache);
  const before = loaded.text(last);
  t.match(before, /rollback step/);
  flip(cache, pack);
  t.equal(loaded.text(last), before, 'the text read before the damage: the verified text, from memory');
  const fresh = openV1(cache);
  t.throws(() => fresh.text(last), { code: 'cache_invalid' }, 'the same text by a cache that never read it: read, and refused');
  t.match(fresh.text(first), /rollback step/, 'an intact text of that pack: read and verified');
  fresh.close();
  loaded.close();
  t.throws(() => loaded.text(last), { code: 'io_error' }, 'closed: nothing is served');
  t.throws(() => openV1(cache).text(last), { code: 'cache_invalid' }, 'opened again: checked again');
});
