// A/B timing of two builds of this package in one process, for changes too small to see in
// whole builds on a noisy host (docs/engine-measurements.md "One scan for terms, and leaner memos").
//
//   node bench/ab.mjs DIST_A DIST_B [tokens|terms|batch]
//
// DIST_A and DIST_B are two `dist/` folders (say a worktree of the commit before, built, and
// this one). Both are loaded into this process; the real-text corpus of `npm run bench:real`
// (bench/real-corpus.mjs: 10,000 files, generated once under bench/.work/real/corpus) is
// taken in rounds of 256 files, and each round is timed for A and for B, alternating which goes
// first. What is timed: `tokens`, o200k_base counts of 2 KB slices; `terms`, the term counter
// on 2 KB units, with the per-chunk byte order a build asks for; `batch`, a build's whole
// analysis of each round (read, hash, Markdown, sections, terms, o200k_base). Prints both
// totals, B/A, and whether both gave the same sums (they must: a change of speed only).
// Run it in both orders (A B, then B A): the module loaded second can run faster against a
// copy of itself (measured: ~4 % in `terms`, up to ~8 % in `batch`); the geometric mean of
// the two ratios cancels that, and a difference smaller than that spread is not one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateRealCorpus } from './real-corpus.mjs';

const [distA, distB, what = 'batch'] = process.argv.slice(2);
if (distA === undefined || distB === undefined || !['tokens', 'terms', 'batch'].includes(what)) {
  console.error('usage: node bench/ab.mjs DIST_A DIST_B [tokens|terms|batch]');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const corpus = generateRealCorpus(join(here, '.work', 'real', 'corpus'), resolve(here, '..'), 10_000);
const files = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith('.md')) files.push(p);
  }
};
walk(corpus);

const load = async (dist) => {
  const from = (path) => import(pathToFileURL(resolve(dist, path)).href);
  if (what === 'tokens') {
    const count = (await from('core/tokens/count.js')).tokenCounter('o200k_base');
    return (paths) => {
      let sum = 0;
      for (const f of paths) {
        const text = readFileSync(f, 'utf8');
        for (let i = 0; i < text.length; i += 2048) sum += count(text.slice(i, i + 2048));
      }
      return sum;
    };
  }
  if (what === 'terms') {
    const { TermCounter } = await from('core/analysis/term-counter.js');
    return (paths) => {
      const counter = new TermCounter();
      let sum = 0;
      for (const f of paths) {
        const text = readFileSync(f, 'utf8');
        for (let s = 0; s < text.length; s += 2048) {
          counter.count(text, 0, s, Math.min(text.length, s + 2048));
          for (const tf of counter.finishUnit().tfs) sum += tf;
        }
      }
      return sum + counter.byteRanks().ranks.length;
    };
  }
  const { runBatch } = await from('core/engine/v1/batch.js');
  return async (paths) => {
    const items = paths.map((f) => ({ path: f.slice(corpus.length + 1), file: f, offset: 0, length: -1 }));
    const result = await runBatch({ granularity: 'section', tokenizer: 'o200k_base', items, keepContents: true });
    return result.termIds.length + result.units.reduce((n, u) => n + u.tokens, 0);
  };
};

const runs = [
  { name: 'A', run: await load(distA), ms: 0, sum: 0 },
  { name: 'B', run: await load(distB), ms: 0, sum: 0 },
];
for (let r = 0, round = 0; r < files.length; r += 256, round++) {
  const paths = files.slice(r, r + 256);
  for (const side of round % 2 === 0 ? runs : [...runs].reverse()) {
    const t0 = performance.now();
    side.sum += await side.run(paths);
    side.ms += performance.now() - t0;
  }
}
const [a, b] = runs;
console.log(`${what}, ${files.length} files: A ${a.ms.toFixed(0)} ms, B ${b.ms.toFixed(0)} ms, B/A ${(b.ms / a.ms).toFixed(3)}; the same results: ${a.sum === b.sum ? 'yes' : 'NO'}`);
process.exitCode = a.sum === b.sum ? 0 : 1;
