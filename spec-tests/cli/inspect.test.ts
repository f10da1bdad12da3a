// Checks cli_spec.md "context inspect" and context_cache.md "Inspect" for the CLI (with
// DESIGN.md's decisions: pretty by default, --format json = the MCP tool's bytes; never fails
// on a bad manifest; total_bytes = regular files directly in the cache dir).
import t from 'tap';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBase, expectedCacheVersion, VA, VB } from '../core/engine/v0/fixture.js';
import { run, spawnContext } from './harness.js';

const CV = expectedCacheVersion([['a.md', VA], ['b.md', VB]]);
const sizeOf = (cache: string): number => statSync(join(cache, 'manifest.json')).size + statSync(join(cache, 'index.json')).size;

t.test('cli_spec.md "context inspect": the four fields, pretty by default, compact with --format json', async (t) => {
  const cache = buildBase(t.testdir({}));
  const n = sizeOf(cache);
  t.same(await run(['inspect', '--cache', cache]), {
    code: 0,
    out: `{\n  "cache_version": "${CV}",\n  "document_count": 2,\n  "total_bytes": ${n},\n  "valid": true\n}\n`,
    err: '',
  });
  t.same(await run(['inspect', '--cache', cache, '--format', 'json']), {
    code: 0,
    out: `{"cache_version":"${CV}","document_count":2,"total_bytes":${n},"valid":true}\n`,
    err: '',
  });
  t.same(await run(['inspect', '--cache', cache, '--format', 'pretty']), await run(['inspect', '--cache', cache]));
});

t.test('DESIGN.md: total_bytes counts regular files directly in the cache dir (extra file included, documents/ not)', async (t) => {
  const cache = buildBase(t.testdir({}));
  writeFileSync(join(cache, 'README'), '12345');
  const r = await run(['inspect', '--cache', cache, '--format', 'json']);
  t.equal(r.out, `{"cache_version":"${CV}","document_count":2,"total_bytes":${sizeOf(cache) + 5},"valid":true}\n`);
});

t.test('DESIGN.md: a missing or unparseable manifest is valid:false with zeros, exit 0', async (t) => {
  const cache = buildBase(t.testdir({}));
  rmSync(join(cache, 'manifest.json'));
  const expected = { code: 0, out: '{"cache_version":"","document_count":0,"total_bytes":0,"valid":false}\n', err: '' };
  t.same(await run(['inspect', '--cache', cache, '--format', 'json']), expected, 'missing');
  writeFileSync(join(cache, 'manifest.json'), 'not json');
  t.same(await run(['inspect', '--cache', cache, '--format', 'json']), expected, 'unparseable');
});

t.test('errors: cache_missing exit 4, usage exit 1, nothing on stdout (spawned bin too)', async (t) => {
  const dir = t.testdir({ 'file': 'x' });
  for (const p of ['nope', 'file']) {
    t.same(await run(['inspect', '--cache', join(dir, p)]), { code: 4, out: '', err: 'error: cache_missing: Cache does not exist\n' }, p);
    const s = spawnContext(['inspect', '--cache', join(dir, p)]);
    t.same({ code: s.code, out: s.out }, { code: 4, out: '' }, `${p} (bin)`);
  }
  for (const argv of [['inspect'], ['inspect', '--cache'], ['inspect', '--cache', dir, '--format', 'yaml'], ['inspect', '--cache', dir, 'x'], ['inspect', '--root', dir]]) {
    const r = await run(argv);
    t.equal(r.code, 1, argv.join(' '));
    t.equal(r.out, '', `${argv.join(' ')}: nothing on stdout`);
    t.match(r.err, /\nusage: context inspect --cache DIR \[--format pretty\|json\]\n$/);
  }
  const s = spawnContext(['inspect']);
  t.same({ code: s.code, out: s.out }, { code: 1, out: '' }, 'usage error (bin)');
});
