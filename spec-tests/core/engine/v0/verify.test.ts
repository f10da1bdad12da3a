// Checks context_cache.md "Verification / Integrity Check" (the five checks) and "Index"
// (index/manifest consistency) through lib/core/engine/v0/verify.ts and check.ts: a valid
// cache passes every check; each breakage fails its own check, by name, and makes it invalid.
import t from 'tap';
import { cpSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { verifyCache } from '../../../../lib/core/engine/v0/verify.js';
import { BREAKAGES, buildBase, expectedCacheVersion, VA, VB } from './fixture.js';

const CHECKS = ['manifest', 'cache_version', 'documents_exist', 'document_hashes', 'no_orphans', 'index'];

t.test('context_cache.md "Integrity Check": a freshly built cache passes every check', async (t) => {
  const cache = buildBase(t.testdir({}));
  const report = verifyCache(cache);
  t.equal(report.valid, true);
  t.equal(report.cacheVersion, expectedCacheVersion([['a.md', VA], ['b.md', VB]]));
  t.same(report.checks.map((c) => c.name), CHECKS, 'every check is reported, in a fixed order');
  t.same(report.checks.filter((c) => !c.ok || c.problems.length > 0), []);
});

t.test('context_cache.md "Invalidation": a cache is not invalidated by time passing or by copying it', async (t) => {
  const dir = t.testdir({});
  const cache = buildBase(dir);
  const past = new Date('2001-01-01T00:00:00Z');
  for (const f of ['manifest.json', 'index.json', 'documents']) utimesSync(join(cache, f), past, past);
  t.equal(verifyCache(cache).valid, true, 'old timestamps do not matter');
  cpSync(cache, join(dir, 'copy'), { recursive: true });
  t.equal(verifyCache(join(dir, 'copy')).valid, true, 'Invariant 5 "Portable": a copy elsewhere is valid');
});

t.test('context_cache.md "Integrity Check": every breakage fails its check by name', async (t) => {
  for (const b of BREAKAGES) {
    const cache = buildBase(t.testdir({}));
    b.apply(cache);
    const report = verifyCache(cache);
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.name);
    t.equal(report.valid, false, `${b.name} (${b.spec}): invalid`);
    t.ok(failed.includes(b.check), `${b.name}: the ${b.check} check fails`);
    const own = report.checks.find((c) => c.name === b.check);
    t.ok(own !== undefined && own.problems.length > 0 && own.problems.every((p) => typeof p === 'string' && p.length > 0),
      `${b.name}: the ${b.check} check says what is wrong`);
    if (b.check !== 'manifest') {
      t.same(failed, b.fails ?? [b.check], `${b.name}: no other check fails`);
      const manifest = JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8')) as { cache_version: string };
      t.equal(report.cacheVersion, manifest.cache_version, `${b.name}: reports the manifest's cache_version`);
    }
    for (const c of report.checks) {
      // No absolute path in a problem: they name cache-relative files or ids only.
      for (const p of c.problems) t.notOk(p.includes(cache), `${b.name}: "${p}" names no absolute path`);
    }
  }
});

t.test('verify of a missing cache or a file is cache_missing', async (t) => {
  const dir = t.testdir({ 'file.json': '{}' });
  t.throws(() => verifyCache(join(dir, 'nope')), { code: 'cache_missing' });
  t.throws(() => verifyCache(join(dir, 'file.json')), { code: 'cache_missing' });
});

t.test('the reference fixture caches verify; future_version does not', async (t) => {
  const root = new URL('../../../fixtures/compat-v0/caches/', import.meta.url).pathname;
  for (const name of ['minimal', 'realistic', 'tie_break']) t.equal(verifyCache(join(root, name)).valid, true, name);
  const future = verifyCache(join(root, 'future_version'));
  t.equal(future.valid, false, 'build_config version "999" is not v0 (Invalidation 4)');
  t.equal(future.checks.find((c) => c.name === 'manifest')?.ok, false);
});
