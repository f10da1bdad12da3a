// Checks issue 4 "Verification": exactly one of a document path or inline text; the text's
// line endings normalised first; all citations, then all structure claims, in order of
// appearance; ok only when nothing failed; "Go beyond": folders and moved spans.
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { verifyText, verifyWorkspace } from '../../../lib/core/citations/verify.js';
import { openWorkspace } from '../../../lib/core/citations/workspace.js';
import { nodeWorkspaceFs, type WorkspaceFs } from '../../../lib/core/citations/workspace-fs.js';

const h8 = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 8);
const SRC = 'line 1\nline 2\nline 3\n';
const GOOD = `[[vctx:src.txt#L2-L3@${h8('line 2\nline 3')}]]`;

function workspace(t: Test, tree: Parameters<Test['testdir']>[0]) {
  return openWorkspace(nodeWorkspaceFs, t.testdir(tree));
}

t.test('citations first, then structure claims, each in order of appearance', async (t) => {
  const ws = workspace(t, { 'src.txt': SRC, dir: {} });
  const text = `[[vctx-exists-dir:dir/]] ${GOOD} [[vctx-missing:gone]] [[vctx:src.txt#L1-L1@00000000]]`;
  const report = verifyText(ws, text);
  t.same(report.results.map((r) => [r.kind, r.claim, r.ok, r.reason]), [
    ['citation', GOOD, true, undefined],
    ['citation', '[[vctx:src.txt#L1-L1@00000000]]', false, 'hash_mismatch'],
    ['structure', '[[vctx-exists-dir:dir/]]', true, undefined],
    ['structure', '[[vctx-missing:gone]]', true, undefined],
  ]);
  t.same([report.ok, report.total, report.okCount, report.failCount], [false, 4, 3, 1]);
});

t.test('ok only when nothing failed; no tokens is ok', async (t) => {
  const ws = workspace(t, { 'src.txt': SRC });
  t.same(verifyText(ws, `<!-- ${GOOD} -->`), { ok: true, total: 1, okCount: 1, failCount: 0, results: [{ claim: GOOD, kind: 'citation', ok: true }] });
  t.same(verifyText(ws, 'no tokens here'), { ok: true, total: 0, okCount: 0, failCount: 0, results: [] });
});

t.test('the cited file may be CRLF; a CRLF document is normalised first', async (t) => {
  const ws = workspace(t, { 'src.txt': 'line 1\r\nline 2\r\nline 3\r\n' });
  t.equal(verifyText(ws, GOOD).ok, true, 'CRLF file, LF-hashed span');
  // A structure claim whose path spans a CRLF line break: normalised to LF before parsing.
  const ws2 = workspace(t, { 'a\nb': 'x' });
  t.equal(verifyText(ws2, '[[vctx-exists-file:a\r\nb]]').ok, true);
});

t.test('every citation failure reason', async (t) => {
  const base = t.testdir({
    outside: { 'o.txt': 'o' },
    root: {
      'src.txt': SRC,
      'bin': Buffer.from([1, 0, 2]),
      'latin1': Buffer.from([0xe9]),
      'link': t.fixture('symlink', 'src.txt'),
      'dir': {},
      'esc': t.fixture('symlink', '../outside'),
    },
  });
  const ws = openWorkspace(nodeWorkspaceFs, join(base, 'root'));
  const reasons = (text: string) => verifyText(ws, text).results.map((r) => r.reason);
  t.same(
    reasons(
      [
        '[[vctx:../outside/o.txt#L1-L1@00000000]]',
        '[[vctx:esc/o.txt#L1-L1@00000000]]',
        '[[vctx:/etc/passwd#L1-L1@00000000]]',
        '[[vctx:.#L1-L1@00000000]]',
        '[[vctx:nope.txt#L1-L1@00000000]]',
        '[[vctx:dir#L1-L1@00000000]]',
        '[[vctx:link#L1-L1@00000000]]',
        '[[vctx:bin#L1-L1@00000000]]',
        '[[vctx:latin1#L1-L1@00000000]]',
        '[[vctx:src.txt#L0-L1@00000000]]',
        '[[vctx:src.txt#L3-L2@00000000]]',
        '[[vctx:src.txt#L1-L5@00000000]]',
        '[[vctx:src.txt#L1-L1@00000000]]',
      ].join('\n'),
    ),
    [
      'path_escape',
      'path_escape',
      'invalid_path',
      'invalid_path',
      'file_missing',
      'not_a_file',
      'symlink_skipped',
      'binary_file',
      'invalid_utf8',
      'range_invalid',
      'range_invalid',
      'range_invalid',
      'hash_mismatch',
    ],
  );
});

t.test('a moved span is reported with the corrected token', async (t) => {
  const ws = workspace(t, { 'src.txt': 'inserted\nline 1\nline 2\nline 3\n' });
  const [check] = verifyText(ws, GOOD.replace('src.txt', './src.txt')).results;
  t.same(check, {
    claim: GOOD.replace('src.txt', './src.txt'),
    kind: 'citation',
    ok: false,
    reason: 'hash_mismatch',
    movedTo: [{ startLine: 3, endLine: 4, citation: `[[vctx:src.txt#L3-L4@${h8('line 2\nline 3')}]]` }],
  });
  const shrunk = workspace(t, { 'src.txt': 'line 2\nline 3' });
  const [gone] = verifyText(shrunk, `[[vctx:src.txt#L9-L10@${h8('line 2\nline 3')}]]`).results;
  t.same([gone?.reason, gone?.movedTo?.map((m) => [m.startLine, m.endLine])], ['range_invalid', [[1, 2]]], 'moved up past the old range');
  const edited = workspace(t, { 'src.txt': 'line 1\nline two\nline 3\n' });
  t.equal(verifyText(edited, GOOD).results[0]?.movedTo, undefined, 'an edited span has nowhere to be');
});

t.test('a document under the root', async (t) => {
  const ws = workspace(t, {
    'src.txt': SRC,
    'doc.md': `# Doc\r\n<!-- ${GOOD} -->\r\n`,
    'bin.md': Buffer.from([0]),
    'bad.md': Buffer.from([0xc3, 0x28]),
    'link.md': t.fixture('symlink', 'doc.md'),
  });
  const doc = verifyWorkspace(ws, { inPath: 'doc.md' });
  t.same(doc.shape === 'document' && [doc.report.ok, doc.report.total], [true, 1]);
  t.same(verifyWorkspace(ws, { inPath: 'none.md' }), { shape: 'refused', reason: 'file_missing' });
  t.same(verifyWorkspace(ws, { inPath: 'bin.md' }), { shape: 'refused', reason: 'binary_file' });
  t.same(verifyWorkspace(ws, { inPath: 'bad.md' }), { shape: 'refused', reason: 'invalid_utf8' });
  t.same(verifyWorkspace(ws, { inPath: 'link.md' }), { shape: 'refused', reason: 'symlink_skipped' });
  t.same(verifyWorkspace(ws, { inPath: '../x.md' }), { shape: 'refused', reason: 'path_escape' });
  t.same(verifyWorkspace(ws, { inPath: '/x.md' }), { shape: 'refused', reason: 'invalid_path' });
  t.same(verifyWorkspace(ws, { inPath: '' }), { shape: 'refused', reason: 'invalid_path' });
  const inline = verifyWorkspace(ws, { text: GOOD });
  t.same(inline.shape === 'document' && inline.report.ok, true);
});

t.test('a directory: every Markdown file under it, grouped per file, byte order', async (t) => {
  const ws = workspace(t, {
    'src.txt': SRC,
    docs: {
      'b.md': GOOD,
      'a.MD': '[[vctx-exists:nothing]]',
      'a.md.txt': '[[vctx-exists:ignored-not-markdown]]',
      'Z.markdown': '',
      a: { 'z.md': GOOD },
      'bin.md': Buffer.from([0]),
      'link.md': t.fixture('symlink', 'b.md'),
      'linkdir': t.fixture('symlink', 'a'),
      node_modules: { 'x.md': '[[vctx-exists:never-read]]' },
      '.git': { 'y.md': '[[vctx-exists:never-read]]' },
    },
  });
  const out = verifyWorkspace(ws, { inPath: 'docs/' });
  if (out.shape !== 'directory') throw new Error('expected a directory report');
  t.same(out.files.map((f) => f.path), ['docs/Z.markdown', 'docs/a.MD', 'docs/a/z.md', 'docs/b.md', 'docs/bin.md'],
    'UTF-8 byte order of the root-relative path; symlinks, node_modules and .git skipped');
  t.same(out.files.map((f) => [f.report.ok, f.report.total, f.reason]), [
    [true, 0, undefined],
    [false, 1, undefined],
    [true, 1, undefined],
    [true, 1, undefined],
    [false, 0, 'binary_file'],
  ]);
  t.same([out.ok, out.totals.total, out.totals.okCount, out.totals.failCount], [false, 3, 2, 1]);
  const empty = verifyWorkspace(workspace(t, { d: {} }), { inPath: 'd' });
  t.same(empty.shape === 'directory' && [empty.ok, empty.files.length], [true, 0], 'no Markdown: nothing failed');
});

t.test('an unreadable directory is io_error, not an empty pass', async (t) => {
  const fs: WorkspaceFs = {
    realPath: (p) => p,
    lstat: () => 'dir',
    readFile: () => new Uint8Array(),
    readDir: () => { throw Object.assign(new Error('denied'), { code: 'EACCES' }); },
  };
  t.same(verifyWorkspace(openWorkspace(fs, '/r'), { inPath: 'docs' }), { shape: 'refused', reason: 'io_error' });
});

t.test('one snapshot per verification: a file cited twice is read once', async (t) => {
  const dir = t.testdir({ 'src.txt': SRC });
  let reads = 0;
  const fs: WorkspaceFs = { ...nodeWorkspaceFs, readFile: (p) => { reads++; return nodeWorkspaceFs.readFile(p); } };
  t.equal(verifyText(openWorkspace(fs, dir), `${GOOD} ${GOOD} ${GOOD}`).okCount, 3);
  t.equal(reads, 1);
});

t.test('seed 002\'s document: 15 tokens, citations first, then structure claims, each in order', async (t) => {
  // The token comments of seed 002, in the seed's order (structure claims come first there).
  const seed = [
    '<!-- [[vctx-exists-dir:src/mcp/]] -->',
    '`src/cite/`\n<!-- [[vctx-exists-dir:src/cite/]] -->\nand `src/verify/`.\n<!-- [[vctx-exists-dir:src/verify/]] -->',
    '<!-- [[vctx-exists-file:src/mcp/server.ts]] -->\n<!-- [[vctx:src/mcp/server.ts#L1-L72@c68412d1]] -->',
    '<!-- [[vctx:src/mcp/server.ts#L9-L13@7642c05e]] -->',
    '<!-- [[vctx:src/mcp/server.ts#L15-L72@f04e2724]] -->',
    '   <!-- [[vctx:src/mcp/server.ts#L70-L72@13a0f1b6]] -->',
    '<!-- [[vctx:src/mcp/server.ts#L21-L36@3aa3ce74]] -->',
    '<!-- [[vctx:src/mcp/server.ts#L38-L52@47558dbf]] -->',
    '<!-- [[vctx:src/mcp/server.ts#L54-L68@ebec77b3]] -->',
    '  <!-- [[vctx-exists-dir:src/cite/]] -->\n  <!-- [[vctx-exists-dir:src/verify/]] -->',
    '  <!-- [[vctx-exists-dir:src/core/]] -->\n  <!-- [[vctx-exists-dir:src/cite/]] -->',
  ].join('\n\n');
  const ws = workspace(t, { src: { mcp: {}, cite: {}, verify: {}, core: {} } });
  const report = verifyText(ws, seed);
  t.equal(report.total, 15);
  t.same(report.results.map((r) => r.kind), [...Array(7).fill('citation'), ...Array(8).fill('structure')]);
  t.same(report.results.slice(0, 7).map((r) => r.claim.replace(/^.*#(L\d+-L\d+)@.*$/, '$1')), ['L1-L72', 'L9-L13', 'L15-L72', 'L70-L72', 'L21-L36', 'L38-L52', 'L54-L68']);
  t.same(report.results.slice(0, 7).map((r) => r.reason), Array(7).fill('file_missing'), 'server.ts is not in this workspace');
  t.same(report.results.slice(7).map((r) => [r.claim, r.ok, r.reason]), [
    ['[[vctx-exists-dir:src/mcp/]]', true, undefined],
    ['[[vctx-exists-dir:src/cite/]]', true, undefined],
    ['[[vctx-exists-dir:src/verify/]]', true, undefined],
    ['[[vctx-exists-file:src/mcp/server.ts]]', false, 'missing'],
    ['[[vctx-exists-dir:src/cite/]]', true, undefined],
    ['[[vctx-exists-dir:src/verify/]]', true, undefined],
    ['[[vctx-exists-dir:src/core/]]', true, undefined],
    ['[[vctx-exists-dir:src/cite/]]', true, undefined],
  ]);
});
