// Checks lib/core/engine/v1/analyze-corpus.ts ("Results come back in document order and
// assemble into the same index however the work was split") and issue 9's determinism item
// on a corpus large enough for the compiled build to analyze on worker threads (>= 1000
// documents, 500 per thread): a build through the spawned bin (dist/, threads = available
// cores) and one through dist's buildCacheV1 with 2 threads (workers whatever the machine)
// are byte-identical, every cache file, to an in-process build on one thread — for files
// and for sections. `verify` on worker threads agrees.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { snapshot } from '../v0/fixture.js';
import { BIN, REPO } from '../../../mcp/spawn-server.js';
import { buildV1 } from './fixture.js';

const DOCS = 1000;
const CREATED = '1970-01-01T00:00:00Z'; // what SOURCE_DATE_EPOCH=0 gives the CLI

/** A deterministic corpus: varied words, identifiers, Unicode, headings, code fences, duplicates. */
function writeCorpus(root: string): void {
  const words = ['install', 'configure', 'server', 'deployment', 'useState', 'snake_case', 'kebab-case', 'repomix.config.json', 'naïve', 'Straße', '日本語', 'ΟΔΟΣ', 'HTTPServer', 'x86_64', 'token', 'budget', 'cache', 'index', 'running', 'généralement'];
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const sentence = (n: number): string => Array.from({ length: n }, () => words[next(words.length)]).join(' ') + '.';
  for (let i = 0; i < DOCS; i++) {
    const dir = join(root, `part${i % 7}`, `group${i % 13}`);
    mkdirSync(dir, { recursive: true });
    const sections = 1 + next(4);
    let text = `# Page ${i}\n\n${sentence(20)}\n\n`;
    for (let s = 0; s < sections; s++) {
      text += `## ${words[next(words.length)]} ${s}\n\n${sentence(15 + next(30))}\n\n`;
      if (next(3) === 0) text += '```ts\n# not a heading\nconst x = useState(0);\n```\n\n';
    }
    // Every 50th document repeats another one's content: identical files at two paths.
    writeFileSync(join(dir, `doc-${i}.md`), i % 50 === 49 ? 'Shared content, the same bytes.\n' : text);
  }
}

t.test('analyze-corpus.ts: a build on worker threads is byte-identical to a build on one thread', async (t) => {
  const dir = t.testdir({});
  const src = join(dir, 'src');
  writeCorpus(src);
  const distBuild = join(REPO, 'dist', 'core', 'engine', 'v1', 'build.js');
  if (!existsSync(distBuild)) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const dist = (await import(pathToFileURL(distBuild).href)) as typeof import('../../../../lib/core/engine/v1/build.js');
  for (const granularity of ['file', 'section'] as const) {
    const single = join(dir, `${granularity}-single`);
    const summary = await buildV1(src, single, { granularity }).then((s) => s);
    t.equal(summary.documentCount, DOCS);
    // The build state is a hint, not the cache; it records the manifest's sha256, which
    // differs with created_at below: the cache's own files are what must be identical.
    const cacheOnly = (dir: string): Record<string, string> => {
      const snap = snapshot(dir);
      delete snap['build-state.json'];
      return snap;
    };
    const expected = cacheOnly(single);
    // The single-thread build ran in this (TypeScript) process with threads: 1. Rewrite its
    // created_at as the CLI will write it, so the manifests compare byte for byte.
    expected['manifest.json'] = (expected['manifest.json'] as string).replace('"created_at": "2026-01-02T03:04:05Z"', `"created_at": "${CREATED}"`);

    const workers = join(dir, `${granularity}-workers`);
    await dist.buildCacheV1({ sources: src, cache: workers, force: false, createdAt: CREATED, threads: 2, options: { granularity, tokenizer: 'bytes4', include: [], exclude: [] } });
    t.same(cacheOnly(workers), expected, `${granularity}: dist build on 2 threads = in-process build on 1 thread, every cache file`);

    const cli = join(dir, `${granularity}-cli`);
    const r = spawnSync('/bin/sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', process.execPath, BIN, 'build', '--engine', 'v1', '--granularity', granularity, '--tokenizer', 'bytes4', '--sources', src, '--cache', cli], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SOURCE_DATE_EPOCH: '0' },
    });
    t.equal(r.status, 0, r.stderr);
    t.same(cacheOnly(cli), expected, `${granularity}: spawned bin (${availableParallelism()} threads available) = in-process build`);

    const verified = spawnSync('/bin/sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', process.execPath, BIN, 'verify', '--cache', cli, '--format', 'json'], { encoding: 'utf8' });
    t.equal(verified.status, 0, `${granularity}: verify (index rebuilt on worker threads) passes`);
    t.match(verified.stdout, /"valid":true/);
  }
});

/** The built analyze-corpus module (the chunks run on worker threads from dist/), or null when dist/ is missing (a failed test). */
async function builtModule(t: Test): Promise<typeof import('../../../../lib/core/engine/v1/analyze-corpus.js') | null> {
  const distFile = join(REPO, 'dist', 'core', 'engine', 'v1', 'analyze-corpus.js');
  if (!existsSync(distFile)) {
    t.fail('dist/ is missing: run `npm run build` first');
    return null;
  }
  return (await import(pathToFileURL(distFile).href)) as typeof import('../../../../lib/core/engine/v1/analyze-corpus.js');
}

/** `count` small Markdown files in a test directory, and the file-level bytes4 task over them. */
function smallCorpus(t: Test, count: number) {
  const dir = t.testdir({});
  const items = Array.from({ length: count }, (_, i) => {
    const path = `d${String(i).padStart(4, '0')}.md`;
    writeFileSync(join(dir, path), `# Doc ${i}\n\nword${i % 37} shared text ${i}\n`);
    return { path, file: join(dir, path), offset: 0, length: -1 };
  });
  return { dir, items, task: { granularity: 'file' as const, tokenizer: 'bytes4' as const, items, keepContents: true } };
}

// Issue 24 item 2 "Both cores busy to the end": the documents go out in small chunks, taken
// from one shared counter by whichever thread is free; the chunks come back in document
// order, and a failure is the first in document order whichever thread met it.
t.test('analyze-corpus.ts: chunks handed out on demand come back in document order; the first failure in document order is reported', async (t) => {
  const dist = await builtModule(t);
  if (dist === null) return;
  const { dir, items, task } = smallCorpus(t, 1200);
  const batches = await dist.analyzeCorpus(task, 2);
  t.equal(batches.length, dist.chunkStarts(items, dist.CHUNK_ITEMS, false).length - 1, 'one batch per chunk');
  t.same(batches.flatMap((b) => b.documents.map((d) => d.path)), items.map((i) => i.path), 'every document once, in order');

  // Two unreadable documents far apart, failing differently (absent; a directory in its
  // place): whichever thread reaches which first, the failure reported is the earlier one's.
  mkdirSync(join(dir, 'a-directory.md'));
  const missing = join(dir, 'missing', 'x.md');
  const directory = join(dir, 'a-directory.md');
  const failing = (first: string, second: string) => items.map((item, i) => (i === 300 ? { ...item, file: first } : i === 1100 ? { ...item, file: second } : item));
  const codeOf = async (list: typeof items): Promise<string> => {
    try {
      await dist.analyzeCorpus({ ...task, items: list }, 2);
      return 'no failure';
    } catch (err) {
      return `${(err as { code?: string }).code}: ${(err as { os?: { errno: string } }).os?.errno}`;
    }
  };
  const absentFirst = await codeOf(failing(missing, directory));
  const directoryFirst = await codeOf(failing(directory, missing));
  t.equal(absentFirst, 'io_error: ENOENT', 'the absent document (the earlier) is reported');
  t.match(directoryFirst, /^io_error: E(ISDIR|NOTREG)/, 'the directory (now the earlier) is reported');

  // `arrived` ("called on the main thread with each chunk's batch as soon as it is done"):
  // what a full build's early pack writes hang on (early-packs.ts); `analyzed` ("after it,
  // with how many items are analysed so far"): the build's progress. "Should either throw, no
  // thread takes another chunk, those running end, and that error is thrown": a build asked
  // to stop throws from its progress report.
  const seen: string[] = [];
  const counts: number[] = [];
  const again = await dist.analyzeCorpus(task, 2, (batch) => seen.push(batch.documents[0]?.path ?? ''), (n) => counts.push(n));
  t.same([...seen].sort(), again.map((b) => b.documents[0]?.path ?? '').sort(), 'arrived: each batch handed over once');
  t.equal(counts.length, again.length, 'analyzed: once per chunk');
  t.same(counts, [...counts].sort((a, b) => a - b), 'analyzed: counts that only grow');
  t.equal(counts.at(-1), items.length, 'analyzed: the last count is every item');
  for (const which of ['arrived', 'analyzed'] as const) {
    let calls = 0;
    let taken = 0;
    const refuse = (): void => {
      calls++;
      throw new Error('refused');
    };
    const arrivedHook = (batch: { documents: readonly unknown[] }): void => {
      taken += batch.documents.length;
      if (which === 'arrived') refuse();
    };
    await t.rejects(dist.analyzeCorpus(task, 2, arrivedHook, which === 'analyzed' ? refuse : undefined), { message: 'refused' }, `${which}: its error is the analysis's`);
    t.equal(calls, 1, `${which}: not called again after its first error`);
    t.ok(taken < items.length, `${which}: no batch handed over after the error (${taken} of ${items.length} documents)`);
  }
  // "No thread takes another chunk": the shared counter is set to the number of chunks, past
  // which a taker stops — as it does past the end by any amount (a counter that wrapped
  // round to a negative number once sent a thread to analyse every item again).
  const starts = dist.chunkStarts(items, dist.CHUNK_ITEMS, false);
  for (const at of [starts.length - 1, starts.length + 5, -0x80000000]) {
    const next = new SharedArrayBuffer(4);
    new Int32Array(next)[0] = at;
    let ran = 0;
    await dist.takeChunks({ task, starts, next }, () => ran++);
    t.equal(ran, 0, `a counter at ${at}: no chunk taken`);
  }
});

// analyze-corpus.ts takeChunks: "Let the event loop run between chunks: on the main thread,
// the workers' replies wait in it (their packs are written as they come), not all at the
// end". A callback queued on the event loop before the chunks start runs while chunks are
// still left (reading and analysing are synchronous: without the pause it would run only
// after the last one).
t.test('analyze-corpus.ts: takeChunks lets the event loop run between chunks', async (t) => {
  const dist = await builtModule(t);
  if (dist === null) return;
  const { items, task } = smallCorpus(t, 600);
  const starts = dist.chunkStarts(items, dist.CHUNK_ITEMS, false);
  const chunks = starts.length - 1;
  t.ok(chunks >= 3, `${chunks} chunks`);
  let replies = 0;
  let repliesWhenLoopRan = -1;
  setImmediate(() => {
    repliesWhenLoopRan = replies;
  });
  await dist.takeChunks({ task, starts, next: new SharedArrayBuffer(4) }, (reply) => {
    if ('result' in reply) replies++;
  });
  t.equal(replies, chunks, 'every chunk replied');
  t.ok(repliesWhenLoopRan >= 0 && repliesWhenLoopRan < chunks, `the event loop ran after ${repliesWhenLoopRan} of ${chunks} chunks`);
});

// Issue 24 item 2, "pack and index encoding done on the threads that analysed their
// documents": a full build's chunks run on to just after a path that cuts a pack, so each
// chunk begins where a pack does, and the thread that analyses it also makes its packs.
t.test('analyze-corpus.ts: chunkStarts ends each chunk after a path that cuts a pack (when packs are made there)', async (t) => {
  const distFile = join(REPO, 'dist', 'core', 'engine', 'v1', 'analyze-corpus.js');
  const packsFile = join(REPO, 'dist', 'core', 'engine', 'v1', 'packs.js');
  if (!existsSync(distFile) || !existsSync(packsFile)) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const dist = (await import(pathToFileURL(distFile).href)) as typeof import('../../../../lib/core/engine/v1/analyze-corpus.js');
  const { cutsPack } = (await import(pathToFileURL(packsFile).href)) as typeof import('../../../../lib/core/engine/v1/packs.js');
  const items = Array.from({ length: 4000 }, (_, i) => ({ path: `docs/page-${i}.md`, file: '', offset: 0, length: -1 }));
  // "every `chunkItems` items, then, once fewer than eight chunks of that size are left,
  // every eighth of the items left (at least LAST_CHUNK_ITEMS, or all that is left)"
  const planned = (at: number): number => Math.min(256, Math.max(dist.LAST_CHUNK_ITEMS, Math.ceil((items.length - at) / 8)));
  const plain = dist.chunkStarts(items, 256, false);
  t.same(plain.slice(0, 9), [0, 256, 512, 768, 1024, 1280, 1536, 1792, 2048], 'without packs: every 256 items while 2,048 or more are left');
  t.equal(plain[9], 2048 + 244, 'then an eighth of what is left (1,952 / 8)');
  t.equal(plain[plain.length - 1], items.length, 'the last chunk ends with the items');
  const sizes = plain.slice(1).map((end, k) => end - (plain[k] as number));
  t.ok(sizes.every((n, k) => k === 0 || n <= (sizes[k - 1] as number)), `chunks never grow: ${sizes.join(' ')}`);
  t.ok(sizes.slice(0, -1).every((n) => n >= dist.LAST_CHUNK_ITEMS), 'none below LAST_CHUNK_ITEMS but the last');
  t.equal(sizes[sizes.length - 2], dist.LAST_CHUNK_ITEMS, 'the chunks before the last are the smallest');
  const aligned = dist.chunkStarts(items, 256, true);
  t.equal(aligned[0], 0);
  t.equal(aligned[aligned.length - 1], items.length, 'the last chunk ends with the items');
  for (let k = 1; k < aligned.length - 1; k++) {
    const start = aligned[k] as number;
    const from = aligned[k - 1] as number;
    t.ok(cutsPack((items[start - 1] as { path: string }).path), `chunk ${k} begins right after a path that cuts`);
    let firstCut = from + planned(from) - 1;
    while (!cutsPack((items[firstCut] as { path: string }).path)) firstCut++;
    t.equal(start, firstCut + 1, `chunk ${k - 1} ends at the first cut from its ${planned(from)}th item`);
  }
  t.same(dist.chunkStarts([], 256, true), [0], 'no items, no chunk');
});

// A chunk whose first document does not begin a pack: the item before it has a path that
// cuts, but it is not UTF-8 (so not a document, and no pack ends there). The thread made
// that chunk's packs as if one began there; the build takes only those that begin where its
// previous pack ended, makes the rest itself, and writes the cache a one-thread build writes.
t.test('analyze-corpus.ts: a chunk that does not begin a pack (a skipped file cut it) still gives the one-thread cache', async (t) => {
  const distBuild = join(REPO, 'dist', 'core', 'engine', 'v1', 'build.js');
  const distChunks = join(REPO, 'dist', 'core', 'engine', 'v1', 'analyze-corpus.js');
  if (!existsSync(distBuild) || !existsSync(distChunks)) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const dist = (await import(pathToFileURL(distBuild).href)) as typeof import('../../../../lib/core/engine/v1/build.js');
  const chunks = (await import(pathToFileURL(distChunks).href)) as typeof import('../../../../lib/core/engine/v1/analyze-corpus.js');
  const dir = t.testdir({});
  const src = join(dir, 'src');
  mkdirSync(src);
  const names = Array.from({ length: 1100 }, (_, i) => `p${String(i).padStart(4, '0')}.md`);
  const starts = chunks.chunkStarts(names.map((path) => ({ path, file: '', offset: 0, length: -1 })), chunks.CHUNK_ITEMS, true);
  t.ok(starts.length > 3, 'several chunks');
  const boundary = (starts[1] as number) - 1; // its path cuts: the first chunk ends after it
  names.forEach((name, i) => {
    writeFileSync(join(src, name), i === boundary ? Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]) : `# Page ${i}\n\nword${i % 41} and shared text ${i % 7} ${'more words '.repeat(i % 5)}\n`);
  });
  const options = { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] };
  const one = join(dir, 'one');
  const two = join(dir, 'two');
  const s1 = await dist.buildCacheV1({ sources: src, cache: one, force: false, createdAt: CREATED, threads: 1, options });
  const s2 = await dist.buildCacheV1({ sources: src, cache: two, force: false, createdAt: CREATED, threads: 2, options });
  t.same(s1.skipped.map((s) => s.path), [names[boundary]], 'the file at the boundary is skipped: not UTF-8');
  t.equal(s2.cacheVersion, s1.cacheVersion, 'the same cache_version');
  const cacheOnly = (d: string): Record<string, string> => {
    const snap = snapshot(d);
    delete snap['build-state.json'];
    return snap;
  };
  t.same(cacheOnly(two), cacheOnly(one), 'every cache file the same, on one thread and on two');
});
