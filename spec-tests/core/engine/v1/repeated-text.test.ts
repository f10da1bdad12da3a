// Checks docs/engine.md "Repeated text": a unit whose text is byte for byte that of a unit
// ranked above it leaves the order — never taken, never omitted, never a skip — and the
// explained answer names every matching unit holding an entry's text (`same_text`, id byte
// order, whatever the budget). The corpus copies npm's manual in small: one option section
// printed on three command pages, beside a section that differs from it by one character
// (same length and word count, so only the texts tell them apart).
import t from 'tap';
import { join } from 'node:path';
import { buildCacheV1 } from '../../../../lib/core/engine/v1/build.js';
import { openEngine } from '../../../../lib/core/engine/engine.js';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { openV1, type V1Cache } from '../../../../lib/core/engine/v1/load.js';
import { resolveV1 } from '../../../../lib/core/engine/v1/resolve.js';

// Each section longer than the 256 bytes under which a section joins its neighbour.
const OPTION = '## strict-peer-deps\n\nIf set to true, and --legacy-peer-deps is not set, then any conflicting peerDependencies will be treated as an install failure, even if npm could reasonably guess the appropriate resolution based on non-peer dependency relationships.\n\n';
const NEAR = OPTION.replace('install failure', 'install Failure'); // one letter apart
const page = (name: string, body: string): string => `# npm ${name}\n\nThe ${name} command installs packages in its own way, read its synopsis first. ${'Its description follows the synopsis and names every option it reads. '.repeat(4)}\n\n${body}`;

interface Doc {
  id: string;
  merged?: { id: string }[];
  same_text?: { id: string }[];
  same_text_count?: number;
}
interface Answer {
  documents: Doc[];
  selection: { omitted?: (string | { id: string })[]; matched?: number; documents_matched?: number; documents_excluded_by_budget?: number; answer_tokens: number };
}

t.test('engine.md "Repeated text": a repeated unit leaves the order; --explain names every copy', async (t) => {
  const dir = t.testdir({
    src: {
      'ci.md': page('ci', OPTION),
      'install.md': page('install', OPTION),
      'install-test.md': page('install-test', OPTION),
      'other.md': page('other', NEAR),
    },
  });
  const cache = join(dir, 'cache');
  await buildCacheV1({ sources: join(dir, 'src'), cache, force: false, createdAt: '2026-01-01T00:00:00Z', options: { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] } });
  const engine = openEngine(cache);
  t.teardown(() => engine.close());
  const query = 'strict peer deps conflicting failure'; // no page's own words: the copies tie
  const copies = ['ci.md#strict-peer-deps', 'install-test.md#strict-peer-deps', 'install.md#strict-peer-deps'];

  for (const budget of [60, 120, 400, 1_000_000]) {
    const lean = engine.resolve(query, budget, 'answer', { explain: false }) as unknown as Answer;
    const ids = lean.documents.map((d) => d.id);
    const omitted = (lean.selection.omitted ?? []).map((o) => (typeof o === 'string' ? o : o.id));
    t.ok(ids.filter((id) => copies.includes(id)).length <= 1, `${budget}: the option's text is printed at most once (${ids.join(', ')})`);
    t.ok([...ids, ...omitted].filter((id) => copies.includes(id)).length <= 1, `${budget}: no copy is named as left out beside it`);
    t.ok(lean.selection.answer_tokens <= budget || budget < 100, `${budget}: within the budget`);
  }

  // A budget that holds every distinct text: each once, and the near copy too. (Adjacent
  // units of one page print as one entry: `merged` names them.)
  const all = engine.resolve(query, 1_000_000, 'answer') as unknown as Answer;
  const unitsOf = (d: Doc): string[] => (d.merged ?? [{ id: d.id }]).map((m) => m.id);
  const printed = all.documents.flatMap(unitsOf);
  t.same(printed.filter((id) => id.endsWith('#strict-peer-deps')).sort(), ['ci.md#strict-peer-deps', 'other.md#strict-peer-deps'], 'the option once (its best copy, ties by id), and the text one letter apart');
  const best = all.documents.find((d) => unitsOf(d).includes('ci.md#strict-peer-deps'));
  t.same(best?.same_text, [{ id: 'install-test.md#strict-peer-deps' }, { id: 'install.md#strict-peer-deps' }], 'its entry names the other copies, in id byte order');
  t.equal(all.documents.find((d) => unitsOf(d).includes('other.md#strict-peer-deps'))?.same_text, undefined, 'a text that differs names none');
  const named = all.documents.reduce((n, d) => n + (d.same_text?.length ?? 0), 0);
  t.equal(printed.length + named, all.selection.documents_matched, 'every matching unit is printed or named as holding a printed text');
  t.equal(all.selection.documents_excluded_by_budget, 0, 'the named copies are not counted as left out for the budget');

  // The copies are named whatever the budget: a small explained answer names the same two.
  // (The explained entry is large: the least budget that holds it is what a 400-token answer
  // says to raise to; the copies ranked after it were never reached by that choice.)
  const raise = (engine.resolve(query, 400, 'answer') as unknown as Answer & { selection: { raise_budget_to?: number } }).selection.raise_budget_to as number;
  const small = engine.resolve(query, raise, 'answer') as unknown as Answer;
  const smallBest = small.documents.find((d) => unitsOf(d).includes('ci.md#strict-peer-deps'));
  t.ok(smallBest !== undefined, `${raise} tokens hold the option`);
  t.same(smallBest?.same_text, best?.same_text, `the same list at ${raise} tokens`);

  // The copy that ranks best answers: asked with "install", a word of install.md's title.
  const withTitle = engine.resolve('strict peer deps install', 1_000_000, 'answer') as unknown as Answer;
  const titled = withTitle.documents.find((d) => unitsOf(d).some((id) => copies.includes(id)));
  t.ok(titled !== undefined && unitsOf(titled).includes('install.md#strict-peer-deps'), 'install.md\'s copy answers when install.md ranks best');
  t.same(titled?.same_text, [{ id: 'ci.md#strict-peer-deps' }, { id: 'install-test.md#strict-peer-deps' }], 'and names the other two');

  // The text form shows them on the entry.
  const text = resolveText(cache, query, 1_000_000, 'text');
  t.match(text, /same text at: install-test\.md#strict-peer-deps, install\.md#strict-peer-deps\n/, '--format text: a "same text at:" line');
  // The lean answer spends nothing on them.
  const lean = resolveText(cache, query, 1_000_000, 'json');
  t.notMatch(lean, /same_text/, 'the lean answer does not list them');
});

t.test('engine.md "Repeated text": many copies are named up to 3, counted, and each document is read once per answer', async (t) => {
  // One option section repeated on 10 pages, and one page of 2,000 identical sections: before
  // the texts were looked up per shape and each document read once per answer, the big page
  // was read again for every unit compared (the soak's 100 MB page did not answer in 5 min).
  const src: Record<string, string> = {};
  for (let i = 0; i < 10; i++) src[`cmd-${String(i).padStart(2, '0')}.md`] = page(`cmd-${i}`, OPTION);
  src['big.md'] = Array.from({ length: 2000 }, () => `## Kiwi\n\nThe kiwi section says the same thing every time, ${'over and over, '.repeat(16)}kiwi.\n\n`).join('');
  const dir = t.testdir({ src });
  const cacheDir = join(dir, 'cache');
  await buildCacheV1({ sources: join(dir, 'src'), cache: cacheDir, force: false, createdAt: '2026-01-01T00:00:00Z', options: { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] } });

  const cache = openV1(cacheDir);
  t.teardown(() => cache.close());
  const reads = new Map<number, number>();
  const counted: V1Cache = { ...cache, text: (doc: number) => (reads.set(doc, (reads.get(doc) ?? 0) + 1), cache.text(doc)) };
  const bigDoc = Array.from({ length: cache.manifest.documents.length }, (_, i) => cache.manifest.documents.at(i)).findIndex((d) => d.path === 'big.md');
  for (const [budget, explain] of [[2000, false], [2000, true], [1_000_000, false]] as const) {
    reads.clear();
    const answer = resolveV1(counted, 'kiwi', budget, 'answer', { explain }) as unknown as Answer;
    t.equal(answer.documents.length, 1, `${budget}${explain ? ', explained' : ''}: the repeated section once`);
    t.equal(reads.get(bigDoc), 1, `${budget}${explain ? ', explained' : ''}: big.md read once for the answer (${reads.get(bigDoc)})`);
    if (explain) {
      t.equal(answer.documents[0]?.same_text?.length, 3, 'three copies named');
      t.equal(answer.documents[0]?.same_text_count, 1999, 'and all 1,999 counted');
      t.equal(answer.selection.documents_excluded_by_budget, 0, 'none counted as left out for the budget');
    }
  }

  // The option on ten pages: the explained entry names three, counts nine.
  const engine = openEngine(cacheDir);
  t.teardown(() => engine.close());
  const explained = engine.resolve('strict peer deps conflicting failure', 1_000_000, 'answer') as unknown as Answer;
  const option = explained.documents.find((d) => (d.merged ?? [{ id: d.id }]).some((m) => m.id === 'cmd-00.md#strict-peer-deps'));
  t.same(option?.same_text, [{ id: 'cmd-01.md#strict-peer-deps' }, { id: 'cmd-02.md#strict-peer-deps' }, { id: 'cmd-03.md#strict-peer-deps' }], 'the first three in id byte order');
  t.equal(option?.same_text_count, 9, 'all nine counted');
  const text = resolveText(cacheDir, 'strict peer deps conflicting failure', 1_000_000, 'text', undefined, undefined, true);
  t.match(text, /same text at: cmd-01\.md#strict-peer-deps, cmd-02\.md#strict-peer-deps, cmd-03\.md#strict-peer-deps and 6 more\n/, '--format text says how many more');
});

t.test('engine.md "Repeated text": a section gathered one heading level down, an anchor after it, is a copy', async (t) => {
  // markdownlint's doc/Rules.md holds each doc/mdNNN.md one level down with an empty anchor
  // before the next rule: the same text as its reader sees it, under the same heading.
  const RULE = '`MD033` - Inline HTML\n\nTags: `html`\n\nAliases: `no-inline-html`\n\nParameters:\n\n- `allowed_elements`: Allowed elements (`string[]`, default `[]`)\n\nThis rule is triggered whenever raw HTML is used in a Markdown document. To allow some elements, list them in `allowed_elements`, such as `br` for a line break inside a table cell.\n\n```markdown\n<h1>Inline HTML heading</h1>\n```\n\n';
  const CODE_APART = RULE.replace('<h1>Inline HTML heading</h1>', '<h2>Inline HTML heading</h2>');
  const dir = t.testdir({
    src: {
      doc: {
        'md033.md': `# ${RULE}`,
        'Rules.md': `# Rules\n\nThis file lists every rule. ${'Each rule has a page of its own as well. '.repeat(6)}\n\n## ${RULE}<a name="md034"></a>\n\n## \`MD034\` - Bare URL used\n\nA bare URL is a link written without angle brackets. ${'Wrap it in angle brackets to make it a link. '.repeat(6)}\n`,
      },
      'fork.md': `# ${CODE_APART}`,
    },
  });
  const cache = join(dir, 'cache');
  await buildCacheV1({ sources: join(dir, 'src'), cache, force: false, createdAt: '2026-01-01T00:00:00Z', options: { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] } });
  const engine = openEngine(cache);
  t.teardown(() => engine.close());
  const query = 'allow inline html br element';
  const unitsOf = (d: Doc): string[] => (d.merged ?? [{ id: d.id }]).map((m) => m.id);
  const rule = 'doc/md033.md#md033---inline-html';
  const gathered = 'doc/Rules.md#md033---inline-html';
  const ranks = (engine.resolve(query, 1_000_000, 'answer') as unknown as Answer).documents.flatMap(unitsOf);
  t.ok(ranks.includes(rule) !== ranks.includes(gathered), `one of the two copies is printed (${ranks.join(', ')})`);
  t.ok(ranks.includes('fork.md#md033---inline-html'), 'a copy whose code differs is a text of its own');
  const all = engine.resolve(query, 1_000_000, 'answer') as unknown as Answer;
  const printedCopy = ranks.includes(rule) ? rule : gathered;
  const entry = all.documents.find((d) => unitsOf(d).includes(printedCopy));
  t.same(entry?.same_text, [{ id: printedCopy === rule ? gathered : rule }], 'its entry names the other');
  t.equal(all.documents.find((d) => unitsOf(d).includes('fork.md#md033---inline-html'))?.same_text, undefined, 'the fork names none');
  t.equal(all.selection.documents_excluded_by_budget, 0, 'nothing counted as left out for the budget');
  for (const budget of [200, 400, 800]) {
    const lean = engine.resolve(query, budget, 'answer', { explain: false }) as unknown as Answer;
    const named = [...lean.documents.flatMap(unitsOf), ...(lean.selection.omitted ?? []).map((o) => (typeof o === 'string' ? o : o.id))];
    t.ok(!(named.includes(rule) && named.includes(gathered)), `${budget}: never both (${named.join(', ')})`);
  }
});

t.test('engine.md "Repeated text": copies as seen are looked for among the first 100 units of the order only', async (t) => {
  // 300 pages whose "Kiwi examples" sections rank above a pair of copies that differ in
  // markup only: past the first SEEN_COPIES_WITHIN units the pair is two texts (both
  // printed), and an explained answer, which names copies whatever the budget, reads the
  // pages of the first 100 units for them, not all 300 that stand under that heading.
  const src: Record<string, string> = {};
  const intro = 'This page introduces its example at length before showing it. '.repeat(6);
  for (let i = 0; i < 300; i++) src[`page-${String(i).padStart(3, '0')}.md`] = `# Kiwi page ${i}\n\n${intro}\n\n## Kiwi examples\n\nKiwi kiwi kiwi example number ${i}: ${'kiwi fruit grows on vines, '.repeat(8)}and page ${i} says so: ${'z'.repeat(i + 1)}.\n`; // no two alike in length
  const body = `Kiwi once, in a long rule text that says little else. ${'The rule reads the file and reports what it finds there. '.repeat(6)}\n`;
  src['rule.md'] = `# Rule kiwi\n\n${body}`;
  src['gathered.md'] = `# Rules\n\nEvery rule again. ${'Each one as on its own page. '.repeat(10)}\n\n## Rule kiwi\n\n${body}\n<a name="next"></a>\n\n## Other\n\nSomething else entirely, ${'with words of its own. '.repeat(12)}\n`;
  const dir = t.testdir({ src });
  const cacheDir = join(dir, 'cache');
  await buildCacheV1({ sources: join(dir, 'src'), cache: cacheDir, force: false, createdAt: '2026-01-01T00:00:00Z', options: { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] } });
  const cache = openV1(cacheDir);
  t.teardown(() => cache.close());
  const reads = new Set<number>();
  const counted: V1Cache = { ...cache, text: (doc: number) => (reads.add(doc), cache.text(doc)) };
  const unitsOf = (d: Doc): string[] => (d.merged ?? [{ id: d.id }]).map((m) => m.id);

  const all = resolveV1(counted, 'kiwi', 1_000_000, 'answer', { explain: true }) as unknown as Answer;
  const printed = all.documents.flatMap(unitsOf);
  t.ok(printed.indexOf('rule.md#rule-kiwi') >= 100, `the pair ranks past the first 100 units (${printed.indexOf('rule.md#rule-kiwi')})`);
  t.ok(printed.includes('rule.md#rule-kiwi') && printed.includes('gathered.md#rule-kiwi'), 'so both copies are printed');
  const named = all.documents.reduce((n, d) => n + (d.same_text?.length ?? 0), 0);
  t.equal(printed.length + named, all.selection.documents_matched, 'every matching unit is printed or named');

  for (const budget of [800, 3000]) {
    reads.clear();
    resolveV1(counted, 'kiwi', budget, 'answer', { explain: true });
    t.ok(reads.size <= 110, `an explained ${budget}-token answer reads ${reads.size} of ${cache.manifest.documents.length} documents: the first 100 units', not every page under the heading`);
  }
});
