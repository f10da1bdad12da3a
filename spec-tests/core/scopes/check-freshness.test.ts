// Checks seed 003 "check_freshness" (fresh, stale, missing; traversal, unsupported, corrupt;
// `isError: !!result.error`, stale is not an error) and issue 5 "Fingerprint": touch keeps
// a scope fresh, an edit makes it stale, dotcontext's stat fingerprint is accepted.
import t from 'tap';
import { createHash } from 'node:crypto';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFreshnessText } from '../../../lib/core/scopes/api.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const contentPrint = (files: Record<string, string>): string =>
  sha(Object.entries(files).map(([n, b]) => `${n}:${sha(b)}`).sort().join('\n')).slice(0, 8);
const statPrint = (dir: string): string =>
  sha(
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== '.context.yaml')
      .map((e) => `${e.name}:${Math.floor(statSync(join(dir, e.name)).mtimeMs)}:${statSync(join(dir, e.name)).size}`)
      .sort()
      .join('\n'),
  ).slice(0, 8);

const context = (fingerprint: string, extra = ''): string =>
  `version: 1\nlast_updated: "2026-02-13T10:00:00Z"\nfingerprint: "${fingerprint}"\nscope: "src/core"\n` +
  `summary: "Core."\nmaintenance: "Keep updated"\n${extra}`;

const FILES = { 'scanner.ts': 'export const scan = 1;\n', 'schema.ts': 'export {};\n' };

t.test('fresh: the exact response', async (t) => {
  const print = contentPrint(FILES);
  const root = t.testdir({ src: { core: { ...FILES, '.context.yaml': context(print) } } });
  const out = checkFreshnessText(root, 'src/core', undefined);
  t.equal(out.isError, false);
  t.equal(
    out.text,
    `{\n  "scope": "src/core",\n  "state": "fresh",\n  "fingerprint": {\n    "stored": "${print}",\n` +
      `    "computed": "${print}"\n  },\n  "last_updated": "2026-02-13T10:00:00Z"\n}\n`,
  );
});

t.test('touch leaves the scope fresh; an edit makes it stale, which is not an error', async (t) => {
  const root = t.testdir({ src: { core: { ...FILES, '.context.yaml': context(contentPrint(FILES)) } } });
  const dir = join(root, 'src/core');
  utimesSync(join(dir, 'scanner.ts'), 2000000000, 2000000000);
  t.equal(JSON.parse(checkFreshnessText(root, 'src/core', undefined).text).state, 'fresh', 'after touch');
  writeFileSync(join(dir, 'scanner.ts'), 'export const scan = 2;\n');
  const out = checkFreshnessText(root, 'src/core', undefined);
  t.equal(out.isError, false, 'stale is NOT an error');
  const body = JSON.parse(out.text);
  t.equal(body.state, 'stale');
  t.same(body.fingerprint, {
    stored: contentPrint(FILES),
    computed: contentPrint({ ...FILES, 'scanner.ts': 'export const scan = 2;\n' }),
  });
  writeFileSync(join(dir, 'new.ts'), '');
  utimesSync(join(dir, 'scanner.ts'), 1, 1);
  t.equal(JSON.parse(checkFreshnessText(root, 'src/core', undefined).text).state, 'stale', 'a new file too');
});

t.test("a fingerprint written by dotcontext (stat-based) is accepted until the directory changes", async (t) => {
  const root = t.testdir({ src: { core: { ...FILES, '.context.yaml': context('00000000') } } });
  const dir = join(root, 'src/core');
  const theirs = statPrint(dir);
  writeFileSync(join(dir, '.context.yaml'), context(theirs));
  const body = JSON.parse(checkFreshnessText(root, 'src/core', undefined).text);
  t.equal(body.state, 'fresh');
  t.same(body.fingerprint, { stored: theirs, computed: theirs }, 'computed names the fingerprint that matched');
  writeFileSync(join(dir, 'schema.ts'), 'changed');
  t.equal(JSON.parse(checkFreshnessText(root, 'src/core', undefined).text).state, 'stale');
});

t.test('missing, traversal, unsupported, corrupt: state "missing" with the seed\'s errors', async (t) => {
  const root = t.testdir({
    v2: { '.context.yaml': context('x').replace('version: 1', 'version: 2') },
    bad: { '.context.yaml': context('x', 'unknown_field: 1\n') },
    nofp: { '.context.yaml': context('x').replace(/fingerprint.*\n/, '') },
  });
  const cases: [string, string][] = [
    ['src/unknown', 'No .context.yaml found at scope "src/unknown". This scope may be below the min_tokens threshold; use list_contexts to see eligible scopes.'],
    ['../../etc', 'Invalid scope: path traversal detected'],
    ['v2', 'Unsupported schema version 2 (this tool supports version 1). Upgrade dotcontext to read this file.'],
    ['bad', 'Invalid or corrupt .context.yaml at scope "bad"'],
    ['nofp', 'Invalid or corrupt .context.yaml at scope "nofp"'],
  ];
  for (const [scope, error] of cases) {
    const out = checkFreshnessText(root, scope, undefined);
    t.equal(out.isError, true, `${scope}: isError`);
    t.equal(out.text, `{\n  "scope": "${scope}",\n  "state": "missing",\n  "error": ${JSON.stringify(error)}\n}\n`, scope);
  }
});

t.test('a .context.yaml symlinked from outside the root is not read', async (t) => {
  const dir = t.testdir({
    outside: { '.context.yaml': context('x') },
    project: { a: { 'f.ts': 'x', '.context.yaml': t.fixture('symlink', '../../outside/.context.yaml') } },
  });
  t.equal(JSON.parse(checkFreshnessText(join(dir, 'project'), 'a', undefined).text).state, 'missing');
});

t.test('files the root .gitignore ignores do not make a scope stale', async (t) => {
  const root = t.testdir({ '.gitignore': '*.log\n', src: { ...FILES, '.context.yaml': context(contentPrint(FILES)) } });
  writeFileSync(join(root, 'src/run.log'), 'noise');
  t.equal(JSON.parse(checkFreshnessText(root, 'src', undefined).text).state, 'fresh');
});
