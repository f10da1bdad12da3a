// Checks "Answers that fit, by default", What to build item 6 ("the budget bounds what the
// agent pays") together with item 3's merged entries: the answer-scope choice prices each
// unit as an entry of its own, but adjacent units of one document print as one merged
// entry, for less. A unit the estimate skipped gets a second, exact try, so an answer does
// not stop with room for the next unit unused. The corpus: three adjacent sections of a.md
// (ranked 1-3, printed as one merged entry), then b.md (ranked 4), then c.md. Before the
// second try, a 900-token budget printed a 588-token answer without b.md, whose entry fits.
import t from 'tap';
import { join } from 'node:path';
import { buildCacheV1 } from '../../../../lib/core/engine/v1/build.js';
import { openEngine } from '../../../../lib/core/engine/engine.js';

const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ';
const part = (i: number, zetas: number): string => `## Part ${i}\n\n${'zeta '.repeat(zetas)}${FILLER.repeat(4)}\n\n`;

interface Answer {
  documents: { id: string; merged?: { id: string }[] }[];
  selection: { answer_tokens: number; omitted?: unknown[] };
}

t.test('answer scope: a unit skipped on an estimate is taken when the exact answer with it fits', async (t) => {
  const dir = t.testdir({
    src: {
      'a.md': `# Alpha guide\n\n${part(1, 6)}${part(2, 4)}${part(3, 3)}`,
      'b.md': `# Beta\n\n## Other\n\nzeta zeta ${FILLER.repeat(5)}\n`,
      'c.md': `# Gamma\n\nzeta ${'word '.repeat(200)}\n`,
    },
  });
  const cache = join(dir, 'cache');
  await buildCacheV1({ sources: join(dir, 'src'), cache, force: false, createdAt: '2026-01-01T00:00:00Z', options: { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] } });
  const engine = openEngine(cache);
  t.teardown(() => engine.close());
  const at = (budget: number): Answer => engine.resolve('zeta', budget, 'answer') as unknown as Answer;
  const answer = at(900);
  t.same(answer.documents.map((d) => d.id), ['a.md#alpha-guide', 'b.md#beta'], 'the merged entry of a.md, then b.md');
  t.equal(answer.documents[0]?.merged?.length, 3, 'a.md: three adjacent sections in one entry');
  t.ok(answer.selection.answer_tokens <= 900, `the whole answer fits: ${answer.selection.answer_tokens} tokens`);
  // Monotone here: every budget from the first that holds b.md's entry up to 1,100 holds it.
  const first = [...Array(40).keys()].map((k) => 700 + 10 * k).find((b) => at(b).documents.some((d) => d.id === 'b.md#beta'));
  t.ok(first !== undefined && first <= 900, `b.md is taken from a budget of ${first}`);
  for (let b = first ?? 1100; b <= 1100; b += 10) {
    const a = at(b);
    if (!a.documents.some((d) => d.id === 'b.md#beta') || a.selection.answer_tokens > b) t.fail(`budget ${b}`);
  }
  t.pass('every larger budget up to 1,100 holds it, within the budget');
});
