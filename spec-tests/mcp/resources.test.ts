// Checks "Documents as resources" (issue: MCP 2026-07-28 beside the handshake eras, item 4):
// resources/read of context://CACHE/PATH#SLUG returns exactly the bytes resolve returned for
// that unit, on real documents (bench/relevance/devset/corpus) in a v1 section cache, a v1
// file cache and a v0 cache, in both eras; and resources/list pages through a 10,000-document
// cache with cursors, never more than PAGE_SIZE documents in one message, every document once.
import t from 'tap';
import { join } from 'node:path';
import { main } from '../../lib/cli/main.js';
import { compact, parseJson } from '../../lib/json.js';
import { McpSession } from '../../lib/mcp/session.js';
import { PAGE_SIZE, parseUnitUri, unitUri } from '../../lib/mcp/resources.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { CacheMemo } from '../../lib/core/operations/api.js';
import { REPO } from './spawn-server.js';

const CORPUS = join(REPO, 'bench', 'relevance', 'devset', 'corpus');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

async function build(args: string[]): Promise<void> {
  let err = '';
  const code = await main(['build', ...args], { stdout: () => {}, stderr: (s) => void (err += s), env: { SOURCE_DATE_EPOCH: '0' }, cwd: REPO });
  if (code !== 0) throw new Error(`build failed: ${err}`);
}

/** An in-process session; `stateless` adds the 2026-07-28 envelope, else it initializes first. */
async function sessionOver(cacheRoot: string, stateless: boolean): Promise<{ call: (method: string, params: Record<string, unknown>) => Promise<{ line: string; value: Record<string, unknown> }>; close: () => void }> {
  const memo = new CacheMemo();
  const session = new McpSession({ tools: TOOLS, context: { cacheRoot, projectRoot: cacheRoot, memo }, toolNames: 'dotted', log: () => {} });
  let id = 0;
  const call = async (method: string, params: Record<string, unknown>): Promise<{ line: string; value: Record<string, unknown> }> => {
    const p = stateless ? { ...params, _meta: META } : params;
    const line = (await session.handleLine({ kind: 'line', text: compact({ jsonrpc: '2.0', id: ++id, method, params: p } as never) })) ?? '';
    return { line, value: parseJson(line) as Record<string, unknown> };
  };
  if (!stateless) await call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
  return { call, close: () => memo.close() };
}

const QUERIES = ['how do I configure the output file', 'token count budget', 'install with pip', 'language server symbol search', 'git commit message'];

t.test('resources/read gives exactly resolve\'s unit bytes, on real docs, every engine, both eras', async (t) => {
  const root = t.testdir({});
  await build(['--sources', CORPUS, '--cache', join(root, 'sections'), '--engine', 'v1', '--granularity', 'section']);
  await build(['--sources', CORPUS, '--cache', join(root, 'files'), '--engine', 'v1', '--granularity', 'file']);
  await build(['--sources', CORPUS, '--cache', join(root, 'v0'), '--engine', 'v0']);
  for (const stateless of [true, false]) {
    const s = await sessionOver(root, stateless);
    let compared = 0;
    for (const cache of ['sections', 'files', 'v0']) {
      for (const query of QUERIES) {
        // explain: the explained answer names the units a merged entry joins (documents[].merged).
        const r = await s.call('tools/call', { name: 'context.resolve', arguments: { cache, query, budget: 3000, explain: true } });
        const text = ((r.value['result'] as { content: { text: string }[] }).content[0] as { text: string }).text;
        const answer = parseJson(text) as { documents: { id: string; content: string; merged?: { id: string }[] }[] };
        for (const d of answer.documents) {
          if (d.merged !== undefined) {
            // Adjacent sections merged into one entry ("Answers that fit, by default", item 3):
            // each unit's id names its resource, and the units read back in order make the
            // entry's content.
            let joined = '';
            for (const m of d.merged) {
              const hash = m.id.indexOf('#');
              const uri = unitUri(cache, hash < 0 ? m.id : m.id.slice(0, hash), hash < 0 ? '' : m.id.slice(hash + 1));
              const read = await s.call('resources/read', { uri });
              joined += ((read.value['result'] as { contents: { text: string }[] }).contents[0] as { text: string }).text;
            }
            if (joined !== d.content) t.fail(`${cache} ${d.id}: its merged units read back differ from resolve`);
            else compared++;
            continue;
          }
          const hash = d.id.indexOf('#');
          const path = hash < 0 ? d.id : d.id.slice(0, hash);
          // A section cache names every unit by its slug ("" before the first heading).
          const slug = cache === 'sections' ? (hash < 0 ? '' : d.id.slice(hash + 1)) : null;
          const uri = unitUri(cache, path, slug);
          t.same(parseUnitUri(uri), { cache, path, slug }, `${uri}: the URI parses back`);
          const read = await s.call('resources/read', { uri });
          const contents = (read.value['result'] as { contents: { text: string; uri: string }[] }).contents;
          if (contents[0]?.text !== d.content) t.fail(`${cache} ${d.id}: resources/read differs from resolve`);
          else compared++;
        }
      }
    }
    t.ok(compared > 40, `${stateless ? '2026-07-28' : '2025-11-25'}: ${compared} units read back byte for byte`);
    // The whole document of a section: the concatenation of its sections is the file.
    const firstDoc = ((await s.call('resources/list', {})).value['result'] as { resources: { uri: string; size: number; name: string }[] }).resources[0];
    t.ok(firstDoc !== undefined, 'a first document');
    if (firstDoc !== undefined) {
      const whole = await s.call('resources/read', { uri: firstDoc.uri });
      const text = ((whole.value['result'] as { contents: { text: string }[] }).contents[0] as { text: string }).text;
      t.equal(Buffer.byteLength(text), firstDoc.size, 'a whole document: size as listed');
    }
    s.close();
  }
});

t.test('resources/list pages a 10,000-document cache with cursors', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) files[`d${String(i).padStart(5, '0')}.md`] = `# Doc ${i}\n\nbody ${i}\n`;
  const root = t.testdir({ src: files, caches: {} });
  await build(['--sources', join(root, 'src'), '--cache', join(root, 'caches', 'big'), '--engine', 'v1']);
  const s = await sessionOver(join(root, 'caches'), true);
  const seen = new Set<string>();
  let pages = 0;
  let biggest = 0;
  let cursor: string | undefined;
  do {
    const r = await s.call('resources/list', cursor === undefined ? {} : { cursor });
    const result = r.value['result'] as { resources: { uri: string }[]; nextCursor?: string; ttlMs: number; cacheScope: string };
    pages++;
    biggest = Math.max(biggest, Buffer.byteLength(r.line));
    t.ok(result.resources.length <= PAGE_SIZE, `page ${pages}: at most ${PAGE_SIZE} documents`);
    for (const x of result.resources) seen.add(x.uri);
    if (pages === 1) t.same([result.ttlMs, result.cacheScope], [0, 'private'], 'caching hints on every page');
    cursor = result.nextCursor;
  } while (cursor !== undefined && pages < 1000);
  t.equal(seen.size, 10_000, 'every document listed once');
  t.equal(pages, 10_000 / PAGE_SIZE, 'full pages of PAGE_SIZE, the last without nextCursor');
  t.ok(biggest < 64 * 1024, `the largest page is ${biggest} bytes: the cache never goes into one message`);
  const bad = await s.call('resources/list', { cursor: 'x' });
  t.equal((bad.value['error'] as { code: number }).code, -32602, 'a cursor we did not give: -32602');
  s.close();
});

// Issue 44 item 5(a): docs/mcp.md says "A cursor not given by the server is -32602"; a
// well-formed cursor a client made up (the same base64url JSON the server writes, pointing
// anywhere) was served as a page. Cursors now carry a checksum of what they say.
t.test('a cursor the server did not give is refused, even well-formed; the ones it gives work, on every run', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 250; i++) files[`d${String(i).padStart(3, '0')}.md`] = `doc ${i}\n`;
  const root = t.testdir({ src: files, caches: {} });
  await build(['--sources', join(root, 'src'), '--cache', join(root, 'caches', 'c')]);
  const s = await sessionOver(join(root, 'caches'), true);
  const first = (await s.call('resources/list', {})).value['result'] as { nextCursor: string };
  const given = first.nextCursor;
  const again = await sessionOver(join(root, 'caches'), true);
  t.equal(((await again.call('resources/list', {})).value['result'] as { nextCursor: string }).nextCursor, given, 'the same cursor from another server: deterministic, so transcripts may record it');
  again.close();
  const page = (await s.call('resources/list', { cursor: given })).value['result'] as { resources: { name: string }[] };
  t.equal(page.resources[0]?.name, 'd100.md', 'a given cursor resumes where its page ended');
  const decoded = JSON.parse(Buffer.from(given, 'base64url').toString('utf8')) as Record<string, string>;
  const forge = (v: unknown): string => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');
  const forged: [string, string][] = [
    [forge({ cache: 'c', after: 'd200.md' }), 'well-formed, as the server wrote them before, pointing elsewhere'],
    [forge({ ...decoded, after: 'd200.md' }), 'a given cursor edited to point elsewhere'],
    [forge({ ...decoded, check: '0000000000000000' }), 'a checksum that does not match'],
    [forge({ ...decoded, extra: 1 }), 'a key added'],
    [given.slice(0, -2), 'a given cursor cut short'],
    [given + 'A', 'a given cursor with a character added'],
  ];
  for (const [cursor, what] of forged) {
    const r = await s.call('resources/list', { cursor });
    const error = r.value['error'] as { code: number; message: string } | undefined;
    t.equal(error?.code, -32602, `${what}: -32602`);
    t.equal(error?.message, 'Invalid params: cursor is not one this server gave (use nextCursor as given, or start without one)', `${what}: the documented refusal`);
  }
  s.close();
});

t.test('a cursor crosses from one cache to the next in UTF-8 byte order (house rule: byte order, not UTF-16)', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`d${String(i).padStart(2, '0')}.md`] = `doc ${i}\n`;
  const root = t.testdir({ src: files, caches: {} });
  // U+FF5E sorts before U+1F600 in UTF-8 (EF… < F0…) but after it in UTF-16 (FF5E > D83D).
  for (const name of ['\uFF5E', '\u{1F600}']) await build(['--sources', join(root, 'src'), '--cache', join(root, 'caches', name)]);
  const s = await sessionOver(join(root, 'caches'), true);
  const uris: string[] = [];
  let cursor: string | undefined;
  do {
    const r = (await s.call('resources/list', cursor === undefined ? {} : { cursor })).value['result'] as { resources: { uri: string }[]; nextCursor?: string };
    uris.push(...r.resources.map((x) => x.uri));
    cursor = r.nextCursor;
  } while (cursor !== undefined && uris.length < 1000);
  t.equal(new Set(uris).size, 120, 'both caches, every document once');
  t.equal(uris[0], unitUri('\uFF5E', 'd00.md', null), 'U+FF5E first');
  t.equal(uris[119], unitUri('\u{1F600}', 'd59.md', null), 'U+1F600 last');
  s.close();
});
