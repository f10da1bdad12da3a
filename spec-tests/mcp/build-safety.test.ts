// Checks "Nothing lost, nothing leaked" over MCP: what to build item 1 ("The same rules for
// MCP `context.build`, with a fixed sentence that says why"), item 2 ("Builds started over
// MCP skip every source whose real path leaves the allowed roots (symlinked files and
// folders), for both engines, and report them as skipped with the reason ... Writes over MCP
// never follow a symlink out of the cache root"), item 4 (limits: -32602; "cancellation is
// answered in milliseconds whatever the arguments"), item 5 (lone surrogates refused;
// "`status` confinement errors match the other tools"), and the fixed, path-free sentences
// for every failure of `context.build` and `context.status` (MCP 2026 issue, item 3).
import t from 'tap';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { MAX_GLOB_BYTES, MAX_GLOBS } from '../../lib/core/sources/limits.js';
import { compact, parseJson, type Json } from '../../lib/json.js';
import { runMcpServer } from '../../lib/mcp/server.js';
import { contextCommand, hostEnv, REPO } from './spawn-server.js';

const INIT = compact({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const call = (id: number, name: string, args: Record<string, Json>): string => compact({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

type Line = { id?: number; result?: { isError?: boolean; content: { text: string }[] }; error?: { code: number; message: string } };

async function serve(root: string, lines: string[], cacheRoot = join(root, 'caches')): Promise<Line[]> {
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
    cacheRoot,
    projectRoot: join(root, 'project'),
    timestamp: () => '2026-01-01T00:00:00Z',
  });
  return Buffer.concat(out).toString('utf8').split('\n').filter((l) => l !== '').slice(1).map((l) => parseJson(l) as Line);
}

const text = (l: Line | undefined): string => l?.result?.content[0]?.text ?? '';
const errorOf = (l: Line | undefined): { code: string; message: string } => (parseJson(text(l)) as { error: { code: string; message: string } }).error;

t.test('MCP --force over a folder that is not a cache: refused with a sentence, the folder untouched', async (t) => {
  const root = t.testdir({ project: { docs: { 'a.md': 'alpha' } }, caches: { notes: { 'todo.txt': 'my notes' } } });
  const out = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'notes', force: true })]);
  t.equal(out[0]?.result?.isError, true);
  t.same(errorOf(out[0]), { code: 'io_error', message: 'Something other than a cache has that name under the cache root, so it is not replaced; choose another cache name' });
  t.equal(readFileSync(join(root, 'caches', 'notes', 'todo.txt'), 'utf8'), 'my notes', 'the notes are still there');
  t.same(readdirSync(join(root, 'caches')), ['notes'], 'nothing else written');
});

// Issue 44, item 1, over MCP: a folder under the cache root is replaced with force only if
// it is empty or a cache this program wrote (a real v0 or v1 manifest, nothing a cache never
// holds); a look-alike manifest, a real one copied beside other files, or a real cache with
// a stray file added gets the fixed sentence, every byte left as it was.
const NOT_A_CACHE = { code: 'io_error', message: 'Something other than a cache has that name under the cache root, so it is not replaced; choose another cache name' };

/** Every file under `dir` with its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      if (statSync(p).isDirectory()) walk(p, r);
      else out[r] = readFileSync(p, 'latin1');
    }
  };
  walk(dir, '');
  return out;
}

for (const engine of ['v0', 'v1'] as const) {
  t.test(`${engine}: MCP force refuses look-alikes of a cache and touches nothing (issue 44)`, async (t) => {
    const root = t.testdir({
      project: { docs: { 'a.md': 'alpha', 'b.md': 'beta words' } },
      caches: {
        notes: { 'manifest.json': '{"cache_version":"x"}', 'n.md': '# My note' },
        shaped: { 'manifest.json': '{"cache_version":"x"}', 'index.json': '{}', documents: { 'letter.txt': 'dear reader' } },
      },
    });
    const caches = join(root, 'caches');
    const built = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'real0', engine: 'v0' }), call(2, 'context.build', { sources: 'docs', cache: 'real1', engine: 'v1' })]);
    t.same(built.map((l) => l.result?.isError ?? false), [false, false], 'two real caches built');
    const targets = ['notes', 'shaped'];
    for (const kind of ['0', '1']) {
      // A real manifest copied beside a note.
      mkdirSync(join(caches, `copied${kind}`));
      writeFileSync(join(caches, `copied${kind}`, 'n.md'), 'a note');
      copyFileSync(join(caches, `real${kind}`, 'manifest.json'), join(caches, `copied${kind}`, 'manifest.json'));
      // A real cache with a stray file beside its files, and one inside its data folder.
      cpSync(join(caches, `real${kind}`), join(caches, `stray${kind}`), { recursive: true });
      writeFileSync(join(caches, `stray${kind}`, 'todo.txt'), 'my list');
      cpSync(join(caches, `real${kind}`), join(caches, `inside${kind}`), { recursive: true });
      writeFileSync(join(caches, `inside${kind}`, kind === '0' ? 'documents' : 'packs', 'mine.md'), 'mine');
      targets.push(`copied${kind}`, `stray${kind}`, `inside${kind}`);
    }
    const before = tree(caches);
    const out = await serve(root, targets.map((cache, i) => call(i + 1, 'context.build', { sources: 'docs', cache, force: true, engine })));
    targets.forEach((cache, i) => {
      const l = out.find((x) => x.id === i + 1);
      t.equal(l?.result?.isError, true, `${cache}: refused`);
      if (l?.result?.isError === true) t.same(errorOf(l), NOT_A_CACHE, `${cache}: the fixed sentence`);
    });
    t.same(tree(caches), before, 'every file under the cache root as it was (n.md, todo.txt, the strays)');
    t.same(readdirSync(caches).filter((n) => n.startsWith('.')), [], 'no staging directory left');
  });
}

for (const engine of ['v0', 'v1'] as const) {
  t.test(`${engine}: MCP --force through a symlink out of the cache root writes nothing outside`, async (t) => {
    const root = t.testdir({ project: { docs: { 'a.md': 'alpha words' } }, caches: {}, elsewhere: {} });
    // An outside cache of the same engine, reached by caches/linkout -> elsewhere/oc.
    const build1 = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'oc', engine })]);
    t.notOk(build1[0]?.result?.isError);
    const { renameSync } = await import('node:fs');
    renameSync(join(root, 'caches', 'oc'), join(root, 'elsewhere', 'oc'));
    symlinkSync(join(root, 'elsewhere', 'oc'), join(root, 'caches', 'linkout'));
    const before = readdirSync(join(root, 'elsewhere', 'oc')).sort().map((n) => [n, statSync(join(root, 'elsewhere', 'oc', n)).mtimeMs]);
    writeFileSync(join(root, 'project', 'docs', 'b.md'), 'another document');
    const out = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'linkout', force: true, engine })]);
    t.equal(out[0]?.result?.isError, true, 'refused');
    t.same(errorOf(out[0]), { code: 'io_error', message: 'Something other than a cache has that name under the cache root, so it is not replaced; choose another cache name' });
    t.same(readdirSync(join(root, 'elsewhere', 'oc')).sort().map((n) => [n, statSync(join(root, 'elsewhere', 'oc', n)).mtimeMs]), before, 'every outside file as it was');
    t.same(readdirSync(join(root, 'elsewhere')), ['oc'], 'no staging directory outside');
  });

  t.test(`${engine}: MCP builds skip sources whose real path leaves the project, and say so`, async (t) => {
    const root = t.testdir({ project: { docs: { 'in.md': 'inside words' }, other: { 'o.md': 'a page elsewhere in the project' } }, 'secret.md': 'TOPSECRET api key' });
    const docs = join(root, 'project', 'docs');
    symlinkSync('/proc/self/environ', join(docs, 'env.md'));
    symlinkSync('/etc/passwd', join(docs, 'passwd.md'));
    symlinkSync('../../secret.md', join(docs, 'leak.md'));
    symlinkSync('../other/o.md', join(docs, 'inside-link.md')); // leads elsewhere inside the project: read
    mkdirSync(join(root, 'outdir'));
    writeFileSync(join(root, 'outdir', 'x.md'), 'TOPSECRET in a folder');
    symlinkSync(join(root, 'outdir'), join(docs, 'linked-folder')); // a folder link: never entered
    const out = await serve(root, [
      call(1, 'context.build', { sources: 'docs', cache: 'c', engine }),
      call(2, 'context.resolve', { cache: 'c', query: 'secret root api key environ', budget: 100000 }),
    ]);
    t.notOk(out[0]?.result?.isError, text(out[0]));
    const built = parseJson(text(out[0])) as { document_count: number; skipped: { path: string; reason: string }[] };
    t.equal(built.document_count, 2, 'in.md and the link that stays inside');
    const reason = 'symlink leads outside the allowed roots';
    t.same(built.skipped, [{ path: 'env.md', reason }, { path: 'leak.md', reason }, { path: 'passwd.md', reason }], 'each link out is reported, with why');
    t.notMatch(text(out[1]), /TOPSECRET|root:x:0|PATH=/, 'no outside byte is in the cache');
  });
}

t.test('cache names that cannot round-trip are refused (lone surrogates), with the name sentence', async (t) => {
  const root = t.testdir({ project: { docs: { 'a.md': 'alpha' } }, caches: {} });
  const out = await serve(root, [
    call(1, 'context.build', { sources: 'docs', cache: 'bad\uD800name' }),
    call(2, 'context.build', { sources: 'docs', cache: 'a/b' }),
    call(3, 'context.build', { sources: 'docs', cache: '\uD83D\uDE00ok' }), // a whole pair is fine
  ]);
  for (const l of out.slice(0, 2)) t.same(errorOf(l), { code: 'cache_missing', message: 'A cache name is one folder name, without slashes' });
  t.notOk(out[2]?.result?.isError);
  t.same(readdirSync(join(root, 'caches')), ['\uD83D\uDE00ok'], 'only the well-formed name was written');
});

t.test('build and status failures: a fixed sentence naming the cause and next step, never a path', async (t) => {
  const root = t.testdir({ project: { docs: { 'a.md': 'alpha' } } });
  const out = await serve(root, [
    call(1, 'context.status', { cache: 'c' }), // no cache root yet
    call(2, 'context.build', { sources: 'nope', cache: 'c' }),
    call(3, 'context.build', { sources: 'docs', cache: 'c' }),
    call(4, 'context.build', { sources: 'docs', cache: 'c' }),
    call(5, 'context.status', { cache: 'c', sources: '/etc' }),
    call(6, 'context.status', { cache: 'c', sources: 'docs\u0000x' }),
    call(7, 'context.status', { cache: 'c', sources: '../..' }),
    call(8, 'context.status', { cache: 'missing' }),
    call(9, 'context.build', { sources: '/etc', cache: 'd' }),
    call(10, 'context.status', { cache: 'c', sources: 'gone' }),
  ]);
  const expected: [number, string, string][] = [
    [1, 'cache_missing', 'No cache root yet: build a cache first'],
    [2, 'io_error', 'The sources folder does not exist under the project root; pass a folder that does'],
    [4, 'io_error', 'The cache already exists; pass force: true to replace it'],
    [5, 'root_not_allowed', 'The sources folder lies outside the project root; pass a relative folder inside it'],
    [6, 'root_not_allowed', 'The sources folder lies outside the project root; pass a relative folder inside it'],
    [7, 'root_not_allowed', 'The sources folder lies outside the project root; pass a relative folder inside it'],
    [8, 'cache_missing', 'No cache of that name under the cache root; call context.list_caches for the names'],
    [9, 'root_not_allowed', 'The sources folder lies outside the project root; pass a relative folder inside it'],
    [10, 'io_error', 'The sources folder does not exist under the project root; pass a folder that does'],
  ];
  for (const [id, code, message] of expected) {
    const l = out.find((x) => x.id === id);
    t.equal(l?.result?.isError, true, `${id}: a tool error`);
    t.same(errorOf(l), { code, message }, `${id}: ${code}`);
    t.notOk(text(l).includes(root), `${id}: no path`);
  }
  t.notOk(out.find((x) => x.id === 3)?.result?.isError, 'the first build succeeds');
});

// Issue 44 item 5(b) over MCP: a cache root inside the sources folder (sources "." with the
// caches in the project) is refused with a sentence saying what to do; a hidden one
// (.context/caches, the README's indexing set-up) is built, and never taken in.
for (const engine of ['v0', 'v1'] as const) {
  t.test(`${engine}: MCP refuses a cache inside its sources; under a hidden folder it builds`, async (t) => {
    const root = t.testdir({ project: { 'a.md': '# A\nalpha\n', docs: { 'b.md': '# B\nbeta\n' } } });
    const out = await serve(root, [call(1, 'context.build', { sources: '.', cache: 'all', engine })], join(root, 'project', 'caches'));
    t.equal(out[0]?.result?.isError, true);
    t.same(errorOf(out[0]), {
      code: 'io_error',
      message: 'The cache root lies inside the sources folder, so every build of it would walk through the caches; build from a folder that does not hold the cache root, or start the server with a --cache-root outside the sources (or in a hidden folder, such as .context/caches)',
    });
    t.notOk(existsSync(join(root, 'project', 'caches', 'all')), 'nothing built');
    const docs = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'docs', engine })], join(root, 'project', 'caches'));
    t.equal(docs[0]?.result?.isError, undefined, 'sources beside the cache root: built');
    const hidden = join(root, 'project', '.context', 'caches');
    const ok = await serve(root, [call(1, 'context.build', { sources: '.', cache: 'all', engine }), call(2, 'context.build', { sources: '.', cache: 'all', engine, force: true })], hidden);
    t.equal(ok[0]?.result?.isError, undefined, 'a hidden cache root inside the sources: built');
    t.match(text(ok[1]), /"document_count":2[,}]/, 'the rebuild takes the two documents, not the caches');
  });
}

// Issue 44 item 5(c): a cache root kept in the project (.context/caches) that a symbolic
// link leads out of (a cloned repository may carry one) was written through. It is refused;
// a cache root outside the project is the server's configuration, taken as it is.
for (const engine of ['v0', 'v1'] as const) {
  t.test(`${engine}: MCP builds never write through a cache root in the project that leads out of it`, async (t) => {
    const top = t.testdir({
      one: { project: { docs: { 'a.md': '# A\nalpha\n' }, '.context': {} }, elsewhere: {}, real: {} },
      two: { project: { docs: { 'a.md': '# A\nalpha\n' } }, elsewhere: { caches: {} } },
    });
    const root = join(top, 'one');
    symlinkSync(join(root, 'elsewhere'), join(root, 'project', '.context', 'caches'));
    const out = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'docs', engine })], join(root, 'project', '.context', 'caches'));
    t.equal(out[0]?.result?.isError, true);
    t.same(errorOf(out[0]), {
      code: 'io_error',
      message: 'The cache root lies inside the project but leads out of it through a symbolic link, so nothing is written there; make it a real folder, or start the server with a --cache-root outside the project',
    });
    t.same(readdirSync(join(root, 'elsewhere')), [], 'nothing written where the link leads');
    // A link on the way (.context itself) is caught the same way.
    const parent = join(top, 'two');
    symlinkSync(join(parent, 'elsewhere'), join(parent, 'project', '.context'));
    const viaParent = await serve(parent, [call(1, 'context.build', { sources: 'docs', cache: 'docs', engine })], join(parent, 'project', '.context', 'caches'));
    t.equal(viaParent[0]?.result?.isError, true, 'a linked parent: refused too');
    t.same(readdirSync(join(parent, 'elsewhere', 'caches')), [], 'nothing written there');
    // The server's own cache root outside the project, reached through a link: its configuration.
    symlinkSync(join(root, 'real'), join(root, 'linked-caches'));
    const ok = await serve(root, [call(1, 'context.build', { sources: 'docs', cache: 'docs', engine })], join(root, 'linked-caches'));
    t.equal(ok[0]?.result?.isError, undefined, 'a symlinked cache root outside the project: built');
    t.ok(existsSync(join(root, 'real', 'docs', 'manifest.json')), 'where the link leads');
  });
}

t.test('glob limits over MCP: -32602 before anything runs', async (t) => {
  const root = t.testdir({ project: { docs: { 'a.md': 'alpha' } }, caches: {} });
  const out = await serve(root, [
    call(1, 'context.build', { sources: 'docs', cache: 'c', engine: 'v1', include: Array.from({ length: MAX_GLOBS + 1 }, (_, i) => `d${i}`) }),
    call(2, 'context.build', { sources: 'docs', cache: 'c', engine: 'v1', exclude: ['{'.repeat(25_000) + 'a' + '}'.repeat(25_000)] }),
  ]);
  t.same(out[0]?.error, { code: -32602, message: `Invalid params: include takes at most ${MAX_GLOBS} globs, not ${MAX_GLOBS + 1}` });
  t.same(out[1]?.error, { code: -32602, message: `Invalid params: exclude takes globs of at most ${MAX_GLOB_BYTES} bytes each` });
  t.same(readdirSync(join(root, 'caches')), []);
});

t.test('the real server answers within milliseconds after cancelling a build that compiles the costliest globs', async (t) => {
  if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const root = t.testdir({ project: { docs: { 'a.md': 'alpha' } }, caches: {} });
  // The costliest globs the limits allow: nested braces (quadratic to compile), as many as allowed.
  const half = (MAX_GLOB_BYTES - 1) / 2;
  const hostile = Array.from({ length: MAX_GLOBS }, (_, i) => '{'.repeat(Math.floor(half) - 2) + `a${i % 10}` + '}'.repeat(Math.floor(half) - 2));
  const { command, args } = contextCommand(['mcp', '--cache-root', join(root, 'caches')]);
  const child = spawn(command, args, { cwd: join(root, 'project'), env: hostEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = '';
  const lines: Line[] = [];
  let cancelledAt = 0;
  let answered = 0;
  const done = new Promise<void>((resolve) => {
    child.stdout.on('data', (b: Buffer) => {
      buffer += b.toString('utf8');
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = parseJson(buffer.slice(0, nl)) as Line;
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        if (line.id === 0) {
          child.stdin.write(call(1, 'context.build', { sources: 'docs', cache: 'c', engine: 'v1', include: hostile, exclude: hostile }) + '\n');
          // Once the build runs (compiling), cancel it and ask something else.
          setTimeout(() => {
            cancelledAt = Date.now();
            child.stdin.write(compact({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }) + '\n' + call(2, 'context.list_caches', {}) + '\n');
          }, 300);
        }
        if (line.id === 2) {
          answered = Date.now() - cancelledAt;
          child.stdin.end();
          resolve();
        }
      }
    });
  });
  child.stdin.write(INIT + '\n');
  await done;
  await new Promise((resolve) => child.on('close', resolve));
  t.notOk(lines.some((l) => l.id === 1), 'the cancelled build gets no reply');
  t.ok(answered < 250, `the next request answered ${answered} ms after the cancellation`);
  t.same(readdirSync(join(root, 'caches')), [], 'no cache, no staging directory');
  t.comment(`answered ${answered} ms after the cancellation`);
});
