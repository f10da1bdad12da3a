// Loads the CLI bundle (dist/bundle/main.cjs, scripts/bundle.mjs) with V8's code cache of it
// (main.cjs.cache, scripts/code-cache.mjs): the functions a command runs come compiled from
// there instead of being parsed and compiled again at every start, ~40 ms of a 10-edit
// rebuild (docs/engine.md "Measured"). The cache changes how fast, never what runs: it is
// used only when it was taken of these very bundle bytes (their sha256 heads it), and V8
// itself rejects one made by another Node or with other flags; without one, the bundle is
// compiled as usual.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

export const BUNDLE = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
export const CODE_CACHE = `${BUNDLE}.cache`;

/** The bundle's sha256, as a code cache's first line names it. */
export const bundleDigest = (source) => createHash('sha256').update(source).digest('hex');

/**
 * The bundle, compiled (with the code cache unless `cache` is false) and run: its exports,
 * the compiled script, its source, and whether V8 took its compiled code from the cache.
 */
export function loadBundle({ cache = true } = {}) {
  const source = readFileSync(BUNDLE, 'utf8');
  let cachedData;
  if (cache) {
    try {
      const bytes = readFileSync(CODE_CACHE);
      const digest = bundleDigest(source);
      if (bytes.length > 65 && bytes.toString('latin1', 0, 64) === digest && bytes[64] === 0x0a) cachedData = bytes.subarray(65);
    } catch {
      // No code cache (or unreadable): compile as usual.
    }
  }
  const script = new Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  return { exports: module.exports, script, source, cached: cachedData !== undefined && !script.cachedDataRejected };
}

/** The folder this CLI was installed or cloned into (bin/'s parent). */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

/**
 * The stderr line for a failure to load the CLI because its build output or a dependency is
 * missing (a clone before `npm run build`, `npm install --ignore-scripts`, a deleted dist/ or
 * node_modules/), in the CLI's error form; null for any other failure. Paths are named
 * relative to `cwd` when they lie inside it.
 */
export function missingBuild(err, cwd) {
  const code = err?.code;
  const shown = (path) => {
    const rel = relative(cwd, path);
    return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
  };
  const where = shown(PACKAGE_DIR);
  const cd = where === '.' ? '' : `cd ${where} && `;
  if (code === 'ENOENT' && err.path === BUNDLE) {
    return `error: internal_error: Internal error (cannot read the compiled CLI ${shown(BUNDLE)}: it does not exist (ENOENT); build it: ${cd}npm run build (or ${cd}npm ci, which installs and builds))\n`;
  }
  if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
    const name = /Cannot find (?:module|package) '([^']+)'/.exec(String(err.message))?.[1] ?? 'a dependency';
    return `error: internal_error: Internal error (cannot load ${name}: it is not installed; install the dependencies: ${cd}npm ci)\n`;
  }
  return null;
}
