// Checks "The Inspector usable as documented" (issue: MCP 2026-07-28 beside the handshake
// eras, item 5): the README's MCP Inspector lines, taken from the README itself (the shell
// block after the `inspector-cli:` marker), run exactly as written from the repository's root
// with a host's minimal environment, exit 0, and print what the server answers: the tool
// list, then a resolve whose structuredContent is its text parsed.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseJson } from '../../lib/json.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { REPO } from './spawn-server.js';

function readmeLines(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const marker = readme.indexOf('<!-- inspector-cli:');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(marker));
  return (block?.[1] ?? '').split('\n').filter((l) => l.trim() !== '');
}

t.test('the README\'s Inspector lines run as written', async (t) => {
  const lines = readmeLines();
  t.equal(lines.length, 3, 'build, tools/list, tools/call');
  const home = t.testdir({});
  const outs: string[] = [];
  for (const line of lines) {
    // A person's shell from the repository's root. tap adds its loader hook to every child's
    // NODE_OPTIONS, which a person's shell does not have: the line itself runs unchanged.
    const r = spawnSync('/bin/sh', ['-c', `unset NODE_OPTIONS\n${line}`], {
      cwd: REPO,
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home },
      encoding: 'utf8',
      timeout: 120_000,
    });
    t.equal(r.status, 0, `exit 0: ${line.slice(0, 60)}…`, { stderr: r.stderr });
    outs.push(r.stdout);
  }
  const listed = parseJson(outs[1] ?? '') as { tools: { name: string }[] };
  t.same(listed.tools.map((x) => x.name), TOOLS.map((x) => x.name), 'tools/list: every tool');
  const called = parseJson(outs[2] ?? '') as { content: { text: string }[]; structuredContent: { documents: unknown[] } };
  t.same(called.structuredContent, parseJson(called.content[0]?.text ?? ''), 'tools/call: structuredContent is the text parsed');
  t.ok(called.structuredContent.documents.length > 0, 'the question found documents');
});
