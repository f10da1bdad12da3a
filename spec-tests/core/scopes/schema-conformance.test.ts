// Checks issue 5 "Done when: every dotcontext conformance case classifies as its
// .meta.json says" — every case under spec-tests/fixtures/dotcontext-conformance, read from
// disk so a new case is covered without touching this file — and the version guard.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyContextText } from '../../../lib/core/scopes/api.js';

const SUITE = new URL('../../fixtures/dotcontext-conformance/', import.meta.url).pathname;

interface Meta {
  readonly expected: 'valid' | 'invalid';
  readonly category: string;
}

const cases: { group: string; name: string; meta: Meta; text: string }[] = [];
for (const group of ['valid', 'invalid']) {
  for (const file of readdirSync(join(SUITE, group)).sort()) {
    if (!file.endsWith('.meta.json')) continue;
    const name = file.slice(0, -'.meta.json'.length);
    const meta = JSON.parse(readFileSync(join(SUITE, group, file), 'utf8')) as Meta;
    cases.push({ group, name, meta, text: readFileSync(join(SUITE, group, `${name}.yaml`), 'utf8') });
  }
}

t.test('the suite is all there', async (t) => {
  t.equal(cases.filter((c) => c.meta.expected === 'valid').length, 7, '7 valid cases');
  t.equal(cases.filter((c) => c.meta.expected === 'invalid').length, 15, '15 invalid cases');
});

for (const c of cases) {
  t.test(`${c.group}/${c.name} is ${c.meta.expected} (${c.meta.category})`, async (t) => {
    const verdict = classifyContextText(c.text);
    if (c.meta.expected === 'valid') {
      t.equal(verdict.kind, 'valid');
    } else {
      t.not(verdict.kind, 'valid');
      // Seed 003: a newer version is "unsupported schema version", distinct from corrupt.
      t.equal(verdict.kind, c.meta.category === 'version-guard' ? 'unsupported' : 'corrupt');
    }
  });
}

t.test("dotcontext's own .context.yaml files in the suite are valid", async (t) => {
  for (const rel of ['.context.yaml', 'valid/.context.yaml', 'invalid/.context.yaml']) {
    t.equal(classifyContextText(readFileSync(join(SUITE, rel), 'utf8')).kind, 'valid', rel);
  }
});

const base = 'last_updated: "x"\nfingerprint: "abc12345"\nscope: "."\nsummary: "s"\nmaintenance: "m"\n';

t.test('version guard: numeric versions above 1 are unsupported, anything else wrong is corrupt', async (t) => {
  t.same(classifyContextText('version: 2\n' + base), { kind: 'unsupported', version: 2 });
  t.same(classifyContextText('version: 3\nextra: 1\n'), { kind: 'unsupported', version: 3 }, 'whatever else the file holds');
  t.equal(classifyContextText('version: 0\n' + base).kind, 'corrupt');
  t.equal(classifyContextText('version: "2"\n' + base).kind, 'corrupt', 'a string version is a type error');
  t.equal(classifyContextText('version: 1.0\n' + base).kind, 'valid', '1.0 is the number 1');
});

t.test('strictness the JSON Schema implies', async (t) => {
  t.equal(classifyContextText('version: 1\n' + base).kind, 'valid');
  t.equal(classifyContextText('version: 1\n' + base + 'files: ~\n').kind, 'corrupt', 'null is not an array');
  t.equal(classifyContextText('version: 1\n' + base + 'summary: "again"\n').kind, 'corrupt', 'duplicate key');
  t.equal(classifyContextText('version: 1\n' + base + '---\nversion: 1\n').kind, 'corrupt', 'two documents');
  t.equal(classifyContextText('version: 1\n' + base + 'dependencies: {other: []}\n').kind, 'corrupt', 'nested unknown key');
  t.equal(classifyContextText('version: 1\n' + base + 'evidence: {collected_at: x, test_count: 1.5}\n').kind, 'corrupt');
  t.equal(classifyContextText('version: 1\n' + base + 'evidence: {collected_at: x, lint_status: dirty}\n').kind, 'corrupt');
  t.equal(classifyContextText('version: 1\n' + base + 'evidence: {collected_at: x, coverage_percent: .nan}\n').kind, 'corrupt');
  t.equal(classifyContextText('- a\n- b\n').kind, 'corrupt', 'not a mapping');
  t.equal(classifyContextText('').kind, 'corrupt', 'empty file');
});

t.test('a valid context comes back with keys in schema order', async (t) => {
  const verdict = classifyContextText('maintenance: m\nsummary: s\nscope: "."\nfingerprint: f\nlast_updated: x\nversion: 1\nfiles: [{purpose: p, name: n}]\n');
  t.equal(verdict.kind, 'valid');
  if (verdict.kind !== 'valid') return;
  t.same(Object.keys(verdict.context), ['version', 'last_updated', 'fingerprint', 'scope', 'summary', 'files', 'maintenance']);
  t.same(Object.keys((verdict.context['files'] as Record<string, unknown>[])[0] ?? {}), ['name', 'purpose']);
});
