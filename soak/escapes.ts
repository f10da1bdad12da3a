// Escapes (issue 11 item 6): every path argument of every MCP tool — cache names, citation
// roots and paths, verified documents and the citations inside them, scope names and
// project paths — tried with `..`, absolute paths, symlinks out of the roots, NUL bytes,
// Windows separators and URL forms. Each must be refused, no answer may carry a secret
// from outside or an absolute path of this machine (beyond the caller's own argument), and
// a refused root must read the same whatever it names. A client's MCP roots replace the
// project root. The CLI, run by a person, takes any root (and never crashes on these).

import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOrThrow } from './builds.js';
import { DOCUMENTED_EXIT_CODES, hasStackTrace, minimalEnv, runContext } from './child.js';
import { writeCorpus } from './corpus.js';
import type { Report } from './figures.js';
import { startClient } from './mcp-client.js';
import type { WorkDir } from './workdir.js';

const SUITE = 'escapes';
const SECRET = 'TOPSECRET-7f3a19';
const PASSWD_CONTENT = /root:[^:\n]*:0:0:/;

export async function escapesSoak(work: WorkDir, report: Report, options: { cliPayloads: number }): Promise<void> {
  const base = work.path('escapes');
  const project = join(base, 'project');
  const outside = join(base, 'outside');
  const caches = join(base, 'caches');
  mkdirSync(join(project, 'docs'), { recursive: true });
  mkdirSync(join(outside, 'sub'), { recursive: true });
  mkdirSync(caches);
  writeFileSync(join(project, 'README.md'), '# Project\n\ndeployment notes\n');
  writeFileSync(join(project, 'docs', 'a.md'), 'See [[vctx-exists-file:README.md]].\n');
  writeFileSync(join(outside, 'secret.md'), `${SECRET}\n`);
  writeFileSync(join(outside, 'sub', '.context.yaml'), `version: 1\nscope: sub\nsummary: ${SECRET}\n`);
  writeCorpus(join(base, 'outside-src'), { documents: 3, bytes: 200, seed: 61, marker: SECRET.toLowerCase() });
  await buildOrThrow('v0', join(base, 'outside-src'), join(outside, 'cache'), false, base);
  writeCorpus(join(base, 'src'), { documents: 5, bytes: 200, seed: 62, marker: 'insidecorpus' });
  await buildOrThrow('v0', join(base, 'src'), join(caches, 'docs'), false, base);
  symlinkSync(outside, join(project, 'out-link'));
  symlinkSync(join(outside, 'secret.md'), join(project, 'secret-link.md'));
  symlinkSync(join(outside, 'cache'), join(caches, 'evil'));
  symlinkSync(join(outside, 'secret.md'), join(caches, 'evil-file'));

  const payloads = [
    '..', '../outside', '../outside/secret.md', '../../../../../../etc/passwd', outside, join(outside, 'secret.md'),
    join(outside, 'cache'), '/etc', '/etc/passwd', '/', '/root/.ssh/id_rsa', 'out-link', 'out-link/secret.md',
    'out-link/sub', 'secret-link.md', 'evil', 'evil-file', 'docs/../../outside', 'a\u0000b', 'docs/a.md\u0000.txt',
    '..\\outside', '..\\..\\..\\etc\\passwd', 'C:\\Windows\\System32', '\\\\server\\share\\x', 'file:///etc/passwd',
    '%2e%2e/outside', '....//outside', '~/.ssh/id_rsa', '$HOME',
  ];
  // Payloads that name something (existing or not) lexically inside the root: a claim never
  // reads, so it may turn them into a token; every other tool must still refuse them.
  const lexicallyInside = new Set(['out-link', 'out-link/secret.md', 'out-link/sub', 'secret-link.md', 'evil', 'evil-file', 'C:\\Windows\\System32', 'file:///etc/passwd', '%2e%2e/outside', '....//outside', '~/.ssh/id_rsa', '$HOME', 'docs/a.md\u0000.txt']);

  const calls: { tool: string; arg: string; make: (p: string) => Record<string, unknown>; rootLike: boolean }[] = [
    { tool: 'context.resolve', arg: 'cache', make: (p) => ({ cache: p, query: 'deployment', budget: 1000 }), rootLike: false },
    { tool: 'context.inspect_cache', arg: 'cache', make: (p) => ({ cache: p }), rootLike: false },
    { tool: 'context.cite', arg: 'root', make: (p) => ({ root: p, path: 'secret.md', start_line: 1, end_line: 1 }), rootLike: true },
    { tool: 'context.cite', arg: 'path', make: (p) => ({ root: '.', path: p, start_line: 1, end_line: 1 }), rootLike: false },
    { tool: 'context.claim', arg: 'root', make: (p) => ({ root: p, kind: 'exists', path: 'secret.md' }), rootLike: true },
    { tool: 'context.claim', arg: 'path', make: (p) => ({ root: '.', kind: 'exists', path: p }), rootLike: false },
    { tool: 'context.verify_workspace', arg: 'root', make: (p) => ({ root: p, in_path: 'secret.md' }), rootLike: true },
    { tool: 'context.verify_workspace', arg: 'in_path', make: (p) => ({ root: '.', in_path: p }), rootLike: false },
    { tool: 'context.verify_workspace', arg: 'text (citation)', make: (p) => ({ root: '.', text: `[[vctx:${p}#L1-L1@00000000]]` }), rootLike: false },
    { tool: 'context.verify_workspace', arg: 'text (claim)', make: (p) => ({ root: '.', text: `[[vctx-exists-file:${p}]]` }), rootLike: false },
    { tool: 'context.list_contexts', arg: 'path', make: (p) => ({ path: p }), rootLike: true },
    { tool: 'context.check_freshness', arg: 'path', make: (p) => ({ scope: '.', path: p }), rootLike: true },
    { tool: 'context.check_freshness', arg: 'scope', make: (p) => ({ scope: p }), rootLike: false },
    { tool: 'context.query_context', arg: 'path', make: (p) => ({ scope: 'sub', path: p }), rootLike: true },
    { tool: 'context.query_context', arg: 'scope', make: (p) => ({ scope: p }), rootLike: false },
    { tool: 'context.status', arg: 'cache', make: (p) => ({ cache: p, sources: 'docs' }), rootLike: false },
    { tool: 'context.status', arg: 'sources', make: (p) => ({ cache: 'docs', sources: p }), rootLike: false },
    // Refused before anything is read or written: no cache named 'escaped' ever appears.
    { tool: 'context.build', arg: 'sources', make: (p) => ({ sources: p, cache: 'escaped' }), rootLike: true },
  ];

  const client = startClient(['--cache-root', caches, '--project-root', project], base);
  await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
  let tried = 0;
  let accepted = 0;
  let leaked = 0;
  const notes: string[] = [];
  /** Each tool's distinct answers to outside roots: one per tool (build and status name the cause in their own sentence). */
  const refusals = new Map<string, Set<string>>();
  const acceptedNotes: string[] = [];
  for (const c of calls) {
    for (const p of payloads) {
      tried++;
      const answer = await client.callTool(c.tool, c.make(p));
      // The caller's own argument may be echoed back (a scope name); nothing else of ours.
      const scrubbed = answer.text.split(JSON.stringify(p).slice(1, -1)).join('').split(p).join('');
      const leak = scrubbed.includes(SECRET) || scrubbed.includes(SECRET.toLowerCase()) || PASSWD_CONTENT.test(scrubbed) || scrubbed.includes(base);
      if (leak) {
        leaked++;
        if (notes.length < 3) notes.push(`${c.tool} ${c.arg}=${JSON.stringify(p)}: ${answer.text.slice(0, 120)}`);
      }
      const claimMayAccept = c.tool === 'context.claim' && lexicallyInside.has(p);
      if (!answer.isError && !claimMayAccept) {
        accepted++;
        if (acceptedNotes.length < 3) acceptedNotes.push(`${c.tool} ${c.arg}=${JSON.stringify(p)}`);
      }
      if (c.rootLike && !lexicallyInside.has(p)) refusals.set(c.tool, (refusals.get(c.tool) ?? new Set<string>()).add(answer.text));
    }
  }
  report.check(SUITE, accepted === 0, `MCP: ${tried} tool calls (${calls.length} path arguments of ${new Set(calls.map((c) => c.tool)).size} tools × ${payloads.length} escapes: .., absolute, symlinks out, NUL, Windows separators, URLs): accepted ${accepted}${acceptedNotes.length > 0 ? ` (${acceptedNotes.join('; ')})` : ''}`);
  report.check(SUITE, !existsSync(join(caches, 'escaped')), `MCP: context.build with those sources wrote a cache: ${existsSync(join(caches, 'escaped')) ? 'yes' : 'no'}`);
  report.check(SUITE, leaked === 0, `MCP: answers carrying outside content or an absolute path of this machine: ${leaked}${notes.length > 0 ? ` (${notes.join(' | ')})` : ''}`);
  const most = Math.max(0, ...[...refusals.values()].map((set) => set.size));
  report.check(SUITE, most === 1, `MCP: distinct answers to a root or project path outside the allowed roots, per tool: at most ${most} (one: the refusal tells nothing about what it names)`);
  const closed = await client.close();
  report.check(SUITE, closed.code === 0 && closed.stderr === '', `MCP: server exit ${closed.code ?? '?'} after those calls, stderr bytes ${closed.stderr.length}`);

  // A client offering MCP roots: its roots replace the project root.
  const elsewhere = join(base, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'b.md'), 'b\n');
  const rooted = startClient(['--cache-root', caches, '--project-root', project], base, (method) =>
    method === 'roots/list' ? { roots: [{ uri: pathToFileURL(elsewhere).href, name: 'elsewhere' }] } : {},
  );
  await rooted.request('initialize', { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'soak', version: '1' } });
  rooted.notify('notifications/initialized');
  await rooted.request('ping', {}); // the roots/list exchange happens before this is answered
  const inRoot = await rooted.callTool('context.claim', { root: elsewhere, kind: 'exists-file', path: 'b.md' });
  const dotRoot = await rooted.callTool('context.cite', { root: '.', path: 'b.md', start_line: 1, end_line: 1 });
  const oldRoot = await rooted.callTool('context.claim', { root: project, kind: 'exists-file', path: 'README.md' });
  await rooted.close();
  report.check(
    SUITE,
    !inRoot.isError && !dotRoot.isError && oldRoot.isError && oldRoot.text.includes('root_not_allowed'),
    `MCP roots: the client's root served (${inRoot.isError ? 'refused' : 'ok'}), "." is that root (${dotRoot.isError ? 'refused' : 'ok'}), the project root then refused (${oldRoot.isError ? 'refused' : 'served'})`,
  );

  // The CLI: a person may name any root; the same escapes never crash it.
  const cli = await runContext(['claim', '--root', outside, '--kind', 'exists-file', '--path', 'secret.md'], { cwd: project, env: minimalEnv(base) });
  const cite = await runContext(['cite', '--root', outside, '--path', 'secret.md', '--start-line', '1', '--end-line', '1'], { cwd: project, env: minimalEnv(base) });
  report.check(SUITE, cli.code === 0 && cite.code === 0, `CLI: claim and cite with --root outside the working directory: exit ${cli.code ?? '?'} and ${cite.code ?? '?'} (a person may take any root)`);
  const flags: string[][] = [
    ['resolve', '--cache', '{}', '--query', 'x', '--budget', '10'],
    ['inspect', '--cache', '{}'],
    ['verify', '--cache', '{}'],
    ['list-caches', '--root', '{}'],
    ['cite', '--root', '.', '--path', '{}', '--start-line', '1', '--end-line', '1'],
    ['claim', '--root', '.', '--kind', 'exists', '--path', '{}'],
    ['verify-claims', '--root', '.', '--in-path', '{}'],
    ['scopes', '--root', '{}'],
    ['freshness', '--scope', '{}'],
    ['show', '--scope', '{}'],
  ];
  let runs = 0;
  let bad = 0;
  const badNotes: string[] = [];
  const cliPayloads = payloads.filter((p) => !p.includes('\u0000')).slice(0, options.cliPayloads); // argv cannot carry a NUL byte
  for (const f of flags) {
    for (const p of cliPayloads) {
      const r = await runContext(f.map((a) => (a === '{}' ? p : a)), { cwd: project, env: minimalEnv(base), timeoutMs: 60_000 });
      runs++;
      if (r.timedOut || r.code === null || !DOCUMENTED_EXIT_CODES.has(r.code) || hasStackTrace(r.stderr)) {
        bad++;
        if (badNotes.length < 3) badNotes.push(`${f[0] ?? ''} ${JSON.stringify(p)}: exit ${r.code ?? r.signal ?? '?'} ${r.stderr.slice(0, 100)}`);
      }
    }
  }
  report.check(SUITE, bad === 0, `CLI: ${runs} runs (10 commands × their path flag × ${cliPayloads.length} escapes): crashes, hangs or undocumented exit codes ${bad}${badNotes.length > 0 ? ` (${badNotes.join(' | ')})` : ''}`);
}
