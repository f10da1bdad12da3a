// Checks issue 4 "Go beyond": for a failed citation, where the same HASH8 span now sits
// (windows of the same length at other line numbers, ascending, bounded).
import t from 'tap';
import { createHash } from 'node:crypto';
import { MAX_MOVED_SPANS, MovedSpanFinder, findMovedSpans, indexWindows } from '../../../lib/core/citations/moved-span.js';

const h8 = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 8);

t.test('a span pushed down by inserted lines is found', async (t) => {
  const lines = ['new 1', 'new 2', 'fn a() {', '  return 1;', '}', ''];
  t.same(findMovedSpans(lines, 1, 3, h8('fn a() {\n  return 1;\n}')), [{ startLine: 3, endLine: 5 }]);
});

t.test('a span pulled up past the end of the file is found (range_invalid case)', async (t) => {
  const lines = ['x', 'y'];
  t.same(findMovedSpans(lines, 5, 6, h8('x\ny')), [{ startLine: 1, endLine: 2 }]);
});

t.test('every match, ascending, at most MAX_MOVED_SPANS', async (t) => {
  const lines = ['a', 'b', 'a', 'b', 'a'];
  t.same(findMovedSpans(lines, 2, 2, h8('a')), [{ startLine: 1, endLine: 1 }, { startLine: 3, endLine: 3 }, { startLine: 5, endLine: 5 }]);
  const many = Array.from({ length: 50 }, () => 'same');
  const found = findMovedSpans(many, 100, 100, h8('same'));
  t.equal(found.length, MAX_MOVED_SPANS);
  t.same(found[0], { startLine: 1, endLine: 1 });
});

t.test('nothing is searched for a malformed range or an edited span', async (t) => {
  t.same(findMovedSpans(['a'], 0, 1, h8('a')), []);
  t.same(findMovedSpans(['a', 'b'], 2, 1, h8('a')), []);
  t.same(findMovedSpans(['a', 'b'], 1, 3, h8('a\nb')), [], 'wider than the file');
  t.same(findMovedSpans(['a', 'b', 'c'], 1, 1, h8('zzz')), [], 'the content itself changed');
});

t.test('the window index: HASH8 -> ascending first lines; the scan is bounded', async (t) => {
  const lines = ['a', 'b', 'a', 'b'];
  const index = indexWindows(lines, 2);
  t.same(index.get(h8('a\nb')), [1, 3]);
  t.same(index.get(h8('b\na')), [2]);
  t.equal(index.size, 2);
  const bounded = indexWindows(lines, 1, 2);
  t.same([...bounded.values()].flat(), [1, 2], 'windows past the bound (in characters) are not hashed');
});

t.test('a finder answers per file and width, excluding the cited window', async (t) => {
  const finder = new MovedSpanFinder();
  const lines = ['x', 'y', 'x', 'y'];
  t.same(finder.find('f', lines, 1, 2, h8('x\ny')), [{ startLine: 3, endLine: 4 }]);
  t.same(finder.find('f', lines, 3, 4, h8('x\ny')), [{ startLine: 1, endLine: 2 }], 'same index, other citation');
  t.same(finder.find('g', ['q', 'x', 'y'], 1, 2, h8('x\ny')), [{ startLine: 2, endLine: 3 }], 'another file has its own index');
});
