// Checks issue 11 item 7 "Closed pipes and failing writes": stdout closed early (`| head`)
// and a full disk mid-output exit quietly with a documented code and no stack trace —
// closed stdout: the command's own code, nothing on stderr; failed write: exit 6, one line.
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { guardOutput } from '../../lib/cli/output-guard.js';
import { run, BIN, DIST_MAIN } from './harness.js';

interface Exit {
  code: number | null;
  stderr: string;
  head: string;
}

/** The real bin with stdout on a pipe this test closes after `keep` bytes (`| head -c keep`). */
function spawnHead(argv: readonly string[], cwd: string, keep: number): Promise<Exit> {
  if (!existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/env', ['-u', 'NODE_OPTIONS', BIN, ...argv], {
      cwd,
      env: { PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let head = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      head += b.toString('latin1');
      if (head.length >= keep) {
        head = head.slice(0, keep);
        child.stdout.destroy(); // the reader goes away, as `head` does
      }
    });
    child.stderr.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr, head }));
  });
}

/** The real bin with stdout on /dev/full: every write fails with ENOSPC. */
function spawnToFullDisk(argv: readonly string[], cwd: string): Promise<Exit> {
  return new Promise((resolve) => {
    const full = openSync('/dev/full', 'w');
    const child = spawn('/usr/bin/env', ['-u', 'NODE_OPTIONS', BIN, ...argv], {
      cwd,
      env: { PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` },
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr, head: '' }));
  });
}

/** A corpus whose resolve output (~2 MB) is far larger than a pipe's buffer. */
function bigCorpus(): Record<string, string> {
  const docs: Record<string, string> = {};
  for (let i = 0; i < 200; i++) docs[`d${String(i).padStart(3, '0')}.md`] = `hello ${i} ` + 'lorem ipsum dolor '.repeat(550);
  return docs;
}

t.test('`context resolve … | head`: exits 0, nothing on stderr, no stack trace', async (t) => {
  const dir = t.testdir({ docs: bigCorpus() });
  t.equal((await run(['build', '--sources', 'docs', '--cache', 'c'], { cwd: dir })).code, 0);
  for (let trial = 0; trial < 3; trial++) {
    const r = await spawnHead(['resolve', '--cache', 'c', '--query', 'hello', '--budget', '10000000'], dir, 10);
    t.equal(r.head, '{"document', `trial ${trial}: the reader got its bytes`);
    t.equal(r.code, 0, `trial ${trial}: the command's own exit code (0)`);
    t.equal(r.stderr, '', `trial ${trial}: nothing on stderr`);
  }
});

t.test('a closed stdout keeps a failing command\'s own exit code', async (t) => {
  const dir = t.testdir({ docs: bigCorpus() });
  const r = await spawnHead(['resolve', '--cache', 'absent', '--query', 'hello', '--budget', '10'], dir, 0);
  t.equal(r.code, 4, 'cache_missing stays exit 4');
  t.match(r.stderr, /^error: cache_missing: Cache does not exist/);
});

t.test('a full disk mid-output: exit 6 and one io_error line, no stack trace', async (t) => {
  const dir = t.testdir({ docs: bigCorpus() });
  t.equal((await run(['build', '--sources', 'docs', '--cache', 'c'], { cwd: dir })).code, 0);
  for (const argv of [
    ['resolve', '--cache', 'c', '--query', 'hello', '--budget', '10000000'],
    ['inspect', '--cache', 'c'],
    ['--version'],
  ]) {
    const r = await spawnToFullDisk(argv, dir);
    t.equal(r.code, 6, `${argv[0] ?? ''}: exit 6 (io_error)`);
    t.equal(r.stderr, 'error: io_error: I/O error occurred (cannot write the output to standard output: no space left on the device (ENOSPC); free space on the device it goes to, or send it elsewhere (a pipe, another file), then run the command again)\n', `${argv[0] ?? ''}: one line, naming what failed and what to do`);
  }
});

t.test('guardOutput on injected streams: EPIPE keeps the code, ENOSPC makes it 6', async (t) => {
  const failing = (code: string): Writable =>
    new Writable({
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error(code), { code }));
      },
    });
  for (const [errno, given, expected, line] of [
    ['EPIPE', 0, 0, ''],
    ['EPIPE', 5, 5, ''],
    ['ENOSPC', 0, 6, 'error: io_error: I/O error occurred (cannot write the output to standard output: no space left on the device (ENOSPC); free space on the device it goes to, or send it elsewhere (a pipe, another file), then run the command again)\n'],
    ['EIO', 4, 4, 'error: io_error: I/O error occurred (cannot write the output to standard output: the device reported an I/O error (EIO); send it elsewhere (a pipe, another file), then run the command again)\n'],
  ] as const) {
    const out = failing(errno);
    const guard = guardOutput(out);
    out.write('some output');
    let err = '';
    const code = await guard.finish(given, (s) => void (err += s));
    t.equal(code, expected, `${errno} after exit ${given}`);
    t.equal(err, line, `${errno}: stderr`);
  }
});

t.test('a healthy stream: finish waits for the flush and keeps the code', async (t) => {
  let written = '';
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      setTimeout(() => {
        written += chunk.toString('utf8');
        cb();
      }, 5);
    },
  });
  const guard = guardOutput(out);
  out.write('abc');
  t.equal(await guard.finish(3, () => t.fail('nothing to report')), 3);
  t.equal(written, 'abc', 'flushed before finish returned');
});

t.test('main with real stream objects routes through the guard', async (t) => {
  const dir = t.testdir({});
  const sink = new Writable({
    write(_c, _e, cb) {
      cb(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
    },
  });
  // run() builds its own io; this checks the same path main takes with stdoutStream set.
  const { main } = await import('../../lib/cli/main.js');
  let err = '';
  const code = await main(['--version'], {
    stdout: (s) => void sink.write(s),
    stderr: (s) => void (err += s),
    env: {},
    cwd: join(dir),
    stdoutStream: sink,
  });
  t.equal(code, 0);
  t.equal(err, '');
});
