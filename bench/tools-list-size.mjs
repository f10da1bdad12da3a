// `node bench/tools-list-size.mjs` (after `npm run build`): how big `tools/list` gets when
// context.resolve's cache property names the caches (docs/mcp.md "Caches by name"). For 0,
// 1, 10, 32 and 100 labelled v1 caches under a root, it starts `bin/context mcp`, lists the
// tools at 2025-11-25 and prints the reply's bytes and o200k_base tokens, and the same with
// the enum cut off (the plain property). Names and labels are of a realistic length:
// "lib-NN" and "org-NN/library-NN@1.NN.0". Deterministic: same figures on every run.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { enumProperty, ENUM_MAX_CACHES } from '../dist/mcp/cache-choice.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'context');
const work = mkdtempSync(join(tmpdir(), 'tools-list-size-'));
const docs = join(work, 'docs');
mkdirSync(docs);
writeFileSync(join(docs, 'a.md'), '# A\n\nSome text.\n');
const seed = join(work, 'seed');
const built = spawnSync(process.execPath, [bin, 'build', '--sources', docs, '--cache', seed, '--label', 'seed'], { encoding: 'utf8', env: { ...process.env, SOURCE_DATE_EPOCH: '0' } });
if (built.status !== 0) throw new Error(built.stderr);

function listing(count) {
  const root = join(work, `root-${count}`);
  mkdirSync(root);
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(2, '0');
    const dir = join(root, `lib-${n}`);
    cpSync(seed, dir, { recursive: true });
    const m = join(dir, 'manifest.json');
    writeFileSync(m, readFileSync(m, 'utf8').replace('"label": "seed"', `"label": "org-${n}/library-${n}@1.${n}.0"`));
  }
  const input = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'size', version: '1' } } },
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  ].map((m) => JSON.stringify(m) + '\n').join('');
  const r = spawnSync(process.execPath, [bin, 'mcp', '--cache-root', root], { input, encoding: 'utf8' });
  const line = r.stdout.split('\n').find((l) => l.includes('"id":1'));
  return line;
}

const rows = [];
const name = (i) => `lib-${String(i).padStart(2, '0')}`;
const label = (i) => { const n = String(i).padStart(2, '0'); return `org-${n}/library-${n}@1.${n}.0`; };
const base = listing(0);
const tokens = (text) => encode(text).length;
/** The reply `line` with the resolve tool's cache property replaced (keys sorted, as the server writes them). */
function withProperty(line, property) {
  const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
  const reply = JSON.parse(line);
  reply.result.tools.find((t) => t.name === 'context.resolve').inputSchema.properties.cache = property;
  const { jsonrpc, id, result } = reply;
  return JSON.stringify({ jsonrpc, id, result: sorted(result) });
}
for (const count of [0, 1, 10, 32, 33, 100]) {
  const line = count === 0 ? base : listing(count);
  const names = Array.from({ length: count }, (_, i) => name(i));
  const asEnum = count === 0 ? line : withProperty(base, enumProperty(names, new Map(names.map((n, i) => [n, label(i)]))));
  if (count > 0 && count <= ENUM_MAX_CACHES && asEnum !== line) throw new Error(`the server's reply at ${count} caches is not the enum form measured here`);
  rows.push({
    caches: count,
    served: JSON.stringify(JSON.parse(line).result.tools.find((t) => t.name === 'context.resolve').inputSchema.properties.cache).includes('"enum"') ? 'enum' : 'plain',
    'served bytes': Buffer.byteLength(line),
    'served tokens': tokens(line),
    'enum bytes': Buffer.byteLength(asEnum),
    'enum tokens': tokens(asEnum),
    'enum over 0 caches': `${(((tokens(asEnum) - tokens(base)) / tokens(base)) * 100).toFixed(1)} %`,
  });
}
console.table(rows);
rmSync(work, { recursive: true, force: true });
