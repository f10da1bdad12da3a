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
  // v1 default, the text shows the entries of the JSON answer at that budget). The details
  // the text shows (score, tokens, why) are the explained answer's (--explain).
  const argv = ['resolve', '--cache', join(dir, 'cache'), '--query', 'docker image', '--budget', '1000', '--budget-scope', 'content'];
  const json = await run([...argv, '--explain']);
  const text = await run([...argv, '--format', 'text']);
  t.equal(text.code, 0);
  const answer = parseJson(json.out) as Answer;
  t.ok(answer.documents.length >= 2, 'several sections match');
  const lean = parseJson((await run(argv)).out) as { documents: { id: string; content: string }[] };
  t.same(lean.documents.map((d) => d.id), answer.documents.map((d) => d.id), 'the lean and the explained answer select the same units in content scope');
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
    // Each entry ends with a preview of its content: heading marks dropped, white space one space.
    const next = lines.findIndex((l, k) => k > at && (/^ {2}\d/.test(l) || l === ''));
    const preview = lines.slice(at, next).find((l) => l.startsWith('     | ')) ?? '';
    const words = (lean.documents[i]?.content ?? '').replace(/^#+ /gm, '').replace(/\s+/g, ' ').trim();
    t.ok(preview.length > 7 && words.startsWith(preview.slice(7).replace(/…$/, '')), `${d.id}: a preview of its first words (${preview})`);
  });
  const s = answer.selection;
  t.match(text.out, new RegExp(`\\nselected ${s['documents_selected']} of ${s['documents_matched']} matching \\(${s['documents_considered']} considered\\); ${s['tokens_used']} of 1,000 tokens used; ${s['documents_excluded_by_budget']} not selected\\n$`));
  // Answer scope (the v1 default): the text shows the entries of the JSON answer an agent
  // gets at the same budget, and that answer's size: "the JSON answer is N of B tokens".
  const answerArgv = argv.slice(0, -2);
  const scoped = await run([...answerArgv, '--format', 'text']);
  t.same(scoped, await run([...answerArgv, '--budget-scope', 'answer', '--format', 'text']), 'answer scope is the v1 default');
  for (const [budget, explain] of [['1000', false], ['1000', true], ['80', false], ['40', false], ['200', true]] as const) {
    const at = [...answerArgv.slice(0, -1), budget, ...(explain ? ['--explain'] : [])];
    const agent = await run(at);
    const shown = await run([...at, '--format', 'text']);
    const value = parseJson(agent.out) as { documents: { id: string }[]; selection: Record<string, number> };
    const tokens = value.selection['answer_tokens'] as number;
    const what = `budget ${budget}${explain ? ', --explain' : ''}`;
    t.equal(tokens, Math.ceil(Buffer.byteLength(agent.out, 'utf8') / 4), `${what}: answer_tokens is the JSON answer's own count (bytes4)`);
    t.ok(tokens <= Number(budget), `${what}: the JSON answer (${tokens} tokens) is within the budget`);
    t.same(shown.out.split('\n').filter((l) => /^ {2}\d/.test(l)).map((l) => l.trim().split(/ +/)[1]), value.documents.map((d) => d.id), `${what}: the text shows the JSON answer's entries`);
    t.match(shown.out, new RegExp(`; the JSON answer is ${tokens} of ${Number(budget).toLocaleString('en-US')} tokens \\([0-9,]+ of content\\); \\d+ not selected\\n$`), `${what}: the JSON answer's tokens`);
  }
  // No filler: at 80 tokens the best section fits and the far weaker one is not taken.
  t.same((parseJson((await run([...answerArgv.slice(0, -1), '80'])).out) as { documents: { id: string }[] }).documents.map((d) => d.id), ['guide.md#guide']);
  t.same(await run([...argv, '--format', 'text']), text, 'two runs, the same text');
});

t.test('a bad --format names the four formats', async (t) => {
  const r = await run(['resolve', '--cache', join(FIXTURES, 'minimal'), '--query', 'x', '--budget', '1', '--format', 'table']);
  t.equal(r.code, 1);
  t.match(r.err, /--format must be json, pretty, markdown or text, not "table"/);
});
