// What each field of the default (lean) answer costs: for every question of a dev set, the
// printed `context resolve --budget B` answer (default build, no other flag) is split into
// its fields, each counted in o200k_base as printed (`"key":value,` — a field's key, value
// and separator), and the shares (field tokens / whole answer tokens) are averaged over the
// questions. The content's share is given twice: its JSON string as printed (escapes
// included) and its own text (the unit's text, unescaped), which is what `npm run
// bench:relevance` calls the content share. docs/engine.md "The lean answer" prints these.
//
//   node bench/relevance/field-cost.mjs [--devset devset2] [--budget 1000,2000] [--explain]
//
// Builds the set's caches with the real CLI into a temporary directory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const bin = join(repo, 'bin', 'context');
const require = createRequire(import.meta.url);
const { loadBundle } = await import(join(repo, 'bin', 'load-bundle.mjs'));
const { main } = loadBundle().exports;
const o200k = require('gpt-tokenizer/cjs/encoding/o200k_base');
const ORDINARY = { disallowedSpecial: new Set() };
const count = (text) => (text === '' ? 0 : o200k.countTokens(text, ORDINARY));

const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const devset = flag('--devset') ?? 'devset2';
const budgets = (flag('--budget') ?? '1000,2000').split(',').map(Number);
const explain = args.includes('--explain');

const root = join(here, devset);
const questions = readFileSync(join(root, 'questions.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
const sets = readdirSync(join(root, 'corpus')).sort();
const work = mkdtempSync(join(tmpdir(), 'context-field-cost-'));
const caches = new Map();
for (const set of sets) {
  const cache = join(work, set);
  const r = spawnSync(process.execPath, [bin, 'build', '--sources', join(root, 'corpus', set), '--cache', cache], { encoding: 'utf8', env: { ...process.env, SOURCE_DATE_EPOCH: '0' } });
  if (r.status !== 0) throw new Error(`build ${set}: ${r.stderr}`);
  caches.set(set, cache);
}

async function resolve(cache, query, budget) {
  let out = '';
  let err = '';
  const io = { stdout: (s) => (out += s), stderr: (s) => (err += s), env: {}, cwd: repo };
  const code = await main(['resolve', '--cache', cache, '--query', query, '--budget', String(budget), ...(explain ? ['--explain'] : [])], io);
  if (code !== 0) throw new Error(`resolve failed (${code}): ${err}`);
  return out;
}

/** `"key":value,` as printed (compact JSON), counted. */
const fieldCost = (key, value) => count(`${JSON.stringify(key)}:${JSON.stringify(value)},`);

for (const budget of budgets) {
  const sums = new Map();
  let own = 0;
  let entries = 0;
  const add = (name, share) => sums.set(name, (sums.get(name) ?? 0) + share);
  for (const q of questions) {
    const printed = await resolve(caches.get(q.set), q.query, budget);
    const total = count(printed);
    const answer = JSON.parse(printed);
    const per = new Map();
    for (const doc of answer.documents) {
      entries++;
      for (const [key, value] of Object.entries(doc)) per.set(`documents[].${key}`, (per.get(`documents[].${key}`) ?? 0) + fieldCost(key, value));
      own += count(doc.content) / total;
    }
    per.set('selection', fieldCost('selection', answer.selection));
    for (const [name, tokens] of per) add(name, tokens / total);
  }
  const n = questions.length;
  console.log(`${devset}, ${n} questions, --budget ${budget}${explain ? ' --explain' : ''}: ${(entries / n).toFixed(1)} entries per answer`);
  for (const [name, sum] of [...sums].sort((a, b) => b[1] - a[1])) console.log(`  ${name.padEnd(28)} ${((100 * sum) / n).toFixed(1).padStart(5)} %`);
  console.log(`  ${'content, its own text'.padEnd(28)} ${((100 * own) / n).toFixed(1).padStart(5)} %  (unescaped)`);
}
rmSync(work, { recursive: true, force: true });
