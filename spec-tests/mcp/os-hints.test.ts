// Checks issue 44 item 4 over MCP: a failed call whose cause the OS reported carries, after
// the unchanged error object (content[0], the source of structuredContent), a hint naming the
// operation, the folder (by its role and the name the agent gave: never a path of the machine
// or an OS code) and the next step. Before, such failures said only "I/O error occurred" (or,
// for build and status, one sentence for every OS failure).
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { compact, parseJson } from '../../lib/json.js';
import { McpSession } from '../../lib/mcp/session.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { failing } from '../cli/fs-faults.js';

type Result = { content: { text: string }[]; isError?: boolean; structuredContent: unknown };

function session(root: string): (name: string, args: Record<string, unknown>) => Promise<Result> {
  const s = new McpSession({
    tools: TOOLS,
    context: { cacheRoot: join(root, 'caches'), projectRoot: join(root, 'project'), timestamp: () => '2026-01-01T00:00:00Z' },
    toolNames: 'dotted',
    log: () => {},
  });
  let id = 0;
  return async (name, args) => {
    const line = await s.handleLine({
      kind: 'line',
      text: compact({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } } as never),
    });
    return (parseJson(line ?? '') as { result: Result }).result;
  };
}

/** Every hint: a sentence, no absolute path, no OS code, no stack. */
function pathFree(t: Test, hint: string | undefined, root: string): void {
  t.match(hint, /^Could not [a-z ]+ the (cache|cache root|sources folder)[^:]*: [^;]+; .+\.$/, 'operation, folder: cause; next step.');
  t.notMatch(hint, root, 'no path of the machine');
  t.notMatch(hint, /(^|[\s(])\/[A-Za-z]|\bE[A-Z]{3,}\b|\bat .+:\d+/, 'no absolute path, OS code or stack');
}

t.test('context.list_caches on a missing cache root: the canonical error, then what to do', async (t) => {
  const root = t.testdir({ project: {} });
  const r = await session(root)('context.list_caches', {});
  t.equal(r.isError, true);
  t.equal(r.content[0]?.text, '{"error":{"code":"io_error","message":"I/O error occurred"}}\n', 'the error object as ever');
  t.same(r.structuredContent, parseJson(r.content[0]?.text ?? ''), 'structuredContent is content[0] parsed');
  t.equal(r.content[1]?.text, 'Could not list the cache root: it does not exist; build a cache with context.build first, or start the server with a --cache-root that exists.');
  pathFree(t, r.content[1]?.text, root);
});

for (const engine of ['v0', 'v1']) {
  t.test(`${engine}: context.build on a full disk names the cache and says to free space`, async (t) => {
    const root = t.testdir({ project: { docs: { 'a.md': '# A\nalpha\n' } }, caches: {} });
    const call = session(root);
    const r = await failing(['writeFileSync', 'writevSync'], 'ENOSPC', 'caches', () => call('context.build', { sources: 'docs', cache: 'docs', engine }));
    t.equal(r.isError, true);
    t.same(parseJson(r.content[0]?.text ?? ''), { error: { code: 'io_error', message: 'The build could not read its sources or write the cache; check the folders\' permissions and free space, then call again' } }, 'the advised error object as ever');
    t.match(r.content[1]?.text, /^Could not write the cache "docs"( \(a file inside it\))?: no space left on the device; free space on the disk holding the cache root, then call again\.$/);
    pathFree(t, r.content[1]?.text, root);
  });

  t.test(`${engine}: context.build with a source it may not read names the sources as given`, async (t) => {
    const root = t.testdir({ project: { docs: { 'a.md': '# A\nalpha\n', 'secret.md': '# S\n' } }, caches: {} });
    const call = session(root);
    const r = await failing(['openSync'], 'EACCES', 'secret.md', () => call('context.build', { sources: 'docs', cache: 'docs', engine }));
    t.equal(r.content[1]?.text, 'Could not read the sources folder "docs" (a file inside it): permission denied; make the sources folder readable by the user the server runs as, then call again.');
    pathFree(t, r.content[1]?.text, root);
  });
}

t.test('context.resolve and context.status on a cache whose pack may not be read', async (t) => {
  const root = t.testdir({ project: { docs: { 'a.md': '# A\nalpha\n' } }, caches: {} });
  const call = session(root);
  t.equal((await call('context.build', { sources: 'docs', cache: 'c' })).isError, undefined, 'built');
  const r = await failing(['openSync'], 'EACCES', '.pack', () => call('context.resolve', { cache: 'c', query: 'alpha', budget: 100 }));
  t.equal(r.content[0]?.text, '{"error":{"code":"io_error","message":"I/O error occurred"}}\n');
  t.equal(r.content[1]?.text, 'Could not read the cache "c" (a file inside it): permission denied; make the cache root readable by the user the server runs as, then call again.');
  pathFree(t, r.content[1]?.text, root);
  const s = await failing(['openSync'], 'EACCES', 'a.md', () => call('context.status', { cache: 'c' }));
  t.same(parseJson(s.content[0]?.text ?? ''), { error: { code: 'io_error', message: 'The cache or its sources could not be read; check the folders\' permissions, then call again' } });
  t.equal(s.content[1]?.text, 'Could not read the sources folder "docs" (a file inside it): permission denied; make the sources folder readable by the user the server runs as, then call again.');
  const ok = await call('context.resolve', { cache: 'c', query: 'alpha', budget: 100 });
  t.equal(ok.content.length, 1, 'a success: the answer only');
});
