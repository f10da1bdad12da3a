// Checks issue 12 item 6 "Third-party clients in the tests: besides the official SDK
// client, drive the server with the official MCP Inspector in CLI mode (a dev dependency):
// tools/list and one tools/call per tool, structured results included". The Inspector's
// CLI (@modelcontextprotocol/inspector-cli 1.0.3, exact-pinned: the 2.x Inspector needs
// Node >= 22.19, this project supports Node 20) spawns `bin/context mcp` as a host would,
// exactly as a person runs `npx @modelcontextprotocol/inspector --cli ...`.
//
// Its one quirk: 1.0.3 finds its own package.json with a path tested against the working
// directory but imported relative to its module (index.js, callMethod), so it starts only
// from a directory whose parent holds a package.json. The test works in such a directory.
import t from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseJson } from '../../lib/json.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { BIN, REPO } from './spawn-server.js';

const require = createRequire(import.meta.url);
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'cli.js');
const validate = new Map(TOOLS.map((tool) => [tool.name, new Ajv2020({ strict: false, allowUnionTypes: true }).compile(tool.outputSchema)]));

interface Result {
  code: number | null;
  out: string;
  err: string;
}

/** `mcp-inspector-cli --cli node bin/context mcp ... --method ...`, from `cwd`. */
function inspect(cwd: string, server: string[], method: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    // tap's loader hook in NODE_OPTIONS must not reach the Inspector's children (the bin).
    const child = spawn('/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, INSPECTOR, '--cli', process.execPath, BIN, 'mcp', ...server, ...method], {
      cwd,
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: cwd },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

t.test('the MCP Inspector CLI: tools/list, then one tools/call per tool, structured results included', async (t) => {
  const base = t.testdir({ 'package.json': '{"name":"inspector-workdir","private":true}\n', work: { caches: {} } });
  const work = join(base, 'work');
  // The project the server serves: caches, a citation workspace, a scoped project, docs.
  cpSync(join(REPO, 'conformance', 'mcp', 'caches', 'minimal'), join(work, 'caches', 'minimal'), { recursive: true });
  cpSync(join(REPO, 'conformance', 'citations', 'ws'), join(work, 'ws'), { recursive: true });
  cpSync(join(REPO, 'conformance', 'scopes', 'project'), join(work, 'project'), { recursive: true });
  mkdirSync(join(work, 'docs'));
  writeFileSync(join(work, 'docs', 'guide.md'), '# Guide\n\nRoll back a deployment in two steps.\n');
  const server = ['--cache-root', 'caches'];

  const listed = await inspect(work, server, ['--method', 'tools/list']);
  t.equal(listed.code, 0, 'tools/list: exit 0', { stderr: listed.err });
  const tools = (parseJson(listed.out) as { tools: { name: string; title?: string; outputSchema?: { type: string }; annotations?: object }[] }).tools;
  t.same(tools.map((x) => x.name), TOOLS.map((x) => x.name), 'every tool, in table order');
  for (const tool of tools) {
    t.ok(tool.title !== undefined && tool.outputSchema?.type === 'object' && tool.annotations !== undefined, `${tool.name}: title, outputSchema, annotations`);
  }

  const calls: [string, string[]][] = [
    ['context.resolve', ['cache=minimal', 'query=hello', 'budget=100']],
    ['context.list_caches', []],
    ['context.inspect_cache', ['cache=minimal']],
    ['context.cite', ['root=ws', 'path=src/calc.py', 'start_line=1', 'end_line=2']],
    ['context.claim', ['root=ws', 'kind=exists-dir', 'path=src/']],
    ['context.verify_workspace', ['root=ws', 'in_path=docs']],
    ['context.list_contexts', ['path=project']],
    ['context.check_freshness', ['scope=src/core', 'path=project']],
    ['context.query_context', ['scope=src/core', 'filter=["summary"]', 'path=project']],
    ['context.status', ['cache=minimal']],
    ['context.build', ['sources=docs', 'cache=guide']],
  ];
  t.same(calls.map((c) => c[0]).sort(), TOOLS.map((x) => x.name).sort(), 'one call per tool');
  for (const [name, args] of calls) {
    const r = await inspect(work, server, ['--method', 'tools/call', '--tool-name', name, ...args.flatMap((a) => ['--tool-arg', a])]);
    t.equal(r.code, 0, `${name}: exit 0`, { stderr: r.err });
    const result = parseJson(r.out) as { content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean };
    t.notOk(result.isError, `${name}: a success`, { text: result.content[0]?.text });
    t.same(result.structuredContent, parseJson(result.content[0]?.text ?? ''), `${name}: structuredContent is the text's JSON value`);
    t.ok(validate.get(name)?.(result.structuredContent), `${name}: and valid against its outputSchema`);
  }

  const after = await inspect(work, server, ['--method', 'tools/call', '--tool-name', 'context.resolve', '--tool-arg', 'cache=guide', '--tool-arg', 'query=deployment', '--tool-arg', 'budget=600']);
  // The lean answer (issue 43): the one matching section, its short version and matched term.
  const lean = parseJson(after.out) as { content: { text: string }[]; structuredContent: { documents: { id: string; version: string; matched: string }[]; selection: { budget: number; matched: number } } };
  t.same(lean.structuredContent.documents.map((d) => [d.id, /^[0-9a-f]{8}$/.test(d.version), d.matched]), [['guide.md#guide', true, 'deployment']], 'the cache context.build wrote resolves');
  t.equal(lean.structuredContent.selection.matched, 1, 'one unit matched');
  t.ok(validate.get('context.resolve')?.(lean.structuredContent), 'the lean answer is valid against the outputSchema');
  // The explained and the Markdown answers, as the Inspector passes format and explain.
  const explained = await inspect(work, server, ['--method', 'tools/call', '--tool-name', 'context.resolve', '--tool-arg', 'cache=guide', '--tool-arg', 'query=deployment', '--tool-arg', 'budget=600', '--tool-arg', 'explain=true']);
  t.match(explained.out, /"documents_selected": 1/, 'explain=true: every count');
  const markdown = await inspect(work, server, ['--method', 'tools/call', '--tool-name', 'context.resolve', '--tool-arg', 'cache=guide', '--tool-arg', 'query=deployment', '--tool-arg', 'budget=600', '--tool-arg', 'format=markdown']);
  const md = parseJson(markdown.out) as { content: { text: string }[]; structuredContent: { markdown: string } };
  t.match(md.content[0]?.text ?? '', /^\[1\] guide\.md#guide @[0-9a-f]{8} \| matched: deployment\n# Guide\n/, 'format=markdown: the entry under its header line');
  t.same(md.structuredContent, { markdown: md.content[0]?.text }, 'format=markdown: structuredContent is {"markdown": TEXT}');
  t.ok(validate.get('context.resolve')?.(md.structuredContent), 'and valid against the outputSchema');
  const readOnly = await inspect(work, [...server, '--read-only'], ['--method', 'tools/list']);
  t.notMatch(readOnly.out, /context\.build/, '--read-only: the Inspector sees no context.build');
});
