// Checks cli_spec.md "context build" and context_cache.md "Operations / Build" + "Rebuild"
// through `main` (and the spawned bin for exit codes): the flags, the refusal of an existing
// --cache, --force, SOURCE_DATE_EPOCH byte-identical builds, and nothing written on error.
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedCacheVersion, snapshot, versionOf } from '../core/engine/v0/fixture.js';
import { run, spawnContext } from './harness.js';

const manifest = (cache: string): string => readFileSync(join(cache, 'manifest.json'), 'utf8');

t.test('cli_spec.md "context build": builds; stdout names the cache_version and document count', async (t) => {
  const dir = t.testdir({ docs: { 'Guide.md': 'guide', sub: { 'x.md': 'x' } } });
  const r = await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'out/cache'], { cwd: dir });
  const cv = expectedCacheVersion([['guide.md', versionOf('guide')], ['sub/x.md', versionOf('x')]]);
  t.same(r, { code: 0, out: `{"cache_version":"${cv}","document_count":2}\n`, err: '' }, 'relative paths are taken from the working directory');
  t.equal((JSON.parse(manifest(join(dir, 'out', 'cache'))) as { cache_version: string }).cache_version, cv);
  t.same(readdirSync(join(dir, 'out')), ['cache'], 'no temp dir left beside the cache');
});

t.test('SOURCE_DATE_EPOCH: created_at from the epoch, two builds byte-identical', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha', 'b.md': 'beta\r\n' } });
  const env = { SOURCE_DATE_EPOCH: '1700000000' };
  t.equal((await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c1'], { cwd: dir, env })).code, 0);
  t.equal((await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c2'], { cwd: dir, env })).code, 0);
  t.match(manifest(join(dir, 'c1')), /\n {2}"created_at": "2023-11-14T22:13:20Z",\n/, '1700000000 s = 2023-11-14T22:13:20Z');
  t.same(snapshot(join(dir, 'c1')), snapshot(join(dir, 'c2')), 'every file byte-identical');
  t.equal((await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c0'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '0' } })).code, 0);
  t.match(manifest(join(dir, 'c0')), /"created_at": "1970-01-01T00:00:00Z"/);
});

t.test('without SOURCE_DATE_EPOCH created_at is the current UTC time (informational only)', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' } });
  const before = Date.now();
  t.equal((await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c'], { cwd: dir })).code, 0);
  const createdAt = (JSON.parse(manifest(join(dir, 'c'))) as { created_at: string }).created_at;
  t.match(createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, 'RFC 3339, UTC');
  t.ok(Date.parse(createdAt) >= before - 1000 && Date.parse(createdAt) <= Date.now() + 1000, 'now');
});

t.test('a malformed SOURCE_DATE_EPOCH fails before anything is written', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' } });
  for (const epoch of ['-1', 'soon', '1.5', '99999999999999999999']) {
    const r = await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c'], { cwd: dir, env: { SOURCE_DATE_EPOCH: epoch } });
    t.not(r.code, 0, epoch);
    t.equal(r.out, '', `${epoch}: nothing on stdout`);
    t.notOk(existsSync(join(dir, 'c')), `${epoch}: no cache`);
  }
});

t.test('context_cache.md "Build": fails if the cache dir exists; --force rebuilds', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' }, docs2: { 'b.md': 'beta' } });
  t.equal((await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c'], { cwd: dir })).code, 0);
  const before = snapshot(join(dir, 'c'));
  const refused = await run(['build', '--engine', 'v0', '--sources', 'docs2', '--cache', 'c'], { cwd: dir });
  t.not(refused.code, 0, 'refused without --force');
  t.not(refused.code, 1, 'not a usage error: the arguments are fine');
  t.equal(refused.out, '', 'nothing on stdout');
  t.match(refused.err, /^error: /);
  t.same(snapshot(join(dir, 'c')), before, 'the existing cache is untouched');
  const forced = await run(['build', '--engine', 'v0', '--sources', 'docs2', '--cache', 'c', '--force'], { cwd: dir });
  t.equal(forced.code, 0);
  t.equal(forced.out, `{"cache_version":"${expectedCacheVersion([['b.md', versionOf('beta')]])}","document_count":1}\n`);
  t.same(readdirSync(dir).sort(), ['c', 'docs', 'docs2'], 'no temp or old dir left');
});

t.test('fatal build errors (invalid UTF-8, duplicate id, collision): non-zero, stdout empty, nothing left', async (t) => {
  const cases: [string, Record<string, string | Buffer>][] = [
    ['invalid UTF-8', { 'ok.md': 'fine', 'bad.md': Buffer.from([0xfe]) }],
    ['duplicate id', { 'Read.md': 'one', 'read.md': 'two' }],
    ['filename collision', { 'one.md': 'same', 'two.md': 'same' }],
  ];
  for (const [label, docs] of cases) {
    const dir = t.testdir({ docs, old: { 'keep.txt': 'keep' } });
    const r = await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'new'], { cwd: dir });
    t.not(r.code, 0, `${label}: fails`);
    t.equal(r.out, '', `${label}: nothing on stdout`);
    t.match(r.err, /^error: /, `${label}: says so on stderr`);
    t.same(readdirSync(dir).sort(), ['docs', 'old'], `${label}: no cache, no temp dir`);
    const f = await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'old', '--force'], { cwd: dir });
    t.not(f.code, 0, `${label} with --force: fails`);
    t.same(snapshot(join(dir, 'old')), { 'keep.txt': 'keep' }, `${label} with --force: the old directory is intact`);
  }
});

t.test('cli_spec.md "Exit Codes" 1: usage errors', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' } });
  const cases: string[][] = [
    ['build'],
    ['build', '--sources', 'docs'],
    ['build', '--cache', 'c'],
    ['build', '--sources', 'docs', '--cache'],
    ['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c', '--bogus'],
    ['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c', 'extra'],
    ['build', '--sources', 'docs', '--sources', 'docs', '--cache', 'c'],
    ['build', '--source', 'docs', '--cache', 'c'],
  ];
  for (const argv of cases) {
    const r = await run(argv, { cwd: dir });
    t.equal(r.code, 1, argv.join(' '));
    t.equal(r.out, '', `${argv.join(' ')}: nothing on stdout`);
    t.match(r.err, /\nusage: context build --sources DIR --cache OUT \[--force\] \[--engine v1\|v0\]\n[^]*docs\/engine\.md\)\n$/, `${argv.join(' ')}: usage line`);
  }
  t.same(readdirSync(dir), ['docs'], 'nothing was built');
});

t.test('the spawned bin: exit codes and streams', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' }, bad: { 'x.md': Buffer.from([0x80]) } });
  const ok = spawnContext(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '1700000000' } });
  t.same(ok, { code: 0, out: `{"cache_version":"${expectedCacheVersion([['a.md', versionOf('alpha')]])}","document_count":1}\n`, err: '' });
  const again = spawnContext(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'c'], { cwd: dir });
  t.not(again.code, 0);
  t.equal(again.out, '');
  const bad = spawnContext(['build', '--engine', 'v0', '--sources', 'bad', '--cache', 'd'], { cwd: dir });
  t.not(bad.code, 0);
  t.equal(bad.out, '');
  t.notOk(existsSync(join(dir, 'd')));
  const usage = spawnContext(['build', '--sources', 'docs'], { cwd: dir });
  t.equal(usage.code, 1);
  t.equal(usage.out, '');
});
