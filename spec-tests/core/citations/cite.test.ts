// Checks issue 4 "What to build" (cite, claim): a citation renders PATH#LSTART-LEND@HASH8
// with the normalised path and reports sha256_full; a claim normalises its path and an
// exists-dir claim keeps a trailing `/` when given one. Every read failure is a reason.
import t from 'tap';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { citeSpan, claimPath } from '../../../lib/core/citations/cite.js';
import { openWorkspace } from '../../../lib/core/citations/workspace.js';
import { nodeWorkspaceFs } from '../../../lib/core/citations/workspace-fs.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

t.test('cite', async (t) => {
  const base = t.testdir({
    outside: { 'x.md': 'secret\n' },
    root: {
      docs: { 'crlf.md': 'one\r\ntwo\r\nthree\r\n', 'lf.md': 'one\ntwo\nthree\n' },
      'bin.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]),
      'bad.txt': Buffer.from([0x80]),
      'link.md': t.fixture('symlink', 'docs/lf.md'),
      'out': t.fixture('symlink', '../outside'),
      'a#b.md': 'x',
    },
  });
  const ws = openWorkspace(nodeWorkspaceFs, join(base, 'root'));
  const full = sha('two\nthree');
  const expected = { ok: true, citation: `[[vctx:docs/crlf.md#L2-L3@${full.slice(0, 8)}]]`, sha256Full: full };
  t.same(citeSpan(ws, 'docs/crlf.md', 2, 3), expected, 'CRLF file');
  t.same(citeSpan(ws, '.\\docs\\crlf.md', 2, 3), expected, 'the path is normalised in the token');
  t.equal((citeSpan(ws, 'docs/lf.md', 2, 3) as { sha256Full: string }).sha256Full, full, 'CRLF and LF files hash alike');
  t.same(citeSpan(ws, 'docs/lf.md', 4, 4), { ok: true, citation: '[[vctx:docs/lf.md#L4-L4@e3b0c442]]', sha256Full: sha('') }, 'the final empty line exists');
  t.same(citeSpan(ws, 'docs/lf.md', 5, 5), { ok: false, reason: 'range_invalid' });
  t.same(citeSpan(ws, 'docs/lf.md', 0, 1), { ok: false, reason: 'range_invalid' });
  t.same(citeSpan(ws, 'docs/lf.md', 3, 2), { ok: false, reason: 'range_invalid' });
  t.same(citeSpan(ws, 'bin.png', 1, 1), { ok: false, reason: 'binary_file' });
  t.same(citeSpan(ws, 'bad.txt', 1, 1), { ok: false, reason: 'invalid_utf8' });
  t.same(citeSpan(ws, 'link.md', 1, 1), { ok: false, reason: 'symlink_skipped' });
  t.same(citeSpan(ws, 'docs', 1, 1), { ok: false, reason: 'not_a_file' });
  t.same(citeSpan(ws, 'docs/none.md', 1, 1), { ok: false, reason: 'file_missing' });
  t.same(citeSpan(ws, 'nodir/none.md', 1, 1), { ok: false, reason: 'file_missing' });
  t.same(citeSpan(ws, '../outside/x.md', 1, 1), { ok: false, reason: 'path_escape' });
  t.same(citeSpan(ws, 'out/x.md', 1, 1), { ok: false, reason: 'path_escape' }, 'through a symlinked directory');
  t.same(citeSpan(ws, join(base, 'root/docs/lf.md'), 1, 1), { ok: false, reason: 'invalid_path' }, 'absolute');
  t.same(citeSpan(ws, '', 1, 1), { ok: false, reason: 'invalid_path' });
  t.same(citeSpan(ws, 'a#b.md', 1, 1), { ok: false, reason: 'invalid_path' }, 'a token could not carry the path');
});

t.test('claim', async (t) => {
  const root = '/any/root';
  t.same(claimPath(root, 'exists-dir', 'src/'), { ok: true, claim: '[[vctx-exists-dir:src/]]', kind: 'exists-dir', normalizedPath: 'src/' });
  t.same(claimPath(root, 'exists-dir', './src'), { ok: true, claim: '[[vctx-exists-dir:src]]', kind: 'exists-dir', normalizedPath: 'src' });
  t.same(claimPath(root, 'exists', 'src/'), { ok: true, claim: '[[vctx-exists:src]]', kind: 'exists', normalizedPath: 'src' }, 'only exists-dir keeps the slash');
  t.same(claimPath(root, 'exists-file', 'a\\b.ts'), { ok: true, claim: '[[vctx-exists-file:a/b.ts]]', kind: 'exists-file', normalizedPath: 'a/b.ts' });
  t.same(claimPath(root, 'missing', 'never/there'), { ok: true, claim: '[[vctx-missing:never/there]]', kind: 'missing', normalizedPath: 'never/there' }, 'a claim is not checked when made');
  t.same(claimPath(root, 'exists', '../up'), { ok: false, reason: 'path_escape' });
  t.same(claimPath(root, 'exists', '/abs'), { ok: false, reason: 'invalid_path' });
  t.same(claimPath(root, 'exists', '.'), { ok: false, reason: 'invalid_path' });
  t.same(claimPath(root, 'exists', 'a]b'), { ok: false, reason: 'invalid_path' });
});
