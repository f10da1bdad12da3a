// Checks issue 4 "MCP text = CLI stdout bytes" and "a failed verification or a bad input is
// a result with isError: true": each citation tool's text is byte-identical to its CLI
// command's stdout for successes, every refusal reason and invalid input.
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { citeTool } from '../../../lib/mcp/tools/cite.js';
import { claimTool } from '../../../lib/mcp/tools/claim.js';
import { verifyWorkspaceTool } from '../../../lib/mcp/tools/verify-workspace.js';
import { TOOLS } from '../../../lib/mcp/tools/index.js';
import type { Tool } from '../../../lib/mcp/tool.js';
import { runCli } from '../../cli/citation-io.js';

const h8 = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 8);

async function same(t: Test, tool: Tool, args: Record<string, unknown>, argv: string[], cwd: string, isError: boolean) {
  const outcome = await tool.call(args, { cacheRoot: '/nonexistent', projectRoot: cwd });
  const cli = await runCli(argv, cwd);
  t.equal(outcome.text, cli.stdout, `${tool.name} ${argv.slice(1).join(' ')}: same bytes`);
  t.equal(outcome.isError, isError, 'isError');
  t.equal(cli.code === 0, !isError, 'exit 0 exactly when not isError');
}

t.test('the three tools are registered under the seed-style dotted names', async (t) => {
  const names = TOOLS.map((tool) => tool.name);
  for (const name of ['context.cite', 'context.claim', 'context.verify_workspace']) t.ok(names.includes(name), name);
  t.same(citeTool.inputSchema['required'], ['root', 'path', 'start_line', 'end_line']);
  t.same(claimTool.inputSchema['required'], ['root', 'kind', 'path']);
  t.same(verifyWorkspaceTool.inputSchema['required'], ['root']);
});

t.test('cite parity', async (t) => {
  const dir = t.testdir({ 'a.md': 'x\r\ny\n', bin: Buffer.from([0]), bad: Buffer.from([0xfe]), link: t.fixture('symlink', 'a.md'), d: {} });
  const cases: Array<[Record<string, unknown>, boolean]> = [
    [{ path: 'a.md', start_line: 1, end_line: 2 }, false],
    [{ path: 'a.md', start_line: 2, end_line: 9 }, true],
    [{ path: 'bin', start_line: 1, end_line: 1 }, true],
    [{ path: 'bad', start_line: 1, end_line: 1 }, true],
    [{ path: 'link', start_line: 1, end_line: 1 }, true],
    [{ path: 'd', start_line: 1, end_line: 1 }, true],
    [{ path: 'none', start_line: 1, end_line: 1 }, true],
    [{ path: '../x', start_line: 1, end_line: 1 }, true],
    [{ path: '/x', start_line: 1, end_line: 1 }, true],
    [{ path: 'a.md', start_line: 1 }, true],
  ];
  for (const [args, isError] of cases) {
    const argv = ['cite', '--root', '.'];
    if (args['path'] !== undefined) argv.push('--path', String(args['path']));
    if (args['start_line'] !== undefined) argv.push('--start-line', String(args['start_line']));
    if (args['end_line'] !== undefined) argv.push('--end-line', String(args['end_line']));
    await same(t, citeTool, { root: '.', ...args }, argv, dir, isError);
  }
});

t.test('claim parity', async (t) => {
  const dir = t.testdir({});
  for (const [kind, path, isError] of [
    ['exists-dir', 'src/', false],
    ['missing', '.\\x', false],
    ['exists', '../x', true],
    ['exists', '', true],
    ['nope', 'x', true],
  ] as const) {
    await same(t, claimTool, { root: '.', kind, path }, ['claim', '--root', '.', '--kind', kind, '--path', path], dir, isError);
  }
});

t.test('verify parity: text, document, directory, failures, invalid input', async (t) => {
  const good = `[[vctx:a.md#L1-L1@${h8('x')}]]`;
  const dir = t.testdir({ 'a.md': 'x\n', docs: { 'one.md': good, 'two.md': '[[vctx-exists-file:docs]] [[vctx:a.md#L2-L2@00000000]]' } });
  await same(t, verifyWorkspaceTool, { root: '.', text: good }, ['verify-claims', '--root', '.', '--text', good], dir, false);
  await same(t, verifyWorkspaceTool, { root: '.', in_path: 'docs/one.md' }, ['verify-claims', '--root', '.', '--in-path', 'docs/one.md'], dir, false);
  await same(t, verifyWorkspaceTool, { root: '.', in_path: 'docs' }, ['verify-claims', '--root', '.', '--in-path', 'docs'], dir, true);
  await same(t, verifyWorkspaceTool, { root: '.', in_path: 'none.md' }, ['verify-claims', '--root', '.', '--in-path', 'none.md'], dir, true);
  await same(t, verifyWorkspaceTool, { root: '.' }, ['verify-claims', '--root', '.'], dir, true);
  await same(t, verifyWorkspaceTool, { root: '.', in_path: 'a.md', text: '' }, ['verify-claims', '--root', '.', '--in-path', 'a.md', '--text', ''], dir, true);
});

t.test('a relative root is resolved against the server\'s project root', async (t) => {
  const dir = t.testdir({ ws: { 'a.md': 'x' } });
  const outcome = await citeTool.call({ root: 'ws', path: 'a.md', start_line: 1, end_line: 1 }, { cacheRoot: '/c', projectRoot: dir });
  t.equal(outcome.isError, false);
});
