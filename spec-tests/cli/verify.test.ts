// Checks context_cache.md "Verification / Integrity Check" as the `context verify` command:
// a report naming every check, exit 0 only when all hold, exit 5 (cache_invalid) when one
// fails with the failed checks named on stderr; exit 4 for a missing cache.
import t from 'tap';
import { join } from 'node:path';
import { BREAKAGES, buildBase, expectedCacheVersion, VA, VB } from '../core/engine/v0/fixture.js';
import { run, spawnContext } from './harness.js';

const CV = expectedCacheVersion([['a.md', VA], ['b.md', VB]]);
const NAMES = ['manifest', 'cache_version', 'documents_exist', 'document_hashes', 'no_orphans', 'index'];

t.test('a valid cache: every check ok, exit 0 (pretty by default, --format json compact)', async (t) => {
  const cache = buildBase(t.testdir({}));
  const checks = NAMES.map((n) => `{"name":"${n}","ok":true,"problems":[]}`).join(',');
  t.same(await run(['verify', '--cache', cache, '--format', 'json']), {
    code: 0, out: `{"cache_version":"${CV}","valid":true,"checks":[${checks}]}\n`, err: '',
  });
  const pretty = await run(['verify', '--cache', cache]);
  t.equal(pretty.code, 0);
  t.match(pretty.out, /^\{\n {2}"cache_version": /, 'pretty by default');
  t.same(JSON.parse(pretty.out), JSON.parse(`{"cache_version":"${CV}","valid":true,"checks":[${checks}]}`));
});

t.test('every breakage: exit 5, its check reported failed by name on stdout and stderr', async (t) => {
  for (const b of BREAKAGES) {
    const cache = buildBase(t.testdir({}));
    b.apply(cache);
    const r = await run(['verify', '--cache', cache, '--format', 'json']);
    t.equal(r.code, 5, `${b.name}: exit 5`);
    const report = JSON.parse(r.out) as { valid: boolean; checks: { name: string; ok: boolean }[] };
    t.equal(report.valid, false, `${b.name}: valid false`);
    t.equal(report.checks.find((c) => c.name === b.check)?.ok, false, `${b.name}: ${b.check} failed`);
    t.match(r.err, new RegExp(`^error: cache_invalid: failed checks: .*\\b${b.check}\\b`), `${b.name}: stderr names ${b.check}`);
  }
});

t.test('errors: cache_missing exit 4 with nothing on stdout; usage exit 1 (spawned bin)', async (t) => {
  const dir = t.testdir({});
  const cache = buildBase(dir);
  const ok = spawnContext(['verify', '--cache', cache]);
  t.equal(ok.code, 0, 'bin: exit 0 when valid');
  const missing = spawnContext(['verify', '--cache', join(dir, 'nope')]);
  t.same({ code: missing.code, out: missing.out }, { code: 4, out: '' });
  const usage = spawnContext(['verify']);
  t.same({ code: usage.code, out: usage.out }, { code: 1, out: '' });
  t.match(usage.err, /usage: context verify --cache DIR/);
  (BREAKAGES.find((b) => b.check === 'no_orphans') as (typeof BREAKAGES)[number]).apply(cache);
  const bad = spawnContext(['verify', '--cache', cache]);
  t.equal(bad.code, 5, 'bin: exit 5 when a check fails');
});
