// Checks issue 3 "A test drives the server with the official MCP TypeScript SDK client":
// the SDK (1.32.2, test-only) spawns `bin/context mcp`, connects (negotiating 2025-11-25),
// lists tools and calls each seed tool for a success and an error; its strict schemas accept
// every reply, nothing is warned, and the server's stderr stays empty. And issue 12 "The
// official SDK client test must validate structured results too": the SDK's callTool checks
// every structuredContent against the tool's outputSchema (with Ajv) — shown to be live by a
// stand-in tool whose answer breaks the real schema — and every tool is called once.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { main } from '../../lib/cli/main.js';
import { errorJson } from '../../lib/errors.js';
import { compact, parseJson } from '../../lib/json.js';
import { McpSession } from '../../lib/mcp/session.js';
import type { Tool } from '../../lib/mcp/tool.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { contextCommand, hostEnv, REPO } from './spawn-server.js';

const caches = join(REPO, 'conformance', 'mcp', 'caches');

async function cliStdout(argv: string[]): Promise<string> {
  let out = '';
  await main(argv, { stdout: (s) => void (out += s), stderr: () => {}, env: {}, cwd: REPO });
  return out;
}

async function connect(extra: string[] = [], cwd?: string, cacheRoot = caches): Promise<{ client: Client; stderr: () => string; transport: StdioClientTransport }> {
  const { command, args } = contextCommand(['mcp', '--cache-root', cacheRoot, ...extra]);
  const transport = new StdioClientTransport({ command, args, env: hostEnv(), stderr: 'pipe', ...(cwd === undefined ? {} : { cwd }) });
  let err = '';
  (transport.stderr as PassThrough | null)?.on('data', (b: Buffer) => {
    err += b.toString('utf8');
  });
  const client = new Client({ name: 'sdk-client-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, transport };
}

/** Records every warning the client side might print while `body` runs. */
async function noWarnings(t: Test, body: () => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const onWarning = (w: Error): void => void seen.push(`process warning: ${w.message}`);
  const { warn, error } = console;
  console.warn = (...a: unknown[]) => void seen.push(`console.warn: ${a.map(String).join(' ')}`);
  console.error = (...a: unknown[]) => void seen.push(`console.error: ${a.map(String).join(' ')}`);
  process.on('warning', onWarning);
  try {
    await body();
  } finally {
    console.warn = warn;
    console.error = error;
    process.off('warning', onWarning);
  }
  t.same(seen, [], 'no warnings');
}

type Text = { type: string; text: string };

t.test('connect, listTools, callTool for each seed tool: success and error', async (t) => {
  await noWarnings(t, async () => {
    const { client, stderr } = await connect();
    t.same(client.getServerVersion(), { name: 'context-engine', version: '0.1.0' }, 'serverInfo');
    t.ok(client.getServerCapabilities()?.tools, 'tools capability');
    await client.ping();

    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    t.same(names.slice(0, 3), ['context.resolve', 'context.list_caches', 'context.inspect_cache'], 'seed tools first');
    for (const tool of tools) t.equal(tool.inputSchema.type, 'object', `${tool.name}: inputSchema of type object`);

    const ok = await client.callTool({ name: 'context.resolve', arguments: { cache: 'realistic', query: 'deployment security', budget: 4000 } });
    const want = await cliStdout(['resolve', '--cache', join(caches, 'realistic'), '--query', 'deployment security', '--budget', '4000']);
    t.same(ok.content, [{ type: 'text', text: want }], 'resolve: the CLI stdout bytes');
    t.notOk(ok.isError, 'resolve: not an error');

    const missing = await client.callTool({ name: 'context.resolve', arguments: { cache: 'nope', query: 'x', budget: 1 } });
    t.equal(missing.isError, true, 'resolve error: isError');
    t.equal((missing.content as Text[])[0]?.text, errorJson('cache_missing') + '\n');
    const badBudget = await client.callTool({ name: 'context.resolve', arguments: { cache: 'minimal', query: 'x', budget: -1 } });
    t.equal((badBudget.content as Text[])[0]?.text, errorJson('invalid_budget') + '\n', 'invalid_budget');

    const list = await client.callTool({ name: 'context.list_caches', arguments: {} });
    const listWant = await cliStdout(['list-caches', '--root', caches]);
    t.equal((list.content as Text[])[0]?.text + '\n', listWant, 'list_caches: CLI stdout minus its newline');

    const inspect = await client.callTool({ name: 'context.inspect_cache', arguments: { cache: 'minimal' } });
    const inspectWant = await cliStdout(['inspect', '--cache', join(caches, 'minimal'), '--format', 'json']);
    t.equal((inspect.content as Text[])[0]?.text + '\n', inspectWant, 'inspect_cache: CLI stdout minus its newline');
    const inspectBad = await client.callTool({ name: 'context.inspect_cache', arguments: { cache: '../caches/minimal' } });
    t.equal(inspectBad.isError, true, 'inspect_cache traversal: isError');
    t.equal((inspectBad.content as Text[])[0]?.text, errorJson('cache_missing') + '\n');

    const underscore = await client.callTool({ name: 'context_inspect_cache', arguments: { cache: 'minimal' } });
    t.same(underscore.content, inspect.content, 'the underscore alias answers the same');

    await t.rejects(client.callTool({ name: 'no.such.tool', arguments: {} }), McpError, 'unknown tool: a JSON-RPC error');
    try {
      await client.callTool({ name: 'no.such.tool', arguments: {} });
    } catch (e) {
      t.equal((e as McpError).code, -32602, 'unknown tool is -32602');
    }
    await client.close();
    t.equal(stderr(), '', 'server stderr stayed empty');
  });
});

t.test('every tool through the SDK: structuredContent validated by the SDK, equal to the text', async (t) => {
  await noWarnings(t, async () => {
    const { client, stderr } = await connect();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      t.equal(tool.outputSchema?.type, 'object', `${tool.name}: an outputSchema the SDK will validate against`);
      t.type(tool.title, 'string', `${tool.name}: a title`);
      t.equal(tool.annotations?.readOnlyHint, tool.name !== 'context.build', `${tool.name}: readOnlyHint (false only for context.build)`);
      t.equal(tool.annotations?.openWorldHint, false, `${tool.name}: openWorldHint false`);
    }
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
      ['context.verify_workspace', { root: ws, in_path: 'stale/moved.md' }, true],
      ['context.list_contexts', { path: project }, false],
      ['context.check_freshness', { scope: 'src/core', path: project }, false],
      ['context.check_freshness', { scope: 'nowhere', path: project }, true],
      ['context.query_context', { scope: 'src/core', filter: ['summary'], path: project }, false],
      ['context.query_context', { scope: 'broken', path: project }, true],
      ['context.status', { cache: 'minimal' }, false],
      ['context.status', { cache: 'nope' }, true],
      // Writes nothing: refused before anything is built (sources outside the project root).
      ['context.build', { sources: '/', cache: 'never' }, true],
    ];
    const called = new Set<string>();
    for (const [name, args, isError] of calls) {
      // callTool throws if structuredContent is missing or breaks the outputSchema.
      const r = await client.callTool({ name, arguments: args });
      called.add(name);
      t.equal(r.isError === true, isError, `${name}: isError ${String(isError)}`);
      const text = (r.content as Text[])[0]?.text ?? '';
      t.same(r.structuredContent, parseJson(text), `${name}: structuredContent is the text's JSON value`);
    }
    t.same([...called].sort(), tools.map((x) => x.name).sort(), 'every advertised tool was called');
    await client.close();
    t.equal(stderr(), '', 'server stderr stayed empty');
  });
});

/** A client connected in memory to an in-process session over `tools`. */
async function connectInMemory(tools: readonly Tool[]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = new McpSession({ tools, context: { cacheRoot: '/nowhere', projectRoot: '/nowhere' }, toolNames: 'dotted', log: () => {} });
  serverSide.onmessage = (message: JSONRPCMessage) => {
    void session.handleLine({ kind: 'line', text: compact(message as never) }).then((reply) => {
      if (reply !== null) void serverSide.send(parseJson(reply) as JSONRPCMessage);
    });
  };
  await serverSide.start();
  const client = new Client({ name: 'sdk-client-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

t.test('the SDK rejects an answer that breaks the real outputSchema (its validation is live)', async (t) => {
  const resolve = TOOLS.find((x) => x.name === 'context.resolve') as Tool;
  const liar: Tool = { ...resolve, call: () => ({ text: '{"documents":"none"}\n', isError: false }) };
  const client = await connectInMemory([liar]);
  await client.listTools();
  await t.rejects(client.callTool({ name: 'context.resolve', arguments: {} }), /output schema/, 'callTool throws');
  const honest: Tool = { ...resolve, call: () => ({ text: '{"error":{"code":"io_error","message":"I/O error occurred"}}\n', isError: true }) };
  const other = await connectInMemory([honest]);
  await other.listTools();
  const r = await other.callTool({ name: 'context.resolve', arguments: {} });
  t.same(r.structuredContent, { error: { code: 'io_error', message: 'I/O error occurred' } }, 'a valid error object passes');
  await client.close();
  await other.close();
});

t.test('issue 12 item 2: the SDK builds a cache through context.build, with progress, then resolves it', async (t) => {
  const project = t.testdir({
    docs: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`doc${i}.md`, `# Doc ${i}\n\nrollback step ${i} of the deployment guide\n`])),
    caches: {},
  });
  await noWarnings(t, async () => {
    const { client, stderr } = await connect([], project, join(project, 'caches'));
    const { tools } = await client.listTools();
    const build = tools.find((x) => x.name === 'context.build');
    t.same(build?.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }, 'a tool that writes says so');
    const seen: { progress: number; total?: number | undefined; message?: string | undefined }[] = [];
    const built = await client.callTool({ name: 'context.build', arguments: { sources: 'docs', cache: 'guide' } }, undefined, {
      onprogress: (p) => void seen.push(p),
    });
    t.notOk(built.isError, 'built');
    const text = (built.content as Text[])[0]?.text ?? '';
    t.match(text, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":40,"engine":"v1","granularity":"section","tokenizer":"o200k_base",/, 'the text is what context build prints (the default engine: v1, sections, o200k_base)');
    t.same(built.structuredContent, parseJson(text), 'structured, validated by the SDK against the outputSchema');
    t.ok(seen.length >= 3, `${seen.length} progress notifications reached the SDK's onprogress`);
    t.ok(seen.every((p, i) => i === 0 || p.progress > (seen[i - 1]?.progress ?? 0)), 'progress only grows');
    // (The SDK may drop the last notifications when the reply overtakes their handlers; the
    // transcripts show every one, up to 100, before the reply.)
    t.ok(seen.every((p) => p.progress >= 0 && p.progress <= 100), 'on a 0..100 scale');
    t.ok(seen.every((p) => p.total === 100 && typeof p.message === 'string'), 'with total and a message');
    const cli = await cliStdout(['build', '--sources', join(project, 'docs'), '--cache', join(project, 'cli-cache')]);
    t.equal(text, cli, 'the same line the CLI prints for the same sources');
    const answer = await client.callTool({ name: 'context.resolve', arguments: { cache: 'guide', query: 'rollback', budget: 60 } });
    t.notOk(answer.isError, 'the new cache resolves');
    // The lean answer (issue 43): all 40 sections match; at 60 tokens the best are named as left out.
    const resolved = (answer.content as Text[])[0]?.text ?? '';
    t.match(resolved, /^\{"documents":\[.*\],"selection":\{"budget":60,"answer_tokens":\d+,"matched":40[,}]/);
    t.same(answer.structuredContent, parseJson(resolved), 'structured, validated by the SDK against the outputSchema (the lean branch)');
    const list = await client.callTool({ name: 'context.list_caches', arguments: {} });
    t.same(
      list.structuredContent,
      { caches: [{ path: 'guide', has_manifest: true, engine: 'v1', label: null, granularity: 'section', tokenizer: 'o200k_base', formats: { md: 40 }, document_count: 40 }] },
      'and is listed with what it holds (validated by the SDK against the outputSchema); no staging directory is left',
    );
    await client.close();
    t.equal(stderr(), '', 'server stderr stayed empty');
  });
});

t.test('--tool-names underscore: every advertised name suits strict hosts', async (t) => {
  await noWarnings(t, async () => {
    const { client } = await connect(['--tool-names', 'underscore']);
    const { tools } = await client.listTools();
    t.ok(tools.length >= 3);
    for (const tool of tools) t.match(tool.name, /^[a-zA-Z0-9_-]{1,64}$/, `${tool.name} matches ^[a-zA-Z0-9_-]{1,64}$`);
    const r = await client.callTool({ name: 'context_resolve', arguments: { cache: 'minimal', query: 'hello', budget: 100 } });
    t.notOk(r.isError, 'context_resolve answers');
    await client.close();
  });
});

// Issue "MCP 2026-07-28 beside the handshake eras", item 4: documents as resources in the
// handshake era too. The initialize result advertises only tools (its bytes are frozen);
// the 1.32 client does not check capabilities before a call by default, so it reads them.
t.test('resources in the handshake era: the SDK 1.32 client lists and reads documents', async (t) => {
  const { client, stderr } = await connect();
  const { resourceTemplates } = await client.listResourceTemplates();
  t.equal(resourceTemplates.length, 2, 'two templates');
  const { resources } = await client.listResources();
  t.ok(resources.some((r) => r.uri === 'context://minimal/hello.md'), 'a document listed');
  const read = await client.readResource({ uri: 'context://minimal/hello.md' });
  t.same(read.contents, [{ uri: 'context://minimal/hello.md', mimeType: 'text/markdown', text: 'Hello world' }], 'its exact text');
  await t.rejects(client.readResource({ uri: 'context://minimal/nope.md' }), { code: -32002 }, 'not found: -32002 in this era');
  await client.close();
  t.equal(stderr(), '', 'server stderr stayed empty');
});
