// Checks issue 9 "Same shape from CLI and MCP" and "output identical across runs", and
// seed 001's "byte-identical to context resolve" for engine v1 caches (files and sections):
// every query x budget gives the same bytes from `context resolve` (in-process and the
// spawned bin), from `context.resolve` over a server that answers them all from one loaded
// cache, and from a second run; inspect_cache / list_caches agree too; a damaged v1 cache
// fails alike on both faces.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';
import { errorJson } from '../../lib/errors.js';
import { compact, parseJson, type Json } from '../../lib/json.js';
import { runMcpServer } from '../../lib/mcp/server.js';
import { buildV1 } from '../core/engine/v1/fixture.js';
import { BIN, REPO } from './spawn-server.js';

const QUERIES: [string, number][] = [
  ['deployment', 4000],
  ['deploy the service', 300],
  ['Rollback rolling DEPLOYMENT', 150],
  ['incident response on-call', 4000],
  ['configuration.yaml', 4000],
  ['security', 0],
  ['', 4000],
  ['nothing-matches-this', 4000],
  ['naïve 日本語 😀', 4000],
  ['monitoring alerts', 9007199254740991],
];

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: (s) => void (out += s), stderr: (s) => void (err += s), env: {}, cwd: process.cwd() };
  return { code: await main(argv, io), out, err };
}

interface ToolResult {
  content: { type: string; text: string }[];
  isError?: boolean;
}

/** One server, every call in order; each call's result. */
async function mcp(root: string, calls: readonly { name: string; arguments: Json }[]): Promise<ToolResult[]> {
  const lines = [
    compact({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'parity', version: '1' } } }),
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
  const code = await runMcpServer({ input: Readable.from([Buffer.from(lines.join('\n') + '\n')]), output, log: () => {}, cacheRoot: root, projectRoot: root });
  if (code !== 0) throw new Error(`server exited ${code}`);
  return Buffer.concat(out).toString('utf8').split('\n').filter((l) => l !== '').slice(1).map((l) => (parseJson(l) as { result: ToolResult }).result);
}

// The three forms of a v1 answer (issue 43): lean JSON (the default), explained JSON
// (--explain / explain: true) and Markdown (--format markdown / format: "markdown").
const MODES: { name: string; flags: string[]; args: Record<string, Json> }[] = [
  { name: 'lean', flags: [], args: {} },
  { name: 'explained', flags: ['--explain'], args: { explain: true } },
  { name: 'markdown', flags: ['--format', 'markdown'], args: { format: 'markdown' } },
];

t.test('seed 001 + issue 9: context.resolve = context resolve for v1 caches, every run the same', async (t) => {
  const root = t.testdir({});
  const corpus = join(REPO, 'examples', 'corpus');
  await buildV1(corpus, join(root, 'v1-files'));
  await buildV1(corpus, join(root, 'v1-sections'), { granularity: 'section' });
  const caches = ['v1-files', 'v1-sections'];
  const calls = MODES.flatMap((mode) => caches.flatMap((cache) => QUERIES.map(([query, budget]) => ({ mode, call: { name: 'context.resolve', arguments: { cache, query, budget, ...mode.args } } }))));
  // Each query twice in one server: the second answer comes from the loaded cache.
  const results = await mcp(root, [...calls, ...calls].map((c) => c.call));
  const again = await mcp(root, calls.map((c) => c.call));
  t.equal(results.length, calls.length * 2);
  for (const [i, { mode, call }] of calls.entries()) {
    const { cache, query, budget } = call.arguments as { cache: string; query: string; budget: number };
    const what = `${mode.name} ${cache} ${JSON.stringify(query)} ${budget}`;
    const argv = ['resolve', '--cache', join(root, cache), '--query', query, '--budget', String(budget), ...mode.flags];
    const c = await cli(argv);
    t.equal(c.code, 0, `${what}: CLI succeeds`);
    // stderr stays empty unless even the empty answer is over the budget: then it warns, as the answer says.
    const over = mode.name === 'markdown' ? c.out.includes('; over the budget: raise it') : (parseJson(c.out) as { selection: { over_budget?: boolean } }).selection.over_budget === true;
    t.equal(c.err, over ? `warning: the answer's envelope alone is over the budget of ${budget} tokens: nothing fits; raise --budget\n` : '', `${what}: stderr`);
    const text = results[i]?.content[0]?.text;
    t.equal(text, c.out, `${what}: MCP text = CLI stdout, byte for byte`);
    t.equal(results[i]?.isError, undefined);
    t.equal(results[i + calls.length]?.content[0]?.text, c.out, `${what}: the same server answers the same again`);
    t.equal(again[i]?.content[0]?.text, c.out, `${what}: a new server answers the same`);
    t.equal((await cli(argv)).out, c.out, `${what}: a second CLI run too`);
    if (i % 4 === 0) {
      const spawned = spawnSync('/bin/sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', process.execPath, BIN, ...argv], { encoding: 'utf8' });
      t.equal(spawned.stdout, c.out, `${what}: the spawned bin prints the same bytes`);
    }
  }
  const at = (mode: string, cache: string, query: string, budget: number): string => {
    const k = calls.findIndex((c) => c.mode.name === mode && c.call.arguments.cache === cache && c.call.arguments.query === query && c.call.arguments.budget === budget);
    return results[k]?.content[0]?.text ?? '';
  };
  // "Answers that fit, by default", What to build item 6: v1 answers bound the whole answer by
  // default; the lean answer says only the budget, its own size and the matching count.
  for (const [cache, granularity] of [['v1-files', 'file'], ['v1-sections', 'section']] as const) {
    t.match(at('explained', cache, 'deployment', 4000), new RegExp(`"engine":"v1","granularity":"${granularity}","tokenizer":"bytes4","terms":\\["deploy"\\],"budget_scope":"answer","answer_tokens":\\d+\\}\\}\\n$`));
    t.match(at('lean', cache, 'deployment', 4000), /^\{"documents":\[\{"id":"[^"]+","version":"[0-9a-f]{8}",("under":"[^"]*",)?"matched":"deployment","tokens":\d+,"content":.*\],"selection":\{"budget":4000,"answer_tokens":\d+,"matched":\d+\}\}\n$/);
    t.match(at('markdown', cache, 'deployment', 4000), /^\[1\] \S+ @[0-9a-f]{8}( \| under: [^|\n]+)? \| matched: deployment\n[\s\S]*\n\(\d+ entr(y|ies) of \d+ matching units?; [0-9,]+ of 4,000 tokens\)\n$/);
  }
  // Item 3: the units a zero budget leaves out are named (explained: id, path, tokens, score;
  // lean: their ids), the same bytes from both faces, with the budget that takes the first.
  for (const cache of caches) {
    const explained = (parseJson(at('explained', cache, 'security', 0)) as { selection: { omitted?: Record<string, unknown>[]; raise_budget_to?: number } }).selection;
    const omitted = explained.omitted ?? [];
    t.ok(omitted.length > 0, `${cache}: a zero budget names what it left out`);
    for (const o of omitted) {
      t.same(Object.keys(o), ['id', 'path', 'tokens', 'score'], `${cache}: ${String(o['id'])}: id, path, tokens, score`);
      t.ok(String(o['id']).startsWith(String(o['path'])), `${cache}: ${String(o['id'])}: the id begins with its path`);
    }
    t.type(explained.raise_budget_to, 'number', `${cache}: and a budget that takes the first`);
    const lean = (parseJson(at('lean', cache, 'security', 0)) as { selection: Record<string, unknown> }).selection;
    t.same(lean['omitted'], omitted.map((o) => o['id']), `${cache}: the lean answer names the same units by id`);
    t.equal(lean['over_budget'], true, `${cache}: and says a zero budget is over even for the empty answer`);
    t.type(lean['raise_budget_to'], 'number', `${cache}: raise_budget_to whenever something is omitted`);
  }
});

t.test('context.inspect_cache = context inspect --format json, list_caches = list-caches, with v1 caches', async (t) => {
  const root = t.testdir({});
  await buildV1(join(REPO, 'examples', 'corpus'), join(root, 'v1'));
  const [inspect, list] = await mcp(root, [{ name: 'context.inspect_cache', arguments: { cache: 'v1' } }, { name: 'context.list_caches', arguments: {} }]);
  const ci = await cli(['inspect', '--cache', join(root, 'v1'), '--format', 'json']);
  t.equal((inspect?.content[0]?.text ?? '') + '\n', ci.out);
  t.match(ci.out, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":7,"total_bytes":\d+,"valid":true,"engine":"v1","label":null,"granularity":"file","tokenizer":"bytes4","formats":\{"md":7\}\}\n$/);
  const cl = await cli(['list-caches', '--root', root]);
  t.equal((list?.content[0]?.text ?? '') + '\n', cl.out);
  t.equal(cl.out, '{"caches":[{"path":"v1","has_manifest":true,"engine":"v1","label":null,"granularity":"file","tokenizer":"bytes4","formats":{"md":7},"document_count":7}]}\n');
});

t.test('a damaged v1 cache: cache_invalid from both faces, exit 5 and the canonical error', async (t) => {
  const root = t.testdir({});
  await buildV1(join(REPO, 'examples', 'corpus'), join(root, 'good'));
  cpSync(join(root, 'good'), join(root, 'bad'), { recursive: true });
  writeFileSync(join(root, 'bad', 'manifest.json'), readFileSync(join(root, 'bad', 'manifest.json'), 'utf8').replace(/"head": \{\n\s*"bytes": \d+/, '"head": {\n          "bytes": 7'));
  const [r] = await mcp(root, [{ name: 'context.resolve', arguments: { cache: 'bad', query: 'deployment', budget: 4000 } }]);
  const c = await cli(['resolve', '--cache', join(root, 'bad'), '--query', 'deployment', '--budget', '4000']);
  t.equal(c.code, 5);
  t.equal(c.out, '');
  t.match(c.err, /^error: cache_invalid: /);
  t.equal(r?.isError, true);
  t.equal(r?.content[0]?.text, errorJson('cache_invalid') + '\n');
});
