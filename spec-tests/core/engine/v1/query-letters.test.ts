// A one-letter query term that is a part of another query term the cache holds does not
// score (docs/engine.md "Queries as people write them": `p` beside `-p`, `x` beside
// `x-forwarded-for`); a letter alone, or beside a token the cache lacks, still does, and
// digits always do. lib/core/engine/v1/resolve.ts `scoringTerms`.
import t from 'tap';
import { join } from 'node:path';
import { openEngine } from '../../../../lib/core/engine/engine.js';
import { scoringTerms } from '../../../../lib/core/engine/v1/resolve.js';
import { loadV1 } from '../../../../lib/core/engine/v1/load.js';
import { queryTermsV1 } from '../../../../lib/core/analysis/analyzer.js';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { readFileSync } from 'node:fs';
import { buildV1 } from './fixture.js';

interface Explained {
  documents: { id: string }[];
  selection: { terms: string[] };
}

// A page of other `-p` flags (a p in every line) and the page that answers `mkdir -p`.
const FLAGS = '# Flags\n\n' + ['Run `bun repl -p` to print.', 'Use `tsc -p` for a project.', 'The `-p` flag of `node` prints.', 'Pass -p p p to the tool.'].join('\n\n') + '\n';
const DIRS = '# Directories\n\nTo create a directory with its parents, call mkdir with recursive: true, like `mkdir -p a/b`.\n';

t.test('the letter of `-p` does not score beside `-p`; the answer is the mkdir page', async (t) => {
  const dir = t.testdir({ src: { 'flags.md': FLAGS, 'dirs.md': DIRS, 'letters.md': '# Letters\n\nThe letter x and the letter f.\n' } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section', tokenizer: 'o200k_base' });
  t.same(queryTermsV1('mkdir -p'), ['-p', 'mkdir', 'p'], 'the analyzer gives the letter as a term of its own');
  const answer = JSON.parse(resolveText(cache, 'mkdir -p', 100_000, 'json', undefined, 'content', true)) as Explained;
  t.same(answer.selection.terms, ['-p', 'mkdir'], 'p does not score: -p is in the cache');
  t.equal(answer.documents[0]?.id, 'dirs.md#directories', 'the page on mkdir ranks first');
  // The same query's terms straight from the loaded index.
  const loaded = loadV1(cache, readFileSync(join(cache, 'manifest.json'), 'utf8'));
  t.teardown(() => loaded.close());
  t.same(scoringTerms(loaded.index, ['-p', 'mkdir', 'p']), ['-p', 'mkdir']);
  t.same(scoringTerms(loaded.index, ['p']), ['p'], 'a letter alone scores');
  t.same(scoringTerms(loaded.index, ['f', 'f#-specific', 'specif']), ['f', 'f#-specific', 'specif'], 'beside a token the cache lacks (f#-specific), the letter scores');
  t.same(scoringTerms(loaded.index, ['1', '1.0.3']), ['1', '1.0.3'], 'digits always score');
  t.same(scoringTerms(loaded.index, ['mkdir', 'x']), ['mkdir', 'x'], 'a letter that is no part of another term scores');
});

t.test('through the engine, as the CLI and the MCP server load a cache for one query', async (t) => {
  const dir = t.testdir({ src: { 'flags.md': FLAGS, 'dirs.md': DIRS } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section', tokenizer: 'o200k_base' });
  const oneQuery = openEngine(cache, [], { query: 'mkdir -p' });
  t.teardown(() => oneQuery.close());
  const whole = openEngine(cache);
  t.teardown(() => whole.close());
  const a = oneQuery.resolve('mkdir -p', 100_000) as unknown as Explained;
  const b = whole.resolve('mkdir -p', 100_000) as unknown as Explained;
  t.same(a.selection.terms, ['-p', 'mkdir']);
  t.same(b, a, 'the same answer whether the cache was loaded for the query or whole');
});
