// Checks lib/core/engine/v1/resolve.ts's pricing shortcut: a candidate whose entry cannot fit
// even at a lower bound of its cost (at least 1 token; at least the stretches of its entry
// printed with empty content that do not touch the content, count.ts `outside`) is skipped
// without reading and counting its text — "the same choice". Every answer, in every format,
// at budgets from tiny to large, equals the answer of a choice that prices every candidate
// exactly (ResolveOptions.exactPricing), on generated pages of mixed sizes and on a
// dev-set doc set.
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerOptions, type AnswerFormat } from '../../../lib/core/operations/api.js';
import { openEngine } from '../../../lib/core/engine/engine.js';
import { compact } from '../../../lib/json.js';
import { buildV1 } from '../engine/v1/fixture.js';

const FORMATS: readonly AnswerFormat[] = ['json', 'pretty', 'text'];
const WORDS = ['deploy', 'rollback', 'cache', 'token', 'budget', 'server', 'query', 'index', 'the', 'of', '2026', 'v1.2', 'x"y', 'é'];

function page(seed: number): string {
  let x = seed;
  const rand = (n: number): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) % n;
  let text = `# Page ${seed}\n\n`;
  for (let s = 0; s < 1 + rand(5); s++) {
    text += `## Section ${s} ${WORDS[rand(WORDS.length)]}\n\n`;
    const words = 5 + rand(400);
    for (let w = 0; w < words; w++) text += WORDS[rand(WORDS.length)] + (rand(9) === 0 ? '.\n\n' : ' ');
    text += '\n\n';
  }
  return text;
}

function same(t: Test, cache: string, queries: readonly string[], budgets: readonly number[]): number {
  const engine = openEngine(cache);
  let compared = 0;
  try {
    for (const query of queries) {
      for (const budget of budgets) {
        for (const format of FORMATS) {
          const options = answerOptions(format);
          const fast = compact(engine.resolve(query, budget, 'answer', options));
          const exact = compact(engine.resolve(query, budget, 'answer', { ...options, exactPricing: true }));
          if (fast !== exact) t.fail(`${query} at ${budget} (${format}) differs`);
          compared++;
        }
      }
    }
  } finally {
    engine.close();
  }
  return compared;
}

t.test('answers priced with lower bounds equal answers priced exactly (generated pages)', async (t) => {
  const files = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`p${String(i).padStart(2, '0')}.md`, page(i + 1)]));
  const dir = t.testdir({ src: files });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section', tokenizer: 'o200k_base' });
  const queries = ['deploy rollback', 'cache token budget', 'server', 'the of', 'v1.2 2026', 'é query index'];
  const n = same(t, cache, queries, [1, 40, 150, 300, 600, 1000, 2000, 4000]);
  t.equal(n, 6 * 8 * 3, 'every query, budget and format compared');
  // And random budgets.
  fc.assert(
    fc.property(fc.constantFrom(...queries), fc.integer({ min: 1, max: 6000 }), (query, budget) => same(t, cache, [query], [budget]) === 3),
    { numRuns: 60, seed: 1126 },
  );
});

t.test('answers priced with lower bounds equal answers priced exactly (a dev-set doc set, cl100k_base)', async (t) => {
  const dir = t.testdir({});
  const cache = join(dir, 'cache');
  const corpus = fileURLToPath(new URL('../../../bench/relevance/devset2/corpus/undici', import.meta.url));
  await buildV1(corpus, cache, { granularity: 'section', tokenizer: 'cl100k_base' });
  const n = same(t, cache, ['how do I stop following redirects, maxRedirections', 'mock a request in tests', 'connection pool size', 'retry on error'], [200, 800, 2000, 5000]);
  t.equal(n, 4 * 4 * 3);
});
