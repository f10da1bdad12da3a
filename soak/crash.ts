// Crash safety of builds (issue 11 item 3), per engine:
// - kill -9 at seeded random points of `build --force`: the cache in place is always the
//   old or the new one and verifies (or, killed between the two renames of the swap, the
//   old one waits beside it and the next build puts it back); the next complete build
//   leaves no staging directory behind;
// - a build's staging directory is never removed by another build while its owner runs;
// - concurrent builds of one cache: the final cache verifies and is one of theirs; each
//   loser fails with io_error and a clear message, or wins cleanly.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOrThrow, cacheVersionOf, stagingEntries, startBuild, verifies } from './builds.js';
import { prng, writeCorpus } from './corpus.js';
import type { Engine } from './engines.js';
import { thousands, type Report } from './figures.js';
import type { WorkDir } from './workdir.js';

export interface CrashOptions {
  readonly engines: readonly Engine[];
  /** kill -9 trials per engine. */
  readonly kills: number;
  /** Documents per corpus (the build must take long enough to be hit at many points). */
  readonly documents: number;
  /** Live-staging-directory trials per engine. */
  readonly liveTrials: number;
  /** Rounds of three concurrent builds, per engine and per --force / no --force. */
  readonly concurrentRounds: number;
  readonly seed: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Corpora A, B, C (different content) and a tiny one, written once for all engines. */
function corpora(work: WorkDir, documents: number): { a: string; b: string; c: string; tiny: string; big: string } {
  const dir = work.path('crash', 'sources');
  const out = { a: join(dir, 'a'), b: join(dir, 'b'), c: join(dir, 'c'), tiny: join(dir, 'tiny'), big: join(dir, 'big') };
  writeCorpus(out.a, { documents, bytes: 2500, seed: 1, marker: 'alphacorpus' });
  writeCorpus(out.b, { documents, bytes: 2500, seed: 2, marker: 'betacorpus' });
  writeCorpus(out.c, { documents: Math.ceil(documents / 2), bytes: 2500, seed: 3, marker: 'gammacorpus' });
  writeCorpus(out.tiny, { documents: 20, bytes: 500, seed: 4, marker: 'tinycorpus' });
  writeCorpus(out.big, { documents: documents * 3, bytes: 2500, seed: 5, marker: 'bigcorpus' });
  return out;
}

export async function crashSoak(work: WorkDir, report: Report, options: CrashOptions): Promise<void> {
  const src = corpora(work, options.documents);
  for (const engine of options.engines) {
    const suite = `crash ${engine}`;
    const base = work.path('crash', engine);
    mkdirSync(base, { recursive: true });
    await killTrials(suite, engine, base, src, report, options);
    await liveTrials(suite, engine, base, src, report, options);
    await concurrentTrials(suite, engine, base, src, report, options);
  }
}

async function killTrials(
  suite: string,
  engine: Engine,
  base: string,
  src: { a: string; b: string },
  report: Report,
  options: CrashOptions,
): Promise<void> {
  const cache = join(base, 'kill', 'cache');
  const versionA = (await buildOrThrow(engine, src.a, join(base, 'ref-a'), false, base)).version;
  const refB = await buildOrThrow(engine, src.b, join(base, 'ref-b'), false, base);
  const versionB = refB.version;
  await buildOrThrow(engine, src.a, cache, false, base);
  // Kill points spread over a whole `build --force` (node's start, reading, writing, the
  // swap, removing the old cache), its length re-measured by every complete rebuild.
  let window = refB.ms;
  let windowMax = 0;
  const rand = prng(options.seed);
  let asOld = 0;
  let asNew = 0;
  let midSwap = 0;
  let restored = 0;
  let broken = 0;
  let unverified = 0;
  let survived = 0;
  let maxLeft = 0;
  let leftAfterNext = 0;
  const killedAt: number[] = [];
  for (let i = 0; i < options.kills; i++) {
    const before = cacheVersionOf(cache);
    const target = before === versionA ? src.b : src.a;
    const expectedNew = before === versionA ? versionB : versionA;
    const delay = Math.floor(rand() * window);
    windowMax = Math.max(windowMax, window);
    killedAt.push(delay);
    const build = startBuild(engine, target, cache, true, base);
    await sleep(delay);
    build.child.kill('SIGKILL');
    const exit = await build.exit;
    if (exit.signal === null) survived++; // finished before the kill: a complete build
    const now = cacheVersionOf(cache);
    if (now === null) {
      // Killed between moving the old cache aside and renaming the new one in.
      midSwap++;
    } else if (now === before) asOld++;
    else if (now === expectedNew) asNew++;
    else broken++;
    if (now !== null && !(await verifies(cache, base))) unverified++;
    maxLeft = Math.max(maxLeft, stagingEntries(cache).length);
    // The next complete build sweeps what this one left (and restores a mid-swap cache).
    const wasMissing = now === null;
    const next = startBuild(engine, before === versionA ? src.a : src.b, cache, true, base);
    const done = await next.exit;
    if (done.code !== 0) broken++;
    else window = done.ms;
    if (wasMissing && done.code === 0) restored++;
    leftAfterNext += stagingEntries(cache).length;
  }
  const total = options.kills;
  report.check(
    suite,
    broken === 0 && asOld + asNew + midSwap === total,
    `kill -9 during build --force, ${total} trials at seeded points within a whole rebuild (0–${thousands(windowMax)} ms): old cache ${asOld}, new cache ${asNew}, killed mid-swap ${midSwap}, anything else ${broken} (${survived} builds finished before the kill)`,
  );
  report.check(suite, unverified === 0, `caches in place after a kill that fail verify: ${unverified} of ${total - midSwap}`);
  report.check(suite, restored === midSwap, `mid-swap kills whose old cache the next build put back: ${restored} of ${midSwap}`);
  report.check(suite, leftAfterNext === 0, `staging directories left by killed builds: up to ${maxLeft} at once; after the next complete build: ${leftAfterNext}`);
}

async function liveTrials(
  suite: string,
  engine: Engine,
  base: string,
  src: { tiny: string; big: string },
  report: Report,
  options: CrashOptions,
): Promise<void> {
  const cache = join(base, 'live', 'cache');
  await buildOrThrow(engine, src.tiny, cache, false, base);
  // 1. Real builds: a slow build is writing its staging directory when a fast build of the
  // same cache starts (and sweeps). Had the sweep removed the slow build's directory, the
  // slow build could not finish: its writes or its rename would fail (ENOENT).
  let conclusive = 0;
  let failed = 0;
  let seenIntact = 0;
  for (let i = 0; i < options.liveTrials; i++) {
    const slow = startBuild(engine, src.big, cache, true, base);
    const pid = slow.child.pid ?? -1;
    let mine: string | undefined;
    for (let waited = 0; waited < 60_000 && mine === undefined && slow.child.exitCode === null; waited += 2) {
      mine = stagingEntries(cache).find((n) => n.includes(`-${pid}-`) && n.includes('.tmp-'));
      if (mine === undefined) await sleep(2);
    }
    const aliveAtStart = mine !== undefined && slow.child.exitCode === null && slow.child.signalCode === null;
    const fast = await buildOrThrow(engine, src.tiny, cache, true, base).then(
      () => true,
      () => false,
    );
    if (mine !== undefined && stagingEntries(cache).includes(mine)) seenIntact++;
    const exit = await slow.exit;
    if (aliveAtStart && fast) {
      conclusive++;
      if (exit.code !== 0) failed++;
    }
  }
  report.check(
    suite,
    failed === 0 && conclusive > 0,
    `real builds: a slow build writing while a fast build of the same cache started, swept and finished: slow builds broken by the sweep ${failed} of ${conclusive} (${options.liveTrials - conclusive} inconclusive: the slow build was done first); its staging directory seen intact afterwards in ${seenIntact}`,
  );
  // 2. The rule itself, for as long as needed: a staging directory named after a live
  // process (a `sleep`) survives every sweep; once that process is gone, the next build
  // removes it.
  const owner = liveTag();
  if (owner === null) {
    report.measure(suite, 'live-owner rule: not tried (no /proc here)');
  } else {
    const sleeper = spawn('/bin/sleep', ['600'], { stdio: 'ignore' });
    const tag = `${owner.machine}-${sleeper.pid ?? 0}-${procStart(sleeper.pid ?? 0)}`;
    const name = `.cache.tmp-${tag}-soak00`;
    mkdirSync(join(base, 'live', name));
    writeFileSync(join(base, 'live', name, 'partial'), 'a live build is writing here');
    let survived = 0;
    for (let i = 0; i < 3; i++) {
      await buildOrThrow(engine, i % 2 === 0 ? src.tiny : src.big, cache, true, base);
      if (existsSync(join(base, 'live', name, 'partial'))) survived++;
    }
    sleeper.kill('SIGKILL');
    await new Promise<void>((resolve) => sleeper.once('exit', () => resolve()));
    await buildOrThrow(engine, src.tiny, cache, true, base);
    const removedAfter = !existsSync(join(base, 'live', name));
    report.check(suite, survived === 3 && removedAfter, `live-owner rule: a staging directory whose owner runs survived ${survived} of 3 builds of its cache; removed by the next build once its owner died: ${removedAfter ? 'yes' : 'no'}`);
  }
  const unverified = (await verifies(cache, base)) ? 0 : 1;
  const left = stagingEntries(cache).length;
  report.check(suite, unverified === 0 && left === 0, `after those trials: cache verifies ${unverified === 0 ? 'yes' : 'no'}, staging directories left ${left}`);
}

/** This machine's part of an owner tag, as lib/core/store/build-owner.ts computes it. */
function liveTag(): { machine: string } | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const ns = readlinkSync('/proc/self/ns/pid');
    return { machine: createHash('sha256').update(`${boot}\n${ns}`).digest('hex').slice(0, 12) };
  } catch {
    return null;
  }
}

/** Field 22 of /proc/PID/stat: the process start time. */
function procStart(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

async function concurrentTrials(
  suite: string,
  engine: Engine,
  base: string,
  src: { a: string; b: string; c: string },
  report: Report,
  options: CrashOptions,
): Promise<void> {
  const versions = new Map<string, string>();
  for (const [name, dir] of Object.entries({ a: src.a, b: src.b, c: src.c })) {
    versions.set((await buildOrThrow(engine, dir, join(base, `ref-c-${name}`), false, base)).version, name);
  }
  for (const force of [true, false]) {
    let wins = 0;
    let clearLosses = 0;
    let unclear: string[] = [];
    let badFinal = 0;
    let left = 0;
    let singleWinner = 0;
    for (let round = 0; round < options.concurrentRounds; round++) {
      const cache = join(base, force ? 'concurrent-force' : 'concurrent', `cache-${round}`);
      if (force) await buildOrThrow(engine, src.a, cache, false, base);
      const builds = [src.a, src.b, src.c].map((s) => startBuild(engine, s, cache, force, base));
      const exits = await Promise.all(builds.map((b) => b.exit));
      const roundWins = exits.filter((e) => e.code === 0).length;
      wins += roundWins;
      if (roundWins === 1) singleWinner++;
      for (const e of exits) {
        if (e.code === 0) continue;
        if (e.code === 6 && /^error: io_error: I\/O error occurred \((output already exists|another build)[^\n]*\)\n$/.test(e.stderr)) clearLosses++;
        else unclear.push(`exit ${e.code ?? e.signal ?? '?'}: ${e.stderr.trim().slice(0, 200)}`);
      }
      const final = cacheVersionOf(cache);
      if (final === null || !versions.has(final) || !(await verifies(cache, base))) badFinal++;
      left += stagingEntries(cache).length;
    }
    const rounds = options.concurrentRounds;
    const label = force ? 'build --force' : 'build (no --force, into an absent cache)';
    report.check(
      suite,
      badFinal === 0 && unclear.length === 0 && left === 0 && (force || singleWinner === rounds),
      `3 concurrent ${label} × ${rounds} rounds: final cache verifies and is one of theirs in ${rounds - badFinal} of ${rounds}; ${wins} won, ${clearLosses} lost with a clear io_error${force ? '' : `; exactly one winner in ${singleWinner} of ${rounds}`}; unclear failures ${unclear.length}${unclear.length > 0 ? ` (${unclear[0] ?? ''})` : ''}; staging directories left ${left}`,
    );
    unclear = [];
  }
}
