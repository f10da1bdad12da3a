// Checks lib/core/engine/v1/early-packs.ts ("each pack is written into the cache's staging
// directory as soon as its chunk comes back ... removes any pack written here that the cache
// does not list ... a build that fails first removes it"; analyze-corpus.ts's `arrived` is
// checked in analyze-corpus.test.ts). Issue 24 item 5: the fsync
// that publishes the cache is unchanged (writeCacheAtomically's syncTree); these writes only
// start earlier.
import t from 'tap';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EarlyPacks } from '../../../../lib/core/engine/v1/early-packs.js';
import { namesIn } from '../v0/fixture.js';
import { REPO } from '../../../mcp/spawn-server.js';

const utf8 = new TextEncoder();

t.test('EarlyPacks: writes beside the cache, prunes what is not listed, hands over or removes its directory', async (t) => {
  const dir = t.testdir({});
  const cache = join(dir, 'cache');
  const early = EarlyPacks.open(cache, null) as EarlyPacks;
  t.same(namesIn(dir).length, 1, 'one staging directory beside the cache, the cache itself not there');
  t.ok(namesIn(dir)[0]?.startsWith('.cache.tmp-'), 'named as this build\'s staging directory');
  early.add([
    { name: 'packs/a.pack', chunks: [utf8.encode('head-a'), utf8.encode('one'), utf8.encode('two')] },
    { name: 'packs/b.pack', chunks: [utf8.encode('head-b')] },
  ]);
  early.add([{ name: 'packs/a.pack', chunks: [utf8.encode('other bytes')] }]); // already written: kept as it was
  t.ok(early.has('packs/a.pack') && early.has('packs/b.pack') && !early.has('packs/c.pack'));
  await early.settle();
  t.equal(readFileSync(join(early.dir, 'packs', 'a.pack'), 'utf8'), 'head-aonetwo', 'the chunks, one after the other');
  early.prune(new Set(['packs/a.pack', 'manifest.json']));
  t.same(readdirSync(join(early.dir, 'packs')), ['a.pack'], 'a pack the cache does not list is removed');
  const handed = early.handOver();
  await early.discard();
  t.ok(existsSync(handed), 'handed over: discard leaves it to writeCacheAtomically');

  const failing = EarlyPacks.open(join(dir, 'other'), null) as EarlyPacks;
  mkdirSync(join(failing.dir, 'packs', 'taken.pack')); // a directory where the pack goes: its write fails
  failing.add([{ name: 'packs/taken.pack', chunks: [utf8.encode('x')] }, { name: 'packs/next.pack', chunks: [utf8.encode('y')] }]);
  t.notOk(failing.has('packs/next.pack'), 'after a failure nothing more is written');
  await t.rejects(failing.settle(), { code: 'io_error' }, 'the write failure, from settle (add never throws)');
  await failing.discard();
  t.notOk(existsSync(failing.dir), 'a build that fails removes its staging directory');
});

t.test('a full build on two threads: its cache lists every pack it holds, and nothing is left beside it', async (t) => {
  const distBuild = join(REPO, 'dist', 'core', 'engine', 'v1', 'build.js');
  if (!existsSync(distBuild)) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const dist = (await import(pathToFileURL(distBuild).href)) as typeof import('../../../../lib/core/engine/v1/build.js');
  const dir = t.testdir({});
  const src = join(dir, 'src');
  mkdirSync(src);
  for (let i = 0; i < 1300; i++) writeFileSync(join(src, `p${String(i).padStart(4, '0')}.md`), `# Page ${i}\n\nword${i % 41} and text ${i % 7}\n`);
  const options = { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] };
  const cache = join(dir, 'cache');
  await dist.buildCacheV1({ sources: src, cache, force: false, createdAt: '1970-01-01T00:00:00Z', threads: 2, options });
  const manifest = JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8')) as { files: { packs: { sha256: string }[]; terms: { sha256: string }[] } };
  t.same(readdirSync(join(cache, 'packs')).sort(), [...manifest.files.packs.map((p) => `${p.sha256}.pack`), ...manifest.files.terms.map((f) => `${f.sha256}.terms`)].sort(), 'the packs directory holds exactly the listed packs and term files');
  t.same(namesIn(dir), ['cache', 'src'], 'no staging directory left');

  // A build its caller may end before it writes (beforeWrite: the MCP server's background
  // build) writes nothing before that call, early packs included.
  const later = join(dir, 'later');
  let beside: string[] = [];
  await dist.buildCacheV1({ sources: src, cache: later, force: false, createdAt: '1970-01-01T00:00:00Z', threads: 2, options, beforeWrite: () => (beside = namesIn(dir)) });
  t.same(beside, ['cache', 'src'], 'when beforeWrite is called, nothing of the new cache is on disk');
  t.same(readdirSync(join(later, 'packs')).sort(), readdirSync(join(cache, 'packs')).sort(), 'and it writes the same packs at the end');

  // Such a build given stageEarly writes early into the directory it made through it.
  const third = join(dir, 'third');
  const staged: string[] = [];
  let packsAtWrite: string[] = [];
  await dist.buildCacheV1({
    sources: src,
    cache: third,
    force: false,
    createdAt: '1970-01-01T00:00:00Z',
    threads: 2,
    options,
    stageEarly: (make) => {
      const made = make();
      staged.push(made);
      return made;
    },
    beforeWrite: () => (packsAtWrite = readdirSync(join(staged[0] as string, 'packs'))),
  });
  t.equal(staged.length, 1, 'the staging directory is made once, through stageEarly');
  t.ok(packsAtWrite.length > 0, 'packs were written there before beforeWrite');
  t.notOk(existsSync(staged[0] as string), 'it became the cache');
  t.same(readdirSync(join(third, 'packs')).sort(), readdirSync(join(cache, 'packs')).sort(), 'the same packs');
  // Declined (null): nothing early, as without it.
  const fourth = join(dir, 'fourth');
  beside = [];
  await dist.buildCacheV1({ sources: src, cache: fourth, force: false, createdAt: '1970-01-01T00:00:00Z', threads: 2, options, stageEarly: () => null, beforeWrite: () => (beside = namesIn(dir)) });
  t.same(beside, ['cache', 'later', 'src', 'third'], 'declined: nothing of the new cache on disk before beforeWrite');
  t.same(readdirSync(join(fourth, 'packs')).sort(), readdirSync(join(cache, 'packs')).sort(), 'and the same packs at the end');
});

// Issue 47 item 2: a full build lets go of a chunk's contents, units and pack heads once its
// packs are written (build.ts earlyWrites), so its memory does not grow with the corpus; it
// keeps a chunk whole while a pack the build makes itself may need it: when the chunk before
// it ended with a file that is not UTF-8 (no document, so no pack ends there and the chunk's
// first pack is not the build's). Files that cut a pack (chunks end just after one) are made
// not UTF-8 here, every other one, so both cases meet; on one thread and on two, the packs
// are those of a build that writes everything at the end (beforeWrite: no early writes).
t.test('a full build that lets go of written chunks writes the packs of one that keeps them all', async (t) => {
  const root = join(REPO, 'dist', 'core', 'engine', 'v1');
  if (!existsSync(join(root, 'build.js'))) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const dist = (await import(pathToFileURL(join(root, 'build.js')).href)) as typeof import('../../../../lib/core/engine/v1/build.js');
  const { cutsPack } = (await import(pathToFileURL(join(root, 'packs.js')).href)) as typeof import('../../../../lib/core/engine/v1/packs.js');
  const dir = t.testdir({});
  const src = join(dir, 'src');
  mkdirSync(src);
  let cuts = 0;
  let skipped = 0;
  for (let i = 0; i < 2600; i++) {
    const path = `p${String(i).padStart(4, '0')}.md`;
    const notUtf8 = cutsPack(path) && cuts++ % 2 === 0;
    if (notUtf8) skipped++;
    writeFileSync(join(src, path), notUtf8 ? Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]) : `# Page ${i}\n\nword${i % 41} and text ${i % 7} ${'filler '.repeat(i % 50)}\n`);
  }
  t.ok(skipped >= 20, `${skipped} files that cut a pack are not UTF-8`);
  const options = { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] };
  const build = (cache: string, threads: number, atEnd: boolean) =>
    dist.buildCacheV1({ sources: src, cache: join(dir, cache), force: false, createdAt: '1970-01-01T00:00:00Z', threads, options, ...(atEnd ? { beforeWrite: () => undefined } : {}) });
  const reference = await build('at-end', 2, true);
  t.equal(reference.skipped.length, skipped, 'the files that are not UTF-8 are skipped');
  const packsOf = (cache: string) => readdirSync(join(dir, cache, 'packs')).sort().map((name) => readFileSync(join(dir, cache, 'packs', name)).toString('base64'));
  for (const threads of [1, 2]) {
    const summary = await build(`early-${threads}`, threads, false);
    t.equal(summary.cacheVersion, reference.cacheVersion, `${threads} thread(s): the same cache version`);
    t.same(packsOf(`early-${threads}`), packsOf('at-end'), `${threads} thread(s): the same packs, byte for byte`);
    t.equal(readFileSync(join(dir, `early-${threads}`, 'manifest.json'), 'utf8'), readFileSync(join(dir, 'at-end', 'manifest.json'), 'utf8'), `${threads} thread(s): the same manifest`);
  }
});
