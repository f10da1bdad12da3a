// Checks issue 3 "Shutdown and faults" on injected streams: end of input ends the loop after
// the last reply; a failing output (EPIPE) ends it quietly; replies wait for a slow reader
// (backpressure) and keep request order; a failing input ends it with a diagnostic.
import t from 'tap';
import { PassThrough, Readable, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MAX_QUEUED, serveLines } from '../../lib/mcp/stdio-transport.js';
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

t.test('issue 12: lines are read (and peeked) while an earlier line is still being handled', async (t) => {
  const { stream, out } = collector();
  const input = new PassThrough();
  const peeked: string[] = [];
  let release: () => void = () => undefined;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const running = serveLines({
    input,
    output: stream,
    peek: (item) => void peeked.push(item.kind === 'line' ? item.text : item.kind),
    handle: async (item) => {
      if (item.kind === 'line' && item.text === 'slow') await slow;
      return echo(item);
    },
    log: () => {},
  });
  input.write('slow\n');
  await new Promise((r) => setTimeout(r, 10));
  input.write('cancel-it\n');
  await new Promise((r) => setTimeout(r, 10));
  t.same(peeked, ['slow', 'cancel-it'], 'the second line is seen while the first is handled');
  t.same(out, [], 'nothing answered yet: replies keep request order');
  release();
  input.end('last\n');
  t.equal(await running, 'end');
  t.equal(out.join(''), '<slow>\n<cancel-it>\n<last>\n');
});

t.test('issue 12: a handler can send lines ahead of its reply', async (t) => {
  const { stream, out } = collector();
  const reason = await serveLines({
    input: Readable.from([Buffer.from('a\nb\n')]),
    output: stream,
    handle: async (item, send) => {
      await send(`note for ${item.kind === 'line' ? item.text : '?'}`);
      return echo(item);
    },
    log: () => {},
  });
  t.equal(reason, 'end');
  t.equal(out.join(''), 'note for a\n<a>\nnote for b\n<b>\n');
});

t.test('issue 12: reading pauses when MAX_QUEUED lines wait, and resumes', async (t) => {
  const { stream, out } = collector();
  const n = MAX_QUEUED * 3;
  let peeks = 0;
  let maxAhead = 0;
  let handled = 0;
  const reason = await serveLines({
    input: Readable.from(Array.from({ length: n }, (_, i) => Buffer.from(`m${i}\n`))),
    output: stream,
    peek: () => void peeks++,
    handle: async (item) => {
      handled++;
      maxAhead = Math.max(maxAhead, peeks - handled);
      await new Promise((r) => setImmediate(r));
      return echo(item);
    },
    log: () => {},
  });
  t.equal(reason, 'end');
  t.equal(out.length, n, 'every line answered');
  t.ok(maxAhead <= MAX_QUEUED + 1, `at most ${MAX_QUEUED} lines read ahead (saw ${maxAhead})`);
});

t.test('issue 11 "RSS growth <= 10 % after warm-up": chunks already read are not kept alive while the server runs', async (t) => {
  // The soak found RSS growing with the input: every read raced against one long-lived
  // "output closed" promise, and each race left a reaction on it holding that read's chunk.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const refs: WeakRef<Buffer>[] = [];
  const line = 'x'.repeat(999) + '\n';
  let alive = -1;
  async function* input(): AsyncGenerator<Buffer> {
    for (let i = 0; i < 40; i++) {
      const chunk = Buffer.from(line.repeat(256)); // 256 KB of 1,000-byte lines
      refs.push(new WeakRef(chunk));
      yield chunk;
    }
    // Still serving (this read is pending): by now the earlier chunks must be collectable.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    alive = refs.slice(0, -2).filter((r) => r.deref() !== undefined).length;
  }
  const { stream } = collector();
  const reason = await serveLines({ input: Readable.from(input()), output: stream, handle: async () => null, log: () => {} });
  t.equal(reason, 'end');
  // Since calls may be detached (a slow call's reply goes out later), one early chunk is
  // sometimes still reachable at this point (a different one each run: 2, 5, 9 of 38 when
  // this was written), never more: memory stays flat, as the 100,000-line protocol soak shows.
  // The defect this guards against kept every chunk (38 of 38).
  t.ok(alive >= 0 && alive <= 1, `at most one chunk but the last two is still reachable (${alive} of ${refs.length - 2})`);
});
