// Checks issue 12 item 2 "Agents index for themselves": context.build writes a cache under
// the cache root from sources inside the project root, with the CLI's atomicity; sends
// notifications/progress when the request carries a progressToken; "stops cleanly on
// notifications/cancelled (old cache intact)"; `--read-only` hides and refuses it; a
// `sources` outside the project root is refused with a typed error. The cancellation of a
// running build is checked on the real server (a worker thread builds there), the rest
// in-process.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { buildCache } from '../../lib/core/engine/v0/build.js';
import { verifyCache } from '../../lib/core/engine/v0/verify.js';
import { compact, parseJson, type Json } from '../../lib/json.js';
import { runMcpServer } from '../../lib/mcp/server.js';
import { contextCommand, hostEnv, REPO } from './spawn-server.js';

const INIT = compact({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const call = (id: number, name: string, args: Record<string, Json>, token?: string | number): string =>
  compact({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(token === undefined ? {} : { _meta: { progressToken: token } }) } });
const cancel = (id: number): string => compact({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } });

type Line = { id?: number; method?: string; params?: { progress: number; message?: string }; result?: { isError?: boolean; content: { text: string }[] }; error?: { code: number; message: string } };

/** Runs one in-process server over `lines` (one chunk); returns every output line parsed. */
async function serve(root: string, lines: string[], options: { readOnly?: boolean } = {}): Promise<Line[]> {
  const out: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(chunk);
      done();
    },
  });
  await runMcpServer({
    input: Readable.from([Buffer.from([INIT, ...lines].join('\n') + '\n')]),
    output,
    log: () => {},
    cacheRoot: join(root, 'caches'),
    projectRoot: join(root, 'project'),
    timestamp: () => '2026-01-01T00:00:00Z',
    ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
  });
  return Buffer.concat(out).toString('utf8').split('\n').filter((l) => l !== '').slice(1).map((l) => parseJson(l) as Line);
}

const docs = (n: number): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}.md`, `# Doc ${i}\n\nrollback step ${i}\n`]));
const cacheVersionOf = (dir: string): string => (parseJson(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { cache_version: string }).cache_version;

t.test('builds under the cache root, the text is the CLI line, progress only when asked for', async (t) => {
  const root = t.testdir({ project: { docs: docs(5) }, caches: {} });
  const out = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'a', engine: 'v0' }, 'tok'), call(2, 'context.build', { sources: 'docs', cache: 'b', engine: 'v0' })]);
  const progress = out.filter((l) => l.method === 'notifications/progress');
  t.ok(progress.length >= 3, 'notifications for the call that asked');
  t.ok(progress.every((p) => (p.params as unknown as { progressToken: string }).progressToken === 'tok'), 'all with its token');
  t.same(progress.map((p) => p.params?.progress), [...progress.map((p) => p.params?.progress ?? 0)].sort((a, b) => a - b), 'increasing');
  t.equal(progress.at(-1)?.params?.progress, 100);
  const replies = out.filter((l) => l.id !== undefined);
  t.same(replies.map((r) => r.id), [1, 2], 'both answered, in order, after their notifications');
  t.ok(out.indexOf(replies[0] as Line) > out.indexOf(progress.at(-1) as Line), 'the reply comes after the last notification');
  const summary = buildCache({ sources: join(root, 'project', 'docs'), cache: join(root, 'cli'), force: false, createdAt: 'x' });
  t.equal(replies[0]?.result?.content[0]?.text, `{"cache_version":"${summary.cacheVersion}","document_count":5}\n`, 'the CLI\'s line');
  t.same(readdirSync(join(root, 'caches')).sort(), ['a', 'b'], 'both caches, nothing else under the root');
  t.equal(verifyCache(join(root, 'caches', 'a')).valid, true, 'the cache verifies');
});

t.test('sources outside the project root are refused with root_not_allowed, even through a symlink', async (t) => {
  const root = t.testdir({ project: { docs: docs(1) }, outside: docs(1), caches: {} });
  symlinkSync(join(root, 'outside'), join(root, 'project', 'link'));
  const out = await serve(root, [
    call(1, 'context.build', { sources: '..', cache: 'x' }),
    call(2, 'context.build', { sources: join(root, 'outside'), cache: 'x' }),
    call(3, 'context.build', { sources: 'link', cache: 'x' }),
    call(4, 'context.build', { sources: join(root, 'project', 'docs'), cache: 'inside' }),
  ]);
  for (const r of out.slice(0, 3)) {
    t.equal(r.result?.isError, true, `${r.id}: isError`);
    t.equal(r.result?.content[0]?.text, '{"error":{"code":"root_not_allowed","message":"The sources folder lies outside the project root; pass a relative folder inside it"}}\n', `${r.id}: root_not_allowed, a fixed sentence with no path in it (issue 25 item 3)`);
  }
  t.notOk(out[3]?.result?.isError, 'an absolute path inside the project root is fine');
  t.same(readdirSync(join(root, 'caches')), ['inside'], 'nothing else was written');
});

t.test('a cancellation that arrives before the build starts: never run, no reply', async (t) => {
  const root = t.testdir({ project: { docs: docs(3) }, caches: {} });
  const old = buildCache({ sources: join(root, 'project', 'docs'), cache: join(root, 'caches', 'kept'), force: false, createdAt: 'x' });
  writeFileSync(join(root, 'project', 'docs', 'new.md'), 'new words');
  const out = await serve(root, [
    call(1, 'context.build', { sources: 'docs', cache: 'kept', force: true }),
    cancel(1),
    call(2, 'context.inspect_cache', { cache: 'kept' }),
  ]);
  t.same(out.map((l) => l.id), [2], 'only the inspect is answered');
  t.match(out[0]?.result?.content[0]?.text ?? '', new RegExp(`"cache_version":"${old.cacheVersion}","document_count":3`), 'the old cache, as it was');
  t.same(readdirSync(join(root, 'caches')), ['kept'], 'no staging directory');
});

t.test('a failed build leaves the old cache and no staging directory', async (t) => {
  const root = t.testdir({ project: { docs: docs(3) }, caches: {} });
  const old = buildCache({ sources: join(root, 'project', 'docs'), cache: join(root, 'caches', 'kept'), force: false, createdAt: 'x' });
  writeFileSync(join(root, 'project', 'docs', 'bad.md'), Buffer.from([0xc3, 0x28]));
  const out = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'kept', force: true, engine: 'v0' })]);
  t.equal(out[0]?.result?.content[0]?.text, '{"error":{"code":"cache_invalid","message":"A source file is not valid UTF-8, or two files give the same id; fix the sources, or build with engine \\"v1\\", which skips such files"}}\n', 'v0 refuses invalid UTF-8, in a sentence that says what to do (issue 25 item 3)');
  t.equal(cacheVersionOf(join(root, 'caches', 'kept')), old.cacheVersion, 'old cache intact');
  t.same(readdirSync(join(root, 'caches')), ['kept']);
});

t.test('--read-only: not listed, and a call is an unknown tool', async (t) => {
  const root = t.testdir({ project: { docs: docs(1) }, caches: {} });
  const out = await serve(root, [compact({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), call(2, 'context.build', { sources: 'docs', cache: 'x' })], { readOnly: true });
  const names = (out[0] as unknown as { result: { tools: { name: string }[] } }).result.tools.map((x) => x.name);
  t.notOk(names.includes('context.build'), 'not in tools/list');
  t.ok(names.includes('context.resolve') && names.includes('context.status'), 'the reading tools are');
  t.same(out[1]?.error, { code: -32602, message: 'Unknown tool: context.build' });
  t.same(readdirSync(join(root, 'caches')), [], 'nothing written');
});

/** Packs in a staging directory of the cache `docs` under `caches` (a full build writing early). */
function earlyPacks(caches: string): number {
  const staging = readdirSync(caches).filter((n) => n.startsWith('.docs.tmp-'));
  return staging.reduce((n, d) => n + (existsSync(join(caches, d, 'packs')) ? readdirSync(join(caches, d, 'packs')).length : 0), 0);
}

/**
 * A real server builds 3,000 files over an old cache (v0, 100 documents) and is sent the
 * cancellation at the first progress notification past 0 for which `now(caches)` holds,
 * then asked to inspect the cache. Checks what any cancellation must leave.
 */
async function cancelRunningBuild(t: Test, now: (caches: string) => boolean): Promise<{ answeredAfterCancel: number; cancelledAfter: string } | null> {
  if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) {
    t.fail('dist/ is missing: run `npm run build` first');
    return null;
  }
  const root = t.testdir({ project: { docs: {} }, caches: {} });
  const src = join(root, 'project', 'docs');
  const caches = join(root, 'caches');
  for (let d = 0; d < 30; d++) {
    mkdirSync(join(src, `p${d}`));
    for (let i = 0; i < 100; i++) writeFileSync(join(src, `p${d}`, `f${i}.md`), `# Page ${d}.${i}\n\n${'rollback deployment step '.repeat(40)}\n`);
  }
  const old = buildCache({ sources: join(root, 'project', 'docs', 'p0'), cache: join(caches, 'docs'), force: false, createdAt: 'x' });
  const { command, args } = contextCommand(['mcp', '--cache-root', caches]);
  const child = spawn(command, args, { cwd: join(root, 'project'), env: hostEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = '';
  let stderr = '';
  const lines: Line[] = [];
  let cancelledAt = 0;
  let cancelledAfter = '';
  let answeredAfterCancel = 0;
  const done = new Promise<void>((resolve) => {
    child.stdout.on('data', (b: Buffer) => {
      buffer += b.toString('utf8');
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = parseJson(buffer.slice(0, nl)) as Line;
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        if (line.method === 'notifications/progress' && cancelledAt === 0 && (line.params?.progress ?? 0) > 0 && now(caches)) {
          cancelledAt = Date.now();
          cancelledAfter = line.params?.message ?? '';
          child.stdin.write(cancel(1) + '\n' + call(2, 'context.inspect_cache', { cache: 'docs' }) + '\n');
        }
        if (line.id === 2) {
          answeredAfterCancel = Date.now() - cancelledAt;
          child.stdin.end();
          resolve();
        }
        if (line.id === 1) {
          child.stdin.end(); // built before `now` held: the checks below fail
          resolve();
        }
      }
    });
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  child.stdin.write(INIT + '\n' + call(1, 'context.build', { sources: 'docs', cache: 'docs', force: true }, 'big') + '\n');
  await done;
  await new Promise((resolve) => child.on('close', resolve));
  t.ok(cancelledAt > 0, 'progress arrived, and the cancellation was sent while the build ran');
  t.notOk(lines.some((l) => l.id === 1), 'the cancelled build gets no reply');
  const inspect = lines.find((l) => l.id === 2);
  t.match(inspect?.result?.content[0]?.text ?? '', new RegExp(`"cache_version":"${old.cacheVersion}","document_count":100`), 'the old cache is what the server sees');
  t.equal(cacheVersionOf(join(caches, 'docs')), old.cacheVersion, 'the old cache is on disk');
  t.equal(verifyCache(join(caches, 'docs')).valid, true, 'and verifies');
  t.same(readdirSync(caches), ['docs'], 'no staging directory left behind');
  t.equal(stderr, '', 'nothing on stderr');
  return { answeredAfterCancel, cancelledAfter };
}

t.test('the real server stops a running build on notifications/cancelled; the old cache stays', async (t) => {
  // The build is reading: cancel it.
  const run = await cancelRunningBuild(t, () => true);
  if (run === null) return;
  t.comment(`next reply ${run.answeredAfterCancel} ms after the cancellation (3,000 files)`);
  // A v1 build on two threads reports its analysis chunk by chunk (docs/mcp.md "Progress"):
  // the first report past 0 comes while it analyses, not once it has analysed everything.
  const { availableParallelism } = await import('node:os');
  if (availableParallelism() < 2) t.comment('one core: the build analyses on one thread, in one piece, and reports it once done');
  else t.match(run.cancelledAfter, /^analyzing [\d,]+\/3,000 files$/, `cancelled at "${run.cancelledAfter}"`);
});

// Issue 24 item 5's early writes, over MCP: a full build writes its packs into its staging
// directory while it analyses, and a build cancelled then is ended at once; the server
// removes that directory once the build's thread is gone.
t.test('cancelled while it has packs written early, the staging directory is removed', async (t) => {
  let seen = 0;
  const run = await cancelRunningBuild(t, (caches) => (seen = earlyPacks(caches)) > 0);
  t.ok(seen > 0, `the build had written ${seen} pack(s) into its staging directory when cancelled`);
  if (run !== null) t.comment(`next reply ${run.answeredAfterCancel} ms after the cancellation`);
});

// "Answers that fit, by default", What to build item 1: the default build is engine v1 with
// sections and o200k_base, and "a build that finds no source file says so": over MCP, as a
// second text block after the CLI's line (content[0] stays the whole answer).
t.test('the default build is v1 sections o200k_base; an empty one says so in a second text block', async (t) => {
  const root = t.testdir({ project: { docs: docs(2), txt: { 'a.json': 'alpha' } }, caches: {} });
  const out = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'd' }), call(2, 'context.build', { sources: 'txt', cache: 'e' })]);
  const [built, empty] = out.filter((l) => l.id !== undefined);
  t.match(built?.result?.content[0]?.text ?? '', /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":2,"engine":"v1","granularity":"section","tokenizer":"o200k_base",/);
  t.equal(built?.result?.content.length, 1, 'a build that found documents: one block');
  t.match(empty?.result?.content[0]?.text ?? '', /"document_count":0,/);
  t.notOk(empty?.result?.isError, 'not an error');
  t.equal(
    empty?.result?.content[1]?.text,
    'No source file found: engine v1 reads .adoc, .asciidoc, .htm, .html, .markdown, .md, .mdx, .rst and .txt files (less what include/exclude globs, .gitignore files and hidden folders leave out), so the cache holds 0 documents.',
    'the warning, path-free, as the CLI prints it on stderr',
  );
});
