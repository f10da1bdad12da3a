// Checks docs/cache-format.md "What is checked, and when": a whole load of a large cache (as the
// MCP server keeps it) reads and checks the later packs' heads on a worker thread
// (lib/core/engine/v1/load.ts loadV1Parallel, heads-worker.ts) — the same checks on the same
// bytes, the same cache, and the failure a sequential load reports, whichever thread met it;
// a one-query load reads the packs' leads and the term files on its own thread. The worker runs compiled
// JavaScript, so the worker path is exercised through dist/ (npm test builds it first); from
// the TypeScript sources the loader checks every head on its own thread.
import t, { type Test } from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCacheV1 } from '../../../../lib/core/engine/v1/build.js';
import { loadV1, loadV1Parallel } from '../../../../lib/core/engine/v1/load.js';
import { type DocumentList, type PackedDocument, readManifest } from '../../../../lib/core/engine/v1/manifest.js';
import { resolveV1 } from '../../../../lib/core/engine/v1/resolve.js';
import { queryTermsV1 } from '../../../../lib/core/analysis/analyzer.js';
import { compact } from '../../../../lib/json.js';

const DIST_LOAD = fileURLToPath(new URL('../../../../dist/core/engine/v1/load.js', import.meta.url));
const DIST_RESOLVE = fileURLToPath(new URL('../../../../dist/core/engine/v1/resolve.js', import.meta.url));

/** Every document of `list`, in order. */
const all = (list: DocumentList): PackedDocument[] => Array.from({ length: list.length }, (_, i) => list.at(i));

const N = 400;
const corpus = (): Record<string, string> =>
  Object.fromEntries(Array.from({ length: N }, (_, i) => [`p${String(i).padStart(3, '0')}.md`, `# Page ${i}\n\nrollback step ${i} of the ${i % 3 === 0 ? 'blue' : 'green'} deployment\n\n## Notes\n\nmore text ${i % 7}\n`]));

async function setUp(t: Test): Promise<{ cache: string; text: string; heads: { offset: number; pack: string }[] }> {
  const dir = t.testdir({ src: corpus() });
  const cache = join(dir, 'cache');
  await buildCacheV1({ sources: join(dir, 'src'), cache, force: false, createdAt: '2026-01-01T00:00:00Z', options: { granularity: 'section', tokenizer: 'bytes4', include: [], exclude: [] } });
  const text = readFileSync(join(cache, 'manifest.json'), 'utf8');
  const top = readManifest(text);
  if (Array.isArray(top)) throw new Error('manifest');
  return { cache, text, heads: top.packs.map((p) => ({ offset: p.head.bytes, pack: join(cache, 'packs', `${p.sha256}.pack`) })) };
}

/** Flips a byte inside pack k's head (its index, past the document list): the head no longer hashes to its record. */
function damageHead(pack: { offset: number; pack: string }): void {
  const bytes = readFileSync(pack.pack);
  const at = pack.offset - 5;
  bytes[at] = (bytes[at] as number) ^ 0x10;
  writeFileSync(pack.pack, bytes);
}

const QUERIES = ['rollback blue deployment', 'green notes', 'page 17'];

t.test('from the TypeScript sources: loadV1Parallel checks every head on this thread and loads what loadV1 loads', async (t) => {
  const { cache, text } = await setUp(t);
  for (const q of QUERIES) {
    const terms = queryTermsV1(q);
    const one = loadV1(cache, text, undefined, terms);
    const two = await loadV1Parallel(cache, text, undefined, terms, 2, 0);
    t.same(all(two.manifest.documents), all(one.manifest.documents), `${q}: the same documents`);
    t.equal(compact(resolveV1(two, q, 300, 'answer', { explain: false })), compact(resolveV1(one, q, 300, 'answer', { explain: false })), `${q}: the same answer`);
  }
});

t.test('through dist/: a worker checks the later heads; the same cache, the same answers, the same failures', { skip: existsSync(DIST_LOAD) ? false : 'dist/ is not built (npm test builds it)' }, async (t) => {
  const dist = (await import(DIST_LOAD)) as typeof import('../../../../lib/core/engine/v1/load.js');
  const distResolve = (await import(DIST_RESOLVE)) as typeof import('../../../../lib/core/engine/v1/resolve.js');
  const { cache, text, heads } = await setUp(t);
  t.ok(heads.length >= 6, `several packs (${heads.length})`);
  for (const q of QUERIES) {
    const terms = queryTermsV1(q);
    const one = dist.loadV1(cache, text, undefined, terms);
    const two = await dist.loadV1Parallel(cache, text, undefined, terms, 2, 0);
    t.same(all(two.manifest.documents), all(one.manifest.documents), `${q}: the same documents, numbered by the same packs`);
    t.equal(two.index.unitCount, one.index.unitCount);
    for (const budget of [120, 600, 5000]) {
      t.equal(compact(distResolve.resolveV1(two, q, budget, 'answer', { explain: false })), compact(distResolve.resolveV1(one, q, budget, 'answer', { explain: false })), `${q} at ${budget}: the same answer bytes`);
    }
    two.close();
    one.close();
  }
  // A whole load (as a server keeps the cache): the same, the heads moved back whole.
  const whole = dist.loadV1(cache, text);
  const wholeParallel = await dist.loadV1Parallel(cache, text, undefined, undefined, 2, 0);
  t.same(all(wholeParallel.manifest.documents), all(whole.manifest.documents), 'whole: the same documents');
  for (const q of QUERIES) t.equal(compact(distResolve.resolveV1(wholeParallel, q, 600, 'answer', { explain: false })), compact(distResolve.resolveV1(whole, q, 600, 'answer', { explain: false })), `whole, ${q}: the same answer bytes`);
  wholeParallel.close();
  whole.close();
  // Damage: the failure reported is the one a sequential load meets first.
  const failureOf = async (load: () => Promise<unknown> | unknown): Promise<string> => {
    try {
      await load();
    } catch (err) {
      const e = err as { code?: string; detail?: string };
      return `${e.code}: ${e.detail}`;
    }
    return 'no failure';
  };
  const terms = queryTermsV1('rollback');
  const before = dist.loadV1(cache, text, undefined, terms);
  const answer = compact(distResolve.resolveV1(before, 'rollback', 600, 'answer', { explain: false }));
  before.close();
  const last = heads.length - 1;
  damageHead(heads[last] as { offset: number; pack: string });
  // A one-query load reads no head (its leads and postings come from the term files), so it
  // answers as before; a whole load reads it and refuses it.
  const oneQuery = dist.loadV1(cache, text, undefined, terms);
  t.equal(compact(distResolve.resolveV1(oneQuery, 'rollback', 600, 'answer', { explain: false })), answer, 'the last pack\'s head damaged: a one-query load answers as before, from bytes it checked');
  oneQuery.close();
  const lastFails = await failureOf(() => dist.loadV1(cache, text));
  t.match(lastFails, /^cache_invalid: index: the head of packs\/.* does not match the manifest$/, 'the last pack damaged: a sequential whole load refuses it');
  t.equal(await failureOf(() => dist.loadV1Parallel(cache, text, undefined, undefined, 2, 0)), lastFails, 'the worker met it: the same failure');
  damageHead(heads[0] as { offset: number; pack: string });
  const firstFails = await failureOf(() => dist.loadV1(cache, text));
  t.not(firstFails, lastFails, 'the first pack damaged too: a sequential whole load meets that one first');
  t.equal(await failureOf(() => dist.loadV1Parallel(cache, text, undefined, undefined, 2, 0)), firstFails, 'this thread met the first one, the worker the last: the first is reported');
  // A term file's copy of the first pack's rank columns (a byte of its first unit's token
  // count, right after the top): a one-query load refuses it.
  const top = readManifest(text);
  if (Array.isArray(top)) throw new Error('manifest');
  const termFile = join(cache, 'packs', `${(top.terms[0] as { sha256: string }).sha256}.terms`);
  const bytes = readFileSync(termFile);
  const at = (top.terms[0] as { top: { bytes: number } }).top.bytes + 14;
  bytes[at] = (bytes[at] as number) ^ 0x01;
  writeFileSync(termFile, bytes);
  t.match(await failureOf(() => dist.loadV1(cache, text, undefined, terms)), /^cache_invalid: index: rank columns in packs\/.*\.terms do not match their top$/, 'rank columns damaged in a term file: a one-query load refuses them');
});
