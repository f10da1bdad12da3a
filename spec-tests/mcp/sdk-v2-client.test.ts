// Checks "Tested as hosts will use it" (issue: MCP 2026-07-28 beside the handshake eras): the
// official TypeScript SDK v2 client (@modelcontextprotocol/client 2.4.0, test-only), pinned to
// protocol 2026-07-28, spawns `bin/context mcp`, discovers it and calls every tool and every
// resource method without ever sending `initialize`; the SDK validates each structuredContent
// against the advertised outputSchema, and the structured-content rules of the handshake era
// hold (content[0].text is the whole answer, structuredContent equals it parsed). The SDK 1.32
// handshake test (sdk-client.test.ts) stays beside it.
import t from 'tap';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { main } from '../../lib/cli/main.js';
import { parseJson } from '../../lib/json.js';
import { contextCommand, hostEnv, REPO } from './spawn-server.js';

const caches = join(REPO, 'conformance', 'mcp', 'caches');
const v1Caches = join(REPO, 'conformance', 'mcp', 'v1', 'caches');

type Text = { type: string; text: string };

async function cliStdout(argv: string[]): Promise<string> {
  let out = '';
  await main(argv, { stdout: (s) => void (out += s), stderr: () => {}, env: {}, cwd: REPO });
  return out;
}

async function connect(cacheRoot: string): Promise<{ client: Client; stderr: () => string; methods: string[] }> {
  const { command, args } = contextCommand(['mcp', '--cache-root', cacheRoot]);
  const transport = new StdioClientTransport({ command, args, env: hostEnv(), stderr: 'pipe' });
  let err = '';
  (transport.stderr as PassThrough | null)?.on('data', (b: Buffer) => {
    err += b.toString('utf8');
  });
  // Every message the client writes, by method: the test proves no initialize goes out.
  const methods: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    if ('method' in message) methods.push(message.method);
    return send(message);
  };
  const client = new Client({ name: 'sdk-v2-client-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return { client, stderr: () => err, methods };
}

t.test('SDK v2 in 2026-07-28 mode: discover, every tool, no initialize', async (t) => {
  const { client, stderr, methods } = await connect(caches);
  t.equal(client.getProtocolEra(), 'modern', 'the SDK took the server for a 2026-07-28 (modern) server');
  t.equal(client.getNegotiatedProtocolVersion(), '2026-07-28', 'negotiated 2026-07-28');
  t.same(client.getServerVersion(), { name: 'context-engine', version: '0.1.0' }, 'serverInfo from server/discover');
  const discovered = await client.discover();
  t.same(discovered.supportedVersions, ['2026-07-28'], 'supportedVersions');
  t.ok(discovered.capabilities.tools && discovered.capabilities.resources, 'tools and resources capabilities');
  t.type(discovered.instructions, 'string', 'instructions');

  const { tools } = await client.listTools();
  const first = tools.map((x) => x.name);
  const again = (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((x) => x.name);
  t.same(again, first, 'tools/list: the same order every time');
  const ws = join(REPO, 'conformance', 'citations', 'ws');
  const project = join(REPO, 'conformance', 'scopes', 'project');
  const calls: [string, Record<string, unknown>, boolean][] = [
    ['context.resolve', { cache: 'realistic', query: 'deployment', budget: 4000 }, false],
    ['context.resolve', { cache: 'nope', query: 'x', budget: 1 }, true],
    ['context.list_caches', {}, false],
    ['context.inspect_cache', { cache: 'minimal' }, false],
    ['context.inspect_cache', { cache: '../x' }, true],
    ['context.cite', { root: ws, path: 'src/calc.py', start_line: 1, end_line: 2 }, false],
    ['context.cite', { root: ws, path: 'src/calc.py', start_line: 0, end_line: 2 }, true],
    ['context.claim', { root: ws, kind: 'exists-file', path: 'src/calc.py' }, false],
    ['context.verify_workspace', { root: ws, in_path: 'docs' }, false],
    ['context.list_contexts', { path: project }, false],
    ['context.check_freshness', { scope: 'src/core', path: project }, false],
    ['context.query_context', { scope: 'src/core', filter: ['summary'], path: project }, false],
    ['context.status', { cache: 'minimal' }, false],
    ['context.build', { sources: '/', cache: 'never' }, true],
  ];
  const called = new Set<string>();
  for (const [name, args, isError] of calls) {
    const r = await client.callTool({ name, arguments: args });
    called.add(name);
    t.equal(r.isError === true, isError, `${name}: isError ${String(isError)}`);
    const text = (r.content as Text[])[0]?.text ?? '';
    t.same(r.structuredContent, parseJson(text), `${name}: structuredContent is the text's JSON value`);
  }
  t.same([...called].sort(), [...first].sort(), 'every advertised tool was called');
  const ok = await client.callTool({ name: 'context.resolve', arguments: { cache: 'realistic', query: 'deployment security', budget: 4000 } });
  const want = await cliStdout(['resolve', '--cache', join(caches, 'realistic'), '--query', 'deployment security', '--budget', '4000']);
  t.equal((ok.content as Text[])[0]?.text, want, 'resolve: the CLI stdout bytes, trailing newline included');

  t.notOk(methods.includes('initialize'), 'no initialize was sent');
  t.notOk(methods.includes('notifications/initialized'), 'no notifications/initialized was sent');
  t.ok(methods.includes('server/discover'), 'server/discover was sent');
  await client.close();
  t.equal(stderr(), '', 'server stderr stayed empty');
});

t.test('SDK v2 in 2026-07-28 mode: templates, paging and reading resources', async (t) => {
  const { client, stderr } = await connect(v1Caches);
  const { resourceTemplates } = await client.listResourceTemplates();
  t.same(resourceTemplates.map((x) => x.uriTemplate), ['context://{cache}/{+path}', 'context://{cache}/{+path}{#slug}'], 'two templates');
  const uris: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    for (const r of page.resources) uris.push(r.uri);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  t.ok(uris.includes('context://v1_sections/guides/deployment.md'), 'documents listed');
  const r = await client.callTool({ name: 'context.resolve', arguments: { cache: 'v1_sections', query: 'deployment', budget: 4000 } });
  const answer = parseJson((r.content as Text[])[0]?.text ?? '') as { documents: { id: string; content: string }[] };
  t.ok(answer.documents.length > 0, 'resolve selected sections');
  for (const d of answer.documents) {
    const [path, slug] = d.id.split('#') as [string, string | undefined];
    const uri = `context://v1_sections/${path}#${slug ?? ''}`;
    const read = await client.readResource({ uri });
    t.same(read.contents, [{ uri, mimeType: 'text/markdown', text: d.content }], `${d.id}: resources/read gives resolve's bytes`);
  }
  await t.rejects(client.readResource({ uri: 'context://v1_sections/nope.md' }), 'a missing document is an error');
  await client.close();
  t.equal(stderr(), '', 'server stderr stayed empty');
});
