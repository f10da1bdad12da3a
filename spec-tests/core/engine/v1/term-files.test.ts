// Checks docs/cache-format.md and "What is checked, and when": the packs'
// dictionaries merged per segment into term files (lib/core/engine/v1/segments.ts,
// lib/core/index/term-file.ts), what a one-query load reads of them, and that a damaged byte
// of a term file or of a pack's lead is never used: `resolve` answers exactly as the intact
// cache or says cache_invalid, and `verify` names the damage.
import t from 'tap';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { buildCacheV1 } from '../../../../lib/core/engine/v1/build.js';
import { loadV1 } from '../../../../lib/core/engine/v1/load.js';
import { decodeHead, type DocumentList, LazyDocuments, type PackedDocument, readManifest, type ManifestTop } from '../../../../lib/core/engine/v1/manifest.js';
import { cutsPack, pathHash } from '../../../../lib/core/engine/v1/packs.js';
import { encodeSegment, endsSegment, readQueryHeads, SEGMENT_CUT_BITS, segmentSizes } from '../../../../lib/core/engine/v1/segments.js';
import { verifyV1 } from '../../../../lib/core/engine/v1/verify.js';
import { scopedIndex } from '../../../../lib/core/index/index-format.js';
import { readHeads } from '../../../../lib/core/engine/v1/heads.js';
import { DICT_BLOCK, findInBlock, TermFileTop } from '../../../../lib/core/index/term-file.js';
import { queryTermsV1 } from '../../../../lib/core/analysis/analyzer.js';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { CacheMemo } from '../../../../lib/core/operations/memo.js';

const OPTIONS = { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] };
const build = (sources: string, cache: string, force = false): ReturnType<typeof buildCacheV1> =>
  buildCacheV1({ sources, cache, force, createdAt: '2026-01-01T00:00:00Z', options: OPTIONS });

/** Every document of `list`, in order (a query's list reads each pack's when asked). */
const documentsOf = (list: DocumentList | readonly PackedDocument[]): PackedDocument[] => (Array.isArray(list) ? [...list] : Array.from({ length: list.length }, (_, i) => (list as DocumentList).at(i)));

function topOf(cache: string): ManifestTop {
  const top = readManifest(readFileSync(join(cache, 'manifest.json'), 'utf8'));
  if (Array.isArray(top)) throw new Error('manifest');
  return top;
}

/** Paths p0000.md … in order, and among them `cuts` names that end a segment (found by the rule's own hash). */
function segmentedCorpus(count: number, cuts = 2): Record<string, string> {
  const words = ['rollback', 'deploy', 'proxy', 'timeout', 'cache', 'token', 'retry', 'server', 'budget', 'install'];
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const w = (k: number): string => words[(i * 3 + k * 7) % words.length] as string;
    // Long identifiers sharing their first 6 and 12 bytes: the merge's byte comparisons past its keys.
    const long = `configuration_${['alpha', 'alphb', 'beta'][i % 3]}_value${i % 5} internationalization${'xyz'.slice(0, i % 4)}`;
    files[`p${String(i).padStart(4, '0')}.md`] = `# Page ${i} ${w(0)}\n\n${w(1)} ${w(2)} text ${i}.\n\n## ${w(3)}\n\n${w(4)} ${w(5)} more ${i % 13} ${long}.\n`;
  }
  // Two names that end segments, placed among the pages by their sort order.
  let found = 0;
  for (let k = 0; found < cuts; k++) {
    const name = `p${String(Math.floor(count / (cuts + 1)) * (found + 1)).padStart(4, '0')}-${k}.md`;
    if (endsSegment(name)) {
      files[name] = `# Cut ${found}\n\nrollback proxy ${k}\n`;
      found++;
    }
  }
  return files;
}

t.test('cache-format.md: a segment ends after a pack whose last path has the top 9 bits of its FNV-1a hash zero; such a path ends its pack too', async (t) => {
  t.equal(SEGMENT_CUT_BITS, 9);
  let ends = 0;
  for (let i = 0; i < 20000; i++) {
    const path = `docs/page-${i}.md`;
    t.equal(endsSegment(path), pathHash(path) >>> 23 === 0);
    if (endsSegment(path)) {
      ends++;
      t.ok(cutsPack(path), `${path} ends its pack as well`);
    }
  }
  t.ok(ends > 20 && ends < 60, `about one path in 512 (${ends} of 20,000)`);
  t.same(segmentSizes([]), [], 'no packs, no segments');
  t.same(segmentSizes(['a.md']), [1], 'the last pack ends the last segment');
  const cut = Array.from({ length: 5000 }, (_, i) => `x${i}.md`).find(endsSegment) as string;
  t.same(segmentSizes(['a.md', cut, 'b.md', 'c.md']), [2, 2], 'cut after the pack ending at a cutting path');
});

t.test('cache-format.md: term files cover the packs by the rule; a one-query load holds the bytes a whole load scopes to its terms', async (t) => {
  const dir = t.testdir({ src: segmentedCorpus(900) });
  const cache = join(dir, 'cache');
  await build(join(dir, 'src'), cache);
  const top = topOf(cache);
  t.ok(top.terms.length >= 3, `several segments (${top.terms.length}) over ${top.packs.length} packs`);
  t.equal(top.terms.reduce((n, f) => n + f.packs, 0), top.packs.length, 'every pack in one segment');
  t.same(readdirSync(join(cache, 'packs')).filter((n) => n.endsWith('.terms')).sort(), top.terms.map((f) => `${f.sha256}.terms`).sort(), 'one file per segment, named by its sha256');
  const whole = loadV1(cache, readFileSync(join(cache, 'manifest.json'), 'utf8'));
  const memo = new CacheMemo(); // the MCP server's path: the cache loaded whole
  const enc = new TextEncoder();
  for (const query of ['rollback', 'proxy timeout', 'page text more', 'absent words here', 'p0300', 'install install deploy']) {
    const terms = queryTermsV1(query);
    const one = loadV1(cache, readFileSync(join(cache, 'manifest.json'), 'utf8'), undefined, terms);
    t.same(documentsOf(one.manifest.documents), documentsOf(whole.manifest.documents), `${query}: the same documents`);
    // Each pack's index as the query reads it: the lead and the term files' postings, byte
    // for byte what the whole heads make scoped to the same terms.
    const keys = terms.map((x) => enc.encode(x));
    const fromTerms = readQueryHeads(cache, top, keys);
    const fromHeads = readHeads(cache, top.packs, 0, keys);
    t.same(documentsOf(fromTerms.documents), fromHeads.documents);
    t.same(fromTerms.readers.map((r) => Buffer.from(r.bytes).toString('hex')), fromHeads.readers.map((r) => Buffer.from(r.bytes).toString('hex')), `${query}: each pack's index, byte for byte`);
    t.equal(resolveText(cache, query, 2000), resolveText(cache, query, 2000, 'json', memo), `${query}: the answer of the cache loaded whole`);
    one.close();
  }
  whole.close();
  // Each term file is the one its packs' heads make.
  let first = 0;
  for (const f of top.terms) {
    const made = encodeSegment(top.packs.slice(first, first + f.packs).map((record) => {
      const head = readFileSync(join(cache, 'packs', `${record.sha256}.pack`)).subarray(0, record.head.bytes);
      return { record, head, index: decodeHead(head, record).index };
    }));
    t.same(made.record, f, 'made again from its packs: the recorded file');
    first += f.packs;
  }
});

t.test('term-file.ts: every term of every pack is found in its segment\'s term file, with that pack\'s postings bytes; absent terms are not', async (t) => {
  const dir = t.testdir({ src: segmentedCorpus(400) });
  const cache = join(dir, 'cache');
  await build(join(dir, 'src'), cache);
  const top = topOf(cache);
  let first = 0;
  let checked = 0;
  for (const f of top.terms) {
    const file = readFileSync(join(cache, 'packs', `${f.sha256}.terms`));
    const tf = new TermFileTop(file.subarray(0, f.top.bytes));
    t.ok(tf.dictBlocks >= 1);
    const packs = top.packs.slice(first, first + f.packs).map((record) => decodeHead(readFileSync(join(cache, 'packs', `${record.sha256}.pack`)).subarray(0, record.head.bytes), record).index);
    const lookup = (key: Uint8Array): ReturnType<typeof findInBlock> => {
      const b = tf.blockOf(key);
      if (b < 0) return null;
      const block = tf.dictBlock(b);
      t.ok(block.length < DICT_BLOCK + 1024, 'a dictionary block is about DICT_BLOCK bytes');
      return findInBlock(file.subarray(block.offset, block.offset + block.length), block.postStart, key, tf.packs, tf.postBytes);
    };
    const all = new Map<string, number[]>();
    packs.forEach((r, p) => {
      for (let i = 0; i < r.termCount; i++) {
        const term = r.term(i);
        all.set(term, [...(all.get(term) ?? []), p]);
      }
    });
    t.equal(tf.terms, all.size, 'as many terms as the packs hold distinct ones');
    const longs = [...all.keys()].filter((x) => Buffer.byteLength(x) >= 13);
    t.ok(longs.some((x) => longs.some((y) => x !== y && Buffer.from(x).subarray(0, 12).equals(Buffer.from(y).subarray(0, 12)))), 'long terms sharing their first 12 bytes are among them');
    for (const [term, holders] of all) {
      const key = new TextEncoder().encode(term);
      const found = lookup(key);
      if (found === null || found.map((e) => e.pack).join(',') !== holders.join(',')) {
        t.fail(`${term}: found in ${found?.map((e) => e.pack).join(',')}, held by ${holders.join(',')}`);
        continue;
      }
      for (const e of found) {
        const r = packs[e.pack]!;
        const scoped = scopedIndex(r, [key]);
        const want = Buffer.from(scoped.sections().postings);
        const have = file.subarray(tf.postOffset + e.start, tf.postOffset + e.start + e.bytes);
        if (!want.equals(have) || e.count !== r.postingCount(r.findTerm(term))) t.fail(`${term} in pack ${e.pack}: other postings`);
        checked++;
      }
      for (const absent of [`${term}\u0000`, `${term}~`]) if (lookup(new TextEncoder().encode(absent)) !== null && !all.has(absent)) t.fail(`${absent}: found though absent`);
    }
    first += f.packs;
  }
  t.ok(checked > 1000, `${checked} (term, pack) postings found as stored`);
});

t.test('cache-format.md "What is checked, and when": every byte of a term file and of a pack\'s head flipped: resolve answers as the intact cache or says cache_invalid; verify fails', async (t) => {
  const dir = t.testdir({ src: { 'a.md': '# Alpha\n\nrollback the deploy\n\n## Proxy\n\nproxy timeout text\n', 'b.md': '# Beta\n\ntimeout and retry text\n', 'c.md': 'plain rollback text' } });
  const cache = join(dir, 'cache');
  await build(join(dir, 'src'), cache);
  const top = topOf(cache);
  t.equal(top.terms.length, 1, 'one segment');
  const query = 'rollback proxy timeout text';
  const intact = resolveText(cache, query, 5000);
  const termFile = join(cache, 'packs', `${top.terms[0]!.sha256}.terms`);
  const pack = join(cache, 'packs', `${top.packs[0]!.sha256}.pack`);
  const outcomes = { same: 0, refused: 0 };
  const flipAll = (path: string, upTo: number, what: string): void => {
    const original = readFileSync(path);
    let wrong = 0;
    for (let at = 0; at < upTo; at++) {
      const bytes = Buffer.from(original);
      bytes[at] = (bytes[at] as number) ^ (1 << (at % 8));
      writeFileSync(path, bytes);
      let answer: string;
      try {
        answer = resolveText(cache, query, 5000);
      } catch (err) {
        answer = `error ${(err as { code?: string }).code ?? String(err)}`;
      }
      if (answer === intact) outcomes.same++;
      else if (answer === 'error cache_invalid') outcomes.refused++;
      else if (wrong++ < 5) t.fail(`${what} byte ${at}: ${answer.slice(0, 200)}`);
    }
    writeFileSync(path, original);
    t.equal(wrong, 0, `${what}: each of ${upTo} bytes flipped: never a wrong answer`);
  };
  flipAll(termFile, readFileSync(termFile).length, 'the term file');
  flipAll(pack, top.packs[0]!.head.bytes, 'the pack\'s head');
  t.ok(outcomes.refused > 0, `refused ${outcomes.refused}, the same answer ${outcomes.same} (bytes the query does not read)`);
  t.equal(resolveText(cache, query, 5000), intact, 'restored: the same answer');
  // verify names a flipped byte of the term file wherever it is.
  const original = readFileSync(termFile);
  for (const at of [0, 20, Math.floor(original.length / 2), original.length - 1]) {
    const bytes = Buffer.from(original);
    bytes[at] = (bytes[at] as number) ^ 4;
    writeFileSync(termFile, bytes);
    const report = await verifyV1(cache);
    t.same(report.checks.filter((c) => !c.ok).map((c) => c.name), ['term_files'], `byte ${at}: verify fails term_files alone`);
  }
  writeFileSync(termFile, original);
  t.equal((await verifyV1(cache)).valid, true, 'restored: valid');
});

t.test('cache-format.md: a query reads every pack\'s rows, and the names (document list, strings) of the packs its answer looks at only', async (t) => {
  const dir = t.testdir({ src: segmentedCorpus(900) });
  const cache = join(dir, 'cache');
  await build(join(dir, 'src'), cache);
  const top = topOf(cache);
  // A word on one page only: the answer looks at that page's pack alone.
  const query = 'p0450 zebra';
  writeFileSync(join(dir, 'src', 'p0450.md'), '# Zebra\n\nzebra crossing notes\n');
  await build(join(dir, 'src'), cache, true);
  const now = topOf(cache);
  const intact = resolveText(cache, query, 2000);
  t.match(intact, /p0450\.md/, 'the page is found');
  const one = loadV1(cache, readFileSync(join(cache, 'manifest.json'), 'utf8'), undefined, queryTermsV1(query));
  t.ok(one.manifest.documents instanceof LazyDocuments, 'a query\'s documents: read per pack when asked');
  one.close();
  // Damage the names of every term file's first pack but the one holding p0450.md: an
  // answer that never looks at them is the intact one; verify still names the damage.
  const holding = now.packs.findIndex((_, k) => documentsOf(loadV1(cache, readFileSync(join(cache, 'manifest.json'), 'utf8')).manifest.documents).some((d) => d.pack === k && d.path === 'p0450.md'));
  t.ok(holding >= 0, 'the pack holding the page');
  let first = 0;
  let damaged = 0;
  const originals = new Map<string, Buffer>();
  for (const f of now.terms) {
    const path = join(cache, 'packs', `${f.sha256}.terms`);
    const bytes = readFileSync(path);
    const tf = new TermFileTop(bytes.subarray(0, f.top.bytes));
    const p = first === holding ? 1 : 0;
    if (p < f.packs && first + p !== holding) {
      originals.set(path, Buffer.from(bytes));
      const names = tf.names(p);
      bytes[names.offset + names.length - 1] = (bytes[names.offset + names.length - 1] as number) ^ 1;
      writeFileSync(path, bytes);
      damaged++;
    }
    first += f.packs;
  }
  t.ok(damaged >= 2, `names damaged in ${damaged} term files`);
  t.equal(resolveText(cache, query, 2000), intact, 'the answer: the intact cache\'s (those names are never read)');
  t.same((await verifyV1(cache)).checks.filter((c) => !c.ok).map((c) => c.name), ['term_files'], 'verify names the damage');
  // The names of the pack the answer prints, damaged: cache_invalid.
  for (const [path, bytes] of originals) writeFileSync(path, bytes);
  let at = 0;
  for (const f of now.terms) {
    if (holding < at + f.packs) {
      const path = join(cache, 'packs', `${f.sha256}.terms`);
      const bytes = readFileSync(path);
      const names = new TermFileTop(bytes.subarray(0, f.top.bytes)).names(holding - at);
      bytes[names.offset] = (bytes[names.offset] as number) ^ 1;
      writeFileSync(path, bytes);
      break;
    }
    at += f.packs;
  }
  t.throws(() => resolveText(cache, query, 2000), { code: 'cache_invalid' }, 'the names it reads, damaged: cache_invalid');
  t.ok(top.terms.length >= 3, 'several segments');
});

t.test('engine.md "Rebuilding": an edit makes again the term file of its segment and links every other', async (t) => {
  const dir = t.testdir({ src: segmentedCorpus(900) });
  const src = join(dir, 'src');
  const cache = join(dir, 'cache');
  await build(src, cache);
  const before = topOf(cache);
  t.ok(before.terms.length >= 3, 'several segments');
  const inodes = new Map(before.terms.map((f) => [f.sha256, statSync(join(cache, 'packs', `${f.sha256}.terms`)).ino]));
  writeFileSync(join(src, 'p0001.md'), '# Page 1 edited\n\nan edit about rollback\n');
  await build(src, cache, true);
  const after = topOf(cache);
  const changed = after.terms.filter((f) => !inodes.has(f.sha256));
  t.equal(changed.length, 1, 'one term file made again');
  t.equal(after.terms[0], changed[0], 'the first segment\'s (p0001.md is in it)');
  for (const f of after.terms.slice(1)) t.equal(statSync(join(cache, 'packs', `${f.sha256}.terms`)).ino, inodes.get(f.sha256), 'the others linked, not written');
  const full = join(dir, 'full');
  mkdirSync(full);
  await build(src, join(full, 'cache'));
  t.same(readdirSync(join(full, 'cache', 'packs')).sort(), readdirSync(join(cache, 'packs')).sort(), 'the same files as a full build');
  t.equal(readFileSync(join(full, 'cache', 'manifest.json'), 'utf8').replace(/"source_root": "[^"]*"/, ''), readFileSync(join(cache, 'manifest.json'), 'utf8').replace(/"source_root": "[^"]*"/, ''), 'the same manifest');
  cpSync(cache, join(dir, 'copy'), { recursive: true });
  t.equal((await verifyV1(join(dir, 'copy'))).valid, true, 'and it verifies');
});

t.test('segments.ts makeTermFiles: a full build\'s term files made on two threads (a worker beside this one) are the bytes one thread makes', async (t) => {
  const distBuild = fileURLToPath(new URL('../../../../dist/core/engine/v1/build.js', import.meta.url));
  if (!existsSync(distBuild)) {
    t.fail('dist/ is missing: run `npm run build` first (the worker runs compiled JavaScript)');
    return;
  }
  const dist = (await import(pathToFileURL(distBuild).href)) as typeof import('../../../../lib/core/engine/v1/build.js');
  const dir = t.testdir({ src: segmentedCorpus(1200, 6) });
  const two = join(dir, 'two');
  await dist.buildCacheV1({ sources: join(dir, 'src'), cache: two, force: false, createdAt: '2026-01-01T00:00:00Z', threads: 2, options: OPTIONS });
  const one = join(dir, 'one');
  await build(join(dir, 'src'), one); // the TypeScript sources: one thread
  const top = topOf(two);
  t.ok(top.terms.length >= 6, `enough segments for the worker to take some (${top.terms.length})`);
  t.same(readdirSync(join(two, 'packs')).sort(), readdirSync(join(one, 'packs')).sort(), 'the same files');
  for (const f of top.terms) {
    const name = join('packs', `${f.sha256}.terms`);
    t.ok(readFileSync(join(two, name)).equals(readFileSync(join(one, name))), `${name}: the same bytes`);
  }
  t.equal(readFileSync(join(two, 'manifest.json'), 'utf8'), readFileSync(join(one, 'manifest.json'), 'utf8'), 'the same manifest');
  t.equal((await verifyV1(two)).valid, true, 'and it verifies');
});
