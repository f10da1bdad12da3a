// Issue 44 item 2, "A stall on one long word": docs/engine.md "Counting pieces once" ("Bounded
// work per piece and per heading"). A heading that is one long unbroken word (a base64 blob,
// a minified line after `#`) made the default build superlinear: its one piece merged in
// O(n^2) (rank-table.ts's scan), and every section cut from it (one per 2,048 bytes) stored,
// counted and priced the whole heading as its trail and id (O(n^2) again, 1 MB: ~1 GB of
// trails). Now pieces over 128 bytes merge over a heap, exactly, and a section's heading
// texts and slugs keep at most 1,024 UTF-8 bytes (analysis/markdown.ts headingBytes). Times
// are CPU times of in-process builds compared as ratios, each the best of a few runs, so a
// loaded machine slows both sides alike; before this change the 64 KB heading alone took
// minutes (the test times out).
import t from 'tap';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCacheV1 } from '../../../../lib/core/engine/v1/build.js';
import { HEADING_MAX_BYTES } from '../../../../lib/core/engine/v1/config.js';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { boundedHeading, parseMarkdown, utf8Prefix } from '../../../../lib/core/analysis/markdown.js';
import { tokenCounter } from '../../../../lib/core/tokens/count.js';
import { CREATED_AT, unitsOf } from './fixture.js';

const KB = 1024;

/** One lower-case word of pseudo-random letters (no piece of it repeats). */
function word(n: number, seed: number): string {
  let x = seed;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    parts.push(String.fromCharCode(97 + ((x >> 8) % 26)));
  }
  return parts.join('');
}

/** `n` characters of real documentation: the dev set's pages, joined in path order from page `from`. */
function prose(n: number, from: number): string {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(md|mdx)$/u.test(name)) pages.push(readFileSync(p, 'utf8'));
    }
  };
  walk(join(import.meta.dirname, '..', '..', '..', '..', 'bench', 'relevance', 'devset2'));
  let text = '';
  for (let i = from; text.length < n; i++) text += pages[i % pages.length] + '\n\n';
  return text.slice(0, n);
}

const heading = (n: number, seed: number): string => `# ${word(n, seed)}\n\nbody text\n`;

/** A section build (the default) of `files` in a fresh directory under `dir`, with o200k_base: its CPU time in ms and the cache. */
async function build(dir: string, name: string, files: Record<string, string>): Promise<{ cpu: number; cache: string }> {
  const root = join(dir, name);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, 'src', path), text);
  const cache = join(root, 'cache');
  const c0 = process.cpuUsage();
  await buildCacheV1({
    sources: join(root, 'src'),
    cache,
    force: false,
    createdAt: CREATED_AT,
    options: { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] },
    threads: 1,
  });
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000, cache };
}

/** The least CPU time of `runs` builds of `files`. */
async function bestOf(runs: number, dir: string, name: string, files: () => Record<string, string>): Promise<number> {
  let best = Infinity;
  for (let k = 0; k < runs; k++) best = Math.min(best, (await build(dir, name, files())).cpu);
  return best;
}

t.test('a one-word heading builds in time linear in its bytes: 256 KB against 64 KB, 1 MB against 1 MB of prose', { timeout: 90_000 }, async (t) => {
  const dir = t.testdir({});
  await build(dir, 'warm', { 'a.md': prose(256 * KB, 40) + heading(8 * KB, 1) }); // loads the ranks, compiles the code
  const small = await bestOf(3, dir, 'small', () => ({ 'a.md': heading(64 * KB, 2) }));
  const large = await bestOf(3, dir, 'large', () => ({ 'a.md': heading(256 * KB, 3) }));
  // Linear: ~4x for 4x the bytes. Before: the trail alone made it ~16x, the merge ~64x.
  t.ok(large / small < 9, `256 KB heading ${large.toFixed(0)} ms, 64 KB ${small.toFixed(0)} ms of CPU: ${(large / small).toFixed(1)}x (linear: 4)`);
  const text = await bestOf(2, dir, 'prose', () => ({ 'a.md': prose(1024 * KB, 0) }));
  const one = await bestOf(2, dir, 'word', () => ({ 'a.md': heading(1024 * KB, 4) }));
  t.ok(one / text < 5, `1 MB one-word heading ${one.toFixed(0)} ms, 1 MB of prose ${text.toFixed(0)} ms of CPU: ${(one / text).toFixed(1)}x`);
});

t.test('a long heading\'s sections carry a bounded trail and id, unique, counted as stored', { timeout: 60_000 }, async (t) => {
  const dir = t.testdir({});
  const blob = word(300 * KB, 5);
  // Two headings alike in their first 1,024 bytes, then different; a third within the bound.
  const text = `# ${blob}\n\nfirst body\n\n# ${blob.slice(0, 5000)}x\n\nsecond body\n\n# ${'é'.repeat(512)}\n\nthird body\n`;
  const { cache } = await build(dir, 'ids', { 'a.md': text });
  const units = unitsOf(cache);
  t.ok(units.length > 150, `${units.length} units: the 300 KB heading is cut into sections of 2,048 bytes`);
  const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
  const cut = boundedHeading(blob, HEADING_MAX_BYTES);
  t.equal(bytes(cut), HEADING_MAX_BYTES, 'an ASCII heading is cut to 1,021 bytes and an ellipsis');
  t.ok(cut.endsWith('\u2026') && blob.startsWith(cut.slice(0, -1)), 'the cut text is the heading\'s start, then …');
  t.ok(units.every((u) => u.trail.every((h) => bytes(h) <= HEADING_MAX_BYTES)), 'every trail entry within 1,024 bytes');
  t.ok(units.every((u) => bytes(u.slug) <= HEADING_MAX_BYTES + 8), 'every slug within 1,024 bytes (and ~k)');
  const slugs = units.map((u) => u.slug);
  t.equal(new Set(slugs).size, slugs.length, 'ids unique');
  const base = blob.slice(0, HEADING_MAX_BYTES);
  t.equal(slugs[0], base, 'the first heading\'s slug: its first 1,024 bytes, slugged');
  t.ok(slugs.includes(`${base}~2`), 'its later sections: slug~k');
  t.ok(slugs.includes(`${base}-1`), 'the second heading, alike in its first 1,024 bytes, is numbered as a repeat');
  t.ok(slugs.includes('é'.repeat(512)), 'a heading of exactly 1,024 bytes is not cut');
  t.same(units.find((u) => u.slug === 'é'.repeat(512))?.trail, ['é'.repeat(512)]);
  const count = tokenCounter('o200k_base');
  const first = units[0]!;
  t.equal(first.tokens, count(text.slice(first.start, first.end)) + count(cut), 'a unit\'s tokens: its content and its bounded trail');
});

t.test('resolving a cache that holds a 1 MB one-word heading is fast and its answers fit', { timeout: 60_000 }, async (t) => {
  const dir = t.testdir({});
  const files = { 'a.md': `# Blob ${word(1024 * KB, 6)}\n\nblob body\n`, 'b.md': `# Blob\n\n${prose(64 * KB, 3)}\n` };
  const { cache } = await build(dir, 'resolve', files);
  const { cache: plain } = await build(dir, 'plain', { 'b.md': files['b.md'], 'c.md': `# Blob\n\n${prose(1024 * KB, 9)}\n` });
  const cpu = (c: string, budget: number): number => {
    let best = Infinity;
    for (let k = 0; k < 3; k++) {
      const c0 = process.cpuUsage();
      resolveText(c, 'blob', budget);
      const d = process.cpuUsage(c0);
      best = Math.min(best, (d.user + d.system) / 1000);
    }
    return best;
  };
  const answer = JSON.parse(resolveText(cache, 'blob', 2000)) as { documents: { id: string }[]; selection: { answer_tokens: number } };
  t.ok(answer.documents.length > 0 && answer.selection.answer_tokens <= 2000, `budget 2,000: ${answer.documents.length} entries in ${answer.selection.answer_tokens} tokens`);
  t.ok(answer.documents.every((d) => d.id.length < 1100), 'ids within the bound');
  const blob = cpu(cache, 100_000);
  const text = cpu(plain, 100_000);
  // Before: a 16 KB heading's cache answered in ~3.3 s (its ids and trails counted whole).
  t.ok(blob < 5 * text + 50, `budget 100,000: ${blob.toFixed(0)} ms of CPU, a cache of 1 MB of prose ${text.toFixed(0)} ms`);
});

t.test('markdown.ts: heading texts and slug texts cut on whole code points within the bound', async (t) => {
  t.equal(utf8Prefix('abc', 3), 'abc');
  t.equal(utf8Prefix('abcd', 3), 'abc');
  t.equal(utf8Prefix('aé', 2), 'a', 'a 2-byte character is never split');
  t.equal(utf8Prefix('a日', 3), 'a', 'nor a 3-byte one');
  t.equal(utf8Prefix('a😀b', 4), 'a', 'nor a surrogate pair');
  t.equal(utf8Prefix('a😀b', 5), 'a😀');
  t.equal(utf8Prefix('a\ud800b', 4), 'a\ud800', 'a lone surrogate counts 3 bytes, as UTF-8 encodes it (U+FFFD)');
  t.equal(boundedHeading('x'.repeat(10), 10), 'x'.repeat(10), 'within the bound: as it is');
  t.equal(boundedHeading('x'.repeat(11), 10), 'xxxxxxx\u2026', 'over it: 7 bytes and …');
  t.equal(boundedHeading('😀'.repeat(5), 10), '😀\u2026', 'whole code points only');
  const doc = `# ${'A'.repeat(2000)} tail\n\n## ${'A'.repeat(2000)} other\n\n### Short\n`;
  const bounded = parseMarkdown(doc, { headingIds: true, headingBytes: 1024 });
  t.same(bounded.headings.map((h) => Buffer.byteLength(h.text)), [1024, 1024, 5]);
  t.same(bounded.headings.map((h) => h.slug), ['a'.repeat(1024), `${'a'.repeat(1024)}-1`, 'short'], 'slugs from the cut text, numbered as repeats');
  const whole = parseMarkdown(doc, { headingIds: true });
  t.same(whole.headings.map((h) => h.slug), [`${'a'.repeat(2000)}-tail`, `${'a'.repeat(2000)}-other`, 'short'], 'without the bound: GitHub\'s slugs, whole');
  t.throws(() => parseMarkdown(doc, { headingBytes: 3 }), RangeError);
});
