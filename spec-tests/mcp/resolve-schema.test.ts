// Checks "Answers that fit, by default", Done when: "`omitted` and merged entries are in the
// JSON schema, the MCP outputSchema, the text format and the docs". Real answers of a v1
// section cache — one with merged entries, one with an omitted list and raise_budget_to —
// pass context.resolve's outputSchema (Ajv, draft-07 and 2020-12, strict), the schema names
// the new keys, and wrong shapes of them fail it. Since issue 43 the schema is oneOf the lean
// answer (the default), the explained one (explain: true), {"markdown": TEXT} and the error:
// real answers of each form pass it, and each matches exactly its own branch.
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
  type Answer = { documents: Record<string, unknown>[]; selection: Record<string, unknown> };
  // The explained answers (explain, resolveText's 7th argument) carry merged and omitted entries in full.
  const merged = JSON.parse(resolveText(cache, 'kiwi', 100_000, 'json', undefined, undefined, true)) as Answer;
  t.ok(merged.documents.some((d) => Array.isArray(d['merged'])), 'an answer with a merged entry');
  const omitted = JSON.parse(resolveText(cache, 'kiwi', 300, 'json', undefined, undefined, true)) as Answer;
  t.ok(Array.isArray(omitted.selection['omitted']) && typeof omitted.selection['raise_budget_to'] === 'number', 'an answer with omitted units');
  // The lean answers (the default) of the same calls: omitted ids as strings.
  const leanAll = JSON.parse(resolveText(cache, 'kiwi', 100_000)) as Answer;
  const leanOmitted = JSON.parse(resolveText(cache, 'kiwi', 300)) as Answer;
  t.ok(leanAll.documents.length > 0 && leanAll.documents.every((d) => typeof d['version'] === 'string' && /^[0-9a-f]{8}$/.test(d['version'] as string)), 'a lean answer: 8-hex versions');
  t.ok(Array.isArray(leanOmitted.selection['omitted']) && (leanOmitted.selection['omitted'] as unknown[]).every((o) => typeof o === 'string') && typeof leanOmitted.selection['raise_budget_to'] === 'number', 'a lean answer with omitted ids');
  const markdown = { markdown: resolveText(cache, 'kiwi', 300, 'markdown') };

  type Shape = { required?: string[]; properties: Record<string, { items?: { properties: Record<string, unknown> }; properties?: Record<string, unknown> }> };
  const schema = resolveTool.outputSchema as unknown as { oneOf: Shape[] };
  t.equal(schema.oneOf.length, 4, 'oneOf: lean, explained, markdown, error');
  const [lean, shape, md] = schema.oneOf as [Shape, Shape, Shape];
  t.ok('merged' in (shape.properties['documents']?.items?.properties ?? {}), 'the explained schema names documents[].merged');
  t.ok('omitted' in (shape.properties['selection']?.properties ?? {}) && 'raise_budget_to' in (shape.properties['selection']?.properties ?? {}), 'the explained schema names selection.omitted and raise_budget_to');
  for (const key of ['id', 'version', 'under', 'matched', 'tokens', 'content']) t.ok(key in (lean.properties['documents']?.items?.properties ?? {}), `the lean schema names documents[].${key}`);
  for (const key of ['budget', 'answer_tokens', 'budget_scope', 'tokens_used', 'over_budget', 'matched', 'omitted', 'raise_budget_to']) t.ok(key in (lean.properties['selection']?.properties ?? {}), `the lean schema names selection.${key}`);
  t.same(md.required, ['markdown'], 'the Markdown branch: {"markdown": TEXT}');

  for (const [name, ajv] of [['draft-07', new Ajv({ strict: true, strictRequired: true, allowUnionTypes: true })], ['2020-12', new Ajv2020({ strict: true, strictRequired: true, allowUnionTypes: true })]] as const) {
    const valid = ajv.compile(resolveTool.outputSchema);
    t.ok(valid(merged), `${name}: the merged answer passes`);
    t.ok(valid(omitted), `${name}: the answer with omitted units passes`);
    t.ok(valid(leanAll), `${name}: the lean answer passes`);
    t.ok(valid(leanOmitted), `${name}: the lean answer with omitted ids passes`);
    t.ok(valid(markdown), `${name}: the Markdown answer passes`);
    // Each form matches its own branch only (oneOf).
    const branches = schema.oneOf.map((b) => ajv.compile(b as never));
    const matching = (value: unknown): number[] => branches.flatMap((v, i) => (v(value) ? [i] : []));
    t.same(matching(leanOmitted), [0], `${name}: a lean answer is the lean branch`);
    t.same(matching(omitted), [1], `${name}: an explained answer is the explained branch`);
    t.same(matching(markdown), [2], `${name}: a Markdown answer is the Markdown branch`);
    const leanBad: [string, unknown][] = [
      ['a full "sha256:" version in a lean entry', { ...leanAll, documents: leanAll.documents.map((d) => ({ ...d, version: `sha256:${'0'.repeat(64)}` })) }],
      ['omitted units as objects in a lean answer', { ...leanOmitted, selection: { ...leanOmitted.selection, omitted: [{ id: 'guide.md#one' }] } }],
      ['over_budget: false', { ...leanAll, selection: { ...leanAll.selection, over_budget: false } }],
      ['a lean entry without matched', { ...leanAll, documents: leanAll.documents.map(({ matched: _m, ...d }) => d) }],
    ];
    for (const [what, value] of leanBad) t.notOk(valid(value), `${name}: ${what} fails`);
    const list = omitted.selection['omitted'] as Record<string, unknown>[];
    const bad: [string, unknown][] = [
      ['an omitted unit without tokens', { ...omitted, selection: { ...omitted.selection, omitted: [{ ...list[0], tokens: undefined }].map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))) } }],
      ['a string raise_budget_to', { ...omitted, selection: { ...omitted.selection, raise_budget_to: '900' } }],
      ['merged units as strings', { ...merged, documents: merged.documents.map((d) => ('merged' in d ? { ...d, merged: ['guide.md#one'] } : d)) }],
    ];
    for (const [what, value] of bad) t.notOk(valid(value), `${name}: ${what} fails`);
  }
});
