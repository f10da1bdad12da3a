// Checks seed 003 "query_context": the success, filtered, missing, path-traversal,
// unsupported-version and corrupt-file responses (shapes, exact error texts, field order),
// `isError: !result.found`, backslash normalisation, and the output bytes (pretty + "\n").
import t from 'tap';
import { queryContextText } from '../../../lib/core/scopes/api.js';

const CORE = `# hand-written notes survive reads
version: 1
last_updated: "2026-02-13T10:00:00Z"
fingerprint: "a3f8b2c1"
scope: "src/core"
summary: "Core scanning, fingerprinting, and schema validation."
maintenance: "Keep updated"
decisions:
  - what: "Fingerprint uses stat() only"
    why: "Performance"
files:
  - name: "scanner.ts"
    purpose: "Walks the tree"
evidence:
  collected_at: "2026-02-13T10:00:00Z"
  coverage_percent: 87.5
`;

const fixture = {
  src: { core: { '.context.yaml': CORE, 'scanner.ts': 'export {};\n' } },
  v2: { '.context.yaml': CORE.replace('version: 1', 'version: 2') },
  bad: { '.context.yaml': 'version: 1\nsummary: [unclosed\n' },
};

t.test('success: the whole context, metadata first, then schema order', async (t) => {
  const root = t.testdir(fixture);
  const out = queryContextText(root, 'src/core', undefined, undefined);
  t.equal(out.isError, false);
  t.equal(
    out.text,
    `{
  "found": true,
  "scope": "src/core",
  "context": {
    "version": 1,
    "scope": "src/core",
    "fingerprint": "a3f8b2c1",
    "last_updated": "2026-02-13T10:00:00Z",
    "summary": "Core scanning, fingerprinting, and schema validation.",
    "files": [
      {
        "name": "scanner.ts",
        "purpose": "Walks the tree"
      }
    ],
    "maintenance": "Keep updated",
    "decisions": [
      {
        "what": "Fingerprint uses stat() only",
        "why": "Performance"
      }
    ],
    "evidence": {
      "collected_at": "2026-02-13T10:00:00Z",
      "coverage_percent": 87.5
    }
  }
}
`,
  );
});

t.test('filtered: metadata always, plus only the requested filterable fields', async (t) => {
  const root = t.testdir(fixture);
  const out = queryContextText(root, 'src/core', ['decisions', 'summary', 'evidence', 'nonsense'], undefined);
  t.equal(out.isError, false);
  const body = JSON.parse(out.text) as { context: Record<string, unknown> };
  t.same(Object.keys(body.context), ['version', 'scope', 'fingerprint', 'last_updated', 'summary', 'decisions'],
    'evidence is not filterable; unknown names are ignored; order is the schema\'s');
  t.same(body.context['decisions'], [{ what: 'Fingerprint uses stat() only', why: 'Performance' }]);
  const empty = queryContextText(root, 'src/core', [], undefined);
  t.equal(empty.text, queryContextText(root, 'src/core', undefined, undefined).text, 'an empty filter returns everything');
});

t.test('missing context: the seed\'s exact error', async (t) => {
  const root = t.testdir(fixture);
  const out = queryContextText(root, 'src/unknown', undefined, undefined);
  t.equal(out.isError, true);
  t.equal(
    out.text,
    '{\n  "found": false,\n  "scope": "src/unknown",\n  "error": "No .context.yaml found at scope \\"src/unknown\\". ' +
      'This scope may be below the min_tokens threshold; use list_contexts to see eligible scopes."\n}\n',
  );
});

t.test('path traversal is refused before any read', async (t) => {
  const root = t.testdir(fixture);
  for (const scope of ['../../etc', '..', '/etc', 'src/../../x', '..\\..\\etc']) {
    const out = queryContextText(root, scope, undefined, undefined);
    t.equal(out.isError, true, scope);
    t.same(JSON.parse(out.text), { found: false, scope: scope.replace(/\\/g, '/'), error: 'Invalid scope: path traversal detected' });
  }
});

t.test('a symlink leading out of the root is traversal too', async (t) => {
  const dir = t.testdir({
    outside: { secret: { '.context.yaml': CORE } },
    project: { ...fixture, escape: t.fixture('symlink', '../outside/secret') },
  });
  const out = queryContextText(dir + '/project', 'escape', undefined, undefined);
  t.same(JSON.parse(out.text).error, 'Invalid scope: path traversal detected');
  t.equal(queryContextText(dir + '/project', 'src/core', undefined, undefined).isError, false, 'inside is fine');
});

t.test('unsupported schema version is its own error, not "corrupt"', async (t) => {
  const root = t.testdir(fixture);
  const out = queryContextText(root, 'v2', undefined, undefined);
  t.equal(out.isError, true);
  t.same(JSON.parse(out.text), {
    found: false,
    scope: 'v2',
    error: 'Unsupported schema version 2 (this tool supports version 1). Upgrade dotcontext to read this file.',
  });
});

t.test('corrupt file', async (t) => {
  const root = t.testdir(fixture);
  const out = queryContextText(root, 'bad', undefined, undefined);
  t.equal(out.isError, true);
  t.same(JSON.parse(out.text), { found: false, scope: 'bad', error: 'Invalid or corrupt .context.yaml at scope "bad"' });
});

t.test('backslashes are normalised to slashes', async (t) => {
  const root = t.testdir(fixture);
  const out = queryContextText(root, 'src\\core', ['summary'], undefined);
  t.equal(out.isError, false);
  t.equal(JSON.parse(out.text).scope, 'src/core');
});

t.test('path overrides the default root', async (t) => {
  const root = t.testdir(fixture);
  const out = queryContextText('/nonexistent-default', 'core', ['summary'], root + '/src');
  t.equal(out.isError, false);
});

t.test('arguments of the wrong type are errors in the same shape', async (t) => {
  const root = t.testdir(fixture);
  t.same(JSON.parse(queryContextText(root, 7, undefined, undefined).text), {
    found: false, scope: '', error: 'Invalid arguments: "scope" must be a string',
  });
  t.equal(queryContextText(root, 'src/core', 'summary', undefined).isError, true, 'filter must be an array');
  t.equal(queryContextText(root, 'src/core', undefined, 3).isError, true, 'path must be a string');
});
