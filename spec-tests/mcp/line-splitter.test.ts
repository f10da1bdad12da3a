// Checks the stdio framing of issue 3 ("CRLF line endings, blank lines, several messages in
// one chunk and one message split across chunks (including inside a multi-byte UTF-8
// character); a line over 1 MiB gets -32700") at the level of the line splitter.
import t from 'tap';
import { LineSplitter, MAX_LINE_BYTES, type LineItem } from '../../lib/mcp/line-splitter.js';

const texts = (items: readonly LineItem[]): string[] => items.map((i) => (i.kind === 'line' ? i.text : `<${i.kind}>`));

function feed(splitter: LineSplitter, chunks: readonly Buffer[]): string[] {
  const out: string[] = [];
  for (const c of chunks) out.push(...texts(splitter.push(c)));
  out.push(...texts(splitter.end()));
  return out;
}

t.test('several lines in one chunk, LF and CRLF, in order', async (t) => {
  const s = new LineSplitter();
  t.same(feed(s, [Buffer.from('a\nb\r\nc\n')]), ['a', 'b', 'c']);
});

t.test('only one trailing CR is a terminator; inner CRs stay', async (t) => {
  const s = new LineSplitter();
  t.same(feed(s, [Buffer.from('a\r\r\nb\rc\n')]), ['a\r', 'b\rc']);
});

t.test('blank lines come through as empty text (the session skips them)', async (t) => {
  const s = new LineSplitter();
  t.same(feed(s, [Buffer.from('\n\r\nx\n')]), ['', '', 'x']);
});

t.test('a line cut inside a 4-byte UTF-8 character is decoded whole', async (t) => {
  const bytes = Buffer.from('{"q":"🚀é"}\n', 'utf8');
  for (let cut = 1; cut < bytes.length; cut++) {
    const s = new LineSplitter();
    t.same(feed(s, [bytes.subarray(0, cut), bytes.subarray(cut)]), ['{"q":"🚀é"}'], `cut at byte ${cut}`);
  }
  const s = new LineSplitter();
  t.same(feed(s, [...bytes].map((b) => Buffer.from([b]))), ['{"q":"🚀é"}'], 'one byte per chunk');
});

t.test('a last line without a newline is still delivered at end of input', async (t) => {
  const s = new LineSplitter();
  t.same(feed(s, [Buffer.from('a\nb')]), ['a', 'b']);
  t.same(new LineSplitter().end(), [], 'nothing at all gives nothing');
});

t.test('invalid UTF-8 is reported, not repaired (no U+FFFD)', async (t) => {
  const s = new LineSplitter();
  t.same(feed(s, [Buffer.from([0x61, 0xff, 0x0a, 0x62, 0x0a])]), ['<invalid-utf8>', 'b']);
  t.same(feed(new LineSplitter(), [Buffer.from([0xed, 0xa0, 0x80, 0x0a])]), ['<invalid-utf8>'], 'an encoded surrogate');
});

t.test('the 1 MiB limit: exactly 1 MiB passes (CRLF not counted), one byte more does not', async (t) => {
  t.equal(MAX_LINE_BYTES, 1024 * 1024);
  const exact = Buffer.alloc(MAX_LINE_BYTES, 0x61);
  const s = new LineSplitter();
  const out = [...s.push(exact), ...s.push(Buffer.from('\r\n'))];
  t.equal(out.length, 1);
  t.equal(out[0]?.kind === 'line' ? out[0].text.length : -1, MAX_LINE_BYTES, 'exactly at the limit is a line');
  const over = new LineSplitter();
  t.same(texts([...over.push(Buffer.alloc(MAX_LINE_BYTES + 1, 0x61)), ...over.push(Buffer.from('\nok\n'))]), ['<oversize>', 'ok']);
});

t.test('an oversize line spread over many chunks is dropped whole and reported once', async (t) => {
  const s = new LineSplitter(10);
  const out = feed(s, [Buffer.from('0123456'), Buffer.from('789abc'), Buffer.from('def\nnext\n'), Buffer.from('0123456789ab')]);
  t.same(out, ['<oversize>', 'next', '<oversize>'], 'also at end of input without newline');
});
