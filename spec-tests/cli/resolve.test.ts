// Checks context_resolve.md (synopsis, --cache/--query/--budget/--format rules, output,
// error handling, determinism, no side effects) and cli_spec.md "context resolve" + "Exit
// Codes" through `main`, the spawned bin, and the parallel loader on a 2,500-document cache.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { resolveText } from '../../lib/core/operations/api.js';
import { BREAKAGES, build, buildBase, snapshot, versionOf } from '../core/engine/v0/fixture.js';
import { run, spawnContext } from './harness.js';

const A = 'hello world';
const B = 'Hello hello HELLO there';
const VA = versionOf(A);
const VB = versionOf(B);

/** a.md: 11 bytes = 3 tokens, 1 of 2 words; b.md: 23 bytes = 6 tokens, 3 of 4 words. */
function smallCache(t: { testdir(content: { src: Record<string, string> }): string }, extra: Record<string, string> = {}): string {
  const dir = t.testdir({ src: { 'a.md': A, 'b.md': B, ...extra } });
  build(join(dir, 'src'), join(dir, 'cache'));
  return join(dir, 'cache');
}

const docA = `{"id":"a.md","version":"${VA}","content":"hello world","score":0.5,"tokens":3,"why":{"query_terms":["hello"],"term_matches":1,"total_words":2}}`;
const docB = `{"id":"b.md","version":"${VB}","content":"Hello hello HELLO there","score":0.75,"tokens":6,"why":{"query_terms":["hello"],"term_matches":3,"total_words":4}}`;

t.test('context_resolve.md "Output": the SelectionResult, compact by default (cli_spec.md, DESIGN.md), one trailing newline', async (t) => {
  const cache = smallCache(t);
  const r = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', '100']);
  t.same(r, {
    code: 0,
    out: `{"documents":[${docB},${docA}],"selection":{"query":"hello","budget":100,"tokens_used":9,"documents_considered":2,"documents_selected":2,"documents_excluded_by_budget":0}}\n`,
    err: '',
  });
  t.same(await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', '100', '--format', 'json']), r, '--format json = default');
});

t.test('context_resolve.md "--format pretty": same content, pretty-printed', async (t) => {
  const cache = smallCache(t);
  const r = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', '5', '--format', 'pretty']);
  t.equal(r.code, 0);
  t.equal(r.out, [
    '{',
    '  "documents": [',
    '    {',
    '      "id": "a.md",',
    `      "version": "${VA}",`,
    '      "content": "hello world",',
    '      "score": 0.5,',
    '      "tokens": 3,',
    '      "why": {',
    '        "query_terms": [',
    '          "hello"',
    '        ],',
    '        "term_matches": 1,',
    '        "total_words": 2',
    '      }',
    '    }',
    '  ],',
    '  "selection": {',
    '    "query": "hello",',
    '    "budget": 5,',
    '    "tokens_used": 3,',
    '    "documents_considered": 2,',
    '    "documents_selected": 1,',
    '    "documents_excluded_by_budget": 1',
    '  }',
    '}',
    '',
  ].join('\n'), 'b.md (6 tokens) skipped, a.md (3) fits: skip and continue');
  const compact = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', '5']);
  t.same(JSON.parse(r.out), JSON.parse(compact.out), 'identical content in both modes');
});

t.test('context_resolve.md "--query": empty query allowed, every score 0.0, ties by id', async (t) => {
  const cache = smallCache(t);
  const r = await run(['resolve', '--cache', cache, '--query', '', '--budget', '100']);
  t.equal(r.code, 0);
  t.equal(r.out,
    `{"documents":[{"id":"a.md","version":"${VA}","content":"hello world","score":0.0,"tokens":3,"why":{"query_terms":[],"term_matches":0,"total_words":2}},` +
    `{"id":"b.md","version":"${VB}","content":"Hello hello HELLO there","score":0.0,"tokens":6,"why":{"query_terms":[],"term_matches":0,"total_words":4}}],` +
    '"selection":{"query":"","budget":100,"tokens_used":9,"documents_considered":2,"documents_selected":2,"documents_excluded_by_budget":0}}\n');
  const dash = await run(['resolve', '--cache', cache, '--query', '-hello', '--budget', '0']);
  t.equal(dash.code, 0, 'a query starting with "-" is a value, not a flag');
  t.match(dash.out, /"query":"-hello"/);
});

t.test('context_resolve.md "--budget": 0 returns an empty document list', async (t) => {
  const cache = smallCache(t);
  const r = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', '0']);
  t.same(r, {
    code: 0,
    out: '{"documents":[],"selection":{"query":"hello","budget":0,"tokens_used":0,"documents_considered":2,"documents_selected":0,"documents_excluded_by_budget":2}}\n',
    err: '',
  });
});

// Spec conflict, decided: context_resolve.md says budget 0 "always" returns an empty list,
// but context_selection.md "Filling the Budget" (used + tokens <= budget) admits a 0-token
// document, and the project follows the pseudo-code (spec-tests/core/engine/v0/select.test.ts
// "a 0-token document fits a 0 budget"). Asserted here so the CLI agrees with the core.
t.test('context_resolve.md "--budget" 0 vs context_selection.md pseudo-code: an empty document fits budget 0', async (t) => {
  const cache = smallCache(t, { 'empty.md': '' });
  const r = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', '0']);
  t.equal(r.code, 0);
  t.equal(r.out,
    `{"documents":[{"id":"empty.md","version":"${versionOf('')}","content":"","score":0.0,"tokens":0,"why":{"query_terms":["hello"],"term_matches":0,"total_words":0}}],` +
    '"selection":{"query":"hello","budget":0,"tokens_used":0,"documents_considered":3,"documents_selected":1,"documents_excluded_by_budget":2}}\n');
});

t.test('security_model.md + DESIGN.md "Errors": budget is an integer 0..2^53-1, else invalid_budget (exit 3)', async (t) => {
  const cache = smallCache(t);
  // The message names the valid form (issue 43), and quotes a budget not written in digits.
  const form = 'a budget is a whole number of tokens >= 0, written in digits, e.g. 2000';
  for (const b of ['-1', '1.5', 'abc', '9007199254740992', '18446744073709551616', '', ' 5', '5 ', '1e3', '0x10', '-0', '+-1', '٣']) {
    const r = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', b]);
    const digits = /^[0-9]+$/.test(b);
    t.same(r, { code: 3, out: '', err: `error: invalid_budget: Budget is invalid (${form}${digits ? '' : `, not ${JSON.stringify(b)}`})\n` }, JSON.stringify(b));
  }
  t.equal((await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', '2k'])).err,
    'error: invalid_budget: Budget is invalid (a budget is a whole number of tokens >= 0, written in digits, e.g. 2000, not "2k")\n', 'the issue\'s example');
  for (const [b, n] of [['+5', 5], ['007', 7], ['9007199254740991', 9007199254740991]] as const) {
    const r = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', b]);
    t.equal(r.code, 0, `${b} accepted`);
    t.match(r.out, new RegExp(`"budget":${n},`), `${b} is ${n}`);
  }
  const early = await run(['resolve', '--cache', join(cache, 'nope'), '--query', 'q', '--budget', '-1']);
  t.equal(early.code, 3, 'inputs are validated before the cache is looked at');
});

t.test('DESIGN.md "Errors": invalid_query (exit 2) for a lone surrogate or more than 64 KiB of UTF-8', async (t) => {
  const cache = smallCache(t);
  // The message names the valid form; an over-long query also says how long it is.
  const form = 'a query is text of at most 65,536 bytes of UTF-8 (64 KiB), without unpaired surrogates';
  for (const [label, q, detail] of [
    ['lone high surrogate', 'a\uD800b', form],
    ['lone low surrogate', '\uDC00', form],
    ['64 KiB + 1', 'x'.repeat(65537), `${form}; this one has 65537 bytes`],
    ['multi-byte over 64 KiB', 'é'.repeat(32769), `${form}; this one has 65538 bytes`],
  ] as const) {
    const r = await run(['resolve', '--cache', cache, '--query', q, '--budget', '10']);
    t.same(r, { code: 2, out: '', err: `error: invalid_query: Query is invalid (${detail})\n` }, label);
  }
  t.equal((await run(['resolve', '--cache', cache, '--query', 'x'.repeat(65536), '--budget', '10'])).code, 0, 'exactly 64 KiB is fine');
  t.equal((await run(['resolve', '--cache', cache, '--query', '😀 hello', '--budget', '10'])).code, 0, 'a surrogate pair is fine');
});

t.test('a valid query of one very long term resolves (it once crashed: a regex too large for V8)', async (t) => {
  const long = 'Ab'.repeat(20_000);
  const content = `${long} x ${long.toUpperCase()}`;
  const cache = smallCache(t, { 'long.md': content });
  for (const q of [long.toLowerCase(), 'y'.repeat(65536)]) {
    const r = await run(['resolve', '--cache', cache, '--query', q, '--budget', '0']);
    t.equal(r.code, 0, `${q.length}-character term: exit 0`);
    t.equal(r.err, '');
  }
  const r = await run(['resolve', '--cache', cache, '--query', long, '--budget', '100000']);
  const out = JSON.parse(r.out) as { documents: { id: string; why: { term_matches: number; total_words: number } }[] };
  t.same(out.documents[0]?.id, 'long.md');
  t.same(out.documents[0]?.why, { query_terms: [long.toLowerCase()], term_matches: 2, total_words: 3 }, 'both case variants of the long word count');
});

t.test('context_resolve.md "Error Categories": missing path or not a directory -> cache_missing (exit 4)', async (t) => {
  const dir = t.testdir({ 'file': 'x', 'dangling': t.fixture('symlink', 'nowhere') });
  for (const p of ['nope', 'file', 'dangling', 'nope/deeper']) {
    const r = await run(['resolve', '--cache', join(dir, p), '--query', 'q', '--budget', '10']);
    t.same(r, { code: 4, out: '', err: 'error: cache_missing: Cache does not exist\n' }, p);
  }
});

t.test('context_resolve.md "--cache: must pass cache verification": every broken cache -> cache_invalid (exit 5)', async (t) => {
  for (const b of BREAKAGES) {
    const cache = buildBase(t.testdir({}));
    b.apply(cache);
    const r = await run(['resolve', '--cache', cache, '--query', 'text', '--budget', '100']);
    t.equal(r.code, 5, `${b.name} (${b.spec})`);
    t.equal(r.out, '', `${b.name}: nothing on stdout`);
    t.match(r.err, /^error: cache_invalid: Cache exists but is invalid/, `${b.name}: stderr`);
  }
  const root = new URL('../fixtures/compat-v0/caches/', import.meta.url).pathname;
  t.equal((await run(['resolve', '--cache', join(root, 'future_version'), '--query', 'hello', '--budget', '10'])).code, 5,
    'DESIGN.md: a build_config that is not v0 is cache_invalid');
});

t.test('cli_spec.md "Exit Codes" 1: usage errors print a usage line, nothing on stdout', async (t) => {
  const cache = smallCache(t);
  const cases: string[][] = [
    ['resolve'],
    ['resolve', '--query', 'q', '--budget', '1'],
    ['resolve', '--cache', cache, '--budget', '1'],
    ['resolve', '--cache', cache, '--query', 'q'],
    ['resolve', '--cache', cache, '--query', 'q', '--budget'],
    ['resolve', '--cache', cache, '--query', 'q', '--budget', '1', '--format', 'xml'],
    ['resolve', '--cache', cache, '--query', 'q', '--budget', '1', '--format', 'PRETTY'],
    ['resolve', '--cache', cache, '--query', 'q', '--budget', '1', '--limit', '3'],
    ['resolve', '--cache', cache, '--query', 'q', '--budget', '1', 'stray'],
    ['resolve', '--cache', cache, '--query', 'q', '--query', 'r', '--budget', '1'],
    ['resolve', '--cache', cache, '--query', 'q', '--budget', '1', '--budget', '2'],
  ];
  for (const argv of cases) {
    const r = await run(argv);
    t.equal(r.code, 1, argv.slice(1).join(' '));
    t.equal(r.out, '', `${argv.slice(1).join(' ')}: nothing on stdout`);
    t.match(r.err, /\nusage: context resolve --cache DIR --query TEXT --budget TOKENS \[--format json\|pretty\|markdown\|text\] \[--explain\] \[--budget-scope content\|answer\]\n$/);
  }
});

t.test('context_resolve.md "Determinism Contract" and "No side effects" (spawned bin)', async (t) => {
  const cache = smallCache(t);
  const before = snapshot(cache);
  const argv = ['resolve', '--cache', cache, '--query', 'hello there', '--budget', '7'];
  const first = spawnContext(argv);
  const second = spawnContext(argv);
  t.equal(first.code, 0);
  t.equal(first.err, '');
  t.equal(first.out, second.out, 'byte-identical across runs');
  t.equal(first.out, (await run(argv)).out, 'the bin prints what main prints');
  t.same(snapshot(cache), before, 'the cache is not modified');
});

t.test('the spawned bin: exit codes 1, 3, 4, 5 with nothing on stdout', async (t) => {
  const cache = smallCache(t);
  const broken = buildBase(t.testdir({}));
  writeFileSync(join(broken, 'documents', 'orphan.json'), '{}');
  const cases: [string[], number][] = [
    [['resolve', '--cache', cache, '--query', 'q'], 1],
    [['resolve', '--cache', cache, '--query', 'q', '--budget', '-1'], 3],
    [['resolve', '--cache', cache, '--query', 'q', '--budget', '1.5'], 3],
    [['resolve', '--cache', join(cache, 'missing'), '--query', 'q', '--budget', '1'], 4],
    [['resolve', '--cache', broken, '--query', 'q', '--budget', '1'], 5],
  ];
  for (const [argv, code] of cases) {
    const r = spawnContext(argv);
    t.equal(r.code, code, argv.slice(1).join(' '));
    t.equal(r.out, '', `${argv.slice(1).join(' ')}: nothing on stdout`);
    t.not(r.err, '', `${argv.slice(1).join(' ')}: stderr says why`);
  }
});

t.test('parallel loading (worker threads, compiled bin) = serial loading (in-process)', async (t) => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'Epsilon', 'zeta', 'ÉTÉ', 'naïve', 'x'];
  const files: Record<string, string> = {};
  for (let i = 0; i < 2500; i++) {
    const w = (k: number): string => words[(i * 7 + k * 3) % words.length] as string;
    files[`d${String(i).padStart(4, '0')}.md`] = `# Doc ${i}\n${w(1)} ${w(2)} ${w(3)}\u3000${w(4)} ${'alpha '.repeat(i % 4)}end`;
  }
  const dir = t.testdir({ src: files });
  const cache = join(dir, 'cache');
  build(join(dir, 'src'), cache);
  // The bin reads with availableParallelism() threads, one per 1,000+ documents.
  if (availableParallelism() < 2) t.comment('one CPU: the worker-thread path is not exercised here');
  for (const [query, budget] of [['alpha gamma', '400'], ['été naïve', '100000'], ['', '50'], ['x x', '0']] as const) {
    const spawned = spawnContext(['resolve', '--cache', cache, '--query', query, '--budget', budget]);
    t.equal(spawned.code, 0, `${query}: exit 0`);
    t.equal(spawned.out, resolveText(cache, query, Number(budget)), `"${query}" / ${budget}: identical bytes`);
  }
  // A failure in either half of the documents is cache_invalid, reported the same way.
  for (const victim of ['d0003.md', 'd2497.md']) {
    const copy = join(dir, `broken-${victim}`);
    build(join(dir, 'src'), copy);
    const file = join(copy, `documents/${versionOf(files[victim] as string).slice(7, 19)}.json`);
    writeFileSync(file, `{"id":"${victim}","version":"${versionOf(files[victim] as string)}","source":"${victim}","content":"tampered","metadata":{}}`);
    const r = spawnContext(['resolve', '--cache', copy, '--query', 'alpha', '--budget', '10']);
    t.same({ code: r.code, out: r.out }, { code: 5, out: '' }, `tampered ${victim}`);
  }
});

t.test('flag forms: --name=value, a relative --cache from the working directory', async (t) => {
  const cache = smallCache(t);
  const base = await run(['resolve', '--cache', cache, '--query', '-x hello', '--budget', '5']);
  t.equal(base.code, 0);
  t.same(await run(['resolve', `--cache=${cache}`, '--query=-x hello', '--budget=5']), base, '--name=value');
  t.same(await run(['resolve', '--budget', '5', '--query', '-x hello', '--cache', 'cache'], { cwd: join(cache, '..') }), base, 'any order, relative path');
  t.same(await run(['resolve', '--cache', cache, '--query', '-x hello', '--budget', '5', '--format', 'json']), base);
});

t.test('context_cache.md Invariant 3 "Immutable": inspect and verify do not modify the cache either', async (t) => {
  const cache = smallCache(t);
  const before = snapshot(cache);
  for (const argv of [['inspect', '--cache', cache], ['verify', '--cache', cache], ['resolve', '--cache', cache, '--query', 'a', '--budget', '9']]) {
    t.equal((await run(argv)).code, 0, argv[0] as string);
  }
  t.same(snapshot(cache), before);
});

t.test('context_resolve.md "--query": lowercased and split on whitespace internally; echoed verbatim', async (t) => {
  const cache = smallCache(t);
  const r = await run(['resolve', '--cache', cache, '--query', ' HELLO\u3000World\t', '--budget', '100']);
  t.equal(r.code, 0);
  const out = JSON.parse(r.out) as { documents: { id: string; why: { query_terms: string[]; term_matches: number } }[]; selection: { query: string } };
  t.equal(out.selection.query, ' HELLO\u3000World\t', 'selection.query is the query as given');
  t.same(out.documents.map((d) => [d.id, d.why.query_terms, d.why.term_matches]), [
    ['a.md', ['hello', 'world'], 2],
    ['b.md', ['hello', 'world'], 3],
  ], 'U+3000 splits; matching is case-insensitive (a.md 2/2 = 1.0 before b.md 3/4)');
});

t.test('context_resolve.md Invariant 4 "Strict budget enforcement" and "Non-Goals: truncate documents"', async (t) => {
  const cache = smallCache(t, { 'c.md': 'hello '.repeat(9), 'd.md': 'x' });
  const contents: Record<string, string> = { 'a.md': A, 'b.md': B, 'c.md': 'hello '.repeat(9), 'd.md': 'x' };
  for (let budget = 0; budget <= 30; budget++) {
    const r = await run(['resolve', '--cache', cache, '--query', 'hello', '--budget', String(budget)]);
    const out = JSON.parse(r.out) as { documents: { id: string; content: string; tokens: number }[]; selection: Record<string, number> };
    const used = out.documents.reduce((n, d) => n + d.tokens, 0);
    t.ok(used <= budget && used === out.selection['tokens_used'], `budget ${budget}: tokens_used ${used} fits and adds up`);
    t.ok(out.documents.every((d) => d.content === contents[d.id] && d.tokens === Math.ceil(Buffer.byteLength(d.content) / 4)), `budget ${budget}: whole documents only`);
    t.equal((out.selection['documents_selected'] as number) + (out.selection['documents_excluded_by_budget'] as number), 4, `budget ${budget}: selected + excluded = considered`);
  }
});
