// Checks seed 000 "context.list_caches / Behavior" (the CLI's list-caches too) through
// lib/core/operations/list.ts: immediate subdirectories only, symlinked dirs skipped, has_manifest
// only for a regular manifest.json, no parsing, sorted by UTF-8 bytes; a bad root is io_error.
import t from 'tap';
import { join } from 'node:path';
import { listCaches } from '../../../lib/core/operations/list.js';
import { listCachesText } from '../../../lib/core/operations/api.js';

t.test('seed 000: directories only, byte order, has_manifest for a regular file only', async (t) => {
  const root = t.testdir({
    target: { 'manifest.json': '{}' },
    z: { 'manifest.json': 'not even JSON' },
    a: {},
    B: { 'manifest.json': { 'inner': 'a directory, not a file' } },
    'é': { 'manifest.json': t.fixture('symlink', '../target/manifest.json') },
    '\u{1F600}': {},
    '\u{FFFD}': { nested: { 'manifest.json': '{}' } },
    'file.json': '{}',
    'linked': t.fixture('symlink', 'target'),
    'dangling': t.fixture('symlink', 'nowhere'),
  });
  t.same(listCaches(root), [
    { path: 'B', has_manifest: false },
    { path: 'a', has_manifest: false },
    { path: 'target', has_manifest: true },
    { path: 'z', has_manifest: true },
    { path: 'é', has_manifest: false },
    { path: '\u{FFFD}', has_manifest: false },
    { path: '\u{1F600}', has_manifest: false },
  ], '"B" < "a" < "target" < "z" < "é" < U+FFFD < U+1F600 in UTF-8 bytes; no files or symlinks');
  t.equal(
    listCachesText(root),
    '{"caches":[{"path":"B","has_manifest":false},{"path":"a","has_manifest":false},{"path":"target","has_manifest":true},' +
      '{"path":"z","has_manifest":true},{"path":"é","has_manifest":false},{"path":"\u{FFFD}","has_manifest":false},' +
      '{"path":"\u{1F600}","has_manifest":false}]}',
    'exact bytes, keys in the spec\'s order (path, has_manifest), no trailing newline',
  );
});

t.test('seed 000: an empty root lists nothing', async (t) => {
  t.equal(listCachesText(t.testdir({})), '{"caches":[]}');
});

t.test('seed 000 "Errors": an inaccessible root is io_error', async (t) => {
  const dir = t.testdir({ 'file': 'x' });
  t.throws(() => listCaches(join(dir, 'nope')), { code: 'io_error' });
  t.throws(() => listCaches(join(dir, 'file')), { code: 'io_error' });
});
