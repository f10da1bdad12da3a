// Checks the two protocol eras on one stream (issue: MCP 2026-07-28 beside the handshake
// eras, item 1; specification 2026-07-28 "Versioning" and "stdio: Backward Compatibility"):
// a request carrying `_meta` protocolVersion is served statelessly, every such result has
// resultType and serverInfo; an unsupported version is -32022 with the supported list and
// pins nothing; server/discover pins nothing, so initialize after it is served; mixing the
// eras on one connection gets a clear error; the stateless era sends no request of its own.
import t from 'tap';
import { compact, parseJson } from '../../lib/json.js';
import { McpSession } from '../../lib/mcp/session.js';
import { RootPolicy } from '../../lib/mcp/root-policy.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { roots: {} } };
const INIT = { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 't', version: '1' } };

function session(): (message: object) => Promise<string[]> {
  const s = new McpSession({ tools: TOOLS, context: { cacheRoot: '/nowhere', projectRoot: '/', roots: new RootPolicy('/') }, toolNames: 'dotted', log: () => {} });
  return async (message) => ((await s.handleLine({ kind: 'line', text: compact(message as never) })) ?? '').split('\n').filter((l) => l !== '');
}

const req = (id: number, method: string, params: object = {}): object => ({ jsonrpc: '2.0', id, method, params });
const withMeta = (params: object = {}, meta: object = META): object => ({ ...params, _meta: meta });

t.test('stateless results: resultType and serverInfo; caching hints on lists', async (t) => {
  const send = session();
  for (const [method, params] of [['server/discover', {}], ['tools/list', {}], ['tools/call', { name: 'context.list_caches', arguments: {} }], ['resources/templates/list', {}], ['resources/list', {}]] as const) {
    const [line] = await send(req(1, method, withMeta(params)));
    const result = (parseJson(line ?? '') as { result: Record<string, unknown> }).result;
    t.equal(result['resultType'], 'complete', `${method}: resultType`);
    t.same(result['_meta'], { 'io.modelcontextprotocol/serverInfo': { name: 'context-engine', version: '0.1.0' } }, `${method}: serverInfo in _meta`);
    if (method !== 'tools/call') t.ok(typeof result['ttlMs'] === 'number' && (result['ttlMs'] as number) >= 0 && ['public', 'private'].includes(result['cacheScope'] as string), `${method}: ttlMs >= 0 and cacheScope`);
  }
});

t.test('-32022 names the supported versions and pins nothing', async (t) => {
  const send = session();
  const [line] = await send(req(1, 'tools/list', withMeta({}, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' })));
  t.same(parseJson(line ?? ''), { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2099-01-01' } } });
  const [init] = await send(req(2, 'initialize', INIT));
  t.match(init, /"protocolVersion":"2025-11-25"/, 'the connection is still open to the handshake');
});

t.test('server/discover then initialize (a known host bug): served in the handshake era', async (t) => {
  const send = session();
  t.match((await send(req(1, 'server/discover', withMeta())))[0], /"supportedVersions":\["2026-07-28"\]/);
  t.match((await send(req(2, 'initialize', INIT)))[0], /"result":\{"capabilities":\{"tools":\{\}\},"protocolVersion":"2025-11-25"/, 'initialize answered as before');
  const after = await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  t.match(after[0], /"method":"roots\/list"/, 'the handshake era asks roots/list of a roots-capable client');
  t.match((await send(req(3, 'tools/list', withMeta())))[0], /"code":-32600,"message":"Invalid Request: this connection opened with initialize/, 'mixing: a clear -32600');
});

t.test('stateless first: initialize is refused with -32022; no request of the server\'s own', async (t) => {
  const send = session();
  t.match((await send(req(1, 'tools/list', withMeta())))[0], /"tools":/);
  const [init] = await send(req(2, 'initialize', INIT));
  t.match(init, /"code":-32022,"data":\{"requested":"2025-11-25","supported":\["2026-07-28"\]\},"message":"Unsupported protocol version: this connection already serves 2026-07-28/, 'initialize refused, naming the versions');
  t.same(await send({ jsonrpc: '2.0', method: 'notifications/initialized' }), [], 'no roots/list, though the client declared roots');
  t.same(await send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }), [], 'nor on list_changed');
  t.match((await send(req(3, 'ping')))[0], /"code":-32602/, 'a request without its envelope: -32602');
  t.match((await send(req(4, 'ping', withMeta())))[0], /"code":-32601,"message":"Method not found: protocol 2026-07-28 has no ping"/, 'no ping in 2026-07-28');
});
