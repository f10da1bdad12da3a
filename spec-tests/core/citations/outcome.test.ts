// Checks issue 4 "What to build": one core call returns the exact output text (compact JSON
// with keys in VeriContext's order + "\n") and a status, for both faces; arguments are
// validated in one place (neither or both inputs, a bad kind or line, unknown keys: invalid_input).
import t from 'tap';
import { createHash } from 'node:crypto';
import { citeOutcome, claimOutcome, verifyOutcome } from '../../../lib/core/citations/outcome.js';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const INVALID = { text: '{"ok":false,"reason":"invalid_input"}\n', status: 'invalid_input', note: 'invalid_input' };

t.test('cite: exact bytes and statuses', async (t) => {
  const base = t.testdir({ root: { 'a.md': 'x\ny\n' } });
  const full = sha('x\ny');
  t.same(citeOutcome({ root: 'root', path: 'a.md', start_line: 1, end_line: 2 }, { base }), {
    text: `{"ok":true,"citation":"[[vctx:a.md#L1-L2@${full.slice(0, 8)}]]","sha256_full":"${full}"}\n`,
    status: 'ok',
    note: '',
  }, 'a relative root is resolved against the base, never the process cwd');
  t.same(citeOutcome({ root: 'root', path: 'a.md', start_line: '1', end_line: '2' }, { base }).status, 'ok', 'CLI digit strings');
  t.same(citeOutcome({ root: 'root', path: 'a.md', start_line: 1, end_line: 9 }, { base }), {
    text: '{"ok":false,"reason":"range_invalid"}\n',
    status: 'failed',
    note: 'range_invalid',
  });
  t.same(citeOutcome({ root: 'root', path: 'a.md', start_line: '-1', end_line: '2' }, { base }).text, '{"ok":false,"reason":"range_invalid"}\n');
  for (const bad of [
    {},
    { root: 'root', path: 'a.md', start_line: 1 },
    { root: '', path: 'a.md', start_line: 1, end_line: 1 },
    { root: 'root', path: 7, start_line: 1, end_line: 1 },
    { root: 'root', path: 'a.md', start_line: 1.5, end_line: 2 },
    { root: 'root', path: 'a.md', start_line: '1x', end_line: 2 },
    { root: 'root', path: 'a.md', start_line: '', end_line: 2 },
    { root: 'root', path: 'a.md', start_line: null, end_line: 2 },
    { root: 'root', path: 'a.md', start_line: 1, end_line: 2, extra: true },
  ]) {
    t.same(citeOutcome(bad, { base }), INVALID);
  }
});

t.test('claim: exact bytes and statuses', async (t) => {
  t.same(claimOutcome({ root: '/r', kind: 'exists-dir', path: 'src/' }, { base: '/' }), {
    text: '{"ok":true,"claim":"[[vctx-exists-dir:src/]]","kind":"exists-dir","normalized_path":"src/"}\n',
    status: 'ok',
    note: '',
  });
  t.same(claimOutcome({ root: '/r', kind: 'exists', path: '../x' }, { base: '/' }), {
    text: '{"ok":false,"reason":"path_escape"}\n',
    status: 'failed',
    note: 'path_escape',
  });
  t.same(claimOutcome({ root: '/r', kind: 'present', path: 'x' }, { base: '/' }), INVALID);
  t.same(claimOutcome({ root: '/r', path: 'x' }, { base: '/' }), INVALID);
});

t.test('verify: exactly one of in_path and text', async (t) => {
  const base = t.testdir({ 'a.md': 'x\n' });
  t.same(verifyOutcome({ root: '.' }, { base }), INVALID, 'neither');
  t.same(verifyOutcome({ root: '.', in_path: 'a.md', text: '' }, { base }), INVALID, 'both');
  t.same(verifyOutcome({ root: '.', text: 5 }, { base }), INVALID);
  t.same(verifyOutcome({ root: '.', in_path: null, text: '' }, { base }), {
    text: '{"ok":true,"total":0,"ok_count":0,"fail_count":0,"results":[]}\n',
    status: 'ok',
    note: '',
  }, 'null counts as absent; empty text is text');
  t.same(verifyOutcome({ root: '.', in_path: 'nope.md' }, { base }), { text: '{"ok":false,"reason":"file_missing"}\n', status: 'failed', note: 'file_missing' });
});

t.test('verify: result keys in a fixed order, moved_to last', async (t) => {
  const base = t.testdir({ 'a.md': 'new\nx\n', d: { 'n.md': '[[vctx-exists:a.md]]' } });
  const h = sha('x').slice(0, 8);
  const text = `[[vctx:a.md#L1-L1@${h}]] [[vctx-missing:a.md]]`;
  t.equal(
    verifyOutcome({ root: '.', text }, { base }).text,
    '{"ok":false,"total":2,"ok_count":0,"fail_count":2,"results":[' +
      `{"claim":"[[vctx:a.md#L1-L1@${h}]]","kind":"citation","ok":false,"reason":"hash_mismatch",` +
      `"moved_to":[{"start_line":2,"end_line":2,"citation":"[[vctx:a.md#L2-L2@${h}]]"}]},` +
      '{"claim":"[[vctx-missing:a.md]]","kind":"structure","ok":false,"reason":"exists"}]}\n',
  );
  t.equal(
    verifyOutcome({ root: '.', in_path: 'd' }, { base }).text,
    '{"ok":true,"total":1,"ok_count":1,"fail_count":0,"files":[{"path":"d/n.md","ok":true,"total":1,"ok_count":1,"fail_count":0,' +
      '"results":[{"claim":"[[vctx-exists:a.md]]","kind":"structure","ok":true}]}]}\n',
  );
  const unreadable = t.testdir({ d: { 'x.md': Buffer.from([0xff]) } });
  t.equal(
    verifyOutcome({ root: '.', in_path: 'd' }, { base: unreadable }).text,
    '{"ok":false,"total":0,"ok_count":0,"fail_count":0,"files":[{"path":"d/x.md","ok":false,"reason":"invalid_utf8","total":0,"ok_count":0,"fail_count":0,"results":[]}]}\n',
    'an unreadable Markdown file fails its entry and the whole call',
  );
});

t.test('no absolute path reaches the output', async (t) => {
  const base = t.testdir({ d: { 'n.md': '[[vctx-exists:x]]' }, 'a.md': 'x' });
  for (const out of [
    citeOutcome({ root: base, path: 'a.md', start_line: 1, end_line: 1 }, { base: '/' }),
    claimOutcome({ root: base, kind: 'exists', path: `./a.md` }, { base: '/' }),
    verifyOutcome({ root: base, in_path: 'd' }, { base: '/' }),
  ]) {
    t.notMatch(out.text, base);
  }
});

t.test('the note for people says how much failed', async (t) => {
  const base = t.testdir({ 'a.md': 'x', d: { 'ok.md': '[[vctx-exists:a.md]]', 'bad.md': '[[vctx-missing:a.md]] [[vctx-exists:zz]]', 'bin.md': Buffer.from([0]) } });
  t.equal(verifyOutcome({ root: '.', text: '[[vctx-exists:a.md]] [[vctx-exists:nope]]' }, { base }).note, '1 of 2 claims failed');
  t.equal(verifyOutcome({ root: '.', in_path: 'd' }, { base }).note, '2 of 3 claims failed; 1 of 3 files could not be read');
  t.equal(verifyOutcome({ root: '.', in_path: 'd/ok.md' }, { base }).note, '');
});
