// Checks seed 001 "The returned JSON MUST be byte-identical to: context resolve --cache C
// --query Q --budget B" for every compat fixture cache x every fixture query, and DESIGN.md
// "MCP bytes" for inspect_cache / list_caches (CLI stdout = MCP text + "\n"); failures agree
// on the code (MCP text = canonical error JSON + "\n", CLI exit = the code's exit code).
// Every MCP call goes through the whole server (JSON-RPC lines over injected streams).
import t, { type Test } from 'tap';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';
import { ERROR_TABLE, errorJson, exitCodeOf, type ErrorCode } from '../../lib/errors.js';
import { canonical, compact, compareBytes, parseJson, type Json } from '../../lib/json.js';
import { runMcpServer } from '../../lib/mcp/server.js';

const FIXTURES = new URL('../fixtures/compat-v0/', import.meta.url).pathname;
const CACHES = readdirSync(join(FIXTURES, 'caches')).sort(compareBytes);
const QUERIES = readdirSync(join(FIXTURES, 'queries'))
  .sort(compareBytes)
  .map((file) => ({ file, ...(parseJson(readFileSync(join(FIXTURES, 'queries', file), 'utf8')) as { query: string; budget: number }) }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: (s) => void (out += s), stderr: (s) => void (err += s), env: {}, cwd: process.cwd() };
  return { code: await main(argv, io), out, err };
}

interface ToolResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: unknown;
}

/** Runs one server over all calls; returns each call's result object and its raw line. */
async function mcp(
  root: string,
  calls: readonly { name: string; arguments: Json }[],
  protocolVersion = '2025-11-25',
): Promise<{ result: ToolResult; line: string }[]> {
  const lines = [
    compact({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'parity', version: '1' } } }),
    compact({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    ...calls.map((c, i) => compact({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: c })),
  ];
  const out: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(chunk);
      done();
    },
  });
  const code = await runMcpServer({
    input: Readable.from([Buffer.from(lines.join('\n') + '\n')]),
    output,
    log: () => {},
    cacheRoot: root,
    projectRoot: root,
  });
  if (code !== 0) throw new Error(`server exited ${code}`);
  const replies = Buffer.concat(out).toString('utf8').split('\n').filter((l) => l !== '').slice(1);
  return replies.map((line) => ({ line, result: (parseJson(line) as { result: ToolResult }).result }));
}

/** The error code the CLI reported on stderr ("error: CODE: message"). */
function cliCode(err: string): ErrorCode | undefined {
  const m = /^error: ([a-z_]+):/.exec(err);
  const code = m?.[1];
  return code !== undefined && code in ERROR_TABLE ? (code as ErrorCode) : undefined;
}

function sameFace(t: Test, what: string, c: { code: number; out: string; err: string }, m: ToolResult, newline: boolean): void {
  t.equal(m.content.length, 1, `${what}: one content block`);
  t.equal(m.content[0]?.type, 'text', `${what}: text content`);
  const text = m.content[0]?.text ?? '';
  // Issue 12: a 2025-06-18+ result also carries the text's JSON value as structuredContent.
  t.same(m.structuredContent, parseJson(newline ? text : text + '\n'), `${what}: structuredContent is the text's JSON value`);
  if (c.code === 0) {
    t.equal(m.isError, undefined, `${what}: success has no isError`);
    t.equal(newline ? text : text + '\n', c.out, `${what}: MCP text = CLI stdout, byte for byte`);
  } else {
    const code = cliCode(c.err);
    t.ok(code !== undefined, `${what}: CLI failed with a typed error (${c.err.trim()})`);
    if (code === undefined) return;
    t.equal(c.code, exitCodeOf(code), `${what}: CLI exit code of ${code}`);
    t.equal(c.out, '', `${what}: CLI wrote nothing to stdout`);
    t.equal(m.isError, true, `${what}: MCP isError`);
    t.equal(text, errorJson(code) + '\n', `${what}: MCP text is the canonical ${code} JSON + newline`);
  }
}

t.test('context.resolve = context resolve, every fixture cache x every fixture query', async (t) => {
  const root = t.testdir({});
  cpSync(join(FIXTURES, 'caches'), root, { recursive: true });
  const pairs = CACHES.flatMap((cache) => QUERIES.map((q) => ({ cache, ...q })));
  const results = await mcp(root, pairs.map((p) => ({ name: 'context.resolve', arguments: { cache: p.cache, query: p.query, budget: p.budget } })));
  t.equal(results.length, pairs.length, 'one reply per call');
  let successes = 0;
  for (const [i, p] of pairs.entries()) {
    const c = await cli(['resolve', '--cache', join(root, p.cache), '--query', p.query, '--budget', String(p.budget)]);
    if (c.code === 0) successes++;
    const r = results[i];
    if (r !== undefined) sameFace(t, `${p.cache} ${p.file}`, c, r.result, true);
  }
  t.ok(successes >= 21, `the three valid caches answer every query (${successes} successes)`);
});

t.test('context.inspect_cache = context inspect --format json, and list_caches = list-caches', async (t) => {
  const root = t.testdir({ 'not-a-cache': { 'notes.txt': 'x' }, 'stray-file.md': 'x' });
  cpSync(join(FIXTURES, 'caches'), root, { recursive: true });
  const names = [...CACHES, 'not-a-cache', 'missing'];
  const results = await mcp(root, [
    ...names.map((cache) => ({ name: 'context.inspect_cache', arguments: { cache } })),
    { name: 'context.list_caches', arguments: {} },
  ]);
  for (const [i, cache] of names.entries()) {
    const c = await cli(['inspect', '--cache', join(root, cache), '--format', 'json']);
    const r = results[i];
    if (r !== undefined) sameFace(t, `inspect ${cache}`, c, r.result, false);
  }
  const list = results[names.length];
  const c = await cli(['list-caches', '--root', root]);
  if (list !== undefined) sameFace(t, 'list_caches', c, list.result, false);
  t.match(list?.result.content[0]?.text ?? '', /^\{"caches":\[\{"path":"future_version","has_manifest":true\}/, 'spec key order path, has_manifest');
});

t.test('the reference golden MCP error for a missing cache, byte for byte', async (t) => {
  const root = t.testdir({});
  const call = { name: 'context.resolve', arguments: { cache: 'does-not-exist', query: 'deployment', budget: 4000 } };
  const golden = readFileSync(join(FIXTURES, 'expected', 'mcp_error_cache_missing.json'), 'utf8');
  // The reference server predates structured results: its bytes are what 2024-11-05 and
  // 2025-03-26 clients get.
  for (const version of ['2024-11-05', '2025-03-26']) {
    const [r] = await mcp(root, [call], version);
    t.equal(canonical(r?.result), golden, `${version}: expected/mcp_error_cache_missing.json`);
    t.equal(r?.line, `{"jsonrpc":"2.0","id":1,"result":${golden}}`, `${version}: inside the JSON-RPC envelope`);
  }
  // From 2025-06-18 the same result plus structuredContent, the text's JSON value.
  for (const version of ['2025-06-18', '2025-11-25']) {
    const [r] = await mcp(root, [call], version);
    const { structuredContent, ...rest } = r?.result ?? { content: [] };
    t.equal(canonical(rest), golden, `${version}: every other field is the golden's`);
    t.same(structuredContent, { error: { code: 'cache_missing', message: 'Cache does not exist' } }, `${version}: structuredContent`);
  }
});
