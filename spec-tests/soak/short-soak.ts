// Runs one suite of `npm run soak` at its short size inside `npm test` (issue 11 "Done
// when": the short soak is in npm test). One test file per suite, so each has its own
// time limit; every PASS/FAIL figure becomes an assertion, measurements become comments.
import t from 'tap';
import { Report } from '../../soak/figures.js';
import { runSoak, type SuiteName } from '../../soak/suites.js';

export function shortSoak(suite: SuiteName): void {
  // Each suite spawns dozens of builds; a v1 build (the default: o200k_base counts) loads the
  // encoding in every process, so a suite gets more than the 120 s every other file gets.
  t.setTimeout(300_000);
  t.test(`short soak: ${suite}`, async (t) => {
    const report = new Report((line) => t.comment(line));
    await runSoak(report, { size: 'short', only: [suite] });
    const checks = report.figures.filter((f) => f.ok !== null);
    t.ok(checks.length > 0, 'the suite checked something');
    for (const f of checks) t.ok(f.ok, `${f.suite}: ${f.text}`);
  });
}
