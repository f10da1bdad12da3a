// Checks seed 003 "list_contexts" (shape, entries sorted by scope, unsupported versions as
// has_context false / missing, global scan failure, isError only then) and issue 5
// "Tracked directories" (min_tokens bottom-up, root always kept, .gitignore, build folders).
import t from 'tap';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listContextsText } from '../../../lib/core/scopes/api.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const contentPrint = (files: Record<string, string>): string =>
  sha(Object.entries(files).map(([n, b]) => `${n}:${sha(b)}`).sort().join('\n')).slice(0, 8);
const context = (scope: string, fingerprint: string, summary: string, version = 1): string =>
  `version: ${version}\nlast_updated: "2026-02-13T10:00:00Z"\nfingerprint: "${fingerprint}"\nscope: "${scope}"\n` +
  `summary: "${summary}"\nmaintenance: "Keep updated"\n`;

const BIG = 'x'.repeat(4096 * 4); // exactly the default 4096-token threshold
// A fresh object each time: tap's fixtures reject one object used twice.
const src = (): Record<string, string> => ({ 'a.ts': BIG });

t.test('the seed example: fresh, stale and missing entries, sorted by scope', async (t) => {
  const ROOT = { 'README.md': 'hello' };
  const root = t.testdir({
    ...ROOT,
    '.context.yaml': context('.', contentPrint(ROOT), 'REST API for task management'),
    src: { ...src(), '.context.yaml': context('src', 'deadbeef', 'Source code') },
    tests: { 't.ts': BIG },
  });
  const out = listContextsText(root, undefined);
  t.equal(out.isError, false);
  t.equal(
    out.text,
    `{
  "root": ".",
  "total_directories": 3,
  "skipped_directories": 0,
  "tracked": 2,
  "entries": [
    {
      "scope": ".",
      "state": "fresh",
      "has_context": true,
      "last_updated": "2026-02-13T10:00:00Z",
      "summary": "REST API for task management"
    },
    {
      "scope": "src",
      "state": "stale",
      "has_context": true,
      "last_updated": "2026-02-13T10:00:00Z",
      "summary": "Source code"
    },
    {
      "scope": "tests",
      "state": "missing",
      "has_context": false
    }
  ]
}
`,
  );
});

t.test('min_tokens: small directories are skipped unless a child is kept; the root always stays', async (t) => {
  const root = t.testdir({
    'tiny.ts': 'x',
    small: { 'a.ts': 'x'.repeat(4096 * 4 - 1) }, // one byte short: ceil(16383 / 4) = 4096 -> kept
    smaller: { 'a.ts': 'x'.repeat(4095 * 4) }, // 4095 tokens -> skipped
    routing: { 'index.ts': 'x', deep: { inner: src() } },
    empty: {},
  });
  const body = JSON.parse(listContextsText(root, undefined).text);
  t.same(body.entries.map((e: { scope: string }) => e.scope), ['.', 'routing', 'routing/deep', 'routing/deep/inner', 'small']);
  t.equal(body.total_directories, 5);
  t.equal(body.skipped_directories, 1, 'smaller; an empty directory is not a candidate at all');
});

t.test('min_tokens from .context.config.yaml; <= 0 disables the filter', async (t) => {
  const root = t.testdir({ '.context.config.yaml': 'provider: anthropic\nmin_tokens: 0\n', a: { 'x.ts': 'x' }, b: { 'y.ts': 'y' } });
  const body = JSON.parse(listContextsText(root, undefined).text);
  t.same(body.entries.map((e: { scope: string }) => e.scope), ['.', 'a', 'b']);
  t.equal(body.skipped_directories, 0);
});

t.test('ignored: .gitignore, .contextignore, build/vendor folders, hidden folders', async (t) => {
  const root = t.testdir({
    '.gitignore': 'generated/\n*.bin\n',
    '.contextignore': 'scratch\n',
    '.context.config.yaml': 'min_tokens: 1\n',
    generated: src(),
    scratch: src(),
    node_modules: { pkg: src() },
    dist: src(),
    vendor: src(),
    target: src(),
    '.github': src(),
    blobs: { 'a.bin': BIG },
    lib: { ...src(), nested: { '.gitignore': 'local/\n', local: src(), kept: src() } },
  });
  const body = JSON.parse(listContextsText(root, undefined).text);
  t.same(body.entries.map((e: { scope: string }) => e.scope), ['.', 'lib', 'lib/nested', 'lib/nested/kept']);
});

t.test('max_depth from the config bounds the walk; symlinked directories are not descended', async (t) => {
  const root = t.testdir({
    '.context.config.yaml': 'min_tokens: 0\nmax_depth: 1\n',
    a: { 'x.ts': 'x', b: { 'y.ts': 'y' } },
    real: { 'z.ts': 'z' },
    alias: t.fixture('symlink', 'real'),
  });
  const body = JSON.parse(listContextsText(root, undefined).text);
  t.same(body.entries.map((e: { scope: string }) => e.scope), ['.', 'a', 'real']);
});

t.test('entries sort by UTF-8 bytes, not locale', async (t) => {
  const root = t.testdir({ '.context.config.yaml': 'min_tokens: 0\n', b: src(), B: src(), 'é': src(), z: src(), 'a-b': src(), a: { b: src() } });
  const body = JSON.parse(listContextsText(root, undefined).text);
  t.same(body.entries.map((e: { scope: string }) => e.scope), ['.', 'B', 'a', 'a-b', 'a/b', 'b', 'z', 'é']);
});

t.test('unsupported versions and corrupt files list as has_context false, state missing', async (t) => {
  const root = t.testdir({
    '.context.config.yaml': 'min_tokens: 0\n',
    new: { 'a.ts': 'x', '.context.yaml': context('new', 'x', 's', 2) },
    bad: { 'a.ts': 'x', '.context.yaml': ': : :' },
  });
  const out = listContextsText(root, undefined);
  t.equal(out.isError, false, 'individual problems are not errors');
  const body = JSON.parse(out.text);
  t.same(body.entries.slice(1), [
    { scope: 'bad', state: 'missing', has_context: false },
    { scope: 'new', state: 'missing', has_context: false },
  ]);
  t.equal(body.tracked, 0);
});

t.test('root echoes the path as given; no absolute path of this machine leaks', async (t) => {
  const dir = t.testdir({ project: { 'a.ts': 'x' } });
  const out = listContextsText(dir, 'project');
  t.equal(JSON.parse(out.text).root, 'project');
  t.notMatch(out.text, dir);
});

t.test('global scan failure: the seed\'s shape, isError', async (t) => {
  const dir = t.testdir({ file: 'not a directory' });
  const out = listContextsText(dir, '/nonexistent/path');
  t.equal(out.isError, true);
  t.equal(
    out.text,
    '{\n  "root": "/nonexistent/path",\n  "total_directories": 0,\n  "skipped_directories": 0,\n  "tracked": 0,\n' +
      '  "entries": [],\n  "error": "Failed to scan project at \\"/nonexistent/path\\"",\n' +
      '  "reason": "cannot read \\".\\" (ENOENT: no such file or directory)"\n}\n',
  );
  t.equal(listContextsText(dir, 'file').isError, true, 'a file is not a project');
  t.equal(JSON.parse(listContextsText(dir, 'file').text).reason, 'cannot read "." (ENOTDIR: not a directory)');
});

t.test('issue 11: a scan failure deep in the tree says why and where (relative path only)', async (t) => {
  // A directory whose absolute path exceeds PATH_MAX cannot be read by anyone, root
  // included. It is made bottom-up by renames, so no call ever names the long path.
  // Not t.testdir: its clean-up could not delete the deep tree; the teardown below can.
  const dir = mkdtempSync(join(tmpdir(), 'scan-failure-'));
  mkdirSync(join(dir, 'project'));
  writeFileSync(join(dir, 'project', '.context.config.yaml'), 'max_depth: 40\nmin_tokens: 0\n');
  mkdirSync(join(dir, 'work'));
  const long = (i: number): string => String(i).padStart(3, '0') + 'd'.repeat(240);
  const work = join(dir, 'work');
  mkdirSync(join(work, long(0)));
  writeFileSync(join(work, long(0), 'f.ts'), 'deep');
  for (let i = 1; i < 18; i++) {
    mkdirSync(join(work, long(i)));
    renameSync(join(work, long(i - 1)), join(work, long(i), long(i - 1)));
  }
  renameSync(join(work, long(17)), join(dir, 'project', long(17)));
  t.teardown(() => {
    // Taken apart top-down by the same renames, or no one could delete it.
    renameSync(join(dir, 'project', long(17)), join(work, long(17)));
    for (let i = 17; i > 0; i--) {
      renameSync(join(work, long(i), long(i - 1)), join(work, long(i - 1)));
      rmSync(join(work, long(i)), { recursive: true });
    }
    rmSync(dir, { recursive: true });
  });
  const out = listContextsText(join(dir, 'project'), undefined);
  t.equal(out.isError, true);
  const body = JSON.parse(out.text) as { error: string; reason: string };
  t.equal(body.error, 'Failed to scan project at "."', 'the seed\'s text, unchanged');
  t.match(body.reason, /^cannot read "017d+\/016d+\/[^"]*" \(ENAMETOOLONG: file name too long\)$/, 'the OS error and where');
  t.notMatch(out.text, dir, 'no absolute path');
  t.equal(out.error, `Failed to scan project at ".": ${body.reason}`, 'the CLI\'s stderr line carries the reason');
});

t.test('touching files keeps every entry fresh', async (t) => {
  const root = t.testdir({ '.context.config.yaml': 'min_tokens: 0\n', src: { 'a.ts': 'one' } });
  writeFileSync(join(root, 'src/.context.yaml'), context('src', contentPrint({ 'a.ts': 'one' }), 's'));
  writeFileSync(join(root, 'src/a.ts'), 'one'); // rewritten: new mtime, same bytes
  t.equal(JSON.parse(listContextsText(root, undefined).text).entries[1].state, 'fresh');
});
