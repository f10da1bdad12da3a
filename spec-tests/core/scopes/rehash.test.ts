// Checks issue 5 "CLI: context rehash ... rewrites only the fingerprint (and last_updated)
// of existing files, leaving every other byte of the YAML as it was" — comments, key order,
// quoting — and that fresh files, invalid files and missing scopes are never written.
import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFreshnessText, rehashText } from '../../../lib/core/scopes/api.js';
import { patchTopLevelScalars } from '../../../lib/core/scopes/yaml-patch.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const contentPrint = (files: Record<string, string>): string =>
  sha(Object.entries(files).map(([n, b]) => `${n}:${sha(b)}`).sort().join('\n')).slice(0, 8);

const WHEN = '2026-11-22T08:00:00Z';
const FILES = { 'a.ts': 'export const a = 1;\n' };

// Hand-edited: comments everywhere, keys out of schema order, mixed quoting, CRLF-free.
const HAND = `# Context for src — edited by hand.
summary: Source code.   # trailing comment
version: 1
scope: 'src'
fingerprint: "0badf00d"  # stale on purpose
maintenance: |-
  Keep this file updated.
  Run \`context rehash\` after edits.
# a comment between keys
last_updated: 2026-02-14T15:56:34.155Z
decisions:
  - {what: "flow style", why: "kept as is"}
`;

t.test('rehash rewrites only the two values, every other byte kept', async (t) => {
  const root = t.testdir({ src: { ...FILES, '.context.yaml': HAND } });
  const out = rehashText(root, { scope: 'src' }, undefined, WHEN);
  t.equal(out.isError, false);
  const print = contentPrint(FILES);
  const after = readFileSync(join(root, 'src/.context.yaml'), 'utf8');
  t.equal(after, HAND.replace('"0badf00d"', `"${print}"`).replace('2026-02-14T15:56:34.155Z', WHEN));
  t.equal(
    out.text,
    `{\n  "root": ".",\n  "updated": 1,\n  "unchanged": 0,\n  "skipped": 0,\n  "entries": [\n    {\n` +
      `      "scope": "src",\n      "result": "updated",\n      "fingerprint": {\n        "previous": "0badf00d",\n` +
      `        "current": "${print}"\n      },\n      "last_updated": "${WHEN}"\n    }\n  ]\n}\n`,
  );
  t.equal(JSON.parse(checkFreshnessText(root, 'src', undefined).text).state, 'fresh', 'fresh afterwards');
});

t.test('a fresh file is left alone: no write, no new last_updated', async (t) => {
  const text = HAND.replace('0badf00d', contentPrint(FILES));
  const root = t.testdir({ src: { ...FILES, '.context.yaml': text } });
  const mtime = statSync(join(root, 'src/.context.yaml')).mtimeMs;
  const out = rehashText(root, { scope: 'src' }, undefined, WHEN);
  t.same(JSON.parse(out.text).entries, [{ scope: 'src', result: 'unchanged', fingerprint: contentPrint(FILES) }]);
  t.equal(readFileSync(join(root, 'src/.context.yaml'), 'utf8'), text);
  t.equal(statSync(join(root, 'src/.context.yaml')).mtimeMs, mtime);
});

t.test("a dotcontext (stat) fingerprint is replaced by ours", async (t) => {
  const root = t.testdir({ src: { ...FILES, '.context.yaml': HAND } });
  const dir = join(root, 'src');
  const lines = readdirSync(dir)
    .filter((n) => n !== '.context.yaml')
    .map((n) => `${n}:${Math.floor(statSync(join(dir, n)).mtimeMs)}:${statSync(join(dir, n)).size}`);
  writeFileSync(join(dir, '.context.yaml'), HAND.replace('0badf00d', sha(lines.sort().join('\n')).slice(0, 8)));
  t.equal(JSON.parse(checkFreshnessText(root, 'src', undefined).text).state, 'fresh', 'fresh by stat before');
  t.equal(JSON.parse(rehashText(root, { scope: 'src' }, undefined, WHEN).text).updated, 1);
  t.match(readFileSync(join(dir, '.context.yaml'), 'utf8'), `fingerprint: "${contentPrint(FILES)}"`);
});

t.test('--all: every scanned directory with a file; invalid files reported, never written', async (t) => {
  const bad = 'version: 1\nsummary: [broken\n';
  const v2 = HAND.replace('version: 1', 'version: 2');
  const root = t.testdir({
    '.context.config.yaml': 'min_tokens: 0\n',
    src: { ...FILES, '.context.yaml': HAND },
    lib: { 'b.ts': 'b', '.context.yaml': bad },
    next: { 'c.ts': 'c', '.context.yaml': v2 },
    plain: { 'd.ts': 'd' },
  });
  const out = rehashText(root, 'all', undefined, WHEN);
  const body = JSON.parse(out.text);
  t.same([body.updated, body.unchanged, body.skipped], [1, 0, 2]);
  t.same(body.entries.map((e: { scope: string; result: string }) => `${e.scope}:${e.result}`), ['lib:skipped', 'next:skipped', 'src:updated']);
  t.equal(out.isError, true, 'a skipped file is reported as an error');
  t.equal(readFileSync(join(root, 'lib/.context.yaml'), 'utf8'), bad);
  t.equal(readFileSync(join(root, 'next/.context.yaml'), 'utf8'), v2);
});

t.test('--all covers files below min_tokens too, not ignored folders', async (t) => {
  const root = t.testdir({
    '.gitignore': 'ignored/\n',
    small: { ...FILES, '.context.yaml': HAND },
    ignored: { ...FILES, '.context.yaml': HAND },
    node_modules: { ...FILES, '.context.yaml': HAND },
  });
  const body = JSON.parse(rehashText(root, 'all', undefined, WHEN).text);
  t.same(body.entries.map((e: { scope: string }) => e.scope), ['small']);
  t.equal(readFileSync(join(root, 'ignored/.context.yaml'), 'utf8'), HAND);
});

t.test('missing scope and traversal are errors', async (t) => {
  const root = t.testdir({ src: FILES });
  const missing = rehashText(root, { scope: 'src' }, undefined, WHEN);
  t.equal(missing.isError, true);
  t.equal(missing.failure, 'missing');
  t.equal(rehashText(root, { scope: '../x' }, undefined, WHEN).failure, 'traversal');
});

t.test('patching keeps quoting styles and refuses what it cannot patch faithfully', async (t) => {
  const doc = "fingerprint: abc # c\nlast_updated: 'old'\nx: 1\n";
  t.equal(patchTopLevelScalars(doc, { fingerprint: 'def', last_updated: 'new' }), "fingerprint: def # c\nlast_updated: 'new'\nx: 1\n");
  t.equal(patchTopLevelScalars(doc, { fingerprint: '12345678' }), 'fingerprint: "12345678" # c\nlast_updated: \'old\'\nx: 1\n',
    'an all-digit plain value would read as a number: quoted');
  t.equal(patchTopLevelScalars(doc, { fingerprint: '1234e567' }), 'fingerprint: "1234e567" # c\nlast_updated: \'old\'\nx: 1\n',
    'nor as a float');
  t.equal(patchTopLevelScalars('fingerprint: |\n  abc\nx: 1\n', { fingerprint: 'def' }), 'fingerprint: "def"\nx: 1\n');
  t.equal(patchTopLevelScalars('a: &A abc\nfingerprint: *A\n', { fingerprint: 'def' }), null, 'alias');
  t.equal(patchTopLevelScalars('fingerprint: &A abc\nb: *A\n', { fingerprint: 'def' }), null, 'anchor');
  t.equal(patchTopLevelScalars('x: 1\n', { fingerprint: 'def' }), null, 'absent key');
  t.equal(patchTopLevelScalars('fingerprint: abc\r\nx: 1\r\n', { fingerprint: 'def' }), 'fingerprint: def\r\nx: 1\r\n', 'CRLF kept');
});
