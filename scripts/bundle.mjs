// Bundles what bin/context runs: the CLI and the three worker entry points, from dist/ (the
// TypeScript output) into dist/bundle/. One process start then reads a few files instead of
// compiling ~50 modules one by one: a 10-edit rebuild of the 10,000-document bench corpus
// starts ~80 ms sooner, a no-op one ~20 ms (docs/engine.md "Measured").
// - Code split at the sources' dynamic imports, so a command still loads only what it uses.
// - Workers keep their names (batch-worker.js, read-worker.js, build-worker.js) beside the
//   chunks that start them, which find them as `new URL('./<name>.js', import.meta.url)`.
// - Dependencies stay external: loaded from node_modules as before, licenses untouched.
// esbuild's output is a function of its input and options: the same sources, the same bundle.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
await build({
  entryPoints: {
    main: `${dist}cli/main.js`,
    'batch-worker': `${dist}core/engine/v1/batch-worker.js`,
    'read-worker': `${dist}core/cache/read-worker.js`,
    'build-worker': `${dist}core/cache/build-worker.js`,
  },
  outdir: `${dist}bundle`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunk-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
});
