// Checks docs/engine.md "Queries as people write them" ("Answers that fit, by default", What to
// build item 4: "English stopwords and question words do not score on their own ... (a query
// made only of them still works); code tokens are kept whole as well as split") against
// lib/core/analysis/analyzer.ts: the stopword list and its two exceptions, the rule for
// stopword-only queries, code tokens at build and query time, and a query's terms as a
// deterministic function of its text. Expectations are written out by hand from those rules.
import t from 'tap';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { analyzeText, ANALYZER_CONFIG, codeTermsOf, isStopTerm, queryTermsV1, STOPWORDS } from '../../../lib/core/analysis/analyzer.js';

const require = createRequire(import.meta.url);

t.test('the stopword list is the pinned package the build_config names', async (t) => {
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve('@orama/stopwords/english')), '..', 'package.json'), 'utf8')) as { version: string };
  t.equal(STOPWORDS.list, `@orama/stopwords ${pkg.version} english`, 'the installed version is the one recorded');
  t.match(ANALYZER_CONFIG.query_stopwords, STOPWORDS.list, 'build_config records the list');
  const { stopwords } = require('@orama/stopwords/english') as { stopwords: string[] };
  const kept = new Set<string>(STOPWORDS.kept.flatMap((w) => analyzeText(w)));
  for (const w of [...stopwords, ...STOPWORDS.added]) {
    for (const term of analyzeText(w)) t.equal(isStopTerm(term), !kept.has(term), `${w} -> ${term}`);
  }
});

t.test('item 4: question words and common English words are stopwords, after the same stemming', async (t) => {
  for (const w of ['why', 'how', 'what', 'when', 'where', 'which', 'who', 'a', 'the', 'is', 'my', 'does', 'doing', 'only', "doesn't"]) {
    const terms = analyzeText(w);
    t.ok(terms.length > 0 && terms.every(isStopTerm), `${w} (${terms.join(' ')})`);
  }
});

t.test('item 4: content words stay: the exceptions and words the issue names', async (t) => {
  // let: a keyword of JavaScript, Rust and Swift (the list has it only through "let's");
  // own: its stem is owned / owns / owning (ownership in Rust docs).
  for (const w of ['let', 'own', 'owned', 'owns', 'line', 'one', 'undefined', 'use', 'get', 'new']) {
    t.notOk(analyzeText(w).some(isStopTerm), w);
  }
  t.notOk(isStopTerm('?'), 'a code term is never a stopword');
});

t.test('item 4: a query drops its stopwords when it has any other term', async (t) => {
  t.same(queryTermsV1('Why is my X undefined?'), ['undefin', 'x']);
  t.same(queryTermsV1('how do I read one line at a time'), ['line', 'one', 'read', 'time']);
  t.same(queryTermsV1('What does the ? operator do'), ['?', 'oper']);
});

t.test('item 4: a query made only of stopwords keeps them all (so "the" still works)', async (t) => {
  t.same(queryTermsV1('the'), ['the']);
  t.same(queryTermsV1('What is this?'), ['is', 'this', 'what']);
  t.same(queryTermsV1('why'), ['whi']);
});

t.test('item 4: code tokens are kept whole (folded, not stemmed) as well as split', async (t) => {
  const cases: [string, string[]][] = [
    ['Rc<T>', ['rc<t>', 'rc', 't']],
    ['--fix-dry-run', ['--fix-dry-run', 'fix-dry-run', 'fix', 'dri', 'run']],
    ['import.meta.glob', ['import.meta.glob', 'import', 'meta', 'glob']],
    ['client:load', ['client:load', 'client', 'load']],
    ['foo()', ['foo()', 'foo']],
    ['?', ['?']],
    ['std::io::Result', ['std::io::result', 'std', 'io', 'result']],
    ['println!', ['println!', 'println']],
    ['Vec<Vec<u8>>', ['vec<vec<u8>>', 'vec', 'vec', 'u8']],
    ['__init__', ['__init__', 'init']],
    ['Option<&T>', ['option<&t>', 'option', 't']],
    // calls: the callee with empty parentheses, whatever the arguments, and the callee itself
    ['useState(0)', ['usestate()', 'usestate', 'use', 'state', '0']],
    ['Rc::clone(&a)', ['rc::clone()', 'rc::clone', 'rc', 'clone', 'a']],
    ['foo(a, b)', ['foo()', 'foo', 'a', 'b']],
    ['a.map((x)', ['a.map()', 'a.map', 'a', 'map', 'x']],
  ];
  for (const [text, terms] of cases) t.same(analyzeText(text), terms, text);
});

t.test('item 4: prose punctuation around a word makes no code term', async (t) => {
  const cases: [string, string[]][] = [
    ['Done.', ['done']],
    ['Note:', ['note']],
    ['works?', ['work']],
    ['(see', ['see']],
    ['this)', ['this']],
    ['(optional)', ['option']],
    ['e.g.', ['e.g', 'e', 'g']],
    ['**Note:**', ['note']],
    ['</div>', ['div']],
    ['- item', ['item']],
    ['## Heading', ['head']],
    ['... and', ['and']],
  ];
  for (const [text, terms] of cases) t.same(analyzeText(text), terms, text);
  t.same(codeTermsOf('a->b'), [], 'unbalanced brackets: no code term');
  t.same(codeTermsOf('&&'), [], 'an operator without ? gives none');
  t.same(codeTermsOf('?.'), ['?.']);
  t.same(codeTermsOf('x'.repeat(120) + '::y'.repeat(4)), [], 'over 128 units: no code term');
});

t.test('item 4: code tokens in a query are found as the index holds them', async (t) => {
  const doc = new Set(analyzeText('Use `Rc<T>` when ownership is shared; `client:load` hydrates; call `foo()`; the `?` operator.'));
  for (const q of ['How do I use Rc<T>?', 'what is client:load', 'foo()', 'the ? operator']) {
    const whole = queryTermsV1(q).filter((x) => /[^\p{L}\p{M}\p{N}]/u.test(x) && !/^[\p{L}\p{M}\p{N}]+(?:[._-][\p{L}\p{M}\p{N}]+)*$/u.test(x));
    t.ok(whole.length === 1 && doc.has(whole[0] as string), `${q}: ${whole.join(' ')}`);
  }
});

t.test("a query's terms: deterministic, distinct, byte-sorted, no stopword unless all are", async (t) => {
  const words = fc.constantFrom('why', 'the', 'is', 'Rc<T>', 'client:load', 'foo()', '?', 'useState', 'line', 'one', 'undefined', 'how', 'café', 'x', '--fix', 'a.b');
  const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  fc.assert(
    fc.property(fc.array(words, { maxLength: 8 }), fc.constantFrom(' ', '  ', ', '), (ws, sep) => {
      const q = ws.join(sep);
      const terms = queryTermsV1(q);
      const all = new Set(analyzeText(q));
      const sorted = [...terms].sort(byBytes);
      const content = [...all].filter((x) => !isStopTerm(x));
      return (
        JSON.stringify(terms) === JSON.stringify(queryTermsV1(q)) &&
        JSON.stringify(terms) === JSON.stringify(sorted) &&
        new Set(terms).size === terms.length &&
        terms.every((x) => all.has(x)) &&
        (content.length > 0 ? terms.length === content.length && !terms.some(isStopTerm) : terms.length === all.size)
      );
    }),
    { numRuns: 500 },
  );
  t.pass('500 random queries');
});
