// Issue 46 item 4, "Caches an agent finds by name": "A build may carry a label (for example
// --label fastapi@0.115), recorded in the cache and shown by list-caches, inspect and the MCP
// list tool with the engine, tokenizer, formats and document count; the MCP resolve tool's
// input schema names the caches the server can read (an enum while there are few, refreshed
// with notifications/tools/list_changed where the protocol era has it), so an agent can ask
// in one call instead of two." Decisions: docs/mcp.md "Caches by name", docs/cache-format.md (label).
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { run } from '../cli/harness.js';
import { compact, parseJson, type Json } from '../../lib/json.js';
import { McpSession } from '../../lib/mcp/session.js';
import { runMcpServer } from '../../lib/mcp/server.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { CACHE_PROPERTY } from '../../lib/mcp/tools/cache-name.js';
import { ENUM_MAX_CACHES } from '../../lib/mcp/cache-choice.js';
import { contextCommand, hostEnv } from './spawn-server.js';

const ENV = { SOURCE_DATE_EPOCH: '0' };
const INIT = (version = '2025-11-25'): string =>
  compact({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const LIST = (id: number): string => compact({ jsonrpc: '2.0', id, method: 'tools/list' });
const call = (id: number, name: string, args: Record<string, Json>): string => compact({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const STATELESS_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

type Reply = {
  id?: number;
  method?: string;
  result?: { tools?: { name: string; inputSchema: { properties: Record<string, Json> } }[]; capabilities?: Json; content?: { text: string }[]; isError?: boolean };
  error?: { code: number; message: string };
};

const manifestOf = (dir: string): Record<string, Json> => parseJson(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, Json>;

/** Runs one in-process server over `lines` (one chunk); returns every output line. */
async function serve(cacheRoot: string, projectRoot: string, lines: readonly string[]): Promise<string[]> {
  const out: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(chunk);
      done();
    },
  });
  await runMcpServer({ input: Readable.from([Buffer.from(lines.join('\n') + '\n')]), output, log: () => {}, cacheRoot, projectRoot, timestamp: () => '1970-01-01T00:00:00Z' });
  return Buffer.concat(out).toString('utf8').split('\n').filter((l) => l !== '');
}

const cacheProperty = (line: string): Json => {
  const r = parseJson(line) as Reply;
  return r.result?.tools?.find((x) => x.name === 'context.resolve')?.inputSchema.properties['cache'] as Json;
};

/** A folder of one Markdown and one rST document. */
function sources(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'deploy.md'), '# Deploy\n\nRoll back a deployment with care.\n');
  writeFileSync(join(dir, 'intro.rst'), 'Intro\n=====\n\nSome text.\n');
  return dir;
}

t.test('"a build may carry a label ... recorded in the cache and shown by list-caches, inspect" (CLI)', async (t) => {
  const root = t.testdir({});
  const docs = sources(join(root, 'docs'));
  const caches = join(root, 'caches');
  const built = await run(['build', '--sources', docs, '--cache', join(caches, 'fastapi'), '--label', 'fastapi@0.115'], { env: ENV });
  t.equal(built.code, 0, built.err);
  t.match(built.out, /"engine":"v1","label":"fastapi@0.115","granularity"/, 'the build line names the label');
  t.equal(manifestOf(join(caches, 'fastapi'))['label'], 'fastapi@0.115', 'recorded in manifest.json');
  t.equal((await run(['verify', '--cache', join(caches, 'fastapi')])).code, 0, 'a labelled cache verifies');

  // Not hashed: the same content built without a label has the same cache_version.
  const plain = await run(['build', '--sources', docs, '--cache', join(caches, 'plain')], { env: ENV });
  t.equal(manifestOf(join(caches, 'plain'))['cache_version'], manifestOf(join(caches, 'fastapi'))['cache_version'], 'the label does not enter cache_version');
  t.notOk('label' in manifestOf(join(caches, 'plain')), 'an unlabelled manifest has no label key (its bytes are what they were)');
  t.notMatch(plain.out, /label/, 'nor does its build line');
  await run(['build', '--engine', 'v0', '--sources', docs, '--cache', join(caches, 'v0')], { env: ENV });

  const listed = await run(['list-caches', '--root', caches]);
  t.equal(
    listed.out,
    '{"caches":[' +
      '{"path":"fastapi","has_manifest":true,"engine":"v1","label":"fastapi@0.115","granularity":"section","tokenizer":"o200k_base","formats":{"md":1,"rst":1},"document_count":2},' +
      '{"path":"plain","has_manifest":true,"engine":"v1","label":null,"granularity":"section","tokenizer":"o200k_base","formats":{"md":1,"rst":1},"document_count":2},' +
      '{"path":"v0","has_manifest":true}]}\n',
    'list-caches: v1 entries say what they hold, a v0 entry is the seed\'s two fields',
  );
  const inspected = await run(['inspect', '--cache', join(caches, 'fastapi'), '--format', 'json']);
  t.match(inspected.out, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":2,"total_bytes":\d+,"valid":true,"engine":"v1","label":"fastapi@0.115","granularity":"section","tokenizer":"o200k_base","formats":\{"md":1,"rst":1\}\}\n$/, 'inspect: the seed\'s four fields, then what the cache holds');
  t.match((await run(['inspect', '--cache', join(caches, 'v0'), '--format', 'json'])).out, /^\{"cache_version":"[^"]+","document_count":1,"total_bytes":\d+,"valid":true\}\n$/, 'a v0 cache: the seed\'s four fields');
});

t.test('a rebuild writes what its command says: no --label drops it, a new one replaces it (same packs, same cache_version)', async (t) => {
  const root = t.testdir({});
  const docs = sources(join(root, 'docs'));
  const cache = join(root, 'caches', 'c');
  const fresh = join(root, 'caches', 'fresh');
  await run(['build', '--sources', docs, '--cache', cache, '--label', 'one@1'], { env: ENV });
  const again = await run(['build', '--sources', docs, '--cache', cache, '--label', 'one@1', '--force'], { env: ENV });
  t.match(again.out, /"unchanged":true/, 'the same label and sources: left as it is');
  const relabelled = await run(['build', '--sources', docs, '--cache', cache, '--label', 'two@2', '--force'], { env: ENV });
  t.match(relabelled.out, /"label":"two@2".*"reused":2,"analyzed":0,"unchanged":false/, 'a new label alone rewrites the manifest, reusing every document');
  t.equal(manifestOf(cache)['label'], 'two@2');
  const dropped = await run(['build', '--sources', docs, '--cache', cache, '--force'], { env: ENV });
  t.match(dropped.out, /"unchanged":false/);
  t.notOk('label' in manifestOf(cache), 'build --force without --label drops the label');
  // An incremental build still writes exactly what a full build of the same command writes.
  await run(['build', '--sources', docs, '--cache', fresh], { env: ENV });
  const text = (d: string): string => readFileSync(join(d, 'manifest.json'), 'utf8').replace(/"source_root": "[^"]*"/, '');
  t.equal(text(cache), text(fresh), 'the relabelled-then-unlabelled cache\'s manifest is a full build\'s');
  await run(['build', '--sources', docs, '--cache', cache, '--label', 'three@3', '--force'], { env: ENV });
  await run(['build', '--sources', docs, '--cache', fresh, '--label', 'three@3', '--force'], { env: ENV });
  t.equal(text(cache), text(fresh), 'and labelled again, the same bytes as another cache labelled alike');
});

t.test('a label that is not one is the usual typed usage error; v0 takes none', async (t) => {
  const root = t.testdir({});
  const docs = sources(join(root, 'docs'));
  for (const label of ['', 'has space', 'x'.repeat(65), 'naïve', 'a:b', 'line\nbreak']) {
    const r = await run(['build', '--sources', docs, '--cache', join(root, 'c'), '--label', label], { env: ENV });
    t.equal(r.code, 1, `${JSON.stringify(label)}: exit 1 (usage)`);
    t.match(r.err, /--label: a label is 1 to 64 characters of letters, digits and \. _ @ \/ \+ -/, 'says what a label is');
  }
  t.equal((await run(['build', '--sources', docs, '--cache', join(root, 'c'), '--label', 'x'.repeat(64)], { env: ENV })).code, 0, '64 characters are a label');
  const v0 = await run(['build', '--engine', 'v0', '--sources', docs, '--cache', join(root, 'v0'), '--label', 'x']);
  t.equal(v0.code, 1);
  t.match(v0.err, /--label needs --engine v1/, 'a v0 cache has no label (its format is the reference\'s)');
});

t.test('MCP: context.build takes label; list_caches and inspect_cache show it; a bad label is -32602', async (t) => {
  const root = t.testdir({});
  sources(join(root, 'project', 'docs'));
  const caches = join(root, 'caches');
  const out = await serve(caches, join(root, 'project'), [
    INIT(),
    call(1, 'context.build', { sources: 'docs', cache: 'api', label: 'acme/api+docs@2.0' }),
    call(2, 'context.build', { sources: 'docs', cache: 'bad', label: 'no spaces' }),
    call(3, 'context.build', { sources: 'docs', cache: 'bad', engine: 'v0', label: 'x' }),
    call(4, 'context.list_caches', {}),
    call(5, 'context.inspect_cache', { cache: 'api' }),
  ]);
  const byId = (id: number): Reply => parseJson(out.find((l) => (parseJson(l) as Reply).id === id) ?? '{}') as Reply;
  t.match(byId(1).result?.content?.[0]?.text, /"label":"acme\/api\+docs@2.0"/, 'the build line names it');
  t.equal(manifestOf(join(caches, 'api'))['label'], 'acme/api+docs@2.0', 'recorded in the manifest');
  t.same(byId(2).error, { code: -32602, message: 'Invalid params: label: a label is 1 to 64 characters of letters, digits and . _ @ / + - (e.g. fastapi@0.115)' });
  t.same(byId(3).error, { code: -32602, message: 'Invalid params: label needs engine v1' });
  t.equal(
    byId(4).result?.content?.[0]?.text,
    '{"caches":[{"path":"api","has_manifest":true,"engine":"v1","label":"acme/api+docs@2.0","granularity":"section","tokenizer":"o200k_base","formats":{"md":1,"rst":1},"document_count":2}]}',
    'list_caches: the CLI\'s bytes, less the newline',
  );
  t.match(byId(5).result?.content?.[0]?.text, /"valid":true,"engine":"v1","label":"acme\/api\+docs@2.0","granularity":"section","tokenizer":"o200k_base","formats":\{"md":1,"rst":1\}\}$/);
});

/**
 * A root (under a new folder of `t`'s test directory) with `names` as copies of one labelled
 * v1 cache, each relabelled `label-NAME` (ASCII letters of NAME only), plus `v0` caches.
 */
let roots = 0;
async function rootOf(t: Test, names: readonly string[], v0: readonly string[] = []): Promise<string> {
  const root = join(t.testdirName, `root-${++roots}`);
  rmSync(root, { recursive: true, force: true }); // a failed run's leftovers (tap keeps them)
  mkdirSync(root, { recursive: true });
  const docs = sources(join(root, 'docs'));
  const seed = join(root, 'seed');
  await run(['build', '--sources', docs, '--cache', seed, '--label', 'seed'], { env: ENV });
  const caches = join(root, 'caches');
  mkdirSync(caches);
  for (const name of names) {
    cpSync(seed, join(caches, name), { recursive: true });
    const m = join(caches, name, 'manifest.json');
    writeFileSync(m, readFileSync(m, 'utf8').replace('"label": "seed"', `"label": "label-${name.normalize('NFD').replace(/[^\x00-\x7f]/g, '')}"`));
  }
  for (const name of v0) await run(['build', '--engine', 'v0', '--sources', docs, '--cache', join(caches, name)], { env: ENV });
  return caches;
}

t.test('tools/list: an enum of the caches while there are few, in byte order, labels in its description; byte-identical on every run', async (t) => {
  const caches = await rootOf(t, ['b', 'B', 'a', 'é'], ['old']);
  mkdirSync(join(caches, 'notes')); // no manifest: not a cache
  mkdirSync(join(caches, '.staging')); // hidden: a build's staging directory
  const first = await serve(caches, caches, [INIT(), LIST(1)]);
  t.same((parseJson(first[0] as string) as Reply).result?.capabilities, { tools: { listChanged: true } }, 'initialize declares tools.listChanged');
  t.same(cacheProperty(first[1] as string), {
    type: 'string',
    enum: ['B', 'a', 'b', 'old', 'é'],
    description:
      "The cache to answer from: one of the caches under the server's cache root, by name (labelled: B = label-B, a = label-a, b = label-b, é = label-e). " +
      'context.list_caches says what each holds (formats, documents); this list is sent again (notifications/tools/list_changed) when the caches change',
  });
  const second = await serve(caches, caches, [INIT(), LIST(1)]);
  t.equal(second[1], first[1], 'the same root: the same tools/list bytes');
  const legacy = await serve(caches, caches, [INIT('2024-11-05'), LIST(1)]);
  t.same((cacheProperty(legacy[1] as string) as { enum: string[] }).enum, ['B', 'a', 'b', 'old', 'é'], '2024-11-05 clients get it too');
});

t.test(`tools/list: past ${ENUM_MAX_CACHES} caches a plain string saying to call list_caches`, async (t) => {
  const names = Array.from({ length: ENUM_MAX_CACHES + 1 }, (_, i) => `c${String(i).padStart(2, '0')}`);
  const caches = await rootOf(t, names);
  const over = await serve(caches, caches, [INIT(), LIST(1)]);
  t.same(cacheProperty(over[1] as string), {
    type: 'string',
    description: `${CACHE_PROPERTY.description}. The cache root holds more than ${ENUM_MAX_CACHES} caches, too many to list here: call context.list_caches for their names and labels`,
  });
  const at = await rootOf(t, names.slice(0, ENUM_MAX_CACHES));
  t.equal((cacheProperty((await serve(at, at, [INIT(), LIST(1)]))[1] as string) as { enum: string[] }).enum.length, ENUM_MAX_CACHES, `${ENUM_MAX_CACHES} caches: still the enum`);
});

t.test('v0 caches alone, a missing root and the 2026-07-28 era: the fixed property, no listChanged', async (t) => {
  const v0 = await rootOf(t, [], ['minimal', 'realistic']);
  const out = await serve(v0, v0, [INIT(), LIST(1)]);
  t.same((parseJson(out[0] as string) as Reply).result?.capabilities, { tools: {} }, 'v0 caches alone: the reference server\'s capabilities');
  t.same(cacheProperty(out[1] as string), CACHE_PROPERTY, 'and its cache property');
  const missing = await serve(join(v0, 'nope'), v0, [INIT(), LIST(1)]);
  t.same((parseJson(missing[0] as string) as Reply).result?.capabilities, { tools: {} }, 'a missing root: no listChanged');
  t.same(cacheProperty(missing[1] as string), CACHE_PROPERTY);
  const v1 = await rootOf(t, ['a']);
  const stateless = await serve(v1, v1, [compact({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: STATELESS_META } })]);
  t.same(cacheProperty(stateless[0] as string), CACHE_PROPERTY, '2026-07-28: no enum (its list may not change as a side effect of requests, and is cached an hour)');
  const session = new McpSession({ tools: TOOLS, context: { cacheRoot: v1, projectRoot: v1 }, toolNames: 'dotted', log: () => {} });
  const discover = await session.handleLine({ kind: 'line', text: compact({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: STATELESS_META } }) });
  t.match(discover, /"capabilities":\{"resources":\{\},"tools":\{\}\}/, 'and server/discover declares no listChanged');
});

t.test('notifications/tools/list_changed after context.build adds a cache (spawned server, real pipes)', async (t) => {
  const caches = await rootOf(t, ['first']);
  const root = join(caches, '..');
  sources(join(root, 'project', 'docs'));
  const { command, args } = contextCommand(['mcp', '--cache-root', caches]);
  const child = spawn(command, args, { cwd: join(root, 'project'), env: { ...hostEnv(), SOURCE_DATE_EPOCH: '0' }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffer = '';
  const waiters: { test: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  child.stdout.on('data', (b: Buffer) => {
    buffer += b.toString('utf8');
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (w.test(line)) w.resolve(line);
        else waiters.push(w);
      }
    }
  });
  const next = (test: (l: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      const seen = lines.find(test);
      if (seen !== undefined) resolve(seen);
      else waiters.push({ test, resolve });
    });
  const send = (line: string): void => void child.stdin.write(line + '\n');
  const isId = (id: number) => (l: string): boolean => (parseJson(l) as Reply).id === id;
  const CHANGED = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';

  send(INIT());
  send(LIST(1));
  t.same((cacheProperty(await next(isId(1))) as { enum: string[] }).enum, ['first']);
  send(call(2, 'context.build', { sources: 'docs', cache: 'second', label: 'second@1' }));
  await next(isId(2));
  await next((l) => l === CHANGED);
  t.ok(lines.indexOf(CHANGED) > lines.findIndex(isId(2)), 'the notification follows the build\'s reply');
  send(LIST(3));
  const relisted = cacheProperty(await next(isId(3))) as { enum: string[]; description: string };
  t.same(relisted.enum, ['first', 'second'], 'the new list names the new cache');
  t.match(relisted.description, /second = second@1/, 'with its label');
  send(call(4, 'context.build', { sources: 'docs', cache: 'second', label: 'second@1', force: true }));
  await next(isId(4));
  send(call(5, 'context.list_caches', {}));
  await next(isId(5));
  t.equal(lines.filter((l) => l === CHANGED).length, 1, 'a rebuild that changes no name or label sends none');
  // A cache built by another process is noticed at the next list_caches call (no timer).
  cpSync(join(caches, 'first'), join(caches, 'third'), { recursive: true });
  send(call(6, 'context.list_caches', {}));
  await next(isId(6));
  await next((l) => l === CHANGED);
  t.equal(lines.filter((l) => l === CHANGED).length, 2, 'a cache another process added: noticed by list_caches');
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.equal(code, 0, 'the server ends with its input (no timer keeps it alive)');
});
