// Checks the MCP lifecycle and tools/call of issue 3 on a session with stand-in tools:
// version negotiation, the pre-initialize gate, tool failures as isError results with the
// canonical error JSON + "\n" (seed 001), a crashing tool as internal_error (never a crash).
import t from 'tap';
import { ContextError } from '../../lib/errors.js';
import { compact, parseJson, type Json } from '../../lib/json.js';
import { PROTOCOL_VERSIONS, negotiateVersion } from '../../lib/mcp/protocol-version.js';
import { McpSession } from '../../lib/mcp/session.js';
import type { Tool } from '../../lib/mcp/tool.js';

// What every stand-in shares: a title, an open output schema, read-only annotations.
const meta = { title: 'Demo', outputSchema: { type: 'object' }, annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false } } as const;
const tools: Tool[] = [
  { name: 'demo.echo', description: 'echo', inputSchema: { type: 'object' }, ...meta, call: (args) => ({ text: compact({ said: String(args['say']) }), isError: false }) },
  { name: 'demo.async', description: 'async', inputSchema: { type: 'object' }, ...meta, call: async () => ({ text: '{"later":true}\n', isError: false }) },
  { name: 'demo.typed', description: 'typed failure', inputSchema: { type: 'object' }, ...meta, call: () => { throw new ContextError('io_error', '/secret/path'); } },
  { name: 'demo.crash', description: 'bug', inputSchema: { type: 'object' }, ...meta, call: () => { throw new TypeError('boom'); } },
];

function session(log: string[] = []): McpSession {
  return new McpSession({ tools, context: { cacheRoot: '/nowhere', projectRoot: '/nowhere' }, toolNames: 'dotted', log: (s) => log.push(s) });
}
const line = (text: string) => ({ kind: 'line' as const, text });
const init = (v: string) => line(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"${v}"}}`);
const call = (id: number, name: string, args: Json = {}) =>
  line(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${compact(args)}}}`);

t.test('version negotiation: echo a supported version, else the newest', async (t) => {
  t.same([...PROTOCOL_VERSIONS], ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  for (const v of PROTOCOL_VERSIONS) t.equal(negotiateVersion(v), v);
  t.equal(negotiateVersion('2026-07-28'), '2025-11-25');
  t.equal(negotiateVersion(''), '2025-11-25');
  const s = session();
  t.equal(s.protocolVersion, null, 'nothing negotiated before initialize');
  await s.handleLine(init('2025-03-26'));
  t.equal(s.protocolVersion, '2025-03-26');
});

t.test('tools are callable by dotted and underscore names; async tools are awaited', async (t) => {
  const s = session();
  await s.handleLine(init('2025-11-25'));
  const hi = '"content":[{"text":"{\\"said\\":\\"hi\\"}","type":"text"}],"structuredContent":{"said":"hi"}';
  t.equal(await s.handleLine(call(1, 'demo.echo', { say: 'hi' })), `{"jsonrpc":"2.0","id":1,"result":{${hi}}}`);
  t.equal(await s.handleLine(call(2, 'demo_echo', { say: 'hi' })), `{"jsonrpc":"2.0","id":2,"result":{${hi}}}`);
  t.equal(
    await s.handleLine(call(3, 'demo.async')),
    '{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"{\\"later\\":true}\\n","type":"text"}],"structuredContent":{"later":true}}}',
  );
});

t.test('issue 12: structuredContent, title, outputSchema, annotations only from 2025-06-18', async (t) => {
  for (const v of PROTOCOL_VERSIONS) {
    const s = session();
    await s.handleLine(init(v));
    const structured = v === '2025-06-18' || v === '2025-11-25';
    const listed = parseJson((await s.handleLine(line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))) ?? '') as {
      result: { tools: Record<string, unknown>[] };
    };
    const keys = structured ? ['annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title'] : ['description', 'inputSchema', 'name'];
    t.same(Object.keys(listed.result.tools[0] ?? {}), keys, `${v}: tool fields`);
    const echoed = await s.handleLine(call(2, 'demo.echo', { say: 'x' }));
    const plain = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"{\\"said\\":\\"x\\"}","type":"text"}]';
    t.equal(echoed, structured ? `${plain},"structuredContent":{"said":"x"}}}` : `${plain}}}`, `${v}: result fields`);
    const failed = parseJson((await s.handleLine(call(3, 'demo.typed'))) ?? '') as { result: Record<string, unknown> };
    if (structured) {
      t.same(failed.result['structuredContent'], { error: { code: 'io_error', message: 'I/O error occurred' } }, `${v}: an error is structured too`);
    } else {
      t.notOk('structuredContent' in failed.result, `${v}: no structuredContent`);
    }
  }
});

t.test('a thrown ContextError is an isError result: canonical JSON + newline, no detail', async (t) => {
  const s = session();
  await s.handleLine(init('2025-11-25'));
  const out = await s.handleLine(call(1, 'demo.typed'));
  t.equal(
    out,
    '{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"{\\"error\\":{\\"code\\":\\"io_error\\",\\"message\\":\\"I/O error occurred\\"}}\\n","type":"text"}],"isError":true,' +
      '"structuredContent":{"error":{"code":"io_error","message":"I/O error occurred"}}}}',
  );
  t.notMatch(out ?? '', /secret/, 'the detail never reaches the client');
});

t.test('a crashing tool is internal_error, logged to stderr, and the session goes on', async (t) => {
  const log: string[] = [];
  const s = session(log);
  await s.handleLine(init('2025-11-25'));
  const out = await s.handleLine(call(1, 'demo.crash'));
  const r = parseJson(out ?? '') as { result: { content: { text: string }[]; isError: boolean } };
  t.equal(r.result.content[0]?.text, '{"error":{"code":"internal_error","message":"Internal error"}}\n');
  t.equal(r.result.isError, true);
  t.match(log.join(''), /boom/, 'the diagnostic goes to the log (stderr)');
  t.equal(await s.handleLine(line('{"jsonrpc":"2.0","id":2,"method":"ping"}')), '{"jsonrpc":"2.0","id":2,"result":{}}');
});

t.test('tools/list advertises table order, names in the chosen style', async (t) => {
  const s = new McpSession({ tools, context: { cacheRoot: '/', projectRoot: '/' }, toolNames: 'underscore', log: () => {} });
  await s.handleLine(init('2025-11-25'));
  const out = parseJson((await s.handleLine(line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))) ?? '') as {
    result: { tools: { name: string }[] };
  };
  t.same(out.result.tools.map((x) => x.name), ['demo_echo', 'demo_async', 'demo_typed', 'demo_crash']);
  const echoed = parseJson((await s.handleLine(call(2, 'demo.echo', { say: 'x' }))) ?? '') as { result: { structuredContent: unknown } };
  t.same(echoed.result.structuredContent, { said: 'x' }, 'dotted still accepted');
});

t.test('oversize and undecodable lines are parse errors; blank lines are nothing', async (t) => {
  const s = session();
  const parse = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}';
  t.equal(await s.handleLine({ kind: 'oversize' }), parse);
  t.equal(await s.handleLine({ kind: 'invalid-utf8' }), parse);
  t.equal(await s.handleLine(line(' \t\r')), null);
});
