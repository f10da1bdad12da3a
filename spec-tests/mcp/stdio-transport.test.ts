// Checks issue 3 "Shutdown and faults" on injected streams: end of input ends the loop after
// the last reply; a failing output (EPIPE) ends it quietly; replies wait for a slow reader
// (backpressure) and keep request order; a failing input ends it with a diagnostic.
import t from 'tap';
import { PassThrough, Readable, Writable } from 'node:stream';
import { serveLines } from '../../lib/mcp/stdio-transport.js';
import type { LineItem } from '../../lib/mcp/line-splitter.js';

const echo = async (item: LineItem): Promise<string | null> => (item.kind === 'line' ? `<${item.text}>` : '<bad>');

function collector(highWaterMark = 16 * 1024, delayMs = 0): { stream: Writable; out: string[] } {
  const out: string[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      out.push(chunk.toString('utf8'));
      if (delayMs === 0) done();
      else setTimeout(done, delayMs);
    },
  });
  return { stream, out };
}

t.test('end of input: every reply written, in order, then "end"', async (t) => {
  const { stream, out } = collector();
  const reason = await serveLines({ input: Readable.from([Buffer.from('a\nb\nc')]), output: stream, handle: echo, log: () => {} });
  t.equal(reason, 'end');
  t.equal(out.join(''), '<a>\n<b>\n<c>\n');
});

t.test('backpressure: a slow reader with a tiny buffer still gets every reply in order', async (t) => {
  const { stream, out } = collector(1, 2);
  const input = Readable.from([Buffer.from(Array.from({ length: 50 }, (_, i) => `m${i}`).join('\n') + '\n')]);
  const reason = await serveLines({ input, output: stream, handle: echo, log: () => {} });
  t.equal(reason, 'end');
  t.equal(out.join(''), Array.from({ length: 50 }, (_, i) => `<m${i}>\n`).join(''));
});

t.test('a failing output (EPIPE) ends the loop quietly, without reading on', async (t) => {
  const log: string[] = [];
  let handled = 0;
  const output = new Writable({
    write(_chunk, _enc, done) {
      done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  const input = new PassThrough();
  const running = serveLines({
    input,
    output,
    handle: async (item) => {
      handled++;
      return echo(item);
    },
    log: (s) => log.push(s),
  });
  input.write('a\n');
  await new Promise((r) => setTimeout(r, 20));
  input.write('b\nc\n');
  const reason = await running;
  t.equal(reason, 'output-closed');
  t.equal(handled, 1, 'nothing is handled once the reader is gone');
  t.same(log, [], 'nothing logged: EPIPE is the normal end of a host');
});

t.test('a failing input ends the loop with a diagnostic', async (t) => {
  const log: string[] = [];
  const input = new Readable({
    read() {
      this.destroy(new Error('read EIO'));
    },
  });
  const reason = await serveLines({ input, output: collector().stream, handle: echo, log: (s) => log.push(s) });
  t.equal(reason, 'input-error');
  t.match(log.join(''), /EIO/);
});
