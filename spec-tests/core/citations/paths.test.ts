// Checks issue 4 "Paths": `\` -> `/`, a leading `./` removed; absolute, empty or `.` is
// invalid_path; anything resolving outside the root is path_escape (traversal attempts).
import t from 'tap';
import { compact } from '../../../lib/json.js';
import { cleanPath, isWithin, resolveUnderRoot } from '../../../lib/core/citations/paths.js';

const ROOT = '/work/root';

t.test('separators and ./ are normalised', async (t) => {
  t.equal(cleanPath('a\\b\\c.md'), 'a/b/c.md');
  t.equal(cleanPath('./a.md'), 'a.md');
  t.equal(cleanPath('././a.md'), './a.md', 'one leading ./ only; resolution removes the rest');
  t.same(resolveUnderRoot(ROOT, '.\\docs\\a.md'), { ok: true, normalizedPath: 'docs/a.md', absolutePath: '/work/root/docs/a.md' });
  t.same(resolveUnderRoot(ROOT, 'a//b/../c.md'), { ok: true, normalizedPath: 'a/c.md', absolutePath: '/work/root/a/c.md' });
  t.same(resolveUnderRoot(ROOT, 'src/'), { ok: true, normalizedPath: 'src', absolutePath: '/work/root/src' });
});

t.test('absolute, empty or `.` is invalid_path', async (t) => {
  for (const p of ['/etc/passwd', '\\etc\\passwd', '', '.', './', './.', 'a/..', 'a\0b']) {
    t.same(resolveUnderRoot(ROOT, p), { ok: false, reason: 'invalid_path' }, compact(p));
  }
});

t.test('traversal attempts are path_escape', async (t) => {
  for (const p of ['..', '../x', 'a/../../x', '..\\x', './../root/../x', 'a/b/../../../etc/passwd', '../root2/x']) {
    t.same(resolveUnderRoot(ROOT, p), { ok: false, reason: 'path_escape' }, p);
  }
  t.same(resolveUnderRoot(ROOT, '../root/a.md'), { ok: true, normalizedPath: 'a.md', absolutePath: '/work/root/a.md' }, 'back into the root is fine');
});

t.test('a name that merely starts with two dots is not an escape', async (t) => {
  t.same(resolveUnderRoot(ROOT, '..notes.md'), { ok: true, normalizedPath: '..notes.md', absolutePath: '/work/root/..notes.md' });
});

t.test('isWithin', async (t) => {
  t.ok(isWithin('/a', '/a'));
  t.ok(isWithin('/a', '/a/b'));
  t.notOk(isWithin('/a', '/ab'));
  t.ok(isWithin('/', '/x'));
});
