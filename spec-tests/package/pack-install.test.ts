// Checks issue 12 item 5 "The package as published: a test packs the project (`npm pack`),
// installs the tarball into a fresh prefix, and runs the installed `context --version`, a
// build, a resolve and an MCP `initialize` through it". The install works offline, from the
// npm cache that `npm ci` filled: the fresh prefix is a consumer project whose lockfile
// pins the tarball and the runtime dependencies to this repository's lockfile entries
// (versions and integrity), and `npm ci --offline` installs it without asking a registry.
import t from 'tap';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compact, parseJson, type Json } from '../../lib/json.js';
import { VERSION } from '../../lib/version.js';
import { REPO } from '../mcp/spawn-server.js';

const PATH = `${dirname(process.execPath)}:${process.env['PATH'] ?? '/usr/bin:/bin'}`;

/** A command without tap's NODE_OPTIONS hook (it breaks the extensionless bin). */
function run(command: string, args: readonly string[], options: { cwd: string; input?: string; env?: Record<string, string> }): SpawnSyncReturns<string> {
  return spawnSync('/usr/bin/env', ['-u', 'NODE_OPTIONS', command, ...args], {
    cwd: options.cwd,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { PATH, HOME: process.env['HOME'] ?? options.cwd, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
}

interface LockEntry {
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly [key: string]: unknown;
}

/**
 * A project depending on `tarball` (package.json + package-lock.json), its lockfile holding
 * the tarball's integrity and, for every runtime dependency (and theirs), this repository's
 * lockfile entry, so `npm ci` needs nothing but the cache.
 */
function writeConsumer(app: string, tarball: string): void {
  const own = parseJson(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; bin: Record<string, string> };
  const lock = parseJson(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:${tarball}`;
  const integrity = 'sha512-' + createHash('sha512').update(readFileSync(tarball)).digest('base64');
  const packages: Record<string, unknown> = {
    '': { name: 'app', dependencies: { 'context-engine': spec } },
    'node_modules/context-engine': { version: own.version, resolved: spec, integrity, dependencies: own.dependencies, bin: own.bin },
  };
  const todo = Object.keys(own.dependencies);
  for (let name = todo.shift(); name !== undefined; name = todo.shift()) {
    const key = `node_modules/${name}`;
    if (key in packages) continue;
    const found = lock.packages[key];
    if (found === undefined) throw new Error(`${name} is not in package-lock.json`);
    const { dev: _dev, ...entry } = found;
    packages[key] = entry;
    todo.push(...Object.keys(found.dependencies ?? {}));
  }
  writeFileSync(join(app, 'package.json'), compact({ name: 'app', private: true, dependencies: { 'context-engine': spec } }) + '\n');
  writeFileSync(join(app, 'package-lock.json'), compact({ name: 'app', lockfileVersion: 3, requires: true, packages } as Json) + '\n');
}

interface PackEntry {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

t.test('npm pack, install into a fresh prefix, run the installed context', async (t) => {
  if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) {
    t.fail('dist/ is missing: run `npm run build` first');
    return;
  }
  const dir = t.testdir({ out: {}, app: {}, work: {} });

  // Pack what is built (npm test builds first; --ignore-scripts: no second build here).
  const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', join(dir, 'out')], { cwd: REPO });
  t.equal(pack.status, 0, 'npm pack', { stderr: pack.stderr });
  const [entry] = parseJson(pack.stdout) as PackEntry[];
  const files = (entry?.files ?? []).map((f) => f.path).sort();
  for (const needed of ['package.json', 'README.md', 'bin/context', 'dist/cli/main.js', 'dist/mcp/server.js', 'dist/core/operations/build-worker.js', 'dist/core/engine/v0/read-worker.js', 'bin/load-bundle.mjs', 'dist/bundle/main.cjs', 'dist/bundle/main.cjs.cache', 'dist/bundle/batch-worker.js', 'dist/bundle/read-worker.js', 'dist/bundle/heads-worker.js', 'dist/core/engine/v1/heads-worker.js', 'dist/bundle/build-worker.js', 'dist/bundle/tool-worker.js', 'examples/corpus/README.md']) {
    t.ok(files.includes(needed), `the tarball holds ${needed}`);
  }
  t.same(files.filter((f) => /^(lib|spec-tests|conformance|bench|scripts|docs|node_modules|\.tap)\//.test(f)), [], 'no sources, tests, transcripts, benchmarks or dependencies');
  // dist/bundle/ (scripts/bundle.mjs) is what bin/context runs, bundled from the rest of dist/.
  const stale = files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/bundle/') && f.endsWith('.js') && !existsSync(join(REPO, 'lib', f.slice('dist/'.length, -'.js'.length) + '.ts')));
  t.same(stale, [], 'every built file has its source (the build empties dist/ first)');

  // Install it into a fresh prefix: a project that depends on the tarball, locked to the
  // versions (and integrity) of this repository's lockfile, installed with npm ci --offline.
  const tarball = join(dir, 'out', entry?.filename ?? '');
  const app = join(dir, 'app');
  writeConsumer(app, tarball);
  const install = run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app });
  t.equal(install.status, 0, 'npm ci --offline of a project depending on the tarball', { stderr: install.stderr });
  const context = join(app, 'node_modules', '.bin', 'context');
  t.ok(existsSync(context), 'the bin is linked');
  const installed = join(app, 'node_modules', 'context-engine');
  const runtime = Object.keys((parseJson(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  // A scoped dependency (@orama/stopwords) sits in its scope's folder (@orama).
  const topLevel = [...new Set(runtime.map((n) => n.split('/')[0] as string))];
  t.same(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')).sort(), ['context-engine', ...topLevel].sort(), 'the package and its runtime dependencies, nothing else');
  for (const n of runtime.filter((n) => n.includes('/'))) t.ok(existsSync(join(app, 'node_modules', n, 'package.json')), `${n} installed`);

  const version = run(context, ['--version'], { cwd: join(dir, 'work') });
  t.same({ status: version.status, out: version.stdout }, { status: 0, out: `context ${VERSION}\n` }, 'context --version');

  const build = run(context, ['build', '--engine', 'v0', '--sources', join(installed, 'examples', 'corpus'), '--cache', 'cache'], { cwd: join(dir, 'work'), env: { SOURCE_DATE_EPOCH: '0' } });
  t.equal(build.status, 0, 'context build --engine v0', { stderr: build.stderr });
  t.match(build.stdout, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":7\}\n$/, 'builds the shipped example corpus');
  const v1 = run(context, ['build', '--sources', join(installed, 'examples', 'corpus'), '--cache', 'v1'], { cwd: join(dir, 'work') });
  t.equal(v1.status, 0, 'context build, engine v1 by default (its worker threads load from the package)', { stderr: v1.stderr });

  const resolve = run(context, ['resolve', '--cache', 'cache', '--query', 'rollback deployment', '--budget', '200'], { cwd: join(dir, 'work') });
  t.equal(resolve.status, 0, 'context resolve', { stderr: resolve.stderr });
  const answer = parseJson(resolve.stdout) as { selection: { documents_considered: number; budget: number } };
  t.same([answer.selection.documents_considered, answer.selection.budget], [7, 200]);
  const text = run(context, ['resolve', '--cache', 'v1', '--query', 'rollback deployment', '--budget', '300', '--format', 'text'], { cwd: join(dir, 'work') });
  t.match(text.stdout, /^query "rollback deployment", budget 300 tokens \(v1, sections, o200k_base\)\n/, 'resolve --format text');

  const init = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pack","version":"1"}}}\n';
  const list = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context.list_caches","arguments":{}}}\n';
  // context.resolve runs on the server's worker thread, which loads from the package too.
  const ask = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"context.resolve","arguments":{"cache":"v1","query":"rollback deployment","budget":300,"format":"markdown"}}}\n';
  const mcp = run(context, ['mcp', '--cache-root', '.'], { cwd: join(dir, 'work'), input: init + list + ask });
  t.equal(mcp.status, 0, 'context mcp exits 0 when stdin ends');
  const [hello, caches, resolved] = mcp.stdout.split('\n').filter((l) => l !== '').map((l) => parseJson(l) as { result: Record<string, unknown> });
  t.same(hello?.result['serverInfo'], { name: 'context-engine', version: VERSION }, 'initialize answers with the package version');
  t.same(caches?.result['structuredContent'], {
    caches: [
      { path: 'cache', has_manifest: true },
      { path: 'v1', has_manifest: true, engine: 'v1', label: null, granularity: 'section', tokenizer: 'o200k_base', formats: { md: 7 }, document_count: 7 },
    ],
  }, 'and its tools work (a v1 cache listed with what it holds)');
  const markdown = run(context, ['resolve', '--cache', 'v1', '--query', 'rollback deployment', '--budget', '300', '--format', 'markdown'], { cwd: join(dir, 'work') });
  t.same(resolved?.result['content'], [{ text: markdown.stdout, type: 'text' }], 'context.resolve (on its worker thread) answers what the CLI prints');
  t.equal(mcp.stderr, '', 'nothing on stderr');
});
