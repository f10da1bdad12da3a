// Checks seed 000 (context.list_caches) as the `context list-caches` command: the compact
// listing plus a newline, directories only, symlinked ones skipped, has_manifest only for a
// regular file, UTF-8 byte order; an inaccessible root is io_error (exit 6), stdout empty.
import t from 'tap';
import { join } from 'node:path';
import { run, spawnContext } from './harness.js';

t.test('seed 000: the listing, exact bytes', async (t) => {
  const root = t.testdir({
    z: { 'manifest.json': '{' },
    'é': {},
    a: { 'manifest.json': t.fixture('symlink', '../z/manifest.json') },
    B: { 'manifest.json': '{}' },
    'note.txt': 'x',
    'link': t.fixture('symlink', 'z'),
  });
  const expected = '{"caches":[{"path":"B","has_manifest":true},{"path":"a","has_manifest":false},{"path":"z","has_manifest":true},{"path":"é","has_manifest":false}]}\n';
  t.same(await run(['list-caches', '--root', root]), { code: 0, out: expected, err: '' });
  t.same(await run(['list-caches', '--root', '.'], { cwd: root }), { code: 0, out: expected, err: '' }, 'relative to the working directory');
  t.same(spawnContext(['list-caches', '--root', root]), { code: 0, out: expected, err: '' }, 'the bin prints the same');
});

t.test('seed 000 "Errors": an inaccessible root is io_error, exit 6, nothing on stdout', async (t) => {
  const dir = t.testdir({ 'file': 'x' });
  for (const p of ['nope', 'file']) {
    t.same(await run(['list-caches', '--root', join(dir, p)]), { code: 6, out: '', err: (await run(['list-caches', '--root', join(dir, p)])).err }, p);
    t.match((await run(['list-caches', '--root', join(dir, p)])).err, /^error: io_error: I\/O error occurred/);
    const s = spawnContext(['list-caches', '--root', join(dir, p)]);
    t.same({ code: s.code, out: s.out }, { code: 6, out: '' }, `${p} (bin)`);
  }
});

t.test('usage errors exit 1', async (t) => {
  for (const argv of [['list-caches'], ['list-caches', '--root'], ['list-caches', '--cache', '.'], ['list-caches', '--root', '.', 'extra']]) {
    const r = await run(argv);
    t.equal(r.code, 1, argv.join(' '));
    t.equal(r.out, '');
    t.match(r.err, /\nusage: context list-caches --root DIR\n$/);
  }
});
