// Incremental v1 builds (issue 10 "Incremental builds"; docs/engine.md "Rebuilding"):
// `build --force` over a v1 cache reuses what it holds and writes exactly the bytes a full
// build of the same sources writes; an unchanged tree leaves the cache untouched; a failed
// rebuild leaves the old cache intact.
import t, { type Test } from 'tap';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildCacheV1, type V1BuildSummary } from '../../../../lib/core/engine/v1/build.js';
import type { V1Options } from '../../../../lib/core/engine/v1/config.js';
import { contentBytes, contentFiles } from './fixture.js';

const CREATED_AT = '2026-01-01T00:00:00Z';

const build = (sources: string, cache: string, force: boolean, options: Partial<V1Options> = {}): Promise<V1BuildSummary> =>
  buildCacheV1({
    sources,
    cache,
    force,
    createdAt: CREATED_AT,
    options: { granularity: 'section', tokenizer: 'bytes4', include: [], exclude: [], ...options },
  });

const bytesOf = contentBytes;

/** Ages every file, so the build state trusts their stamps (docs/engine.md: racy stamps are re-read). */
function age(dir: string, paths: readonly string[]): void {
  const old = new Date('2020-01-01T00:00:00Z');
  for (const p of paths) utimesSync(join(dir, p), old, old);
}

/**
 * buildCacheV1 over a file system on which reading a path that `fails` accepts throws EIO.
 * Tests run as root, which reads any file: the failure is injected where the build reads
 * sources (batch.js), and the modules above it are loaded with that one.
 */
async function buildFailingReads(t: Test, fails: (path: string) => boolean): Promise<typeof buildCacheV1> {
  const realFs = await import('../../../../lib/core/fs.js');
  const failing = {
    ...realFs,
    readFile: (p: string): Buffer => {
      if (fails(p)) throw Object.assign(new Error('injected'), { code: 'EIO' });
      return realFs.readFile(p);
    },
  };
  const batch = await t.mockImport('../../../../lib/core/engine/v1/batch.js', { '../../../../lib/core/fs.js': failing });
  const corpus = await t.mockImport('../../../../lib/core/engine/v1/analyze-corpus.js', { '../../../../lib/core/engine/v1/batch.js': batch });
  const mocked = await t.mockImport<typeof import('../../../../lib/core/engine/v1/build.js')>('../../../../lib/core/engine/v1/build.js', {
    '../../../../lib/core/engine/v1/analyze-corpus.js': corpus,
    '../../../../lib/core/fs.js': failing,
  });
  return mocked.buildCacheV1;
}

const DOCS: Record<string, string> = {
  'guide.md': '# Guide\n\nInstall the tool with npm. ' + 'Words about installing. '.repeat(40) + '\n\n## Docker\n\nRun it in docker. ' + 'Container words. '.repeat(40) + '\n',
  'faq.md': '---\ntitle: Questions\n---\n# FAQ\n\nWhy is the sky blue? ' + 'Because of scattering. '.repeat(30) + '\n',
  'api/useState.md': '# useState\n\nThe `useState` hook keeps state. ' + 'State words. '.repeat(50) + '\n',
  'same-a.md': 'identical content in two files\n',
  'same-b.md': 'identical content in two files\n',
};

async function fixture(t: Test): Promise<{ src: string; cache: string; fresh: () => Promise<Record<string, string>> }> {
  const { 'api/useState.md': useState, ...top } = DOCS;
  const dir = t.testdir({ src: { ...top, api: { 'useState.md': useState as string } } });
  const src = join(dir, 'src');
  const cache = join(dir, 'cache');
  let n = 0;
  // A full build of the sources as they are now, into a directory of its own.
  const fresh = async (): Promise<Record<string, string>> => {
    const other = join(dir, `full-${n++}`);
    await build(src, other, false);
    return bytesOf(other);
  };
  return { src, cache, fresh };
}

t.test('a rebuild of an unchanged tree reuses everything and leaves the cache untouched', async (t) => {
  const { src, cache } = await fixture(t);
  const first = await build(src, cache, false);
  t.equal(first.reused, 0);
  t.equal(first.unchanged, false);
  const before = bytesOf(cache);
  const mtimes = contentFiles(cache).map((f) => statSync(join(cache, f)).mtimeMs);
  age(src, Object.keys(DOCS));
  // Setting times changes ctime to now; the state trusts stamps older than its own write
  // by 2 s (git's racy rule), so let them age before the build that records them.
  await sleep(2100);
  const second = await build(src, cache, true);
  t.same([second.reused, second.analyzed, second.unchanged], [5, 0, true], 'every document reused, nothing analyzed');
  t.same(bytesOf(cache), before, 'same bytes');
  t.same(contentFiles(cache).map((f) => statSync(join(cache, f)).mtimeMs), mtimes, 'not even rewritten');
  // The stamps are trusted now: a third build reads no source at all. Proved by a file
  // system on which every source read fails.
  const noReads = await buildFailingReads(t, (p) => p.startsWith(src));
  const third = await noReads({ sources: src, cache, force: true, createdAt: CREATED_AT, options: { granularity: 'section', tokenizer: 'bytes4', include: [], exclude: [] } });
  t.same([third.reused, third.analyzed, third.unchanged], [5, 0, true], 'no source read, all reused');
  // A file changed since (its stamp differs) is read again, and found changed.
  appendFileSync(join(src, 'faq.md'), 'more\n');
  await t.rejects(
    noReads({ sources: src, cache, force: true, createdAt: CREATED_AT, options: { granularity: 'section', tokenizer: 'bytes4', include: [], exclude: [] } }),
    { code: 'io_error' },
    'the changed file is read (and the injected failure says so)',
  );
});

t.test('docs/engine.md "Rebuilding" (git\'s racy rule): a stamp taken within 2 s of the state\'s write is not trusted, the file is read again', async (t) => {
  const { src, cache } = await fixture(t);
  // The files were written just now, and so is each build's state: every stamp is racy.
  await build(src, cache, false);
  const second = await build(src, cache, true);
  t.same([second.reused, second.analyzed, second.unchanged], [5, 0, true], 'read again, found unchanged, the cache left as it is');
  const noReads = await buildFailingReads(t, (p) => p.startsWith(src));
  await t.rejects(
    noReads({ sources: src, cache, force: true, createdAt: CREATED_AT, options: { granularity: 'section', tokenizer: 'bytes4', include: [], exclude: [] } }),
    { code: 'io_error' },
    'a racy stamp, equal to the recorded one, is still read again',
  );
  // Aged past the window (times set back; their ctime, now, ages 2 s), the same stamps are trusted.
  age(src, Object.keys(DOCS));
  await sleep(2100);
  await build(src, cache, true);
  const trusted = await noReads({ sources: src, cache, force: true, createdAt: CREATED_AT, options: { granularity: 'section', tokenizer: 'bytes4', include: [], exclude: [] } });
  t.same([trusted.reused, trusted.unchanged], [5, true], 'aged stamps are trusted: no source read');
});

t.test('"byte-identical to a full build": adds, edits, deletes, renames, identical contents', async (t) => {
  const { src, cache, fresh } = await fixture(t);
  await build(src, cache, false);
  const steps: [string, () => void, number][] = [
    ['edit', () => appendFileSync(join(src, 'faq.md'), '\nA new answer about rainbows.\n'), 1],
    ['add', () => writeFileSync(join(src, 'new.md'), '# New page\n\nBrand new words.\n'), 1],
    ['delete', () => rmSync(join(src, 'guide.md')), 0],
    ['rename', () => renameSync(join(src, 'new.md'), join(src, 'renamed.md')), 1],
    ['identical content added', () => writeFileSync(join(src, 'same-c.md'), 'identical content in two files\n'), 1],
    ['touch only', () => utimesSync(join(src, 'faq.md'), new Date(), new Date()), 0],
  ];
  for (const [what, change, analyzed] of steps) {
    change();
    const summary = await build(src, cache, true);
    t.equal(summary.analyzed, analyzed, `${what}: ${analyzed} document(s) analyzed`);
    t.same(bytesOf(cache), await fresh(), `${what}: the incremental cache is byte for byte a full build's`);
  }
});

t.test('another build_config means a full build (and the same bytes as one)', async (t) => {
  const { src, cache } = await fixture(t);
  await build(src, cache, false);
  const summary = await build(src, cache, true, { granularity: 'file' });
  t.equal(summary.reused, 0, 'nothing reused across granularities');
  const other = join(src, '..', 'file-full');
  await build(src, other, false, { granularity: 'file' });
  t.same(bytesOf(cache), bytesOf(other));
});

t.test('a damaged old cache is not reused: the rebuild is a full one, and correct', async (t) => {
  const { src, cache, fresh } = await fixture(t);
  await build(src, cache, false);
  // A byte of the pack's head (its document list and index) changed in place.
  const name = readdirSync(join(cache, 'packs')).find((n) => n.endsWith('.pack'));
  const pack = join(cache, 'packs', name as string);
  const bytes = readFileSync(pack);
  bytes[20] = (bytes[20] as number) ^ 0x20;
  writeFileSync(pack, bytes);
  const summary = await build(src, cache, true);
  t.equal(summary.reused, 0);
  t.same(bytesOf(cache), await fresh());
});

t.test('docs/cache-format.md: a damaged term file is never linked: the rebuild makes it again from its packs, and is a full build byte for byte', async (t) => {
  const { src, cache, fresh } = await fixture(t);
  await build(src, cache, false);
  const names = readdirSync(join(cache, 'packs')).filter((n) => n.endsWith('.terms'));
  t.ok(names.length >= 1, 'the cache has a term file');
  const file = join(cache, 'packs', names[0] as string);
  const bytes = readFileSync(file);
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0x20;
  writeFileSync(file, bytes);
  const summary = await build(src, cache, true);
  t.equal(summary.reused, summary.documentCount, 'every document reused: the packs are whole');
  t.equal(summary.unchanged, false, 'but the cache was written again');
  t.same(bytesOf(cache), await fresh(), 'byte for byte a full build');
});

t.test('a pack damaged in place (same size) is never copied from: the rebuild starts over as a full build, and is correct', async (t) => {
  const { src, cache, fresh } = await fixture(t);
  await sleep(2100); // the stamps age past the racy window before the build that records them
  await build(src, cache, false);
  await sleep(2100); // and the state file's own write ages too: unchanged files are copied unread
  const packs = readdirSync(join(cache, 'packs'));
  const pack = packs.map((p) => join(cache, 'packs', p)).find((p) => readFileSync(p).includes('scattering'));
  if (pack === undefined) throw new Error('no pack holds faq.md');
  const bytes = readFileSync(pack);
  bytes[bytes.indexOf('scattering')] = 'S'.charCodeAt(0); // same size: only a hash can tell
  writeFileSync(pack, bytes);
  appendFileSync(join(src, 'guide.md'), 'One more line.\n'); // in faq.md's pack: that pack is rewritten
  const summary = await build(src, cache, true);
  t.same([summary.reused, summary.analyzed], [0, 5], 'nothing taken from the damaged cache: every document read again');
  t.same(bytesOf(cache), await fresh(), 'byte for byte a full build');
  t.notOk(Object.values(bytesOf(cache)).some((b) => Buffer.from(b, 'base64').includes('Scattering')), 'the damaged bytes are gone');
});

t.test('a source unreadable mid-build: a clear io_error, and the old cache intact', async (t) => {
  const { src, cache } = await fixture(t);
  await build(src, cache, false);
  const before = bytesOf(cache);
  appendFileSync(join(src, 'faq.md'), 'changed\n');
  appendFileSync(join(src, 'guide.md'), 'changed too\n');
  const failing = await buildFailingReads(t, (p) => p.endsWith('guide.md'));
  await t.rejects(
    failing({ sources: src, cache, force: true, createdAt: CREATED_AT, options: { granularity: 'section', tokenizer: 'bytes4', include: [], exclude: [] } }),
    { code: 'io_error' },
  );
  t.same(bytesOf(cache), before, 'the old cache is untouched');
  t.same(readFileSync(join(src, '..', 'cache', 'manifest.json')).length > 0, true);
});

t.test('docs/cache-format.md: a rebuild writes only the packs its changes fall in and links the rest; still a full build\'s bytes', async (t) => {
  // 400 documents: several packs (a path cuts one in 32 on average).
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++) files[`doc-${String(i).padStart(3, '0')}.md`] = `# Page ${i}\n\nWords of page ${i}: ${'alpha beta gamma '.repeat(1 + (i % 7))}\n`;
  const dir = t.testdir({ src: files });
  const src = join(dir, 'src');
  const cache = join(dir, 'cache');
  await build(src, cache, false);
  const packsBefore = new Map(readdirSync(join(cache, 'packs')).map((n) => [n, statSync(join(cache, 'packs', n)).ino]));
  t.ok(packsBefore.size >= 3, `several packs (${packsBefore.size})`);
  appendFileSync(join(src, 'doc-010.md'), 'edited\n');
  rmSync(join(src, 'doc-200.md'));
  writeFileSync(join(src, 'doc-300b.md'), '# Added\n\nA new page.\n');
  const summary = await build(src, cache, true);
  t.equal(summary.analyzed, 2, 'the edited and the added document analyzed');
  const other = join(dir, 'full');
  await build(src, other, false);
  t.same(bytesOf(cache), bytesOf(other), 'byte for byte a full build');
  const after = readdirSync(join(cache, 'packs'));
  const linked = after.filter((n) => packsBefore.get(n) === statSync(join(cache, 'packs', n)).ino);
  const written = after.filter((n) => !packsBefore.has(n));
  t.ok(written.length >= 1 && written.length <= 6, `the changes' packs written anew (${written.length})`);
  t.equal(linked.length + written.length, after.length, 'every other pack is the old file, linked (same inode)');
  t.ok(linked.length >= after.length - 6, `most packs linked (${linked.length} of ${after.length})`);
});

t.test('docs/engine.md "Rebuilding": with every stamp trusted, a rebuild that changes nothing does not even parse the manifest; a manifest edited since is noticed', async (t) => {
  const { src, cache } = await fixture(t);
  age(src, Object.keys(DOCS));
  await sleep(2100); // the stamps age past the racy window before the build that records them
  await build(src, cache, false);
  await sleep(2100); // and the state file's own write ages too
  const manifestJs = await import('../../../../lib/core/engine/v1/manifest.js');
  let parsed = 0;
  let heads = 0;
  const counting = {
    ...manifestJs,
    readManifest: (...a: Parameters<typeof manifestJs.readManifest>) => (parsed++, manifestJs.readManifest(...a)),
    decodeHead: (...a: Parameters<typeof manifestJs.decodeHead>) => (heads++, manifestJs.decodeHead(...a)),
  };
  const mocked = await t.mockImport<typeof import('../../../../lib/core/engine/v1/build.js')>('../../../../lib/core/engine/v1/build.js', {
    '../../../../lib/core/engine/v1/manifest.js': counting,
  });
  const opts = { sources: src, cache, force: true, createdAt: CREATED_AT, options: { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] } };
  const quick = await mocked.buildCacheV1(opts);
  t.same([quick.unchanged, quick.reused, quick.analyzed, parsed, heads], [true, 5, 0, 0, 0], 'unchanged, the manifest never parsed, no pack opened');
  const full = await build(src, join(src, '..', 'full'), false);
  t.same([quick.cacheVersion, quick.documentCount, quick.unitCount], [full.cacheVersion, full.documentCount, full.unitCount], 'the summary a full build gives');
  // The state vouches only for the manifest it was written with.
  const path = join(cache, 'manifest.json');
  writeFileSync(path, readFileSync(path, 'utf8').replace(CREATED_AT, '2030-01-01T00:00:00Z'));
  const checked = await mocked.buildCacheV1(opts);
  t.same([checked.unchanged, parsed > 0], [true, true], 'an edited manifest is parsed and checked (and still current)');
});

t.test('docs/engine.md "Rebuilding": the recorded stamps are compared as written; one that differs costs a read, never a wrong answer; the state lists the documents, so only the packs with changes are opened', async (t) => {
  const { src, cache } = await fixture(t);
  age(src, Object.keys(DOCS));
  await sleep(2100);
  await build(src, cache, false);
  await sleep(2100);
  const manifestJs = await import('../../../../lib/core/engine/v1/manifest.js');
  const calls = { checked: 0, heads: 0 };
  const mocked = await t.mockImport<typeof import('../../../../lib/core/engine/v1/build.js')>('../../../../lib/core/engine/v1/build.js', {
    '../../../../lib/core/engine/v1/manifest.js': {
      ...manifestJs,
      readManifest: (...a: Parameters<typeof manifestJs.readManifest>) => (calls.checked++, manifestJs.readManifest(...a)),
      decodeHead: (...a: Parameters<typeof manifestJs.decodeHead>) => (calls.heads++, manifestJs.decodeHead(...a)),
    },
  });
  const opts = { sources: src, cache, force: true, createdAt: CREATED_AT, options: { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] } };
  // The state is one JSON object whose "sources" come last: damage one recorded stamp.
  const statePath = join(cache, 'build-state.json');
  const state = readFileSync(statePath, 'utf8');
  const parsed = JSON.parse(state) as { sources: [string, string][] };
  t.equal(Object.keys(parsed).pop(), 'sources', 'the state parses as JSON, "sources" last');
  const [path0, stamp0] = parsed.sources[0] as [string, string];
  const damaged = state.replace(JSON.stringify([path0, stamp0]), JSON.stringify([path0, stamp0.replace(/^\d+/, '999999')]));
  t.not(damaged, state, 'a stamp was changed');
  const written = statSync(statePath);
  writeFileSync(statePath, damaged);
  utimesSync(statePath, written.atime, written.mtime); // written when it was: its other stamps still trusted
  const before = readFileSync(join(cache, 'manifest.json'));
  const second = await mocked.buildCacheV1(opts);
  t.same([second.unchanged, second.reused, second.analyzed], [true, 5, 0], 'still unchanged: the file was read and matched by content');
  t.same([calls.checked, calls.heads], [1, 1], 'the manifest checked once; one pack opened, for the old version of the file read again');
  t.same(readFileSync(join(cache, 'manifest.json')), before, 'the cache is untouched');
  t.not(readFileSync(statePath, 'utf8'), damaged, 'the state was rewritten with the true stamp');
  // An edit: the result is a full build's, byte for byte.
  appendFileSync(join(src, 'guide.md'), 'One more line.\n');
  const edited = await mocked.buildCacheV1(opts);
  const full = join(src, '..', 'full');
  await build(src, full, false);
  // Its pack opened for its old version, then the old heads of the other packs of its
  // segment, read and checked to make that segment's term file again (./segments.ts; the
  // new pack's head is read back from the new cache): no other pack.
  const fullManifest = JSON.parse(readFileSync(join(full, 'manifest.json'), 'utf8')) as { files: { terms: { packs: number }[] } };
  t.equal(fullManifest.files.terms.length, 1, 'the fixture is one segment');
  t.same([edited.unchanged, edited.analyzed, calls.heads], [false, 1, 1 + (fullManifest.files.terms[0] as { packs: number }).packs], 'one analyzed; only its pack and its segment\'s other packs opened');
  t.same(bytesOf(cache), bytesOf(full), 'the same files as a full build, byte for byte');
});

t.test('issue 10 "byte-identical": random changes over a tree of many packs; every rebuild is byte for byte a full build', async (t) => {
  const fc = (await import('fast-check')).default;
  const dir = t.testdir({});
  const N = 300;
  type Op = { kind: 'edit' | 'grow' | 'delete' | 'rename' | 'duplicate' | 'touch'; at: number } | { kind: 'add'; name: string };
  const op: import('fast-check').Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constantFrom('edit', 'grow', 'delete', 'rename', 'duplicate', 'touch'), at: fc.nat() }) as import('fast-check').Arbitrary<Op>,
    fc.record({ kind: fc.constant('add' as const), name: fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,4})?$/) }),
  );
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 4 }), fc.constantFrom('file', 'section'), async (ops, granularity) => {
      const root = join(dir, `r${run++}`);
      const src = join(root, 'src');
      const files: Record<string, string> = {};
      for (let i = 0; i < N; i++) files[`d${String(i).padStart(3, '0')}.md`] = `# Page ${i}\n\n${'words of the page '.repeat(1 + (i % 5))}\n\n## Part\n\n${'more words '.repeat(i % 9)}\n`;
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(src, name)), { recursive: true });
        writeFileSync(join(src, name), text);
      }
      const cache = join(root, 'cache');
      await build(src, cache, false, { granularity });
      let step = 0;
      for (const o of ops) {
        const names = readdirSync(src, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
        if (o.kind === 'add') {
          mkdirSync(dirname(join(src, `${o.name}.md`)), { recursive: true });
          writeFileSync(join(src, `${o.name}.md`), `# Added ${o.name}\n\nnew words\n`);
        } else {
          const target = names[o.at % names.length] as string;
          if (o.kind === 'edit') appendFileSync(target, `edited ${step}\n`);
          else if (o.kind === 'grow') appendFileSync(target, 'x'.repeat(20_000));
          else if (o.kind === 'delete') rmSync(target);
          else if (o.kind === 'rename') renameSync(target, `${target}.renamed.md`);
          else if (o.kind === 'duplicate') writeFileSync(join(src, `copy-${step}.md`), readFileSync(target));
          else utimesSync(target, new Date(), new Date());
        }
        await build(src, cache, true, { granularity });
        const full = join(root, `full-${step++}`);
        await build(src, full, false, { granularity });
        if (JSON.stringify(bytesOf(cache)) !== JSON.stringify(bytesOf(full))) return false;
        rmSync(full, { recursive: true });
      }
      return true;
    }),
    { numRuns: 12, seed: 20261123 },
  );
  t.pass('12 random sequences, every rebuild equal to a full build');
  const m = JSON.parse(readFileSync(join(dir, 'r0', 'cache', 'manifest.json'), 'utf8')) as { files: { packs: unknown[] } };
  t.ok(m.files.packs.length >= 3, `the tree fills several packs (${m.files.packs.length})`);
});

t.test('docs/cache-format.md: packs ended by size (8 MiB) are cut the same way by a rebuild as by a full build', async (t) => {
  const files: Record<string, string> = {};
  // 24 documents of ~600 KB, none of whose paths cuts: only the size ends a pack.
  const { cutsPack } = await import('../../../../lib/core/engine/v1/packs.js');
  for (let i = 0; files && Object.keys(files).length < 24; i++) {
    const name = `big-${i}.md`;
    if (!cutsPack(name)) files[name] = `# Big ${i}\n\n${`line ${i} of a large page\n`.repeat(24_000)}`;
  }
  const dir = t.testdir({ src: files });
  const src = join(dir, 'src');
  const cache = join(dir, 'cache');
  await build(src, cache, false, { granularity: 'file' });
  const m = JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8')) as { files: { packs: { bytes: number; head: { bytes: number } }[] } };
  t.ok(m.files.packs.length >= 2, `several packs (${m.files.packs.length})`);
  t.ok(m.files.packs.slice(0, -1).every((p) => p.bytes - p.head.bytes >= 8 * 1024 * 1024), 'each pack but the last ended by its size');
  const names = Object.keys(files).sort();
  appendFileSync(join(src, names[0] as string), 'x'.repeat(300_000)); // moves where the first pack ends
  rmSync(join(src, names[10] as string));
  await build(src, cache, true, { granularity: 'file' });
  const full = join(dir, 'full');
  await build(src, full, false, { granularity: 'file' });
  t.same(bytesOf(cache), bytesOf(full), 'byte for byte a full build');
});
