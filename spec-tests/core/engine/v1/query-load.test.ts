// Checks lib/core/engine/v1/load.ts's load for one query ("Cold resolve near the process
// floor: read only what the query needs", Builds at native speed on real text, What to build
// item 6): `context resolve` loads a v1 cache holding only the postings of its query's terms
// (format 19: each pack's rows, the names of the packs its answer looks at and the query's
// terms' postings, from the term files: ./segments.ts). Every answer must be byte for byte
// the answer of a cache loaded whole — every format, both budget scopes, budgets that omit
// and merge units — a damaged byte it reads is refused, a damaged byte it does not read
// changes nothing it answers (a whole load refuses it; verify names it), and a cache loaded
// for one query refuses to answer another rather than rank on postings it does not hold.
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { openEngine } from '../../../../lib/core/engine/engine.js';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { CacheMemo } from '../../../../lib/core/operations/memo.js';
import { readManifest } from '../../../../lib/core/engine/v1/manifest.js';
import { ContextError } from '../../../../lib/errors.js';
import { buildV1 } from './fixture.js';

const WORDS = ['rollback', 'deploy', 'cache', 'token', 'budget', 'proxy', 'server', 'retry', 'timeout', 'Rc<T>', 'useState', 'naïve', '日本', 'the', 'how', 'configure', 'install'];

/** 240 documents of sections with words drawn by a fixed rule: several packs. */
function corpus(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 240; i++) {
    const word = (k: number): string => WORDS[(i * 7 + k * 13) % WORDS.length] as string;
    const body = Array.from({ length: 4 }, (_, s) => `## ${word(s)} ${word(s + 1)}\n\n${Array.from({ length: 6 + ((i + s) % 9) }, (_, k) => `${word(k + s)} ${word(k * 3)} line ${k} of ${i}.`).join(' ')}\n`).join('\n');
    writeFileSync(join(dir, `doc-${String(i).padStart(3, '0')}.md`), `# Page ${i}\n\n${body}`);
  }
}

t.test('load.ts: a cache loaded for one query answers it byte for byte as a cache loaded whole (property)', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctx-query-load-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  corpus(join(root, 'src'));
  const cache = join(root, 'cache');
  await buildV1(join(root, 'src'), cache, { granularity: 'section', tokenizer: 'o200k_base' });
  const top = readManifest(readFileSync(join(cache, 'manifest.json'), 'utf8'));
  t.ok(!Array.isArray(top) && top.packs.length > 3, 'the corpus fills several packs');
  const memo = new CacheMemo(); // the MCP server's path: the cache loaded whole, once
  let compared = 0;
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...WORDS, 'absent-word', '?', 'line'), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
      fc.constantFrom(40, 300, 900, 2000, 100000),
      fc.constantFrom('json', 'pretty', 'text'),
      fc.constantFrom('answer', 'content'),
      (query, budget, format, scope) => {
        const whole = resolveText(cache, query, budget, format as 'json', memo, scope as 'answer');
        const oneQuery = resolveText(cache, query, budget, format as 'json', undefined, scope as 'answer');
        compared++;
        return whole === oneQuery;
      },
    ),
    { numRuns: 120, seed: 24 },
  );
  t.equal(compared, 120, '120 random queries, budgets, formats and scopes: the same bytes');
});

t.test('load.ts: a cache loaded for one query refuses another; damage it reads is refused, damage it does not read changes nothing', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctx-query-load-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  corpus(join(root, 'src'));
  const cache = join(root, 'cache');
  await buildV1(join(root, 'src'), cache, { granularity: 'section', tokenizer: 'bytes4' });
  const engine = openEngine(cache, [], { query: 'rollback proxy' });
  t.ok(engine.resolve('rollback proxy', 500) !== null, 'its own query is answered');
  t.ok(engine.resolve('proxy rollback', 500) !== null, 'the same terms in another order too');
  const err = t.throws(() => engine.resolve('rollback timeout', 500)) as unknown;
  t.ok(err instanceof ContextError && err.code === 'internal_error', 'another query is refused, never answered from missing postings');
  engine.close();
  // One byte of a head flipped: the head no longer hashes to its record. A one-query load
  // reads the term files (each pack's lead and its terms' postings, copied there), not the
  // heads: the same answer. A whole load (the MCP server's) hashes the head: cache_invalid.
  const top = readManifest(readFileSync(join(cache, 'manifest.json'), 'utf8'));
  if (Array.isArray(top)) throw new Error('manifest');
  const record = top.packs[1];
  if (record === undefined) throw new Error('a second pack');
  const before = resolveText(cache, 'rollback', 500);
  const file = join(cache, 'packs', `${record.sha256}.pack`);
  const bytes = readFileSync(file);
  const at = Math.floor(record.head.bytes * 0.7);
  bytes[at] = (bytes[at] as number) ^ 0x20;
  writeFileSync(file, bytes);
  t.equal(resolveText(cache, 'rollback', 500), before, 'a one-query load: the same answer, from the bytes it checked');
  const whole = t.throws(() => resolveText(cache, 'rollback', 500, 'json', new CacheMemo())) as unknown;
  t.ok(whole instanceof ContextError && whole.code === 'cache_invalid', 'a whole load: cache_invalid');
  // One byte of that pack's lead as its segment's term file holds it (right after the top,
  // after the leads of the packs before it): a one-query load refuses it.
  const terms = top.terms[0];
  if (terms === undefined || terms.packs < 2) throw new Error('fixture: the first two packs in one segment');
  const termFile = join(cache, 'packs', `${terms.sha256}.terms`);
  const tf = readFileSync(termFile);
  const first = top.packs[0];
  if (first === undefined) throw new Error('a first pack');
  const at2 = terms.top.bytes + 100 + Math.floor(first.head.bytes / 100); // inside the first pack's lead, or the second's
  tf[at2] = (tf[at2] as number) ^ 0x20;
  writeFileSync(termFile, tf);
  const damaged = t.throws(() => resolveText(cache, 'rollback', 500)) as unknown;
  t.ok(damaged instanceof ContextError && damaged.code === 'cache_invalid', 'a byte of a lead in a term file: cache_invalid');
});
