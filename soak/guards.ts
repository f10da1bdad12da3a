// Guards ("Nothing lost, nothing leaked"): what a build may never do, tried many ways.
//   targets   `build --force` (CLI, each engine) and `context.build force: true` (MCP) over
//             everything that is not a cache: the working directory, the sources, a folder
//             holding them, a folder of files, a plain file, a symlink, a folder with a
//             foreign manifest.json, a folder of notes with a look-alike cache manifest
//             (issue 44) — each refused, every byte on disk as it was.
//   links     an MCP build of a docs folder holding symlinks out of the project (system files,
//             an outside secret, a chain of links, a folder link), each engine: every link
//             out skipped and reported, no outside byte in any answer.
//   packs     a v1 cache with one byte of a pack flipped (seeded), with or without an edit
//             elsewhere: status never says current, `build --force` never carries the damage
//             (the cache verifies after it).
//   globs     the costliest globs the limits allow, cancelled at seeded moments: the next
//             request's answer time; over-limit globs are -32602; a pathological .gitignore
//             line is skipped and the build goes on.

import { appendFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOrThrow, verifies } from './builds.js';
import { minimalEnv, runContext } from './child.js';
import { writeCorpus } from './corpus.js';
import type { Engine } from './engines.js';
import { buildArgs } from './engines.js';
import type { Report } from './figures.js';
import { thousands } from './figures.js';
import { startClient } from './mcp-client.js';
import type { WorkDir } from './workdir.js';

const SUITE = 'guards';
const SECRET = 'TOPSECRET-guards-5e1d';

export interface GuardOptions {
  readonly engines: readonly Engine[];
  /** Damaged-pack trials per kind (flip only; flip and an edit). */
  readonly packTrials: number;
  readonly documents: number;
  /** Cancellation trials with the costliest globs. */
  readonly cancelTrials: number;
  readonly seed: number;
}

/** A small seeded generator (mulberry32): the same trials every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every entry under `dir` (not following links) with its bytes or link target: "nothing touched". */
function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const r = `${rel}/${name}`;
      if (st.isDirectory()) {
        out.push(`${r}/`);
        walk(p, r);
      } else out.push(`${r} ${st.isSymbolicLink() ? 'link' : readFileSync(p).toString('base64')}`);
    }
  };
  walk(dir, '');
  return out.join('\n');
}

export async function guardsSoak(work: WorkDir, report: Report, options: GuardOptions): Promise<void> {
  await targets(work, report, options);
  await links(work, report, options);
  if (options.engines.includes('v1')) await packs(work, report, options);
  await globs(work, report, options);
}

async function targets(work: WorkDir, report: Report, options: GuardOptions): Promise<void> {
  const base = work.path('guards-targets');
  let tried = 0;
  let refused = 0;
  let touched = 0;
  let wrongCode = 0;
  const kinds: [string, (project: string) => string][] = [
    ['the working directory', () => '.'],
    ['the sources folder', () => 'docs'],
    ['a folder holding the sources', () => '..'],
    ['a folder of files', () => 'src'],
    ['a plain file', () => 'notes.txt'],
    ['a symlink to a folder', (p) => (symlinkSync(join(p, '..', 'elsewhere'), join(p, 'link')), 'link')],
    ['a folder with a foreign manifest.json', (p) => (mkdirSync(join(p, 'app')), writeFileSync(join(p, 'app', 'manifest.json'), '{"name":"app"}'), 'app')],
    // Issue 44: a manifest that looks like a cache's beside a note.
    ['a folder of notes with a look-alike manifest.json', (p) => (mkdirSync(join(p, 'notes')), writeFileSync(join(p, 'notes', 'manifest.json'), '{"cache_version":"x"}'), writeFileSync(join(p, 'notes', 'n.md'), 'a note\n'), 'notes')],
  ];
  let n = 0;
  for (const engine of options.engines) {
    for (const [, target] of kinds) {
      const root = join(base, `t${n++}`);
      const project = join(root, 'project');
      mkdirSync(join(project, 'docs'), { recursive: true });
      mkdirSync(join(project, 'src'));
      mkdirSync(join(root, 'elsewhere'));
      writeFileSync(join(project, 'docs', 'a.md'), '# A\n\nkeep me\n');
      writeFileSync(join(project, 'src', 'main.c'), 'int main(void) { return 0; }\n');
      writeFileSync(join(project, 'notes.txt'), 'notes\n');
      writeFileSync(join(root, 'elsewhere', 'keep.txt'), 'outside\n');
      const cache = target(project);
      const before = snapshot(root);
      const r = await runContext(buildArgs(engine, 'docs', cache, true), { cwd: project, env: minimalEnv(project), timeoutMs: 60_000 });
      tried++;
      if (r.code !== 0) refused++;
      if (r.code !== 0 && r.code !== 6) wrongCode++;
      if (snapshot(root) !== before) touched++;
    }
  }
  // Over MCP: names under the cache root that are not caches.
  const root = join(base, 'mcp');
  mkdirSync(join(root, 'project', 'docs'), { recursive: true });
  mkdirSync(join(root, 'caches', 'notes'), { recursive: true });
  mkdirSync(join(root, 'elsewhere', 'oc'), { recursive: true });
  writeFileSync(join(root, 'project', 'docs', 'a.md'), '# A\n\nalpha\n');
  writeFileSync(join(root, 'caches', 'notes', 'todo.txt'), 'my notes\n');
  writeFileSync(join(root, 'caches', 'file'), 'a file\n');
  mkdirSync(join(root, 'caches', 'lookalike'));
  writeFileSync(join(root, 'caches', 'lookalike', 'manifest.json'), '{"cache_version":"x"}');
  writeFileSync(join(root, 'caches', 'lookalike', 'n.md'), 'a note\n');
  writeFileSync(join(root, 'elsewhere', 'oc', 'manifest.json'), '{"cache_version":"sha256:00"}\n');
  symlinkSync(join(root, 'elsewhere', 'oc'), join(root, 'caches', 'linkout'));
  const before = snapshot(root);
  const client = startClient(['--cache-root', join(root, 'caches')], join(root, 'project'));
  await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
  let sentences = 0;
  let mcpTried = 0;
  for (const engine of options.engines) {
    for (const name of ['notes', 'file', 'linkout', 'lookalike']) {
      const r = await client.callTool('context.build', { sources: 'docs', cache: name, force: true, engine });
      mcpTried++;
      if (r.isError) refused++;
      if (/"message":"Something other than a cache has that name/.test(r.text) && !r.text.includes(root)) sentences++;
    }
  }
  await client.close();
  if (snapshot(root) !== before) touched++;
  tried += mcpTried;
  report.check(SUITE, refused === tried && touched === 0 && wrongCode === 0,
    `non-cache targets: ${tried} tries (CLI ${tried - mcpTried}: ${kinds.length} kinds × ${options.engines.length} engines; MCP ${mcpTried}): refused ${refused}, anything touched ${touched}, exit codes other than 6 ${wrongCode}`);
  report.check(SUITE, sentences === mcpTried, `MCP refusals with the fixed, path-free sentence: ${sentences} of ${mcpTried}`);
}

async function links(work: WorkDir, report: Report, options: GuardOptions): Promise<void> {
  const root = work.path('guards-links');
  const docs = join(root, 'project', 'docs');
  mkdirSync(docs, { recursive: true });
  mkdirSync(join(root, 'outside', 'dir'), { recursive: true });
  mkdirSync(join(root, 'caches'));
  writeFileSync(join(root, 'outside', 'secret.md'), `${SECRET} api key\n`);
  writeFileSync(join(root, 'outside', 'dir', 'x.md'), `${SECRET} in a folder\n`);
  writeFileSync(join(docs, 'inside.md'), '# Inside\n\nplain words\n');
  const out: [string, string][] = [
    ['passwd.md', '/etc/passwd'],
    ['env.md', '/proc/self/environ'],
    ['leak.md', '../../outside/secret.md'],
    ['abs.md', join(root, 'outside', 'secret.md')],
    ['chain.md', 'hop.lnk'], // -> hop.lnk (inside, not a document) -> outside
  ];
  for (const [name, target] of out) symlinkSync(target, join(docs, name));
  symlinkSync('../../outside/secret.md', join(docs, 'hop.lnk'));
  symlinkSync(join(root, 'outside', 'dir'), join(docs, 'folder')); // never entered
  const client = startClient(['--cache-root', join(root, 'caches')], join(root, 'project'));
  await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
  let reported = 0;
  let leaked = 0;
  let builds = 0;
  for (const engine of options.engines) {
    const b = await client.callTool('context.build', { sources: 'docs', cache: `links-${engine}`, engine });
    builds++;
    const skipped = b.isError ? [] : ((JSON.parse(b.text) as { skipped?: { path: string; reason: string }[] }).skipped ?? []);
    reported += skipped.filter((s) => s.reason === 'symlink leads outside the allowed roots').length;
    for (const q of ['topsecret api key', 'root bin bash', 'path home']) {
      const r = await client.callTool('context.resolve', { cache: `links-${engine}`, query: q, budget: 1_000_000 });
      if (r.text.includes(SECRET) || /root:[^:\n]*:0:0:/.test(r.text) || /PATH=/.test(r.text)) leaked++;
    }
  }
  await client.close();
  const expected = out.length * builds;
  report.check(SUITE, reported === expected && leaked === 0,
    `symlinks out over MCP: ${out.length} links out (system files, an outside secret, a chain) + a folder link, ${builds} engines: reported skipped ${reported} of ${expected}, answers with outside bytes ${leaked}`);
}

async function packs(work: WorkDir, report: Report, options: GuardOptions): Promise<void> {
  const base = work.path('guards-packs');
  const src = join(base, 'src');
  writeCorpus(src, { documents: options.documents, bytes: 600, seed: options.seed, marker: 'packsoak' });
  const next = random(options.seed);
  let trials = 0;
  let calledCurrent = 0;
  let carried = 0;
  let failedBuilds = 0;
  const times: number[] = [];
  for (const edit of [false, true]) {
    for (let i = 0; i < options.packTrials; i++) {
      const cache = join(base, `c-${edit ? 'edit' : 'flip'}-${i}`);
      await buildOrThrow('v1', src, cache, false, base);
      const names = readdirSync(join(cache, 'packs')).sort();
      const victim = join(cache, 'packs', names[Math.floor(next() * names.length)] as string);
      const bytes = readFileSync(victim);
      const at = Math.floor(next() * bytes.length);
      bytes[at] = (bytes[at] as number) ^ (1 + Math.floor(next() * 255));
      writeFileSync(victim, bytes);
      if (edit) {
        const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.md')).sort();
        appendFileSync(join(src, files[Math.floor(next() * files.length)] as string), `\nedited in trial ${i}\n`);
      }
      trials++;
      const status = await runContext(['status', '--cache', cache], { cwd: base, env: minimalEnv(base), timeoutMs: 120_000 });
      // A damaged head is cache_invalid (exit 5); damaged content: current false. Never current true.
      if (status.code === 0 && /"current":true/.test(status.stdout)) calledCurrent++;
      const r = await runContext(buildArgs('v1', src, cache, true), { cwd: base, env: minimalEnv(base), timeoutMs: 300_000 });
      times.push(r.ms);
      if (r.code !== 0) failedBuilds++;
      else if (!(await verifies(cache, base))) carried++;
    }
  }
  times.sort((a, b) => a - b);
  report.check(SUITE, calledCurrent === 0 && carried === 0 && failedBuilds === 0,
    `damaged packs under rebuild: ${trials} trials (${options.packTrials} a byte flipped, ${options.packTrials} flipped + an edit elsewhere; ${thousands(options.documents)} documents): status said current ${calledCurrent}, rebuilds failing ${failedBuilds}, caches failing verify after the rebuild ${carried}`);
  report.measure(SUITE, `rebuild after damage: median ${thousands(times[Math.floor(times.length / 2)] ?? 0)} ms (a full build: the damaged cache is never copied from)`);
}

async function globs(work: WorkDir, report: Report, options: GuardOptions): Promise<void> {
  const root = work.path('guards-globs');
  const docs = join(root, 'project', 'docs');
  mkdirSync(docs, { recursive: true });
  mkdirSync(join(root, 'caches'));
  writeFileSync(join(docs, 'a.md'), '# A\n\nalpha\n');
  // The documented limits (docs/sources.md "Limits"; the suite runs the built CLI, not lib/).
  const MAX_GLOBS = 64;
  const MAX_GLOB_BYTES = 1024;
  const half = Math.floor((MAX_GLOB_BYTES - 2) / 2);
  const hostile = Array.from({ length: MAX_GLOBS }, (_, i) => '{'.repeat(half) + String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + ((i / 26) | 0)) + '}'.repeat(half));
  const next = random(options.seed + 1);
  const client = startClient(['--cache-root', join(root, 'caches')], join(root, 'project'));
  await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
  const answers: number[] = [];
  for (let i = 0; i < options.cancelTrials; i++) {
    const started = client.callTool('context.build', { sources: 'docs', cache: `g${i}`, engine: 'v1', include: hostile, exclude: hostile });
    void started; // a cancelled request gets no reply
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.floor(next() * 400)));
    // The client numbers its requests 1 (initialize), then build, list_caches, build...: cancel this build.
    client.notify('notifications/cancelled', { requestId: i * 2 + 2 });
    const t0 = performance.now();
    await client.callTool('context.list_caches', {});
    answers.push(performance.now() - t0);
  }
  const over = [
    { include: Array.from({ length: MAX_GLOBS + 1 }, (_, i) => `d${i}/**`) },
    { exclude: ['x'.repeat(MAX_GLOB_BYTES + 1)] },
    { include: ['{'.repeat(25_000) + 'a' + '}'.repeat(25_000)] },
    { exclude: Array.from({ length: 10_000 }, () => '*') },
  ];
  let invalid = 0;
  for (const extra of over) {
    const r = await client.callTool('context.build', { sources: 'docs', cache: 'over', engine: 'v1', ...extra });
    if (/"code":-32602/.test(r.raw)) invalid++;
  }
  writeFileSync(join(docs, '.gitignore'), `drafts/\n${'a*'.repeat(100_000)}\n`);
  const ignored = await client.callTool('context.build', { sources: 'docs', cache: 'gitignore', engine: 'v1' });
  const closed = await client.close();
  const sorted = [...answers].sort((a, b) => a - b);
  const max = sorted[sorted.length - 1] ?? 0;
  report.check(SUITE, max < 250 && closed.code === 0,
    `cancelled builds compiling the costliest allowed globs (${MAX_GLOBS} × 2 of ${MAX_GLOB_BYTES} bytes, nested braces), ${answers.length} trials at seeded moments: next answer median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(0)} ms, max ${max.toFixed(0)} ms`);
  report.check(SUITE, invalid === over.length, `globs over the limits (count, length, a 50 KB brace glob, 10,000 globs): -32602 ${invalid} of ${over.length}`);
  report.check(SUITE, !ignored.isError && /line 2 is over 4096 characters: not applied/.test(ignored.text),
    `a 200,000-character .gitignore line: skipped and reported, the build went on: ${ignored.isError ? 'no' : 'yes'}`);
}
