// Checks bin/load-bundle.mjs and scripts/code-cache.mjs (docs/engine.md "Measured": the CLI
// starts from V8's code cache of its bundle): after `npm run build` the cache is there and
// V8 takes it; a cache taken of other bundle bytes, even of the same length, is not used
// (the bundle is compiled as usual, and runs); without one, the CLI runs all the same.
// Each check runs in a fresh `node`, as bin/context does: V8 takes a code cache only under
// the flags it was made with, and a test runner's process has flags of its own.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compact, parseJson } from '../../lib/json.js';
import { REPO } from '../mcp/spawn-server.js';

/** Loads the bundle beside `root`/bin/load-bundle.mjs in a fresh node: whether the code cache was taken, and `context --version`'s output. */
function load(root: string): { cached: boolean; version: string } {
  const script = `const { loadBundle } = await import(${compact(pathToFileURL(join(root, 'bin', 'load-bundle.mjs')).href)});
const { exports, cached } = loadBundle();
let out = '';
const code = await exports.main(['--version'], { stdout: (s) => { out += s; }, stderr: () => {}, env: {}, cwd: process.cwd() });
process.stdout.write(JSON.stringify({ cached, version: code === 0 ? out : 'exit ' + code }));`;
  const r = spawnSync('/bin/sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return parseJson(r.stdout) as { cached: boolean; version: string };
}

t.test('npm run build writes the code cache of the CLI bundle, and a fresh node takes it', async (t) => {
  const cache = join(REPO, 'dist', 'bundle', 'main.cjs.cache');
  if (!existsSync(cache)) {
    t.fail('dist/bundle/main.cjs.cache is missing: run `npm run build` first');
    return;
  }
  const bundle = readFileSync(join(REPO, 'dist', 'bundle', 'main.cjs'));
  const { createHash } = await import('node:crypto');
  t.equal(readFileSync(cache).toString('latin1', 0, 65), `${createHash('sha256').update(bundle).digest('hex')}\n`, 'it names the bundle it was taken of');
  const loaded = load(REPO);
  t.equal(loaded.cached, true, 'V8 takes it');
  t.match(loaded.version, /^context \d+\.\d+\.\d+/);
});

t.test('a code cache of other bundle bytes is not used; without one the CLI runs the same', async (t) => {
  const dir = t.testdir({});
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
  cpSync(join(REPO, 'bin', 'load-bundle.mjs'), join(dir, 'bin', 'load-bundle.mjs'));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const bundle = readFileSync(join(REPO, 'dist', 'bundle', 'main.cjs'));
  const cache = readFileSync(join(REPO, 'dist', 'bundle', 'main.cjs.cache'));
  writeFileSync(join(dir, 'dist', 'bundle', 'main.cjs'), bundle);
  writeFileSync(join(dir, 'dist', 'bundle', 'main.cjs.cache'), cache);
  const reference = load(dir);
  t.same(reference, load(REPO), 'a copy of the bundle and its cache: taken, as in place');
  // The same length, one byte different (its final newline made a space): V8's own check
  // (length, version, flags) would pass; the sha256 does not.
  const changed = Buffer.from(bundle);
  changed[changed.length - 1] = 0x20;
  writeFileSync(join(dir, 'dist', 'bundle', 'main.cjs'), changed);
  t.same(load(dir), { cached: false, version: reference.version }, 'another bundle of the same length: compiled as usual, same answer');
  rmSync(join(dir, 'dist', 'bundle', 'main.cjs.cache'));
  t.same(load(dir), { cached: false, version: reference.version }, 'no cache: compiled as usual, same answer');
});
