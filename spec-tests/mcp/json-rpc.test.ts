// Checks JSON-RPC 2.0 as issue 3 and DESIGN.md "MCP bytes" state it: requests, notifications
// and client responses told apart; ids are strings or integers echoed with their exact type;
// a line is {"jsonrpc":"2.0","id":ID,"result"|"error":…} with the result's keys sorted.
import t from 'tap';
import { classify, errorLine, PARSE_ERROR_LINE, resultLine } from '../../lib/mcp/json-rpc.js';

t.test('requests, notifications, responses', async (t) => {
  t.same(classify({ jsonrpc: '2.0', id: 0, method: 'ping' }), { kind: 'request', id: 0, method: 'ping', params: undefined });
  t.same(classify({ jsonrpc: '2.0', id: '0', method: 'x', params: { a: 1 } }), { kind: 'request', id: '0', method: 'x', params: { a: 1 } });
  t.same(classify({ jsonrpc: '2.0', method: 'notifications/x' }), { kind: 'notification', method: 'notifications/x', params: undefined });
  t.same(classify({ jsonrpc: '2.0', id: 1, result: {} }), { kind: 'response', id: 1, result: {}, failed: false });
  t.same(classify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm' } }), { kind: 'response', id: 1, result: undefined, failed: true });
});

t.test('invalid request objects: -32600, id echoed only when it is a valid id', async (t) => {
  t.same(classify({ jsonrpc: '1.0', id: 7, method: 'ping' }), { kind: 'invalid', id: 7 });
  t.same(classify({ id: 'a', method: 'ping' }), { kind: 'invalid', id: 'a' });
  t.same(classify({ jsonrpc: '2.0', id: 1, method: 5 }), { kind: 'invalid', id: 1 });
  for (const id of [null, 1.5, true, {}, [], 2 ** 53]) {
    t.same(classify({ jsonrpc: '2.0', id, method: 'ping' }), { kind: 'invalid', id: null }, `id ${String(id)}`);
  }
  for (const v of [null, 1, 'x', true]) t.same(classify(v), { kind: 'invalid', id: null }, `message ${String(v)}`);
});

t.test('lines: envelope order as the reference prints, protocol objects sorted', async (t) => {
  t.equal(resultLine(0, { b: 1, a: { d: 2, c: 3 } }), '{"jsonrpc":"2.0","id":0,"result":{"a":{"c":3,"d":2},"b":1}}');
  t.equal(resultLine('0', {}), '{"jsonrpc":"2.0","id":"0","result":{}}');
  t.equal(errorLine(null, { code: -32600, message: 'Invalid Request' }), '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}');
  t.equal(PARSE_ERROR_LINE, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', 'parse errors carry id null');
  t.equal(resultLine(1, { content: [{ type: 'text', text: 'a\n' }], isError: true }),
    '{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"a\\n","type":"text"}],"isError":true}}', 'tool result key order');
});
