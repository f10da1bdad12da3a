// Checks "Errors that say what to do" (issue: MCP 2026-07-28 beside the handshake eras, item
// 3) for the citation and scope tools: every failure reason has one fixed sentence naming its
// cause and the next step, with no path, stack or OS error code in it; a failed call carries
// it as a second text block, after the CLI's bytes, which stay content[0] and the source of
// structuredContent.
import t from 'tap';
import { join } from 'node:path';
import { REASONS } from '../../lib/core/citations/reasons.js';
import { compact, parseJson } from '../../lib/json.js';
import { McpSession } from '../../lib/mcp/session.js';
import { CITATION_HINTS, citationHint, ROOT_HINT, SCOPE_HINTS } from '../../lib/mcp/tools/failure-hints.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { REPO } from './spawn-server.js';

const ALL = [...Object.entries(CITATION_HINTS), ...Object.entries(SCOPE_HINTS), ['root', ROOT_HINT] as [string, string]];

t.test('each sentence: cause, then next step; no path, stack or OS code', async (t) => {
  t.same(Object.keys(CITATION_HINTS).sort(), [...REASONS].sort(), 'one sentence per citation reason');
  for (const [name, hint] of ALL) {
    t.match(hint, /^[A-Z][^:]+: .+\.$/, `${name}: "cause: next step."`);
    t.notMatch(hint, /(^|\s)\/[A-Za-z]/, `${name}: no absolute path`);
    t.notMatch(hint, /\bE[A-Z]{3,}\b|\bat .+:\d+|Error:/, `${name}: no OS code or stack`);
  }
  t.equal(citationHint('{"ok":false,"reason":"range_invalid"}\n'), CITATION_HINTS.range_invalid, 'a refusal: its reason\'s sentence');
  t.equal(citationHint('not json'), CITATION_HINTS.invalid_input, 'unreadable text: the arguments sentence');
  t.match(citationHint('{"ok":false,"results":[{"ok":false,"reason":"hash_mismatch"},{"ok":false,"reason":"file_missing"}]}'), /^Some claims no longer hold\. file_missing: .+ hash_mismatch: /, 'a report: each distinct reason, in byte order');
});

t.test('a failed call carries the sentence after the answer; a success carries none', async (t) => {
  const ws = join(REPO, 'conformance', 'citations', 'ws');
  const project = join(REPO, 'conformance', 'scopes', 'project');
  const session = new McpSession({ tools: TOOLS, context: { cacheRoot: '/nowhere', projectRoot: REPO }, toolNames: 'dotted', log: () => {} });
  let id = 0;
  const call = async (name: string, args: Record<string, unknown>): Promise<{ content: { text: string }[]; isError?: boolean; structuredContent: unknown }> => {
    const line = await session.handleLine({
      kind: 'line',
      text: compact({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } } as never),
    });
    return (parseJson(line ?? '') as { result: { content: { text: string }[]; isError?: boolean; structuredContent: unknown } }).result;
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ['context.cite', { root: ws, path: 'src/none.py', start_line: 1, end_line: 1 }, CITATION_HINTS.file_missing],
    ['context.cite', { root: ws, path: 'src/calc.py', start_line: 0, end_line: 1 }, CITATION_HINTS.range_invalid],
    ['context.cite', { root: '/', path: 'etc/hosts', start_line: 1, end_line: 1 }, ROOT_HINT],
    ['context.claim', { root: ws, kind: 'exists-dir', path: '../x' }, CITATION_HINTS.path_escape],
    ['context.verify_workspace', { root: ws, in_path: 'docs/none.md' }, CITATION_HINTS.file_missing],
    ['context.check_freshness', { scope: 'nowhere', path: project }, SCOPE_HINTS.missing],
    ['context.query_context', { scope: '../..', path: project }, SCOPE_HINTS.traversal],
    ['context.query_context', { scope: 5, path: project }, SCOPE_HINTS.arguments],
  ];
  for (const [name, args, hint] of cases) {
    const r = await call(name, args);
    t.equal(r.isError, true, `${name}: failed`);
    t.equal(r.content[1]?.text, hint, `${name}: the sentence for its cause`);
    t.same(r.structuredContent, parseJson(r.content[0]?.text ?? ''), `${name}: structuredContent is content[0] parsed`);
  }
  const ok = await call('context.cite', { root: ws, path: 'src/calc.py', start_line: 1, end_line: 2 });
  t.equal(ok.content.length, 1, 'a success: the answer only');
});
