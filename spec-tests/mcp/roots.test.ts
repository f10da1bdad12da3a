// Checks issue 11 item 6 "Escapes" for the MCP server: citation and scope tools read only
// under the project root (--project-root, default the working directory) or, once a client
// that declared the `roots` capability answers roots/list, under its roots; any `root` or
// `path` outside is refused with the typed root_not_allowed error, the same bytes whatever
// it names (no existence oracle), including `..`, absolute paths, symlinks out, NUL bytes
// and Windows separators.
import t, { type Test } from 'tap';
import { ROOT_HINT } from '../../lib/mcp/tools/failure-hints.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compact, type Json } from '../../lib/json.js';
import { RootPolicy } from '../../lib/mcp/root-policy.js';
import { McpSession } from '../../lib/mcp/session.js';
import type { ToolContext } from '../../lib/mcp/tool.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { contextCommand, hostEnv } from './spawn-server.js';

const REFUSED = '{"error":{"code":"root_not_allowed","message":"Root is outside the roots this server may read"}}\n';

/** project/ (the allowed root) beside outside/ (a secret), with symlinks leading out. */
function world(t: Test): { dir: string; project: string; outside: string } {
  const dir = t.testdir({
    project: { 'README.md': 'hello\n', docs: { 'a.md': 'See [[vctx-exists-file:README.md]]\n' }, src: { 'x.ts': 'x\n' } },
    outside: { 'secret.md': 'TOPSECRET\n', sub: { 'b.md': 'b\n' } },
    other: { 'c.md': 'c\n' },
  });
  symlinkSync(join(dir, 'outside'), join(dir, 'project', 'out-link'));
  symlinkSync(join(dir, 'outside', 'secret.md'), join(dir, 'project', 'secret-link.md'));
  return { dir, project: join(dir, 'project'), outside: join(dir, 'outside') };
}

const tool = (name: string) => {
  const found = TOOLS.find((x) => x.name === name);
  if (found === undefined) throw new Error(name);
  return found;
};

t.test('RootPolicy.confine: inside the project root only, on real paths', async (t) => {
  const { dir, project, outside } = world(t);
  const policy = new RootPolicy(project);
  for (const ok of ['.', 'docs', 'docs/../src', join(project, 'src'), 'missing/deeper', './']) {
    t.not(policy.confine(ok), null, `allowed: ${ok}`);
  }
  for (const bad of ['..', '../outside', outside, '/', '/etc', 'out-link', 'out-link/sub', 'out-link/missing', 'a\0b', '..\\outside', 'docs\\..\\..', 'x\\y/../../..', join(dir, 'other')]) {
    t.equal(policy.confine(bad), null, `refused: ${JSON.stringify(bad)}`);
  }
  t.equal(policy.base, project);
});

t.test('every workspace tool refuses a root or path outside, with the same bytes whatever it names', async (t) => {
  const { project, outside } = world(t);
  const ctx: ToolContext = { cacheRoot: '/nonexistent', projectRoot: project, roots: new RootPolicy(project) };
  const outsides = ['..', outside, join(outside, 'missing'), '/root/.ssh', '/nonexistent', 'out-link', '..\\..', 'a\0b'];
  const calls: [string, (v: string) => Record<string, unknown>][] = [
    ['context.cite', (v) => ({ root: v, path: 'secret.md', start_line: 1, end_line: 1 })],
    ['context.claim', (v) => ({ root: v, kind: 'exists-file', path: 'secret.md' })],
    ['context.verify_workspace', (v) => ({ root: v, in_path: 'secret.md' })],
    ['context.list_contexts', (v) => ({ path: v })],
    ['context.check_freshness', (v) => ({ scope: '.', path: v })],
    ['context.query_context', (v) => ({ scope: '.', path: v })],
  ];
  for (const [name, args] of calls) {
    for (const v of outsides) {
      // The same bytes whatever it names, and the same fixed next-step sentence (failure-hints.ts).
      t.same(await tool(name).call(args(v), ctx), { text: REFUSED, isError: true, hint: ROOT_HINT }, `${name} ${JSON.stringify(v)}`);
    }
    const inside = await tool(name).call(args('.'), ctx);
    t.not(inside.text, REFUSED, `${name} ".": served`);
  }
});

t.test('inside the root, paths that leave it are refused by each tool\'s own rules; nothing outside is read', async (t) => {
  const { project } = world(t);
  const ctx: ToolContext = { cacheRoot: '/nonexistent', projectRoot: project, roots: new RootPolicy(project) };
  const answers = [
    await tool('context.cite').call({ root: '.', path: 'out-link/secret.md', start_line: 1, end_line: 1 }, ctx),
    await tool('context.cite').call({ root: '.', path: 'secret-link.md', start_line: 1, end_line: 1 }, ctx),
    await tool('context.claim').call({ root: '.', kind: 'exists', path: '../outside/secret.md' }, ctx),
    await tool('context.verify_workspace').call({ root: '.', text: '[[vctx:../outside/secret.md#L1-L1@00000000]] [[vctx-exists:/etc/passwd]]' }, ctx),
    await tool('context.verify_workspace').call({ root: '.', in_path: 'out-link' }, ctx),
    await tool('context.check_freshness').call({ scope: 'out-link' }, ctx),
    await tool('context.query_context').call({ scope: '../outside' }, ctx),
  ];
  for (const a of answers) {
    t.equal(a.isError, true, a.text.slice(0, 80));
    t.notMatch(a.text, 'TOPSECRET', 'no outside content');
    t.notMatch(a.text, project, 'no absolute path');
  }
});

function rootsSession(project: string): { session: McpSession; ctx: ToolContext } {
  const ctx: ToolContext = { cacheRoot: '/nonexistent', projectRoot: project, roots: new RootPolicy(project) };
  return { session: new McpSession({ tools: TOOLS, context: ctx, toolNames: 'dotted', log: () => undefined }), ctx };
}
const line = (value: Json) => ({ kind: 'line' as const, text: compact(value) });
const initialize = (capabilities: Json) => line({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities } });
const initialized = line({ jsonrpc: '2.0', method: 'notifications/initialized' });
const claim = (id: number, root: string) =>
  line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'context.claim', arguments: { root, kind: 'exists-file', path: 'c.md' } } });

t.test('MCP roots: a client declaring the capability is asked roots/list; its roots then replace the project root', async (t) => {
  const { dir, project } = world(t);
  const { session, ctx } = rootsSession(project);
  await session.handleLine(initialize({ roots: { listChanged: true } }));
  t.equal(await session.handleLine(initialized), '{"jsonrpc":"2.0","id":"context-roots-1","method":"roots/list"}', 'asked after initialized');
  t.not((await session.handleLine(claim(1, join(dir, 'other')))) ?? '', '', 'answered meanwhile');
  t.match((await session.handleLine(claim(1, join(dir, 'other')))) ?? '', 'root_not_allowed', 'until the roots arrive: the project root only');
  const answer = line({ jsonrpc: '2.0', id: 'context-roots-1', result: { roots: [{ uri: pathToFileURL(join(dir, 'other')).href, name: 'other' }, { uri: 'https://example.com/x' }] } });
  t.equal(await session.handleLine(answer), null, 'a response gets no reply');
  t.same(ctx.roots?.allowed, [join(dir, 'other')], 'file:// roots taken, others ignored');
  t.equal(ctx.roots?.base, join(dir, 'other'), 'relative roots now start at the client\'s first root');
  t.match((await session.handleLine(claim(2, join(dir, 'other')))) ?? '', '"ok\\":true', 'the client root is served');
  t.match((await session.handleLine(claim(3, '.'))) ?? '', '"ok\\":true', '"." is the client root');
  t.match((await session.handleLine(claim(4, project))) ?? '', 'root_not_allowed', 'the project root is no longer offered');
  // list_changed: asked again; a second change while in flight is asked once it is answered.
  t.equal(await session.handleLine(line({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })), '{"jsonrpc":"2.0","id":"context-roots-2","method":"roots/list"}');
  t.equal(await session.handleLine(line({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })), null, 'one request in flight');
  const again = await session.handleLine(line({ jsonrpc: '2.0', id: 'context-roots-2', result: { roots: [{ uri: pathToFileURL(project).href }] } }));
  t.equal(again, '{"jsonrpc":"2.0","id":"context-roots-3","method":"roots/list"}', 'then asked again');
  t.same(ctx.roots?.allowed, [project]);
  // An error response or an empty list: the roots stay as they were.
  await session.handleLine(line({ jsonrpc: '2.0', id: 'context-roots-3', error: { code: -32601, message: 'no' } }));
  t.same(ctx.roots?.allowed, [project], 'error: unchanged');
  await session.handleLine(line({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }));
  await session.handleLine(line({ jsonrpc: '2.0', id: 'context-roots-4', result: { roots: [] } }));
  t.same(ctx.roots?.allowed, [project], 'empty: the project root');
  t.equal(await session.handleLine(line({ jsonrpc: '2.0', id: 'context-roots-99', result: { roots: [{ uri: pathToFileURL('/').href }] } })), null);
  t.same(ctx.roots?.allowed, [project], 'a response to no request of ours changes nothing');
});

t.test('MCP roots: a client without the capability is never asked', async (t) => {
  const { project } = world(t);
  const { session } = rootsSession(project);
  await session.handleLine(initialize({}));
  t.equal(await session.handleLine(initialized), null);
  t.equal(await session.handleLine(line({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })), null);
});

t.test('the spawned server: --project-root sets the allowed root, the working directory is the default', async (t) => {
  const { dir, project } = world(t);
  const lines = [
    initialize({}),
    line({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'context.claim', arguments: { root: '.', kind: 'exists-file', path: 'README.md' } } }),
    line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'context.claim', arguments: { root: '../outside', kind: 'exists-file', path: 'secret.md' } } }),
  ]
    .map((l) => l.text + '\n')
    .join('');
  const runIn = (cwd: string, args: string[]) => {
    const { command, args: argv } = contextCommand(['mcp', '--cache-root', join(dir, 'caches'), ...args]);
    const r = spawnSync(command, argv, { cwd, env: hostEnv(), input: lines, encoding: 'utf8' });
    return r.stdout.split('\n').filter((x) => x !== '');
  };
  const flagged = runIn(dir, ['--project-root', 'project']);
  t.match(flagged[1], '"ok\\":true', '--project-root project: README.md found');
  t.match(flagged[2], 'root_not_allowed', '../outside refused');
  const byCwd = runIn(project, []);
  t.match(byCwd[1], '"ok\\":true', 'default: the working directory');
  t.match(byCwd[2], 'root_not_allowed');
});
