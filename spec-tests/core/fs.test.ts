// Checks issue 11 item 5 "Hostile inputs" for lib/core/fs.ts, the core's one door to the
// file system: a FIFO (named like a document or a config file) or a device is refused with
// ENOTREG at once instead of blocking or reading forever; regular files and /proc entries
// read as before. The scope commands, which read `.gitignore` and `.context.yaml`, answer.
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { readFile, readText } from '../../lib/core/fs.js';
import { BIN } from '../cli/harness.js';

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

t.test('a FIFO or a device is refused at once (ENOTREG), never read', async (t) => {
  const dir = t.testdir({ 'a.md': 'alpha' });
  mkfifo(join(dir, 'pipe.md'));
  t.throws(() => readFile(join(dir, 'pipe.md')), { code: 'ENOTREG' }, 'FIFO: no writer, would block forever');
  t.throws(() => readText(join(dir, 'pipe.md')), { code: 'ENOTREG' });
  t.throws(() => readFile('/dev/zero'), { code: 'ENOTREG' }, 'a device: would never end');
  t.throws(() => readFile(dir), { code: 'EISDIR' }, 'a directory');
  t.equal(readText(join(dir, 'a.md')), 'alpha', 'regular files as before');
  t.match(readText('/proc/self/stat'), /^\d+ \(/, 'procfs files are regular files of size 0: read to the end');
});

t.test('scope commands answer with a FIFO named .gitignore or .context.yaml (no hang)', async (t) => {
  const dir = t.testdir({ p: { 'a.ts': 'x' }, q: { 'b.ts': 'y' } });
  mkfifo(join(dir, 'p', '.gitignore'));
  mkfifo(join(dir, 'q', '.context.yaml'));
  const env = { PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` };
  const scopes = spawnSync('/usr/bin/env', ['-u', 'NODE_OPTIONS', BIN, 'scopes'], { cwd: join(dir, 'p'), env, encoding: 'utf8', timeout: 20_000 });
  t.equal(scopes.signal, null, 'scopes finished (not killed by the timeout)');
  t.equal(scopes.status, 0);
  const fresh = spawnSync('/usr/bin/env', ['-u', 'NODE_OPTIONS', BIN, 'freshness', '--scope', '.'], { cwd: join(dir, 'q'), env, encoding: 'utf8', timeout: 20_000 });
  t.equal(fresh.signal, null, 'freshness finished');
  t.match(fresh.stdout, 'Invalid or corrupt .context.yaml', 'a FIFO is no readable context file');
});
