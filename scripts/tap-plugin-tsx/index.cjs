// A tap plugin (development only) that loads test files' TypeScript with tsx (esbuild)
// instead of tap's default ts-node, which loads the TypeScript compiler in every test
// process: about half of `npm test`'s time went to that start. Types are still checked:
// `npm test` runs `tsc -p tsconfig.test.json` over lib/ and every test before tap.
// `preload` puts this loader ahead of tap's own, so `t.mockImport`'s resolve hook sees the
// resolved .ts URLs (@tapjs/typescript does the same for ts-node).
exports.importLoader = 'tsx';
exports.preload = true;
