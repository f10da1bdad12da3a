// Checks security_model.md "Input Validation" (cache identifiers vs path traversal) through
// lib/core/store/locate.ts: `..`, absolute names and symlinks escaping the root are all
// cache_missing, never a path outside the root; names inside the root resolve.
import t from 'tap';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { locateCache } from '../../../lib/core/store/locate.js';

t.test('security_model.md "Input Validation": traversal is rejected as cache_missing', async (t) => {
  const dir = t.testdir({
    secret: { 'manifest.json': '{}' },
    root: {
      good: { 'manifest.json': '{}' },
      nested: { inner: {} },
      'inside-link': t.fixture('symlink', 'good'),
      'escape-link': t.fixture('symlink', '../secret'),
      'escape-abs': t.fixture('symlink', '/tmp'),
      'root-link': t.fixture('symlink', '.'),
      'dangling': t.fixture('symlink', 'nowhere'),
      'a..b': {},
    },
  });
  const root = join(dir, 'root');
  const bad = [
    '..', '../secret', 'good/../../secret', 'good/..', '..\\secret', 'a..b',
    join(dir, 'secret'), '/etc', '/', '\\secret',
    'escape-link', 'escape-link/', 'escape-abs', 'root-link', '.', '', './', 'nested/../..',
    'missing', 'dangling', 'good\0',
  ];
  for (const name of bad) t.throws(() => locateCache(root, name), { code: 'cache_missing' }, JSON.stringify(name));
});

t.test('names inside the root resolve to real paths inside it', async (t) => {
  const dir = t.testdir({ root: { good: {}, nested: { inner: {} }, 'inside-link': t.fixture('symlink', 'good') } });
  const root = join(dir, 'root');
  const real = realpathSync(root);
  t.equal(locateCache(root, 'good'), join(real, 'good'));
  t.equal(locateCache(root, './good'), join(real, 'good'));
  t.equal(locateCache(root, 'nested/inner'), join(real, 'nested', 'inner'));
  t.equal(locateCache(root, 'inside-link'), join(real, 'good'), 'a symlink staying inside the root is fine');
});

t.test('a missing root makes every name cache_missing', async (t) => {
  const dir = t.testdir({});
  t.throws(() => locateCache(join(dir, 'no-root'), 'good'), { code: 'cache_missing' });
});
