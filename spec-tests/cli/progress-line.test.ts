// Checks issue 12 item 3 "a long `context build` shows progress on stderr when stderr is a
// TTY (files read, bytes, phase, rate)": the line's text for every phase, the delay before
// the first draw (a quick build prints nothing), the redraw interval, the cut to the
// terminal's width, and the erase at the end. A fake clock drives time.
import t from 'tap';
import { describeProgressLine as describeProgress, ProgressLine } from '../../lib/cli/progress-line.js';
import { formatBytes } from '../../lib/core/store/progress.js';

const ERASE = '\r\x1b[K';

function fakeTerminal(options: { columns?: number; delayMs?: number; intervalMs?: number } = {}) {
  let now = 0;
  const writes: string[] = [];
  const line = new ProgressLine({ write: (s) => void writes.push(s), now: () => now, ...options });
  return { line, writes, advance: (ms: number) => void (now += ms) };
}

t.test('the text of each phase: phase, files, bytes, rate', async (t) => {
  t.equal(describeProgress({ phase: 'scan', files: 1234, filesTotal: 0, bytes: 0 }, 0), 'context build: scanning, 1,234 files found');
  t.equal(
    describeProgress({ phase: 'read', files: 3412, filesTotal: 10000, bytes: 13.5 * 1024 * 1024 }, 500),
    'context build: reading 3,412/10,000 files, 13.5 MiB, 27.0 MiB/s',
    'rate = bytes read / time since reading began',
  );
  t.equal(describeProgress({ phase: 'read', files: 1, filesTotal: 2, bytes: 10 }, 0), 'context build: reading 1/2 files, 10 B', 'no rate before time passes');
  t.equal(describeProgress({ phase: 'analyze', files: 5, filesTotal: 9, bytes: 0 }, 1), 'context build: analyzing 5/9 files');
  t.equal(describeProgress({ phase: 'index', files: 5, filesTotal: 9, bytes: 0 }, 1), 'context build: indexing 5/9 files');
  t.equal(describeProgress({ phase: 'write', files: 7, filesTotal: 9, bytes: 0 }, 1), 'context build: writing 7/9 documents');
  t.equal(describeProgress({ phase: 'done', files: 9, filesTotal: 9, bytes: 2048 }, 1), 'context build: done, 9 documents, 2.0 KiB');
  t.same([0, 1023, 1024, 1536, 1024 ** 3 * 3].map(formatBytes), ['0 B', '1023 B', '1.0 KiB', '1.5 KiB', '3.0 GiB']);
});

t.test('nothing is drawn before the delay: a quick build prints nothing at all', async (t) => {
  const { line, writes, advance } = fakeTerminal();
  line.report({ phase: 'scan', files: 1, filesTotal: 0, bytes: 0 });
  advance(200);
  line.report({ phase: 'read', files: 1, filesTotal: 1, bytes: 5 });
  line.report({ phase: 'done', files: 1, filesTotal: 1, bytes: 5 });
  line.finish();
  t.same(writes, [], 'no byte written');
});

t.test('after the delay: drawn over itself at most once per interval, erased at the end', async (t) => {
  const { line, writes, advance } = fakeTerminal({ delayMs: 250, intervalMs: 100 });
  advance(10);
  line.report({ phase: 'read', files: 1, filesTotal: 4, bytes: 1024 }); // reading begins at t=10
  advance(300);
  line.report({ phase: 'read', files: 2, filesTotal: 4, bytes: 2048 }); // t=310: drawn
  advance(50);
  line.report({ phase: 'read', files: 3, filesTotal: 4, bytes: 3072 }); // t=360: too soon
  advance(50);
  line.report({ phase: 'write', files: 1, filesTotal: 4, bytes: 4096 }); // t=410: drawn
  line.report({ phase: 'done', files: 4, filesTotal: 4, bytes: 4096 }); // never drawn
  line.finish();
  line.finish();
  t.same(writes, [
    `${ERASE}context build: reading 2/4 files, 2.0 KiB, 6.7 KiB/s`,
    `${ERASE}context build: writing 1/4 documents`,
    ERASE,
  ]);
});

t.test("the line is cut to the terminal's width so that a carriage return redraws it", async (t) => {
  const { line, writes, advance } = fakeTerminal({ columns: 20, delayMs: 0 });
  advance(1);
  line.report({ phase: 'write', files: 1, filesTotal: 2, bytes: 0 });
  t.same(writes, [`${ERASE}context build: writ`], '19 characters: the last column stays free');
});
