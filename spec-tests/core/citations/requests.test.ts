// Checks issue 4 "Neither or both inputs is invalid_input" and the argument rules both faces
// share (docs/citations.md "Decisions"): one validator, so the CLI and MCP accept and
// refuse exactly the same requests.
import t from 'tap';
import { lineNumber, parseCiteRequest, parseClaimRequest, parseVerifyRequest } from '../../../lib/core/citations/requests.js';

t.test('line numbers: JSON integers or the CLI\'s digit strings', async (t) => {
  t.equal(lineNumber(3), 3);
  t.equal(lineNumber('3'), 3);
  t.equal(lineNumber('007'), 7);
  t.equal(lineNumber('-1'), -1, 'reaches the range check (range_invalid)');
  t.equal(lineNumber(0), 0);
  for (const bad of [1.5, '1.5', '', ' 1', '+1', '1e3', 'one', null, true, [], Number.NaN, Number.POSITIVE_INFINITY]) {
    t.equal(lineNumber(bad), null, String(bad));
  }
});

t.test('cite and claim requests', async (t) => {
  t.same(parseCiteRequest({ root: 'r', path: 'p', start_line: 1, end_line: '2' }), { root: 'r', path: 'p', startLine: 1, endLine: 2 });
  t.same(parseCiteRequest({ root: 'r', path: 'p', start_line: 1, end_line: 2, extra: undefined }), { root: 'r', path: 'p', startLine: 1, endLine: 2 }, 'an undefined key is absent (the CLI passes absent flags so)');
  t.equal(parseCiteRequest({ root: 'r', path: 'p', start_line: 1, end_line: 2, extra: 0 }), null, 'an unknown key');
  t.equal(parseCiteRequest({ root: 'a\0b', path: 'p', start_line: 1, end_line: 2 }), null);
  t.same(parseClaimRequest({ root: 'r', kind: 'missing', path: '' }), { root: 'r', kind: 'missing', path: '' }, 'an empty path is a path (invalid_path later)');
  t.equal(parseClaimRequest({ root: 'r', kind: 'Exists', path: 'p' }), null, 'kinds are case-sensitive');
});

t.test('verify requests: exactly one input', async (t) => {
  t.same(parseVerifyRequest({ root: 'r', in_path: 'd' }), { root: 'r', inPath: 'd' });
  t.same(parseVerifyRequest({ root: 'r', text: '' }), { root: 'r', text: '' });
  t.same(parseVerifyRequest({ root: 'r', text: 'x', in_path: null }), { root: 'r', text: 'x' });
  t.equal(parseVerifyRequest({ root: 'r' }), null);
  t.equal(parseVerifyRequest({ root: 'r', in_path: 'd', text: 'x' }), null);
  t.equal(parseVerifyRequest({ root: 'r', in_path: 5 }), null);
  t.equal(parseVerifyRequest({ in_path: 'd' }), null);
});
