// Checks issue 4 "Reading a cited file": lstat first (symlink -> symlink_skipped, not a
// regular file -> not_a_file, absent -> file_missing), NUL in the first 8192 bytes ->
// binary_file, strict UTF-8 -> invalid_utf8, CRLF and lone CR -> LF, split on LF.
import t from 'tap';
import { join } from 'node:path';
import {
  BINARY_PROBE_BYTES,
  decodeCanonical,
  normalizeLineEndings,
  readCanonicalText,
  splitLines,
} from '../../../lib/core/citations/read-text.js';
import { nodeWorkspaceFs, type WorkspaceFs } from '../../../lib/core/citations/workspace-fs.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

t.test('line endings: CRLF and lone CR become LF', async (t) => {
  t.equal(normalizeLineEndings('a\r\nb\rc\n\r\n'), 'a\nb\nc\n\n');
  t.equal(normalizeLineEndings('\r\r\n'), '\n\n', 'CR then CRLF is two line ends');
});

t.test('a trailing newline yields a final empty line', async (t) => {
  t.same(splitLines('a\nb\n'), ['a', 'b', '']);
  t.same(splitLines('a\nb'), ['a', 'b']);
  t.same(splitLines(''), [''], 'an empty file has one empty line');
});

t.test('decoding: binary probe, strict UTF-8, BOM', async (t) => {
  t.same(decodeCanonical(utf8('x\r\ny\r\n')), { ok: true, text: 'x\ny\n', lines: ['x', 'y', ''] });
  t.same(decodeCanonical(Uint8Array.from([0x61, 0x00, 0x62])), { ok: false, reason: 'binary_file' });
  const lateNul = new Uint8Array(BINARY_PROBE_BYTES + 1).fill(0x61);
  lateNul[BINARY_PROBE_BYTES] = 0;
  t.equal(decodeCanonical(lateNul).ok, true, 'a NUL after the first 8192 bytes is text');
  const edgeNul = new Uint8Array(BINARY_PROBE_BYTES).fill(0x61);
  edgeNul[BINARY_PROBE_BYTES - 1] = 0;
  t.same(decodeCanonical(edgeNul), { ok: false, reason: 'binary_file' }, 'byte 8192 is still probed');
  t.same(decodeCanonical(Uint8Array.from([0xff, 0xfe, 0x41])), { ok: false, reason: 'invalid_utf8' });
  t.same(decodeCanonical(Uint8Array.from([0xed, 0xa0, 0x80])), { ok: false, reason: 'invalid_utf8' }, 'an encoded surrogate');
  t.same(decodeCanonical(Uint8Array.from([0xc3])), { ok: false, reason: 'invalid_utf8' }, 'a truncated sequence');
  t.same(decodeCanonical(utf8('\ufeffhé')), { ok: true, text: 'hé', lines: ['hé'] }, 'a leading BOM is dropped, as VeriContext\'s TextDecoder does');
});

t.test('reading from disk', async (t) => {
  const dir = t.testdir({
    'crlf.md': 'a\r\nb\r\n',
    'cr.md': 'a\rb',
    'bin.dat': Buffer.from([0x50, 0x4b, 0x00, 0x01]),
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
    sub: {},
    'link.md': t.fixture('symlink', 'crlf.md'),
  });
  const read = (name: string) => readCanonicalText(nodeWorkspaceFs, join(dir, name));
  t.same(read('crlf.md'), { ok: true, text: 'a\nb\n', lines: ['a', 'b', ''] });
  t.same(read('cr.md'), { ok: true, text: 'a\nb', lines: ['a', 'b'] });
  t.same(read('bin.dat'), { ok: false, reason: 'binary_file' });
  t.same(read('latin1.txt'), { ok: false, reason: 'invalid_utf8' });
  t.same(read('sub'), { ok: false, reason: 'not_a_file' });
  t.same(read('link.md'), { ok: false, reason: 'symlink_skipped' }, 'a symlink is never followed');
  t.same(read('absent.md'), { ok: false, reason: 'file_missing' });
  t.same(read('crlf.md/below'), { ok: false, reason: 'file_missing' }, 'ENOTDIR is absent too');
});

t.test('OS failures other than absence are io_error, never a guess', async (t) => {
  const denied = Object.assign(new Error('denied'), { code: 'EACCES' });
  const fs: WorkspaceFs = {
    ...nodeWorkspaceFs,
    lstat: (p) => (p === '/x/locked' ? 'file' : (() => { throw denied; })()),
    readFile: () => { throw denied; },
  };
  t.same(readCanonicalText(fs, '/x/hidden'), { ok: false, reason: 'io_error' });
  t.same(readCanonicalText(fs, '/x/locked'), { ok: false, reason: 'io_error' });
  const vanished: WorkspaceFs = {
    ...nodeWorkspaceFs,
    lstat: () => 'file',
    readFile: () => { throw Object.assign(new Error('gone'), { code: 'ENOENT' }); },
  };
  t.same(readCanonicalText(vanished, '/x/raced'), { ok: false, reason: 'file_missing' }, 'deleted between lstat and read');
});
