// `npm run demo`: builds the example corpus shipped in examples/corpus into a context cache
// (.demo/cache, the default build: engine v1, sections, o200k_base token counts) and asks it
// a question within a small budget with the real CLI, printing each command before its
// output — a newcomer's first look at a selection: first as people read it (--format text),
// then the JSON an agent (or the MCP tool) receives, both bounded by the same budget.
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const query = process.argv[2] ?? 'how do I roll back a deployment?';
const budget = process.argv[3] ?? '600';

function step(args) {
  const shown = args.map((a) => (/[\s'?]/.test(a) ? `'${a}'` : a)).join(' ');
  process.stdout.write(`\n$ ./bin/context ${shown}\n`);
  const r = spawnSync(process.execPath, [join(root, 'bin', 'context'), ...args], { cwd: root, encoding: 'utf8' });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout;
}

const cache = relative(root, join(root, '.demo', 'cache'));
const built = JSON.parse(step(['build', '--sources', 'examples/corpus', '--cache', cache, '--force']));
step(['inspect', '--cache', cache]);
step(['resolve', '--cache', cache, '--query', query, '--budget', budget, '--format', 'text']);
const out = step(['resolve', '--cache', cache, '--query', query, '--budget', budget]);
const { documents, selection } = JSON.parse(out);
process.stdout.write(
  `\nThe JSON above is what an agent receives: ${documents.length} ${documents.length === 1 ? 'entry' : 'entries'}, ` +
    `${selection.answer_tokens} of ${budget} tokens counted in ${built.tokenizer}, the whole answer included, ` +
    `${documents.reduce((n, d) => n + d.tokens, 0)} of them the sections' own text` +
    (selection.omitted === undefined ? '.\n' : `; raise the budget to ${selection.raise_budget_to} to include ${selection.omitted[0]}.\n`),
);
process.stdout.write('Every detail of each entry (scores, per-field matches): add --explain. As Markdown: --format markdown.\n');
process.stdout.write('\nTry your own: npm run demo -- "your question" 800\n');
