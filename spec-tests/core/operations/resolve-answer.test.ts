// Checks "Answers that fit, by default" (What to build, items 3 and 6) through the call both
// faces make (lib/core/operations/api.ts resolveText):
// - item 3 "Nothing good dropped silently": "When units that rank above the last selected one
//   were left out for the budget, the selection says which (a documented `omitted` list, at
//   most a few entries: id, path, tokens, score), and `--format text` says 'raise the budget
//   to N to include X'"; raising the budget to that N includes X;
// - item 3 "Adjacent selected units of one file come out merged into one entry, in reading
//   order, with one trail" (docs/engine.md "What the answer leaves out, and merged entries");
// - item 6 "For v1 caches the default budget scope is the whole answer, counted in the
//   cache's tokenizer, for the format actually printed (json, pretty, text); --budget-scope
//   content keeps the old rule", and v0 caches answer as before, byte for byte.
import t from 'tap';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveText, type AnswerFormat } from '../../../lib/core/operations/api.js';
import { buildV1 } from '../engine/v1/fixture.js';

interface Omitted {
  id: string;
  path: string;
  tokens: number;
  score: number;
}
interface Doc {
  id: string;
  content: string;
  score: number;
  tokens: number;
  path: string;
  trail?: string[];
  merged?: { id: string }[];
}
interface Answer {
  documents: Doc[];
  selection: Record<string, unknown> & { omitted?: (Omitted | string)[]; raise_budget_to?: number; tokens_used: number; answer_tokens?: number };
}

const answerOf = (text: string): Answer => JSON.parse(text) as Answer;
const bytes4 = (text: string): number => Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
const FORMATS: readonly AnswerFormat[] = ['json', 'pretty', 'text'];
const V0_FIXTURES = fileURLToPath(new URL('../../fixtures/compat-v0/caches/', import.meta.url));

// One long page that ranks first for "kiwi", and short ones that also match.
const CORPUS = {
  'kiwi.md': '# Kiwi\n\n' + 'The kiwi is a fruit with a brown skin and green flesh. '.repeat(40),
  // Their paths and headings name kiwi too, so they score over half the long page's score:
  // after it is skipped they are no filler (docs/engine.md "No filler") and are taken.
  'kiwi-apple.md': '# Apple kiwi\n\nNot a kiwi.\n',
  'kiwi-berry.md': '# Berry kiwi\n\nA kiwi and a lime.\n',
  'c.md': '# Cherry\n\nNothing here.\n',
};

/** The selected entries' ids of a printed answer in any format. */
function selectedIds(text: string, format: AnswerFormat): string[] {
  if (format !== 'text') return answerOf(text).documents.map((d) => d.id);
  return [...text.matchAll(/^ {0,2}\d+ {2}(\S+) /gm)].map((m) => m[1] as string);
}

/** Every selected unit's id, a merged entry's units included. */
function selectedUnits(text: string, format: AnswerFormat): string[] {
  if (format !== 'text') return answerOf(text).documents.flatMap((d) => d.merged?.map((m) => m.id) ?? [d.id]);
  const joined = [...text.matchAll(/^ {5}joins: (.*)$/gm)].flatMap((m) => (m[1] as string).split(' + '));
  return [...selectedIds(text, format), ...joined];
}

/** The best omitted unit and the budget said to include it, in any format (null when none). */
function raiseOf(text: string, format: AnswerFormat): { id: string; budget: number } | null {
  if (format === 'text') {
    const m = /^raise the budget to ([0-9,]+) to include (\S+)$/m.exec(text);
    return m === null ? null : { id: m[2] as string, budget: Number((m[1] as string).replace(/,/g, '')) };
  }
  const s = answerOf(text).selection;
  const first = s.omitted?.[0];
  // The lean answer names an omitted unit by its id; the explained one as {id, path, tokens, score}.
  return first === undefined || s.raise_budget_to === undefined ? null : { id: typeof first === 'string' ? first : first.id, budget: s.raise_budget_to };
}

t.test('item 3: the top unit over budget is named first in omitted; the printed budget includes it (content scope: exactly the least)', async (t) => {
  const dir = t.testdir({ src: CORPUS });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const full = answerOf(resolveText(cache, 'kiwi', 100_000, 'json', undefined, 'content', true));
  const top = full.documents[0] as Doc;
  t.equal(top.id, 'kiwi.md', 'the long page ranks first');
  t.ok(full.documents.slice(1).every((d) => d.tokens < 20), 'the others are short');
  t.notOk('omitted' in full.selection, 'nothing better dropped: no omitted list');

  const small = answerOf(resolveText(cache, 'kiwi', 40, 'json', undefined, 'content', true));
  t.notOk(small.documents.some((d) => d.id === top.id), 'the top unit does not fit 40 tokens');
  t.ok(small.documents.length > 0, 'smaller units after it do');
  const omitted = small.selection.omitted ?? [];
  t.same(omitted[0], { id: top.id, path: 'kiwi.md', tokens: top.tokens, score: top.score }, 'listed first: id, path, tokens, score');
  t.ok(omitted.length <= 3, 'at most 3');
  t.same(Object.keys(small.selection).slice(-2), ['omitted', 'raise_budget_to']);
  // Content scope: every unit above it was taken and stays taken, so it enters at exactly
  // what they used plus its own tokens.
  const usedAbove = 0;
  t.equal(small.selection.raise_budget_to, usedAbove + top.tokens);
  const at = answerOf(resolveText(cache, 'kiwi', small.selection.raise_budget_to as number, 'json', undefined, 'content', true));
  t.equal(at.documents[0]?.id, top.id, 'at the printed budget it is included, first');
  const below = answerOf(resolveText(cache, 'kiwi', (small.selection.raise_budget_to as number) - 1, 'json', undefined, 'content', true));
  t.notOk(below.documents.some((d) => d.id === top.id), 'one token less: not included (the least such budget)');

  const text = resolveText(cache, 'kiwi', 40, 'text', undefined, 'content', true);
  t.match(text, /\nbetter matches left out by the budget:\n {2}- {2}kiwi\.md {2}score [0-9.]+ {2}\d+ tokens\n/);
  t.match(text, new RegExp(`\\nraise the budget to ${small.selection.raise_budget_to} to include kiwi\\.md\\n`));

  // Budget 0: nothing selected; the best matches are named, best first.
  const zero = answerOf(resolveText(cache, 'kiwi', 0, 'json', undefined, 'content', true));
  t.same(zero.documents, []);
  t.same(zero.selection.omitted?.map((o) => (o as Omitted).id), full.documents.slice(0, 3).map((d) => d.id), 'the 3 best, in rank order');
  t.equal(zero.selection.raise_budget_to, top.tokens);
});

t.test('item 3 + item 6: in answer scope, in every format, the printed budget to raise to includes the omitted unit', async (t) => {
  const dir = t.testdir({ src: CORPUS });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { tokenizer: 'o200k_base' });
  for (const format of FORMATS) {
    let cases = 0;
    for (let budget = 0; budget <= 1200; budget += 40) {
      const text = resolveText(cache, 'kiwi', budget, format);
      const raise = raiseOf(text, format);
      if (raise === null) continue;
      cases++;
      t.notOk(selectedUnits(text, format).includes(raise.id), `${format} ${budget}: ${raise.id} is left out`);
      t.ok(raise.budget > budget, `${format} ${budget}: raise to ${raise.budget}`);
      const raised = resolveText(cache, 'kiwi', raise.budget, format);
      t.ok(selectedUnits(raised, format).includes(raise.id), `${format}: at ${raise.budget}, ${raise.id} is in the answer`);
    }
    t.ok(cases > 0, `${format}: ${cases} budgets left the best unit out`);
  }
});

t.test('item 3: adjacent selected sections of one file merge into one entry, in reading order, with one trail', async (t) => {
  const filler = (word: string): string => `${word} `.repeat(120).trim();
  const guide =
    '# Guide\n\n' + filler('intro') + '\n\n' +
    '## One\n\nkiwi here. ' + filler('alpha') + '\n\n' +
    '## Two\n\nkiwi kiwi there. ' + filler('beta') + '\n\n' +
    '## Three\n\n' + filler('gamma') + '\n\n' +
    '## Four\n\nkiwi at last. ' + filler('delta') + '\n';
  const dir = t.testdir({ src: { 'guide.md': guide, 'other.md': '# Other\n\nkiwi kiwi kiwi.\n' } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  // Each section alone: a word only it holds selects it by itself.
  const alone = (word: string): Doc => answerOf(resolveText(cache, word, 100_000, 'json', undefined, 'content', true)).documents[0] as Doc;
  const one = alone('alpha');
  const two = alone('beta');
  t.same([one.id, two.id], ['guide.md#one', 'guide.md#two']);
  const a = answerOf(resolveText(cache, 'kiwi', 100_000, 'json', undefined, 'content', true));
  const ids = a.documents.map((d) => d.id);
  t.ok(ids.includes('guide.md#one'), 'the merged entry has the first unit\'s id');
  t.notOk(ids.includes('guide.md#two'), 'the second unit is inside it');
  t.ok(ids.includes('guide.md#four'), 'a unit not adjacent to them stays its own entry');
  const merged = a.documents.find((d) => d.id === 'guide.md#one') as Doc;
  t.same(merged.merged, [{ id: 'guide.md#one' }, { id: 'guide.md#two' }], 'the merged units, in reading order, each by its id');
  const start = guide.indexOf('## One');
  t.equal(merged.content, guide.slice(start, guide.indexOf('## Three')), 'content: both sections, as in the file');
  t.same(merged.trail, ['Guide', 'One'], 'one trail: the first unit\'s');
  t.equal(merged.tokens, one.tokens + two.tokens, 'tokens: the units\' counts added');
  t.ok(merged.score >= (a.documents[a.documents.indexOf(merged) + 1]?.score ?? 0), 'the entry stands at its best unit\'s rank');
  t.ok(a.documents.indexOf(merged) < ids.indexOf('guide.md#four'), 'two (kiwi twice) outranks four (once): the merged entry comes first');
  t.ok(merged.tokens >= bytes4(merged.content) + bytes4((merged.trail ?? []).join(' > ')), 'what was charged covers what is printed');
  t.equal(a.selection.tokens_used, a.documents.reduce((n, d) => n + d.tokens, 0), 'tokens_used is still the sum of the entries');
  t.equal(a.selection['documents_selected'], a.documents.length);
  t.equal(a.selection['documents_excluded_by_budget'], 0, 'counted in units: none left out');
  const text = resolveText(cache, 'kiwi', 100_000, 'text', undefined, 'content', true);
  t.match(text, /\n {5}joins: guide\.md#one \+ guide\.md#two\n/);
  t.match(text, /\nselected \d+ entries \(\d+ units\) of \d+ matching/);
  // In answer scope (the default) the merged answer is what is counted.
  for (const format of FORMATS) {
    const printed = resolveText(cache, 'kiwi', 100_000, format);
    t.ok(selectedIds(printed, format).includes('guide.md#one') && !selectedIds(printed, format).includes('guide.md#two'), `${format}: merged too`);
  }
});

t.test('item 6: v1 answers bound the whole printed answer by default, in each format; content scope keeps the old rule', async (t) => {
  const dir = t.testdir({ src: CORPUS });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  for (const budget of [60, 150, 300, 700, 2000]) {
    for (const format of FORMATS) {
      const printed = resolveText(cache, 'kiwi lime', budget, format);
      // Text shows the JSON answer at this budget, and counts it.
      const counted = format === 'text' ? resolveText(cache, 'kiwi lime', budget, 'json') : printed;
      const said = format === 'text' ? Number(/the JSON answer is ([0-9,]+) of/.exec(printed)?.[1]?.replace(/,/g, '')) : answerOf(printed).selection.answer_tokens;
      t.equal(said, bytes4(counted), `${format} ${budget}: answer_tokens is the printed answer's own count`);
      if (selectedIds(printed, format).length > 0) t.ok(bytes4(counted) <= budget, `${format} ${budget}: within the budget`);
    }
    const content = answerOf(resolveText(cache, 'kiwi lime', budget, 'json', undefined, 'content', true));
    t.notOk('budget_scope' in content.selection, 'content scope, explained: as before, no budget_scope');
    const lean = answerOf(resolveText(cache, 'kiwi lime', budget, 'json', undefined, 'content'));
    t.equal(lean.selection['budget_scope'], 'content', 'content scope, lean: says so');
    t.ok(content.selection.tokens_used <= budget);
  }
});

t.test('item 6: v0 caches keep v0\'s rule and bytes: no omitted list, no answer scope', async (t) => {
  const cache = join(V0_FIXTURES, 'realistic');
  for (const budget of [0, 7, 12, 4000]) {
    const json = resolveText(cache, 'deployment security', budget);
    t.equal(json, resolveText(cache, 'deployment security', budget, 'json', undefined, 'content', true), `${budget}: the default is content scope`);
    t.notOk(/"omitted"|"budget_scope"|"merged"/.test(json), `${budget}: only v0's fields`);
    t.notOk(resolveText(cache, 'deployment security', budget, 'text').includes('left out by the budget:'), `${budget}: the text names nothing either`);
  }
  t.throws(() => resolveText(cache, 'deployment', 10, 'json', undefined, 'answer'), { code: 'invalid_budget' });
});
