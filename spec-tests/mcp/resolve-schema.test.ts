// Checks "Answers that fit, by default", Done when: "`omitted` and merged entries are in the
// JSON schema, the MCP outputSchema, the text format and the docs". Real answers of a v1
// section cache — one with merged entries, one with an omitted list and raise_budget_to —
// pass context.resolve's outputSchema (Ajv, draft-07 and 2020-12, strict), the schema names
// the new keys, and wrong shapes of them fail it.
import t from 'tap';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { resolveText } from '../../lib/core/operations/api.js';
import { resolveTool } from '../../lib/mcp/tools/resolve.js';
import { buildV1 } from '../core/engine/v1/fixture.js';

const filler = (word: string): string => `${word} `.repeat(120).trim();
const GUIDE = '# Guide\n\n## One\n\nkiwi here. ' + filler('alpha') + '\n\n## Two\n\nkiwi there. ' + filler('beta') + '\n\n## Three\n\n' + filler('gamma') + '\n';

t.test('omitted, raise_budget_to and merged entries pass the outputSchema; wrong shapes fail it', async (t) => {
  const dir = t.testdir({ src: { 'guide.md': GUIDE, 'big.md': '# Kiwi\n\n' + 'kiwi kiwi fruit. '.repeat(200) } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  const merged = JSON.parse(resolveText(cache, 'kiwi', 100_000)) as { documents: Record<string, unknown>[]; selection: Record<string, unknown> };
  t.ok(merged.documents.some((d) => Array.isArray(d['merged'])), 'an answer with a merged entry');
  const omitted = JSON.parse(resolveText(cache, 'kiwi', 300)) as { documents: Record<string, unknown>[]; selection: Record<string, unknown> };
  t.ok(Array.isArray(omitted.selection['omitted']) && typeof omitted.selection['raise_budget_to'] === 'number', 'an answer with omitted units');

  const schema = resolveTool.outputSchema as unknown as { oneOf: { properties: Record<string, { items?: { properties: Record<string, unknown> }; properties?: Record<string, unknown> }> }[] };
  const shape = schema.oneOf[0]!;
  t.ok('merged' in (shape.properties['documents']?.items?.properties ?? {}), 'the schema names documents[].merged');
  t.ok('omitted' in (shape.properties['selection']?.properties ?? {}) && 'raise_budget_to' in (shape.properties['selection']?.properties ?? {}), 'the schema names selection.omitted and raise_budget_to');

  for (const [name, ajv] of [['draft-07', new Ajv({ strict: true, strictRequired: true, allowUnionTypes: true })], ['2020-12', new Ajv2020({ strict: true, strictRequired: true, allowUnionTypes: true })]] as const) {
    const valid = ajv.compile(resolveTool.outputSchema);
    t.ok(valid(merged), `${name}: the merged answer passes`);
    t.ok(valid(omitted), `${name}: the answer with omitted units passes`);
    const list = omitted.selection['omitted'] as Record<string, unknown>[];
    const bad: [string, unknown][] = [
      ['an omitted unit without tokens', { ...omitted, selection: { ...omitted.selection, omitted: [{ ...list[0], tokens: undefined }].map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))) } }],
      ['a string raise_budget_to', { ...omitted, selection: { ...omitted.selection, raise_budget_to: '900' } }],
      ['merged units as strings', { ...merged, documents: merged.documents.map((d) => ('merged' in d ? { ...d, merged: ['guide.md#one'] } : d)) }],
    ];
    for (const [what, value] of bad) t.notOk(valid(value), `${name}: ${what} fails`);
  }
});
