// Checks issue 3 "keep the verified cache in memory, and notice when its files change so the
// answer is still the one the bytes on disk give": one server answers repeated calls
// identically, then follows a rebuild (new documents) and a corrupted document on disk.
import t from 'tap';
import { writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../lib/cli/main.js';
import { CacheMemo } from '../../../lib/core/operations/api.js';
import { errorJson } from '../../../lib/errors.js';
import { resolveTool } from '../../../lib/mcp/tools/resolve.js';
import type { ToolContext } from '../../../lib/mcp/tool.js';

async function cli(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: () => {}, env: { SOURCE_DATE_EPOCH: '0' }, cwd: '/' });
  return { code, out };
}

t.test('memoized resolve follows the bytes on disk', async (t) => {
  const dir = t.testdir({ src1: { 'a.md': 'alpha beta', 'b.md': 'beta gamma' }, src2: { 'a.md': 'alpha alpha', 'c.md': 'gamma' }, root: {} });
  const cache = join(dir, 'root', 'c1');
  t.equal((await cli(['build', '--engine', 'v0', '--sources', join(dir, 'src1'), '--cache', cache])).code, 0, 'built');
  const memo = new CacheMemo();
  t.teardown(() => memo.close());
  const ctx: ToolContext = { cacheRoot: join(dir, 'root'), projectRoot: dir, memo };
  const args = { cache: 'c1', query: 'alpha gamma', budget: 100 };
  const want1 = (await cli(['resolve', '--cache', cache, '--query', 'alpha gamma', '--budget', '100'])).out;

  const first = await resolveTool.call(args, ctx);
  const second = await resolveTool.call(args, ctx);
  t.same(first, { text: want1, isError: false }, 'first call = CLI stdout');
  t.same(second, first, 'repeated call: same bytes');

  t.equal((await cli(['build', '--engine', 'v0', '--sources', join(dir, 'src2'), '--cache', cache, '--force'])).code, 0, 'rebuilt in place');
  const want2 = (await cli(['resolve', '--cache', cache, '--query', 'alpha gamma', '--budget', '100'])).out;
  t.not(want2, want1, 'the rebuild changes the answer');
  t.same(await resolveTool.call(args, ctx), { text: want2, isError: false }, 'after a rebuild: the new answer');

  const docs = join(cache, 'documents');
  const file = readdirSync(docs)[0] ?? '';
  writeFileSync(join(docs, file), '{"tampered":true}');
  // An in-place rewrite changes no stamped stat (manifest, index, documents/ entries): the
  // directory watch reports it, asynchronously. A host's next request comes later than this.
  await new Promise((r) => setTimeout(r, 100));
  t.same(await resolveTool.call(args, ctx), { text: errorJson('cache_invalid') + '\n', isError: true }, 'after tampering: cache_invalid');
});

t.test('without a memo the tool loads from disk each time, same bytes', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'alpha' }, root: {} });
  await cli(['build', '--engine', 'v0', '--sources', join(dir, 'src'), '--cache', join(dir, 'root', 'c')]);
  const r = await resolveTool.call({ cache: 'c', query: 'alpha', budget: 10 }, { cacheRoot: join(dir, 'root'), projectRoot: dir });
  t.equal(r.text, (await cli(['resolve', '--cache', join(dir, 'root', 'c'), '--query', 'alpha', '--budget', '10'])).out);
});
