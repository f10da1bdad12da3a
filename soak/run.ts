// `npm run soak`: the fault suite of issue 11 on generated data under one temporary
// directory (removed afterwards). Prints one figure per line and ends with
// "N passed, N failed"; exits 1 if any check failed. `--short` runs the seconds-long
// version (the one `npm test` runs); `--only a,b` runs some suites.

import { Report } from './figures.js';
import { runSoak, SUITES, type SuiteName } from './suites.js';

function parse(argv: readonly string[]): { short: boolean; only: SuiteName[] } {
  let short = false;
  let only: SuiteName[] = [...SUITES];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--short') short = true;
    else if (a === '--only') {
      const names = (argv[++i] ?? '').split(',');
      const bad = names.filter((n) => !(SUITES as readonly string[]).includes(n));
      if (bad.length > 0) throw new Error(`unknown suite(s): ${bad.join(', ')}; suites: ${SUITES.join(', ')}`);
      only = names as SuiteName[];
    } else throw new Error(`usage: npm run soak [-- --short] [-- --only ${SUITES.join(',')}]`);
  }
  return { short, only };
}

const options = parse(process.argv.slice(2));
const report = new Report((line) => process.stdout.write(line + '\n'));
const t0 = Date.now();
await runSoak(report, { size: options.short ? 'short' : 'full', only: options.only });
process.stdout.write(`(${((Date.now() - t0) / 1000).toFixed(0)} s)\n${report.passed} passed, ${report.failed} failed\n`);
process.exitCode = report.failed === 0 ? 0 : 1;
