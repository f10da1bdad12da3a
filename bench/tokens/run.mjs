// `npm run bench:tokens`: what a token budget means, measured on the relevance dev set
// (bench/relevance/devset: 147 real Markdown files, 197 queries).
//  1. The estimate against real encodings: ceil(bytes / 4) next to o200k_base and
//     cl100k_base per file (how often, and by how much, the real count is larger).
//  2. The whole answer against `tokens_used`: with the default content scope the budget
//     counts the selected contents only; the printed answer also holds ids, versions,
//     scores, `why` and JSON escaping. Figures per query at budgets 2,000 and 8,000.
//  3. The answer scope: every printed answer counted again, independently, must fit.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const require = createRequire(import.meta.url);
const devset = join(repo, 'bench', 'relevance', 'devset');
const bin = join(repo, 'bin', 'context');
const { openEngine } = await import(join(repo, 'dist', 'core', 'engine', 'engine.js'));
const { compact } = await import(join(repo, 'dist', 'json.js'));
const ORDINARY = { disallowedSpecial: new Set() };
const enc = {
  o200k_base: require('gpt-tokenizer/cjs/encoding/o200k_base'),
  cl100k_base: require('gpt-tokenizer/cjs/encoding/cl100k_base'),
};
const count = (name, text) => (text === '' ? 0 : enc[name].countTokens(text, ORDINARY));
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const f1 = (x) => x.toFixed(1);

// 1. Estimate vs real, per file.
const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.md')) files.push(readFileSync(p, 'utf8'));
  }
};
walk(join(devset, 'corpus'));
console.log(`1. estimate ceil(bytes/4) vs real encodings, ${files.length} dev-set files`);
for (const name of Object.keys(enc)) {
  const ratios = files.map((t) => count(name, t) / Math.max(1, Math.ceil(Buffer.byteLength(t) / 4)));
  const over = ratios.filter((r) => r > 1).length;
  console.log(
    `   ${name.padEnd(12)} real > estimate for ${over} files (${f1((100 * over) / files.length)} %); real/estimate mean ${ratios.length ? mean(ratios).toFixed(2) : '-'}, p95 ${q(ratios, 0.95).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}`,
  );
}

// 2 and 3. Answers.
const queries = readFileSync(join(devset, 'queries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const work = mkdtempSync(join(tmpdir(), 'context-tokens-'));
const engines = new Map();
for (const r of [...new Set(queries.map((x) => x.repo))]) {
  for (const granularity of ['file', 'section']) {
    const cache = join(work, `${r}-${granularity}`);
    const b = spawnSync(process.execPath, [bin, 'build', '--engine', 'v1', '--granularity', granularity, '--tokenizer', 'o200k_base', '--sources', join(devset, 'corpus', r), '--cache', cache], { encoding: 'utf8' });
    if (b.status !== 0) throw new Error(b.stderr);
    engines.set(`${r}-${granularity}`, openEngine(cache));
  }
}
console.log('2. whole answer (compact JSON, o200k_base) vs tokens_used, content scope (the default)');
for (const granularity of ['file', 'section']) {
  for (const budget of [2000, 8000]) {
    const over = [];
    const perEntry = [];
    let exceeded = 0;
    for (const x of queries) {
      const answer = engines.get(`${x.repo}-${granularity}`).resolve(x.query, budget);
      const text = compact(answer) + '\n';
      const total = count('o200k_base', text);
      const used = answer.selection.tokens_used;
      over.push(total - used);
      if (answer.documents.length > 0) perEntry.push((total - used) / answer.documents.length);
      if (total > budget) exceeded++;
    }
    console.log(
      `   ${granularity.padEnd(7)} budget ${String(budget).padStart(5)}: answer − tokens_used mean ${f1(mean(over))}, p50 ${q(over, 0.5)}, p95 ${q(over, 0.95)}, max ${Math.max(...over)}; per entry mean ${f1(mean(perEntry))}, max ${f1(Math.max(...perEntry))}; answer over budget for ${exceeded}/${queries.length} queries`,
    );
  }
}
console.log('3. answer scope (--budget-scope answer): the printed answer, counted again, against the budget');
let checked = 0;
let failures = 0;
const fill = [];
for (const granularity of ['file', 'section']) {
  for (const budget of [300, 2000, 8000]) {
    for (const x of queries) {
      const answer = engines.get(`${x.repo}-${granularity}`).resolve(x.query, budget, 'answer');
      const text = compact(answer) + '\n';
      const total = count('o200k_base', text);
      checked++;
      if (total > budget || total !== answer.selection.answer_tokens) failures++;
      fill.push(total / budget);
    }
  }
}
console.log(`   ${checked} answers: ${failures} over budget or miscounted; budget filled mean ${f1(100 * mean(fill))} %`);
for (const e of engines.values()) e.close();
rmSync(work, { recursive: true, force: true });
