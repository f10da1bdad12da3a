// Hostile inputs (issue 11 item 5): a huge document, a great many tiny files, a very deep
// tree, odd file names (newlines, invalid UTF-8…), symlink loops, FIFOs named like
// documents, a low open-file limit and a full disk. Each command must work or fail with a
// typed error — never hang (every run has a deadline), crash or leave a partial cache.
// Time and peak memory are recorded for the big ones.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheVersionOf, stagingEntries } from './builds.js';
import { contextArgv, hasStackTrace, minimalEnv, runContext, type RunOptions, type RunResult } from './child.js';
import { prng, writeCorpus } from './corpus.js';
import { buildArgs, type Engine } from './engines.js';
import { mb, thousands, type Report } from './figures.js';
import type { WorkDir } from './workdir.js';

const SUITE = 'hostile';

export interface HostileOptions {
  readonly engines: readonly Engine[];
  readonly hugeBytes: number;
  /** Size of the one-word heading, and of the prose it is timed beside. */
  readonly wordBytes: number;
  readonly tinyFiles: number;
  readonly depth: number;
  /** Files for the `ulimit -n 64` trials. */
  readonly manyFiles: number;
  /** Size of the tmpfs (or of the injected disk) for the full-disk trials. */
  readonly diskBytes: number;
}

type Outcome = 'works' | 'typed error' | 'hang' | 'crash';

/** How a run ended: works (exit 0), a typed error (documented code, one clear line), or not. */
function judge(r: RunResult): Outcome {
  if (r.timedOut) return 'hang';
  if (r.signal !== null || r.code === null || hasStackTrace(r.stderr)) return 'crash';
  if (r.code === 0) return 'works';
  // Cache commands: `error: <code>: <message>`; citation/scope commands: `context <cmd>: …`.
  if (r.code >= 1 && r.code <= 8 && /^(error: [a-z_]+: |context [a-z-]+: )/.test(r.stderr)) return 'typed error';
  return 'crash';
}

function describe(r: RunResult, outcome: Outcome): string {
  const reason = outcome === 'typed error' ? ` (${r.stderr.split('\n')[0]?.replace(/^error: /, '').slice(0, 120) ?? ''})` : '';
  const hang = outcome === 'hang' ? ' — killed at its deadline' : '';
  return `${outcome}${reason}${hang}, ${thousands(r.ms)} ms, peak ${mb(r.peakRss)}`;
}

export async function hostileSoak(work: WorkDir, report: Report, options: HostileOptions): Promise<void> {
  const base = work.path('hostile');
  mkdirSync(base, { recursive: true });
  const run = (args: string[], extra: Partial<RunOptions> = {}): Promise<RunResult> =>
    runContext(args, { cwd: base, env: minimalEnv(base), timeoutMs: 300_000, keepStdout: 1 << 20, ...extra });

  /** A build that must work or fail typed; a failure must leave no cache and no staging. */
  const build = async (what: string, engine: Engine, sources: string, cache: string, extra: Partial<RunOptions> = {}): Promise<Outcome> => {
    const r = await run(buildArgs(engine, sources, cache, false), extra);
    const outcome = judge(r);
    const partial = outcome !== 'works' && (existsSync(cache) || stagingEntries(cache).length > 0);
    const whole = outcome !== 'works' || cacheVersionOf(cache) !== null;
    report.check(SUITE, (outcome === 'works' || outcome === 'typed error') && !partial && whole, `${what}, build ${engine}: ${describe(r, outcome)}${partial ? '; PARTIAL CACHE LEFT' : ''}`);
    return outcome;
  };
  /** Any other command: must work or fail typed. */
  const command = async (what: string, args: string[], extra: Partial<RunOptions> = {}): Promise<RunResult> => {
    const r = await run(args, extra);
    const outcome = judge(r);
    report.check(SUITE, outcome === 'works' || outcome === 'typed error', `${what}: ${describe(r, outcome)}`);
    return r;
  };
  const resolveArgs = (cache: string) => ['resolve', '--cache', cache, '--query', 'deployment rollback', '--budget', '2000'];

  // A huge document.
  const huge = join(base, 'huge');
  mkdirSync(huge);
  writeHuge(join(huge, 'huge.md'), options.hugeBytes);
  writeFileSync(join(huge, 'small.md'), '# small\n\ndeployment notes\n');
  for (const engine of options.engines) {
    const cache = join(base, `huge-${engine}`);
    if ((await build(`${mb(options.hugeBytes)} document`, engine, huge, cache)) === 'works') {
      await command(`${mb(options.hugeBytes)} document, resolve ${engine}`, resolveArgs(cache));
    }
  }

  // A heading that is one long word (issue 44 item 2): its default build (v1: sections,
  // o200k_base) beside one of the same bytes of real prose (the dev set's pages). Before the merge over a heap and the
  // bounded trails, 40 KB of such a heading took minutes.
  if (options.engines.includes('v1')) {
    const times: string[] = [];
    for (const [what, write] of [
      ['one-word heading', (path: string): void => writeFileSync(path, `# ${oneWord(options.wordBytes)}\n\nbody\n`)],
      ['prose', (path: string): void => writeProse(path, options.wordBytes)],
    ] as const) {
      const sources = join(base, `word-${what.replace(/ /g, '-')}`);
      mkdirSync(sources);
      write(join(sources, 'a.md'));
      const r = await run(buildArgs('v1', sources, join(sources + '-cache'), false));
      const outcome = judge(r);
      report.check(SUITE, outcome === 'works', `${mb(options.wordBytes)} ${what}, build v1: ${describe(r, outcome)}`);
      times.push(`${mb(options.wordBytes)} ${what} ${thousands(r.ms)} ms`);
    }
    report.measure(SUITE, `build v1 (sections, o200k_base): ${times.join(', ')}`);
  }

  // A great many tiny files.
  const tiny = join(base, 'tiny');
  const t0 = Date.now();
  writeCorpus(tiny, { documents: options.tinyFiles, bytes: 40, seed: 41, marker: 'tinyfile', perDir: 1000 });
  report.measure(SUITE, `${thousands(options.tinyFiles)} tiny files written in ${thousands(Date.now() - t0)} ms`);
  for (const engine of options.engines) {
    const cache = join(base, `tiny-${engine}`);
    if ((await build(`${thousands(options.tinyFiles)} tiny files`, engine, tiny, cache)) === 'works') {
      await command(`${thousands(options.tinyFiles)} tiny files, resolve ${engine}`, resolveArgs(cache));
      await command(`${thousands(options.tinyFiles)} tiny files, verify ${engine}`, ['verify', '--cache', cache]);
    }
  }

  // A very deep tree.
  const deep = join(base, 'deep');
  let dir = deep;
  for (let level = 0; level < options.depth; level++) {
    dir = join(dir, 'd');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `level-${level}.md`), `# Level ${level}\n\ndeployment level${level}\n`);
  }
  for (const engine of options.engines) {
    await build(`${options.depth}-level tree`, engine, deep, join(base, `deep-${engine}`));
  }
  await command(`${options.depth}-level tree, verify-claims --in-path (every Markdown file under it)`, ['verify-claims', '--root', base, '--in-path', 'deep']);
  await command(`${options.depth}-level tree, scopes`, ['scopes', '--root', deep]);

  // Odd file names: newline, tab, CR, invalid UTF-8, backslash, quotes, leading dash, spaces.
  const odd = join(base, 'odd');
  mkdirSync(odd);
  for (const name of ['new\nline.md', 'tab\tname.md', 'cr\rname.md', 'back\\slash.md', 'quote"name.md', '-dash.md', ' spaced .md', 'ünïcödé.md', 'e\u0301.md']) {
    writeFileSync(join(odd, name), `# ${JSON.stringify(name)}\n\ndeployment odd name\n`);
  }
  const oddUtf8 = join(base, 'odd-utf8');
  mkdirSync(oddUtf8);
  writeFileSync(join(oddUtf8, 'plain.md'), 'deployment plain\n');
  writeFileSync(Buffer.concat([Buffer.from(oddUtf8 + '/bad-'), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]), 'deployment invalid utf-8 name\n');
  for (const engine of options.engines) {
    const cache = join(base, `odd-${engine}`);
    if ((await build('file names with newline, tab, CR, backslash, quote, dash, spaces, Unicode', engine, odd, cache)) === 'works') {
      const r = await command(`odd names, resolve ${engine}`, resolveArgs(cache));
      report.check(SUITE, isJson(r.stdout), `odd names, resolve ${engine}: stdout is one JSON document`);
    }
    await build('a file name that is not valid UTF-8', engine, oddUtf8, join(base, `odd-utf8-${engine}`));
  }
  await command('odd names, verify-claims --in-path', ['verify-claims', '--root', base, '--in-path', 'odd']);
  await command('odd names, scopes', ['scopes', '--root', odd]);

  // Symlink loops.
  const loops = join(base, 'loops');
  mkdirSync(loops);
  writeFileSync(join(loops, 'real.md'), 'deployment real\n');
  symlinkSync('self.md', join(loops, 'self.md'));
  symlinkSync('b.md', join(loops, 'a.md'));
  symlinkSync('a.md', join(loops, 'b.md'));
  symlinkSync('.', join(loops, 'here'));
  symlinkSync('..', join(loops, 'up'));
  for (const engine of options.engines) await build('symlink loops (self, a<->b, dir -> ., dir -> ..)', engine, loops, join(base, `loops-${engine}`));
  await command('symlink loops, verify-claims --in-path', ['verify-claims', '--root', base, '--in-path', 'loops']);
  await command('symlink loops, scopes', ['scopes', '--root', loops]);
  await command('symlink loops, cite self.md', ['cite', '--root', loops, '--path', 'self.md', '--start-line', '1', '--end-line', '1']);

  // FIFOs named like documents and like the files the scope tools read.
  const fifos = join(base, 'fifos');
  mkdirSync(join(fifos, 'sub'), { recursive: true });
  writeFileSync(join(fifos, 'real.md'), 'deployment real\n');
  for (const name of ['pipe.md', '.gitignore', '.context.config.yaml', 'sub/.context.yaml', 'sub/.gitignore']) execFileSync('mkfifo', [join(fifos, name)]);
  symlinkSync('pipe.md', join(fifos, 'link-to-pipe.md'));
  const deadline = { timeoutMs: 30_000 };
  for (const engine of options.engines) await build('a FIFO named pipe.md (and a symlink to it)', engine, fifos, join(base, `fifos-${engine}`), deadline);
  await command('FIFO, cite pipe.md', ['cite', '--root', fifos, '--path', 'pipe.md', '--start-line', '1', '--end-line', '1'], deadline);
  await command('FIFO, verify-claims --in-path', ['verify-claims', '--root', base, '--in-path', 'fifos'], deadline);
  await command('FIFO .gitignore and .context.config.yaml, scopes', ['scopes', '--root', fifos], deadline);
  await command('FIFO .context.yaml, freshness', ['freshness', '--root', fifos, '--scope', 'sub'], deadline);
  await command('FIFO .context.yaml, show', ['show', '--root', fifos, '--scope', 'sub'], deadline);

  // A low open-file limit.
  const many = join(base, 'many');
  writeCorpus(many, { documents: options.manyFiles, bytes: 300, seed: 42, marker: 'manyfiles' });
  const limited = { maxOpenFiles: 64 };
  for (const engine of options.engines) {
    const cache = join(base, `ulimit-${engine}`);
    if ((await build(`ulimit -n 64, ${thousands(options.manyFiles)} files`, engine, many, cache, limited)) === 'works') {
      await command(`ulimit -n 64, resolve ${engine} (worker threads)`, resolveArgs(cache), limited);
      await command(`ulimit -n 64, verify ${engine}`, ['verify', '--cache', cache], limited);
      const input = [
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}',
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context.resolve","arguments":{"cache":"ulimit-${engine}","query":"deployment","budget":500}}}`,
      ].join('\n') + '\n';
      const r = await command(`ulimit -n 64, MCP server resolve ${engine}`, ['mcp', '--cache-root', base], { ...limited, input });
      report.check(SUITE, /"id":1,"result":\{"content"/.test(r.stdout), `ulimit -n 64, MCP server ${engine}: the call is answered`);
    }
  }

  await fullDisk(work, report, options, run);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `bytes` of Markdown words, written in 1 MiB slices (never held in memory whole). */
/**
 * `bytes` of real documentation: the relevance dev set's pages (bench/relevance/devset2, in
 * path order) joined, or writeHuge's words where the checkout has no dev set.
 */
function writeProse(path: string, bytes: number): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench', 'relevance', 'devset2');
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(md|mdx)$/u.test(name)) pages.push(readFileSync(p, 'utf8'));
    }
  };
  if (existsSync(root)) walk(root);
  if (pages.length === 0) return writeHuge(path, bytes);
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `${pages[i % pages.length] ?? ''}\n\n`;
  writeFileSync(path, text.slice(0, bytes));
}

/** One lower-case word of `bytes` pseudo-random letters (a base64 blob or minified line's worst case: no piece repeats). */
function oneWord(bytes: number): string {
  const rand = prng(47);
  const letters: string[] = [];
  for (let i = 0; i < bytes; i++) letters.push(String.fromCharCode(97 + Math.floor(rand() * 26)));
  return letters.join('');
}

function writeHuge(path: string, bytes: number): void {
  const rand = prng(43);
  const words = ['deployment', 'rollback', 'latency', 'memory', 'alpha', 'beta', 'gamma', 'delta'];
  let slice = '';
  while (slice.length < 1 << 20) slice += `${words[Math.floor(rand() * words.length)] ?? 'x'}${rand() < 0.1 ? '\n' : ' '}`;
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, '# Huge\n\n');
    for (let written = 0; written < bytes; written += slice.length) writeSync(fd, slice.slice(0, Math.min(slice.length, bytes - written)));
  } finally {
    closeSync(fd);
  }
}

/** A module for `node --import`: every fs write fails with ENOSPC once `limit` bytes are written. */
function enospcInjector(limit: number): string {
  return `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
let written = 0;
const full = () => Object.assign(new Error('ENOSPC: no space left on device (injected)'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
const size = (d) => typeof d === 'string' ? Buffer.byteLength(d) : (d?.byteLength ?? 0);
for (const name of ['writeFileSync', 'writeSync', 'appendFileSync']) {
  const real = fs[name];
  fs[name] = function (...args) {
    const n = size(args[1]);
    if (written + n > ${limit}) throw full();
    written += n;
    return real.apply(this, args);
  };
}
syncBuiltinESMExports();
`;
}

async function fullDisk(work: WorkDir, report: Report, options: HostileOptions, run: (args: string[], extra?: Partial<RunOptions>) => Promise<RunResult>): Promise<void> {
  const base = work.path('hostile');
  const disk = work.path('hostile', 'disk');
  mkdirSync(disk);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${options.diskBytes}`, 'tmpfs', disk], { stdio: 'ignore' }).status === 0;
  if (mounted) work.mounted(disk);
  let flags: string[] = [];
  if (!mounted) {
    const injector = join(base, 'enospc.mjs');
    writeFileSync(injector, enospcInjector(options.diskBytes));
    flags = [`--import=${injector}`];
  }
  const how = mounted ? `a ${mb(options.diskBytes)} tmpfs` : `an injected ENOSPC after ${mb(options.diskBytes)} (no tmpfs here)`;
  report.measure(SUITE, `full disk: ${how}`);
  const big = join(base, 'disk-sources');
  writeCorpus(big, { documents: Math.ceil((options.diskBytes * 2) / 4000), bytes: 4000, seed: 44, marker: 'fulldisk' });
  const smallSrc = join(base, 'disk-small');
  writeCorpus(smallSrc, { documents: 20, bytes: 500, seed: 45, marker: 'fits' });
  for (const engine of options.engines) {
    const cache = join(disk, `c-${engine}`);
    // A fresh build that fills the disk.
    const fresh = await run(buildArgs(engine, big, cache, false), { nodeFlags: flags });
    const freshOutcome = judge(fresh);
    const freshClean = !existsSync(cache) && stagingEntries(cache).length === 0;
    report.check(SUITE, freshOutcome === 'typed error' && fresh.code === 6 && freshClean, `full disk, fresh build ${engine}: ${describe(fresh, freshOutcome)}; ${freshClean ? 'no cache, no staging left' : 'PARTIAL CACHE LEFT'}`);
    // A --force rebuild over a cache that fits: the old cache must survive, whole.
    const small = await run(buildArgs(engine, smallSrc, cache, false));
    const before = cacheVersionOf(cache);
    const forced = await run(buildArgs(engine, big, cache, true), { nodeFlags: flags });
    const forcedOutcome = judge(forced);
    const verified = (await run(['verify', '--cache', cache])).code === 0;
    const kept = small.code === 0 && before !== null && cacheVersionOf(cache) === before && verified && stagingEntries(cache).length === 0;
    report.check(SUITE, forcedOutcome === 'typed error' && kept, `full disk, build --force ${engine}: ${describe(forced, forcedOutcome)}; old cache ${kept ? 'intact and verifies' : 'NOT INTACT'}, staging left ${stagingEntries(cache).length}`);
    spawnSync('rm', ['-rf', cache]);
  }
  // Output onto the full disk.
  const outCache = join(base, 'disk-out-cache');
  await run(buildArgs('v0', big, outCache, false));
  let outPath: string;
  if (mounted) {
    const filler = join(disk, 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', `count=${Math.ceil(options.diskBytes / (1 << 20)) + 1}`], { stdio: 'ignore' });
    outPath = join(disk, 'out.json');
  } else {
    outPath = '/dev/full';
  }
  const r = await runToFile(['resolve', '--cache', outCache, '--query', 'fulldisk', '--budget', '100000000'], base, outPath);
  report.check(SUITE, r.code === 6 && /^error: io_error: I\/O error occurred \(cannot write the output to standard output: no space left on the device \(ENOSPC\); .+\)\n$/.test(r.stderr), `full disk mid-output (resolve > ${mounted ? 'a file on the full tmpfs' : '/dev/full'}): exit ${r.code ?? r.signal ?? '?'}, stderr ${JSON.stringify(r.stderr.slice(0, 120))}`);
  if (mounted) work.unmount(disk);
}

/** Runs with stdout redirected into `path` (as `> path` in a shell). */
function runToFile(args: string[], cwd: string, path: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const fd = openSync(path, 'w');
    const { command, args: argv } = contextArgv(args);
    const child = spawn(command, argv, { cwd, env: minimalEnv(cwd), stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}
