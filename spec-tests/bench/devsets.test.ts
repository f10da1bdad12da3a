// Checks that the relevance dev sets with passages (bench/relevance/devset2, devset3,
// devset4 to devset12) are well-formed, as the issues that asked for them say: devset2 "at least 60
// questions written with their answering page *and passage*", over "at least three doc sets";
// devset3 at least 48 more over three other doc sets; devset4 (issue 46, "relevance holds
// across formats") one reStructuredText set and one HTML set. And that their READMEs' statement holds:
// "Every passage was checked to occur in its page after whitespace normalisation". A
// passage that is not in its page, or a page that does not exist, would make
// `npm run bench:relevance` count a miss that no engine could avoid.
import t from 'tap';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlText } from '../../lib/core/analysis/html.js';
import { parseJson } from '../../lib/json.js';

const relevance = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'relevance');

interface Question {
  readonly qid: string;
  readonly set: string;
  readonly query: string;
  readonly page: string;
  readonly passage: string;
  readonly also?: readonly string[];
}

interface DevSet {
  readonly name: string;
  readonly minQuestions: number;
  readonly minSets: number;
  /** Questions each doc set has at least (devset5's sets are small: 13 to 62 files). */
  readonly minPerSet: number;
  /** File name endings the corpus may hold (devset3's Bun pages are MDX, as published). */
  readonly extensions: readonly string[];
}

const DEV_SETS: readonly DevSet[] = [
  { name: 'devset2', minQuestions: 60, minSets: 3, minPerSet: 15, extensions: ['.md'] },
  { name: 'devset3', minQuestions: 48, minSets: 3, minPerSet: 15, extensions: ['.md', '.mdx'] },
  { name: 'devset4', minQuestions: 40, minSets: 2, minPerSet: 15, extensions: ['.rst', '.html'] },
  { name: 'devset5', minQuestions: 30, minSets: 3, minPerSet: 8, extensions: ['.md'] },
  { name: 'devset6', minQuestions: 20, minSets: 1, minPerSet: 20, extensions: ['.html'] },
  { name: 'devset7', minQuestions: 20, minSets: 1, minPerSet: 20, extensions: ['.adoc'] },
  { name: 'devset8', minQuestions: 20, minSets: 1, minPerSet: 20, extensions: ['.md'] },
  { name: 'devset9', minQuestions: 48, minSets: 2, minPerSet: 24, extensions: ['.md'] },
  { name: 'devset10', minQuestions: 48, minSets: 2, minPerSet: 24, extensions: ['.md'] },
  { name: 'devset11', minQuestions: 48, minSets: 2, minPerSet: 24, extensions: ['.md'] },
  { name: 'devset12', minQuestions: 24, minSets: 1, minPerSet: 24, extensions: ['.html'] },
];

const KEYS = ['also', 'page', 'passage', 'qid', 'query', 'set'];
const norm = (s: string): string => s.replace(/\s+/gu, ' ').trim();
/** An HTML page's visible text, roughly: script / style / title / template / textarea elements, comments and tags blanked. */
const visibleText = (html: string): string =>
  html
    .replace(/<(script|style|title|template|textarea)\b[\s\S]*?<\/\1\s*>/giu, ' ')
    .replace(/<!--[\s\S]*?-->/gu, ' ')
    .replace(/<[^>]*>/gu, ' ');

for (const devSet of DEV_SETS) {
  const dir = join(relevance, devSet.name);
  const lines = readFileSync(join(dir, 'questions.jsonl'), 'utf8').split('\n');
  const isPage = (path: string): boolean => devSet.extensions.some((e) => path.endsWith(e));

  t.test(`${devSet.name} questions.jsonl: one question object a line, every field a non-empty string`, async (t) => {
    t.equal(lines.at(-1), '', 'the file ends with one newline');
    const body = lines.slice(0, -1);
    t.ok(body.every((l) => l !== ''), 'no blank line');
    for (const line of body) {
      const q = parseJson(line) as Record<string, unknown>;
      t.same(Object.keys(q).filter((k) => !KEYS.includes(k)), [], `${String(q['qid'])}: no unknown field`);
      for (const k of ['qid', 'set', 'query', 'page', 'passage']) {
        t.ok(typeof q[k] === 'string' && (q[k] as string).trim() !== '', `${String(q['qid'])}: ${k} is a non-empty string`);
      }
      if (q['also'] !== undefined) {
        t.ok(Array.isArray(q['also']) && (q['also'] as unknown[]).every((p) => typeof p === 'string'), `${String(q['qid'])}: also is a list of paths`);
      }
    }
  });

  const questions = lines.filter((l) => l !== '').map((l) => parseJson(l) as unknown as Question);

  t.test(`${devSet.name}: at least ${devSet.minQuestions} questions over at least ${devSet.minSets} doc sets, ids unique`, async (t) => {
    t.ok(questions.length >= devSet.minQuestions, `${questions.length} questions`);
    const sets = new Set(questions.map((q) => q.set));
    t.ok(sets.size >= devSet.minSets, `${sets.size} sets`);
    for (const set of sets) {
      t.ok(statSync(join(dir, 'corpus', set)).isDirectory(), `corpus/${set} exists`);
      t.ok(questions.filter((q) => q.set === set).length >= devSet.minPerSet, `${set} has at least ${devSet.minPerSet} questions`);
    }
    t.equal(new Set(questions.map((q) => q.qid)).size, questions.length, 'no qid twice');
    t.equal(new Set(questions.map((q) => `${q.set}\n${q.query}`)).size, questions.length, 'no question twice in a set');
  });

  t.test(`${devSet.name}: every page exists, and every passage occurs in its page after whitespace normalisation`, async (t) => {
    for (const q of questions) {
      const page = join(dir, 'corpus', q.set, q.page);
      t.ok(existsSync(page) && isPage(q.page), `${q.qid}: ${q.set}/${q.page} is a page of the set (${devSet.extensions.join(', ')})`);
      if (!existsSync(page)) continue;
      const source = readFileSync(page, 'utf8');
      t.ok(norm(source).includes(norm(q.passage)), `${q.qid}: the passage is in ${q.page}`);
      if (q.page.endsWith('.html')) {
        // The page's source, FTS5's sections (visible text, roughly) and our units (the
        // engine's visible text, lib/core/analysis/html.ts): a passage that holds no markup
        // and no character reference reads the same in all three.
        t.notOk(/[<>&]/u.test(q.passage), `${q.qid}: the passage holds no tag and no character reference`);
        t.ok(norm(visibleText(source)).includes(norm(q.passage)), `${q.qid}: the passage is in ${q.page}'s visible text`);
        t.ok(norm(htmlText(source)).includes(norm(q.passage)), `${q.qid}: the passage is in ${q.page}'s text as the engine reads it`);
      }
      for (const other of q.also ?? []) {
        t.ok(existsSync(join(dir, 'corpus', q.set, other)) && isPage(other) && other !== q.page, `${q.qid}: also-page ${other} exists and differs from page`);
      }
    }
  });

  t.test(`${devSet.name}: the corpus holds pages only (no stray file for a build to skip or count)`, async (t) => {
    const walk = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true })
        .map((e) => e.name)
        .sort()
        .flatMap((name) => (statSync(join(d, name)).isDirectory() ? walk(join(d, name)) : [join(d, name)]));
    const files = walk(join(dir, 'corpus'));
    t.ok(files.length > 0, `${files.length} files`);
    t.same(files.filter((f) => !isPage(f)), [], `every file ends in ${devSet.extensions.join(' or ')}`);
  });
}

t.test('devset3 shares no doc set with devset2', async (t) => {
  const sets = (name: string): string[] => readdirSync(join(relevance, name, 'corpus')).sort();
  const two = new Set(sets('devset2'));
  t.same(sets('devset3').filter((s) => two.has(s)), [], 'no corpus folder name in both');
});

t.test('devset4 shares no doc set with devset2 or devset3, and each of its sets is of one format', async (t) => {
  const sets = (name: string): string[] => readdirSync(join(relevance, name, 'corpus')).sort();
  const earlier = new Set([...sets('devset2'), ...sets('devset3')]);
  t.same(sets('devset4').filter((s) => earlier.has(s)), [], 'no corpus folder name shared');
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [e.name]));
  const rst = walk(join(relevance, 'devset4', 'corpus', 'rst-flask'));
  const html = walk(join(relevance, 'devset4', 'corpus', 'html-pytest'));
  t.ok(rst.length >= 40 && rst.every((f) => f.endsWith('.rst')), `rst-flask: ${rst.length} .rst files`);
  t.ok(html.length >= 40 && html.every((f) => f.endsWith('.html')), `html-pytest: ${html.length} .html files`);
});
