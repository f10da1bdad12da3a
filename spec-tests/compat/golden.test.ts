// The reference implementation's golden fixtures (spec-tests/fixtures/compat-v0, see NOTE.md there),
// replayed byte for byte: every expected/ file is reproduced (stdout = file + "\n"), caches
// rebuilt from documents/ equal the fixture caches, and the fixture caches load here.
// One decided deviation is asserted too: inspect's total_bytes (DESIGN.md "Cache format").
import t from 'tap';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';
import { McpSession } from '../../lib/mcp/session.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';

const FIXTURES = new URL('../fixtures/compat-v0/', import.meta.url).pathname;
const expected = (name: string): string => readFileSync(join(FIXTURES, 'expected', name), 'utf8');
const query = (name: string): { query: string; budget: number } =>
  JSON.parse(readFileSync(join(FIXTURES, 'queries', name), 'utf8')) as { query: string; budget: number };

async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { stdout: (s) => void (out += s), stderr: (s) => void (err += s), env, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

// expected file -> fixture cache and query file, as the reference's compat suite pairs them.
const RESOLVE_CASES: readonly [string, string, string][] = [
  ['minimal_basic.json', 'minimal', 'basic.json'],
  ['minimal_zero_budget.json', 'minimal', 'zero_budget.json'],
  ['realistic_basic.json', 'realistic', 'basic.json'],
  ['realistic_multi_term.json', 'realistic', 'multi_term.json'],
  ['tie_break_ordering.json', 'tie_break', 'tie_break.json'],
  ['tie_break_zero_score.json', 'tie_break', 'no_match.json'],
];

t.test('every resolve golden reproduces byte for byte', async (t) => {
  for (const [file, cache, q] of RESOLVE_CASES) {
    const { query: text, budget } = query(q);
    const r = await run(['resolve', '--cache', join(FIXTURES, 'caches', cache), '--query', text, '--budget', String(budget)]);
    t.equal(r.code, 0, `${file}: exit 0`);
    t.equal(r.out, expected(file) + '\n', `${file}: stdout is the golden file plus a newline`);
    t.equal(r.err, '', `${file}: nothing on stderr`);
  }
});

// Issue 43 (lean v1 answers, --explain, --format markdown) leaves v0 caches alone: asked for
// either, a v0 cache prints its SelectionResult, the golden bytes, from both faces.
t.test('v0 caches answer the golden bytes whatever --explain / --format markdown (and explain / format) ask', async (t) => {
  const root = join(FIXTURES, 'caches');
  const session = new McpSession({ tools: TOOLS, context: { cacheRoot: root, projectRoot: root }, toolNames: 'dotted', log: () => {} });
  await session.handleLine({ kind: 'line', text: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
  let id = 0;
  for (const [file, cache, q] of RESOLVE_CASES) {
    const { query: text, budget } = query(q);
    const golden = expected(file) + '\n';
    for (const flags of [['--explain'], ['--format', 'markdown'], ['--format', 'markdown', '--explain']]) {
      const r = await run(['resolve', '--cache', join(root, cache), '--query', text, '--budget', String(budget), ...flags]);
      t.same(r, { code: 0, out: golden, err: '' }, `${file} ${flags.join(' ')}: the golden bytes`);
    }
    for (const extra of [{ explain: true }, { format: 'markdown' }, { format: 'markdown', explain: true }]) {
      const call = { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'context.resolve', arguments: { cache, query: text, budget, ...extra } } };
      const line = JSON.parse((await session.handleLine({ kind: 'line', text: JSON.stringify(call) })) ?? '{}') as { result: { content: { text: string }[]; structuredContent: unknown } };
      t.equal(line.result.content[0]?.text, golden, `${file} ${JSON.stringify(extra)}: MCP text is the golden bytes`);
      t.same(line.result.structuredContent, JSON.parse(golden), `${file} ${JSON.stringify(extra)}: and structuredContent its JSON value`);
    }
  }
});

t.test('the golden set is covered: every expected file is asserted somewhere here', async (t) => {
  const covered = new Set([
    ...RESOLVE_CASES.map((c) => c[0]),
    'inspect_minimal.json',
    'inspect_realistic.json',
    'mcp_error_cache_missing.json',
  ]);
  t.same(readdirSync(join(FIXTURES, 'expected')).filter((f) => !covered.has(f)), [], 'no golden file is left out');
});

t.test('inspect goldens: equal except total_bytes, the decided deviation', async (t) => {
  // DESIGN.md: total_bytes = regular files directly in the cache directory (seed 004), for
  // CLI and MCP alike. The reference CLI summed documents/ instead (324 and 524 bytes), so
  // our value is manifest.json + index.json: minimal 611 + 94, realistic 790 + 145.
  const ours: Record<string, number> = { minimal: 611 + 94, realistic: 790 + 145 };
  for (const cache of ['minimal', 'realistic']) {
    const golden = JSON.parse(expected(`inspect_${cache}.json`)) as Record<string, unknown>;
    const r = await run(['inspect', '--cache', join(FIXTURES, 'caches', cache)]);
    t.equal(r.code, 0);
    const got = JSON.parse(r.out) as Record<string, unknown>;
    t.same(Object.keys(got), ['cache_version', 'document_count', 'total_bytes', 'valid'], 'seed 004 field order');
    t.equal(got['total_bytes'], ours[cache], `${cache}: total_bytes counts the top-level files`);
    t.not(got['total_bytes'], golden['total_bytes'], `${cache}: and so differs from the reference CLI`);
    const withGoldenBytes = r.out.replace(/"total_bytes": \d+/, `"total_bytes": ${String(golden['total_bytes'])}`);
    t.equal(withGoldenBytes, expected(`inspect_${cache}.json`) + '\n', `${cache}: every other byte is the golden's`);
  }
});

t.test('mcp_error_cache_missing: the tool result for an unknown cache', async (t) => {
  const root = t.testdir({});
  // The reference server's bytes are those of a client on 2025-03-26 or earlier; a
  // 2025-06-18+ client gets the same fields plus structuredContent (issue 12).
  for (const protocolVersion of ['2025-03-26', '2025-06-18']) {
    const session = new McpSession({
      tools: TOOLS,
      context: { cacheRoot: root, projectRoot: root },
      toolNames: 'dotted',
      log: () => {},
    });
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    await session.handleLine({ kind: 'line', text: JSON.stringify(init) });
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'context.resolve', arguments: { cache: 'nope', query: 'x', budget: 10 } } };
    const line = await session.handleLine({ kind: 'line', text: JSON.stringify(call) });
    const golden = expected('mcp_error_cache_missing.json');
    const want = protocolVersion === '2025-03-26' ? golden : golden.replace(/\}$/, ',"structuredContent":{"error":{"code":"cache_missing","message":"Cache does not exist"}}}');
    t.equal(line, `{"jsonrpc":"2.0","id":1,"result":${want}}`, protocolVersion);
  }
});

t.test('caches rebuilt from the fixture documents equal the fixture caches', async (t) => {
  for (const name of ['minimal', 'realistic', 'tie_break']) {
    const dir = t.testdir({});
    const out = join(dir, 'cache');
    const r = await run(['build', '--engine', 'v0', '--sources', join(FIXTURES, 'documents', name), '--cache', out], { SOURCE_DATE_EPOCH: '0' });
    t.equal(r.code, 0, `${name}: build succeeds`);
    const fixture = join(FIXTURES, 'caches', name);
    const version = (dir: string): unknown => (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>)['cache_version'];
    t.equal(version(out), version(fixture), `${name}: same cache_version`);
    t.equal(readFileSync(join(out, 'index.json'), 'utf8'), readFileSync(join(fixture, 'index.json'), 'utf8'), `${name}: index.json identical`);
    const docs = readdirSync(join(fixture, 'documents')).sort();
    t.same(readdirSync(join(out, 'documents')).sort(), docs, `${name}: same document files`);
    for (const d of docs) {
      t.equal(readFileSync(join(out, 'documents', d), 'utf8'), readFileSync(join(fixture, 'documents', d), 'utf8'), `${name}: ${d} identical`);
    }
    // The manifest differs only in created_at (context_cache.md "Cache Version").
    const strip = (s: string): string => s.replace(/"created_at": "[^"]*"/, '"created_at": ""');
    t.equal(strip(readFileSync(join(out, 'manifest.json'), 'utf8')), strip(readFileSync(join(fixture, 'manifest.json'), 'utf8')), `${name}: manifest identical but for created_at`);
    t.equal(JSON.parse(r.out).cache_version, version(fixture), `${name}: build reports the cache_version`);
  }
});

t.test('fixture caches load, verify and resolve here; a copy answers the same', async (t) => {
  for (const name of ['minimal', 'realistic', 'tie_break']) {
    const v = await run(['verify', '--cache', join(FIXTURES, 'caches', name), '--format', 'json']);
    t.equal(v.code, 0, `${name}: verify passes`);
    t.match(v.out, /"valid":true/);
    const copy = join(t.testdir({}), name);
    cpSync(join(FIXTURES, 'caches', name), copy, { recursive: true });
    const a = await run(['resolve', '--cache', copy, '--query', 'deployment', '--budget', '4000']);
    const b = await run(['resolve', '--cache', join(FIXTURES, 'caches', name), '--query', 'deployment', '--budget', '4000']);
    t.equal(a.out, b.out, `${name}: a copied cache resolves identically (context_cache.md invariant 5, portable)`);
  }
});

t.test('future_version: a cache with an unknown build_config is cache_invalid', async (t) => {
  // DESIGN.md: the reference loads such caches; its compat suite says exit 5 is intended.
  const r = await run(['resolve', '--cache', join(FIXTURES, 'caches', 'future_version'), '--query', 'hello', '--budget', '100']);
  t.equal(r.code, 5);
  t.equal(r.out, '', 'nothing on stdout');
  t.match(r.err, /cache_invalid/);
});

t.test('edge-case documents build and resolve deterministically', async (t) => {
  const dir = t.testdir({});
  const r1 = await run(['build', '--engine', 'v0', '--sources', join(FIXTURES, 'documents', 'edge_cases'), '--cache', join(dir, 'a')], { SOURCE_DATE_EPOCH: '1' });
  const r2 = await run(['build', '--engine', 'v0', '--sources', join(FIXTURES, 'documents', 'edge_cases'), '--cache', join(dir, 'b')], { SOURCE_DATE_EPOCH: '1' });
  t.equal(r1.code, 0);
  t.equal(r1.out, r2.out, 'same cache_version twice');
  t.equal(readFileSync(join(dir, 'a', 'manifest.json'), 'utf8'), readFileSync(join(dir, 'b', 'manifest.json'), 'utf8'), 'SOURCE_DATE_EPOCH makes manifests identical');
  const q = ['resolve', '--cache', join(dir, 'a'), '--query', 'deployment café 日本語', '--budget', '100000'];
  const a = await run(q);
  const b = await run(q);
  t.equal(a.code, 0);
  t.equal(a.out, b.out, 'two runs, same bytes');
  // Worked by hand: unicode.md has 11 words, one of them "café" (1/11); each line of
  // large.md has 12 words with one "deployment." — punctuation kept, so no match — and one
  // "Deployment" (1/12 per line); repeated_terms.md is nothing but "deployment".
  const result = JSON.parse(a.out) as { documents: { id: string; why: { term_matches: number; total_words: number } }[] };
  t.same(result.documents.map((d) => d.id), ['repeated_terms.md', 'unicode.md', 'large.md', 'empty.md']);
  const unicode = result.documents[1];
  t.same(unicode?.why, { query_terms: ['deployment', 'café', '日本語'], term_matches: 1, total_words: 11 });
  t.match(a.out, /"id":"unicode\.md".*?"score":0\.09090909,/, 'f32 of 1/11');
  const large = result.documents[2];
  t.equal((large?.why.term_matches ?? 0) * 12, large?.why.total_words, 'one match per 12-word line');
});
