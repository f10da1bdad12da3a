// Checks issue 12 item 4 "A readable resolve: `context resolve --format text` prints what a
// person wants to see — rank, id, score, tokens, which terms matched where — and a one-line
// budget summary; JSON stays the default". The text is checked against the JSON answer of
// the same call (every entry, in order, with the JSON's own score text), for a v0 fixture
// cache and a v1 section cache, and one v0 answer is spelled out in full.
import t from 'tap';
import { join } from 'node:path';
import { parseJson } from '../../lib/json.js';
import { run } from './harness.js';

const FIXTURES = new URL('../fixtures/compat-v0/caches/', import.meta.url).pathname;

interface Answer {
  documents: { id: string; score: number; tokens: number; trail?: string[]; why: { matches?: ({ term: string; score: number } & Record<string, unknown>)[] } }[];
  selection: Record<string, number | string>;
}

/** The score texts of a compact SelectionResult line, in order, as the JSON prints them. */
const scoreTexts = (json: string): string[] => [...json.matchAll(/"score":([-0-9.e+]+),"tokens"/g)].map((m) => m[1] as string);

t.test('a v0 answer, spelled out', async (t) => {
  const r = await run(['resolve', '--cache', join(FIXTURES, 'realistic'), '--query', 'deployment security', '--budget', '4000', '--format', 'text']);
  t.equal(r.code, 0);
  t.equal(r.err, '');
  // Worked from expected/realistic_multi_term.json: scores 0.75, 0.33333334, 0.0.
  t.equal(
    r.out,
    [
      'query "deployment security", budget 4,000 tokens (v0)',
      '',
      '  1  deployment.md  score 0.75  10 tokens',
      '     matched: 3 of 4 words equal a query term (deployment, security)',
      '  2  security.md    score 0.33333334  7 tokens',
      '     matched: 1 of 3 words equal a query term (deployment, security)',
      '  3  empty.md       score 0.0  0 tokens',
      '     matched: 0 of 0 words equal a query term (deployment, security)',
      '',
      'selected 3 of 3 considered; 17 of 4,000 tokens used; 0 left out by the budget',
      '',
    ].join('\n'),
  );
});

t.test('JSON stays the default; text follows the JSON answer entry by entry', async (t) => {
  for (const [query, budget] of [['deployment', '10'], ['hello world', '4000'], ['nothing-matches', '0']] as const) {
    for (const cache of ['minimal', 'realistic', 'tie_break']) {
      const argv = ['resolve', '--cache', join(FIXTURES, cache), '--query', query, '--budget', budget];
      const json = await run(argv);
      const explicit = await run([...argv, '--format', 'json']);
      t.same(json, explicit, `${cache} "${query}": no --format is --format json`);
      const text = await run([...argv, '--format', 'text']);
      t.equal(text.code, 0);
      const answer = parseJson(json.out) as Answer;
      const scores = scoreTexts(json.out);
      const entries = text.out.split('\n').filter((l) => /^ {2}\d/.test(l));
      t.equal(entries.length, answer.documents.length, `${cache} "${query}": one entry per selected document`);
      answer.documents.forEach((d, i) => {
        t.match(entries[i] ?? '', new RegExp(`^ +${i + 1}  ${d.id.replace(/\./g, '\\.')} +score ${(scores[i] ?? '').replace(/\./g, '\\.')}  ${d.tokens} tokens?$`), `${cache}: entry ${i + 1}`);
      });
      const s = answer.selection;
      t.match(text.out, new RegExp(`\\nselected ${s['documents_selected']} of ${s['documents_considered']} considered; ${s['tokens_used']} of [0-9,]+ tokens? used; ${s['documents_excluded_by_budget']} left out by the budget\\n$`), `${cache}: the budget line`);
      if (answer.documents.length === 0) t.match(text.out, /\n {2}nothing selected\n/);
    }
  }
});

t.test('a v1 section cache: trails, per-field matches with their share, the matched count, answer scope', async (t) => {
  const dir = t.testdir({
    docs: {
      'guide.md': '# Guide\n\nIntro text.\n\n## Install Docker\n\nInstall docker with the docker image.\n\n## Configure\n\nConfigure the image tag.\n',
      'faq.md': '# FAQ\n\nDocker questions and answers.\n',
      'other.md': '# Other\n\nNothing relevant here.\n',
    },
  });
  const built = await run(['build', '--engine', 'v1', '--granularity', 'section', '--tokenizer', 'bytes4', '--sources', 'docs', '--cache', 'cache'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '0' } });
  t.equal(built.code, 0, 'v1 build');
  // Content scope: the JSON and the text then hold the same selection (in answer scope, the
  // v1 default, each format bounds its own printed size, so the two may differ).
  const argv = ['resolve', '--cache', join(dir, 'cache'), '--query', 'docker image', '--budget', '1000', '--budget-scope', 'content'];
  const json = await run(argv);
  const text = await run([...argv, '--format', 'text']);
  t.equal(text.code, 0);
  const answer = parseJson(json.out) as Answer;
  t.ok(answer.documents.length >= 2, 'several sections match');
  t.match(text.out, /^query "docker image", budget 1,000 tokens \(v1, sections, bytes4\)\n\n/);
  const scores = scoreTexts(json.out);
  const lines = text.out.split('\n');
  answer.documents.forEach((d, i) => {
    const at = lines.findIndex((l) => l.startsWith(`${String(i + 1).padStart(3)}  ${d.id} `));
    t.ok(at > 0, `entry ${i + 1} is ${d.id}`);
    t.match(lines[at] ?? '', new RegExp(`score ${(scores[i] ?? '').replace(/\./g, '\\.')}  ${d.tokens} tokens?$`));
    if (d.trail !== undefined) t.equal(lines[at + 1], `     in: ${d.trail.join(' > ')}`, `${d.id}: its heading trail`);
    const matched = lines.find((l, k) => k > at && l.startsWith('     matched: ')) ?? '';
    for (const m of d.why.matches ?? []) {
      const fields = Object.entries(m).filter(([k]) => k !== 'term' && k !== 'score').map(([f, n]) => `${f} ${String(n)}`).join(', ');
      t.ok(matched.includes(`${m.term} (${fields}; `), `${d.id}: ${m.term} with its fields (${fields})`);
    }
  });
  const s = answer.selection;
  t.match(text.out, new RegExp(`\\nselected ${s['documents_selected']} of ${s['documents_matched']} matching \\(${s['documents_considered']} considered\\); ${s['tokens_used']} of 1,000 tokens used; ${s['documents_excluded_by_budget']} left out by the budget\\n$`));
  // "Answers that fit, by default", What to build item 6: in answer scope (the v1 default)
  // the text counts itself: answer_tokens is this text's own count (bytes4 here), within the budget.
  const answerArgv = argv.slice(0, -2);
  const scoped = await run([...answerArgv, '--format', 'text']);
  t.same(scoped, await run([...answerArgv, '--budget-scope', 'answer', '--format', 'text']), 'answer scope is the v1 default');
  const own = Math.ceil(Buffer.byteLength(scoped.out, 'utf8') / 4);
  t.ok(own <= 1000, `the text is within the budget (${own} tokens)`);
  t.match(scoped.out, new RegExp(`; the whole answer is ${own} of 1,000 tokens \\([0-9,]+ of content\\); \\d+ left out by the budget\\n$`), 'answer scope: the whole answer\'s own tokens');
  t.same(await run([...argv, '--format', 'text']), text, 'two runs, the same text');
});

t.test('a bad --format names the three formats', async (t) => {
  const r = await run(['resolve', '--cache', join(FIXTURES, 'minimal'), '--query', 'x', '--budget', '1', '--format', 'table']);
  t.equal(r.code, 1);
  t.match(r.err, /--format must be json, pretty or text, not "table"/);
});
