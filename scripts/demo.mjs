// `npm run demo`: builds the example corpus shipped in examples/corpus into a context cache
// (.demo/cache, the default build: engine v1, sections, o200k_base) and resolves a question against it with the real
// CLI, printing each command before its output — a newcomer's first look at a selection.
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const query = process.argv[2] ?? 'rollback deployment';
const budget = process.argv[3] ?? '200';

function step(args) {
  const shown = args.map((a) => (/[\s']/.test(a) ? `'${a}'` : a)).join(' ');
  process.stdout.write(`\n$ ./bin/context ${shown}\n`);
  const r = spawnSync(process.execPath, [join(root, 'bin', 'context'), ...args], { cwd: root, encoding: 'utf8' });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout;
}

const cache = relative(root, join(root, '.demo', 'cache'));
step(['build', '--sources', 'examples/corpus', '--cache', cache, '--force']);
step(['inspect', '--cache', cache]);
const out = step(['resolve', '--cache', cache, '--query', query, '--budget', budget, '--format', 'pretty']);
const result = JSON.parse(out);
process.stdout.write(`\nSelected ${result.selection.documents_selected} of ${result.selection.documents_matched} matching sections ` +
  `(${result.selection.documents_considered} in the cache; ${result.selection.tokens_used} of ${budget} tokens):\n`);
for (const d of result.documents) {
  const matched = d.why.matches.map((m) => `${m.term} in ${Object.keys(m.fields).join('+')}`).join(', ');
  process.stdout.write(`  ${d.id.padEnd(44)} score ${String(d.score).padEnd(10)} ${String(d.tokens).padStart(4)} tokens  (${matched})\n`);
}
process.stdout.write('\nTry your own: npm run demo -- "your question" 400\n');
