// The suites of the soak run, their sizes (full: minutes, for `npm run soak`; short:
// seconds, inside `npm test`), and the one place a suite's own failure becomes a figure.

import { availableEngines } from './engines.js';
import type { Report } from './figures.js';
import { crashSoak } from './crash.js';
import { escapesSoak } from './escapes.js';
import { guardsSoak } from './guards.js';
import { hostileSoak } from './hostile.js';
import { pipesSoak } from './pipes.js';
import { protocolSoak } from './protocol.js';
import { responsiveSoak } from './responsive.js';
import { serveRebuildSoak } from './serve-rebuild.js';
import { WorkDir } from './workdir.js';

export const SUITES = ['protocol', 'crash', 'serve', 'hostile', 'escapes', 'pipes', 'guards', 'responsive'] as const;
export type SuiteName = (typeof SUITES)[number];

export interface SoakOptions {
  readonly size: 'full' | 'short';
  readonly only?: readonly SuiteName[];
}

export async function runSoak(report: Report, options: SoakOptions): Promise<void> {
  const full = options.size === 'full';
  const work = new WorkDir();
  try {
    const engines = await availableEngines(work.root);
    report.measure('setup', `engines: ${engines.join(', ')}; work directory removed afterwards`);
    const suites: Record<SuiteName, () => Promise<void>> = {
      protocol: () => protocolSoak(work, report, { lines: full ? 100_000 : 3_000, seed: 11, oversizeEvery: full ? 5_000 : 1_000, engines, rssLimit: full ? 0.1 : null }),
      crash: () =>
        crashSoak(work, report, {
          engines,
          kills: full ? 24 : 4,
          documents: full ? 1500 : 300,
          liveTrials: full ? 4 : 1,
          concurrentRounds: full ? 4 : 1,
          seed: 23,
        }),
      serve: () => serveRebuildSoak(work, report, { engines, rebuilds: full ? 20 : 3, documents: full ? 800 : 150 }),
      hostile: () =>
        hostileSoak(work, report, {
          engines,
          hugeBytes: full ? 100 * 1024 * 1024 : 2 * 1024 * 1024,
          wordBytes: 1024 * 1024,
          tinyFiles: full ? 100_000 : 1_000,
          manyFiles: full ? 3_000 : 1_200,
          depth: 300,
          diskBytes: 8 * 1024 * 1024,
        }),
      escapes: () => escapesSoak(work, report, { cliPayloads: full ? 100 : 6 }),
      pipes: () => pipesSoak(work, report, { cutTrials: full ? 20 : 3 }),
      guards: () => guardsSoak(work, report, { engines, packTrials: full ? 12 : 2, documents: full ? 2000 : 300, cancelTrials: full ? 20 : 3, seed: 31 }),
      responsive: () =>
        responsiveSoak(work, report, { documents: full ? 2000 : 300, pings: full ? 1000 : 200, pingEveryMs: full ? 4 : 2 }),
    };
    for (const name of options.only ?? SUITES) {
      const t0 = Date.now();
      try {
        await suites[name]();
        report.measure(name, `suite time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      } catch (err) {
        report.check(name, false, `the suite itself failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
  } finally {
    work.remove();
  }
}
