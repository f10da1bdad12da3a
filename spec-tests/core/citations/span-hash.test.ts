// Checks issue 4 "Span": lines START..END (1-based, inclusive) joined with `\n`; HASH8 =
// first 8 hex digits of sha256 of the span's UTF-8 bytes; range_invalid unless
// 1 <= START <= END <= line count.
import t from 'tap';
import { createHash } from 'node:crypto';
import { hashLineSpan, isValidRange } from '../../../lib/core/citations/span-hash.js';

const sha = (s: string): string => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');

t.test('the span is the lines joined with LF, hashed as UTF-8', async (t) => {
  const lines = ['alpha', 'βeta', 'gamma', ''];
  const full = sha('βeta\ngamma');
  t.same(hashLineSpan(lines, 2, 3), { ok: true, sha256Full: full, hash8: full.slice(0, 8) });
  t.same(hashLineSpan(lines, 4, 4), { ok: true, sha256Full: sha(''), hash8: 'e3b0c442' }, 'the final empty line after a trailing newline');
  t.same(hashLineSpan(lines, 1, 4), { ok: true, sha256Full: sha('alpha\nβeta\ngamma\n'), hash8: sha('alpha\nβeta\ngamma\n').slice(0, 8) });
});

t.test('range rules', async (t) => {
  const lines = ['a', 'b', 'c'];
  for (const [s, e] of [[0, 1], [2, 1], [1, 4], [4, 4], [-1, 2], [1, Number.MAX_SAFE_INTEGER + 2], [1.5, 2]] as const) {
    t.same(hashLineSpan(lines, s, e), { ok: false, reason: 'range_invalid' }, `L${s}-L${e}`);
  }
  t.ok(isValidRange(3, 1, 3));
  t.ok(isValidRange(3, 3, 3));
  t.notOk(isValidRange(3, 3, 4));
});
