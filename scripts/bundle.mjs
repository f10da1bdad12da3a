// Bundles what bin/context runs, from dist/ (the TypeScript output) into dist/bundle/:
// - main.cjs: the CLI, one script. bin/load-bundle.mjs compiles it with V8's code cache
//   (scripts/code-cache.mjs writes it), so a start takes its functions compiled instead of
//   compiling ~50 modules: a 10-edit rebuild of the 10,000-document bench corpus returns
//   ~40 ms sooner than from the ESM bundle it replaces, 432 -> 395 ms (docs/engine.md
//   "Measured").
//   A script, not a module, because Node 20 caches compiled code only for scripts
//   (vm.Script's cachedData). Lazy imports become lazily run functions inside it.
//   import.meta.url reads as dist/bundle/main.js's URL, so the worker entries below are
//   found beside it (`new URL('./<name>.js', import.meta.url)`) and createRequire resolves
//   the packages loaded at run time (minimist, yaml, picomatch, ignore, the stemmer,
//   gpt-tokenizer) from node_modules as before. The packages imported statically are
//   inlined: github-slugger and character-entities (ES modules only, which a script cannot
//   require on Node 20) and fast-json-stable-stringify; they stay dependencies, their
//   licenses installed with them.
// - batch-worker.js, read-worker.js, heads-worker.js, segments-worker.js, build-worker.js, tool-worker.js: the worker
//   entry points, ES modules
//   split into shared chunks, their dependencies external.
// esbuild's output is a function of its input and options: the same sources, the same bundle.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const common = {
  outdir: `${dist}bundle`,
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'eof',
  logLevel: 'warning',
};
const script = await build({
  ...common,
  entryPoints: { main: `${dist}cli/main.js` },
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { 'import.meta.url': '__bundle_module_url' },
  banner: { js: 'const __bundle_module_url = require("node:url").pathToFileURL(require("node:path").join(__dirname, "main.js")).href;' },
  metafile: true,
});
// A script run by vm.Script has no loader for import(): every lazy import must have been
// bundled into a function call. One left (an external package imported lazily) fails here,
// not in a user's command.
for (const [file, output] of Object.entries(script.metafile.outputs)) {
  const left = output.imports.filter((i) => i.kind === 'dynamic-import');
  if (left.length > 0) throw new Error(`bundle: ${file} keeps dynamic import() of ${left.map((i) => i.path).join(', ')}; load it with createRequire instead`);
}
await build({
  ...common,
  entryPoints: {
    'batch-worker': `${dist}core/engine/v1/batch-worker.js`,
    'read-worker': `${dist}core/engine/v0/read-worker.js`,
    'heads-worker': `${dist}core/engine/v1/heads-worker.js`,
    'segments-worker': `${dist}core/engine/v1/segments-worker.js`,
    'build-worker': `${dist}core/operations/build-worker.js`,
    'tool-worker': `${dist}mcp/tool-worker.js`,
  },
  splitting: true,
  format: 'esm',
  packages: 'external',
  chunkNames: 'chunk-[hash]',
});
