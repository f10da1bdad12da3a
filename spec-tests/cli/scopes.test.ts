// Checks issue 5 "CLI" (`context scopes|freshness|show|rehash`, flags, exit codes) and
// "CLI/MCP parity tested": each scope tool's text is byte-identical to the matching
// command's stdout, and isError holds exactly when the command exits non-zero.
import t from 'tap';
import { ROOT_HINT } from '../../lib/mcp/tools/failure-hints.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../lib/cli/main.js';
import type { CliIo } from '../../lib/cli/command.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import type { ToolContext } from '../../lib/mcp/tool.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const contentPrint = (files: Record<string, string>): string =>
  sha(Object.entries(files).map(([n, b]) => `${n}:${sha(b)}`).sort().join('\n')).slice(0, 8);

const FILES = { 'a.ts': 'export const a = 1;\n' };
const context = (scope: string, fingerprint: string, version = 1): string =>
  `# kept\nversion: ${version}\nlast_updated: "2026-02-13T10:00:00Z"\nfingerprint: "${fingerprint}"\n` +
  `scope: "${scope}"\nsummary: "About ${scope}."\nmaintenance: "Keep updated"\ndecisions:\n  - what: w\n    why: y\n`;

const project = () => ({
  '.context.config.yaml': 'min_tokens: 0\n',
  src: { ...FILES, '.context.yaml': context('src', contentPrint(FILES)) },
  stale: { 'b.ts': 'b', '.context.yaml': context('stale', 'deadbeef') },
  v2: { 'c.ts': 'c', '.context.yaml': context('v2', 'x', 2) },
  bad: { 'd.ts': 'd', '.context.yaml': 'version: 1\n' },
  none: { 'e.ts': 'e' },
});

async function run(argv: string[], cwd: string, env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), env, cwd };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function callTool(name: string, args: Record<string, unknown>, projectRoot: string) {
  const tool = TOOLS.find((x) => x.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  const ctx: ToolContext = { cacheRoot: '/nonexistent', projectRoot };
  return tool.call(args, ctx);
}

t.test('the three tools are registered under the seed\'s names', async (t) => {
  for (const name of ['context.list_contexts', 'context.check_freshness', 'context.query_context']) {
    t.ok(TOOLS.some((x) => x.name === name), name);
  }
});

t.test('context scopes', async (t) => {
  const root = t.testdir(project());
  const out = await run(['scopes'], root);
  t.equal(out.code, 0);
  t.equal(out.stderr, '');
  const body = JSON.parse(out.stdout);
  t.equal(body.root, '.');
  t.same(body.entries.map((e: { scope: string; state: string }) => `${e.scope}:${e.state}`),
    ['.:missing', 'bad:missing', 'none:missing', 'src:fresh', 'stale:stale', 'v2:missing']);
  const elsewhere = await run(['scopes', '--root', 'nope'], root);
  t.equal(elsewhere.code, 8, 'a scan failure is a failed answer (isError), exit 8');
  t.equal(JSON.parse(elsewhere.stdout).error, 'Failed to scan project at "nope"');
  t.match(elsewhere.stderr, 'Failed to scan project');
  t.equal(
    elsewhere.stderr,
    'context scopes: Failed to scan project at "nope": cannot read "." (ENOENT: no such file or directory)\n',
    'issue 11: the stderr line says why the scan failed',
  );
});

t.test('context freshness: stale exits 0, every error answer exits 8 (lib/errors.ts EXIT_ANSWER_FAILED)', async (t) => {
  const root = t.testdir(project());
  t.equal((await run(['freshness', '--scope', 'src'], root)).code, 0);
  t.equal((await run(['freshness', '--scope', 'stale'], root)).code, 0, 'stale is an answer');
  t.equal((await run(['freshness', '--scope', 'none'], root)).code, 8, 'missing');
  t.equal((await run(['freshness', '--scope', '../..'], root)).code, 8, 'traversal');
  t.equal((await run(['freshness', '--scope', 'v2'], root)).code, 8, 'unsupported');
  t.equal((await run(['freshness', '--scope', 'bad'], root)).code, 8, 'corrupt');
  const usage = await run(['freshness'], root);
  t.equal(usage.code, 1);
  t.equal(usage.stdout, '');
});

t.test('context show --filter', async (t) => {
  const root = t.testdir(project());
  const out = await run(['show', '--scope', 'src', '--filter', 'summary, decisions', '--root', '.'], root);
  t.equal(out.code, 0);
  t.same(Object.keys(JSON.parse(out.stdout).context), ['version', 'scope', 'fingerprint', 'last_updated', 'summary', 'decisions']);
});

t.test('context rehash: --scope or --all, time from SOURCE_DATE_EPOCH', async (t) => {
  const root = t.testdir(project());
  t.equal((await run(['rehash'], root)).code, 1, 'neither flag');
  t.equal((await run(['rehash', '--all', '--scope', 'src'], root)).code, 1, 'both flags');
  const out = await run(['rehash', '--scope', 'stale'], root, { SOURCE_DATE_EPOCH: '1800000000' });
  t.equal(out.code, 0, out.stderr);
  const text = readFileSync(join(root, 'stale/.context.yaml'), 'utf8');
  t.equal(text, context('stale', contentPrint({ 'b.ts': 'b' })).replace('"2026-02-13T10:00:00Z"', '"2027-01-15T08:00:00Z"'));
  t.equal((await run(['freshness', '--scope', 'stale'], root)).stdout.includes('"state": "fresh"'), true);
  const all = await run(['rehash', '--all'], root, { SOURCE_DATE_EPOCH: '1800000000' });
  t.equal(all.code, 8, 'the corrupt and v2 files were skipped');
  t.same(JSON.parse(all.stdout).entries.map((e: { result: string }) => e.result), ['skipped', 'unchanged', 'unchanged', 'skipped']);
});

t.test('issue 11: the CLI takes any root; the tool refuses one outside the project root', async (t) => {
  const root = t.testdir(project());
  const cli = await run(['scopes', '--root', '/nonexistent/path'], root);
  t.equal(JSON.parse(cli.stdout).root, '/nonexistent/path', 'a person may name any root');
  for (const path of ['/nonexistent/path', '/', '..', '../..', 'src/../..']) {
    const mcp = await callTool('context.list_contexts', { path }, root);
    // The refusal's bytes, and its fixed next-step sentence (lib/mcp/tools/failure-hints.ts).
    t.same(mcp, { text: '{"error":{"code":"root_not_allowed","message":"Root is outside the roots this server may read"}}\n', isError: true, hint: ROOT_HINT }, `path ${path}`);
  }
});

t.test('parity: tool text === CLI stdout, isError === (exit != 0)', async (t) => {
  const root = t.testdir(project());
  const cases: { argv: string[]; tool: string; args: Record<string, unknown> }[] = [
    { argv: ['scopes'], tool: 'context.list_contexts', args: {} },
    { argv: ['scopes', '--root', 'src'], tool: 'context.list_contexts', args: { path: 'src' } },
    { argv: ['scopes', '--root', 'nonexistent/path'], tool: 'context.list_contexts', args: { path: 'nonexistent/path' } },
  ];
  for (const scope of ['src', 'stale', 'v2', 'bad', 'none', 'nowhere', '../../etc', 'src\\', '.']) {
    cases.push({ argv: ['freshness', '--scope', scope], tool: 'context.check_freshness', args: { scope } });
    cases.push({ argv: ['show', '--scope', scope], tool: 'context.query_context', args: { scope } });
    cases.push({
      argv: ['show', '--scope', scope, '--filter', 'decisions,summary'],
      tool: 'context.query_context',
      args: { scope, filter: ['decisions', 'summary'] },
    });
  }
  for (const c of cases) {
    const cli = await run(c.argv, root);
    const mcp = await callTool(c.tool, c.args, root);
    t.equal(mcp.text, cli.stdout, `${c.argv.join(' ')}: same bytes`);
    t.equal(mcp.isError, cli.code !== 0, `${c.argv.join(' ')}: isError iff non-zero exit`);
  }
});
