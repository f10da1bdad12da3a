// Checks issue 44 item 4, "Errors that say what failed and what to do": every CLI error built
// from an OS error names the operation, the path (as the user gave it: relative when given
// relative) and the next step, in the stderr detail ("error: CODE: message (detail)"); the
// code, the canonical message and the exit code stay the spec's. A missing build output says
// to run `npm run build` (or `npm ci`) instead of printing a stack.
//
// The OS failures a test cannot cause for real here (a full disk, a read-only file system,
// a permission when the tests run as root) are injected: the named node:fs calls throw the
// OS's error, with its code, syscall and path, for paths holding a marker.
import t from 'tap';
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { inUserTerms } from '../../lib/cli/user-paths.js';
import { failing } from './fs-faults.js';
import { run, BIN } from './harness.js';

const ENV = { SOURCE_DATE_EPOCH: '1767225600' };

t.test('list-caches on a missing root names the root as given and what to do (was: "io_error: I/O error occurred (ENOENT)")', async (t) => {
  const dir = t.testdir({});
  const absolute = join(dir, 'nonexistent');
  const a = await run(['list-caches', '--root', absolute], { cwd: dir });
  t.equal(a.code, 6);
  t.equal(a.out, '');
  t.equal(
    a.err,
    `error: io_error: I/O error occurred (cannot list the cache root ${absolute}: it does not exist (ENOENT); check the path given to --root, or build a cache under it first (context build --cache ${absolute}/NAME))\n`,
  );
  const r = await run(['list-caches', '--root', 'caches/'], { cwd: dir });
  t.equal(r.code, 6);
  t.equal(
    r.err,
    'error: io_error: I/O error occurred (cannot list the cache root caches: it does not exist (ENOENT); check the path given to --root, or build a cache under it first (context build --cache caches/NAME))\n',
    'a relative root stays relative: no absolute path of the machine',
  );
  t.notMatch(r.err, dir, 'the working directory is not spelled out');
});

t.test('a symlink loop as cache root: ELOOP, the loop named', async (t) => {
  const dir = t.testdir({});
  symlinkSync('loop', join(dir, 'loop'));
  const r = await run(['list-caches', '--root', 'loop'], { cwd: dir });
  t.equal(r.code, 6);
  t.equal(r.err, 'error: io_error: I/O error occurred (cannot list the cache root loop: too many levels of symbolic links (ELOOP); remove the symbolic link loop under loop)\n');
});

t.test('build: a missing sources folder is named', async (t) => {
  const dir = t.testdir({});
  for (const engine of ['v0', 'v1']) {
    const r = await run(['build', '--engine', engine, '--sources', 'nodocs', '--cache', 'caches/docs'], { cwd: dir, env: ENV });
    t.equal(r.code, 6, engine);
    t.equal(r.err, 'error: io_error: I/O error occurred (cannot examine the sources folder nodocs: it does not exist (ENOENT); check the path given to --sources: it must name an existing folder)\n', engine);
  }
});

for (const engine of ['v0', 'v1']) {
  t.test(`${engine} build on a full disk: "no space left on the device holding CACHE: free space or choose another --cache"`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': '# A\nalpha\n' } });
    const r = await failing(['writeFileSync', 'writevSync'], 'ENOSPC', 'caches', () =>
      run(['build', '--engine', engine, '--sources', 'docs', '--cache', 'caches/docs'], { cwd: dir, env: ENV }),
    );
    t.equal(r.code, 6);
    t.equal(r.out, '');
    t.match(r.err, /^error: io_error: I\/O error occurred \(cannot write the cache caches\/docs( \(caches\/\.docs\.tmp-[^)/]+\/[^)]+\))?: no space left on the device \(ENOSPC\); free space on the device holding caches\/docs, or choose another --cache\)\n$/);
    t.same(readdirSync(join(dir, 'caches')), [], 'nothing left behind');
  });

  t.test(`${engine} build onto a read-only file system: EROFS, the cache named, a writable --cache advised`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': '# A\nalpha\n' } });
    const r = await failing(['mkdtempSync', 'mkdirSync'], 'EROFS', 'caches', () =>
      run(['build', '--engine', engine, '--sources', 'docs', '--cache', 'caches/docs'], { cwd: dir, env: ENV }),
    );
    t.equal(r.code, 6);
    t.match(r.err, /^error: io_error: I\/O error occurred \(cannot create the cache caches\/docs \(caches(\/\.docs\.tmp-[^)]*)?\): the file system is read-only \(EROFS\); choose a --cache on a writable file system\)\n$/);
  });

  t.test(`${engine} build with an unreadable source: EACCES, the file named, read access advised`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': '# A\nalpha\n', 'secret.md': '# S\nsecret\n' } });
    const r = await failing(['openSync'], 'EACCES', 'secret.md', () =>
      run(['build', '--engine', engine, '--sources', './docs', '--cache', 'caches/docs'], { cwd: dir, env: ENV }),
    );
    t.equal(r.code, 6);
    t.equal(r.err, 'error: io_error: I/O error occurred (cannot read the sources folder ./docs (./docs/secret.md): permission denied (EACCES); give your user read access to ./docs, or choose another --sources)\n');
  });
}

t.test('resolve with a pack the user may not read: EACCES, the cache and the file named', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': '# A\nalpha\n' } });
  t.equal((await run(['build', '--sources', 'docs', '--cache', 'c'], { cwd: dir, env: ENV })).code, 0);
  const r = await failing(['openSync'], 'EACCES', '.pack', () => run(['resolve', '--cache', 'c', '--query', 'alpha', '--budget', '100'], { cwd: dir }));
  t.equal(r.code, 6);
  t.match(r.err, /^error: io_error: I\/O error occurred \(cannot read the cache c \(c\/packs\/[0-9a-f]{64}\.pack\): permission denied \(EACCES\); give your user read access to c, or choose another --cache\)\n$/);
});

t.test('paths in a detail are written back as the user gave them', async (t) => {
  const cwd = '/home/me/project';
  t.equal(inUserTerms('cannot read /home/me/project/caches/docs/packs/x (ENOENT)', ['--cache', 'caches/docs'], cwd), 'cannot read caches/docs/packs/x (ENOENT)');
  t.equal(inUserTerms('at /home/me/project/cachesy/docs', ['--cache', 'caches/docs'], cwd), 'at /home/me/project/cachesy/docs', 'a longer name is not the path');
  t.equal(inUserTerms('in /home/me/project/docs/a.md and /home/me/project/c', ['--sources=./docs/', '--cache', 'c'], cwd), 'in ./docs/a.md and c', '--flag=value counts');
  t.equal(inUserTerms('in /home/me/project/caches/.docs.tmp-x/packs', ['--cache', 'caches/docs'], cwd), 'in caches/.docs.tmp-x/packs', 'a staging folder beside the cache: relative too');
  t.equal(inUserTerms('in /home/me/project/docs/a.md', ['--sources=./docs/'], cwd), 'in ./docs/a.md', 'a trailing slash is dropped');
  t.equal(inUserTerms('in /srv/x/y', ['--root', '../../../srv/x'], cwd), 'in ../../../srv/x/y', 'a relative path that climbs stays as written');
  t.equal(inUserTerms('in /srv/x/y', ['--root', '/srv/x'], cwd), 'in /srv/x/y', 'an absolute path stays absolute');
  t.equal(inUserTerms('in /home/me/project/c', ['--query', 'x'.repeat(70_000), '--cache', 'c'], cwd), 'in c', 'a 64 KiB query is no path (and no regular expression too large)');
});

t.test('bin/context without its build output: says to run npm run build (or npm ci), no stack (was: a raw Node stack)', async (t) => {
  const dir = t.testdir({});
  const copy = join(dir, 'checkout');
  mkdirSync(copy);
  cpSync(dirname(BIN), join(copy, 'bin'), { recursive: true });
  writeFileSync(join(copy, 'package.json'), '{"type":"module"}\n');
  t.notOk(existsSync(join(copy, 'dist')), 'no dist/');
  const r = spawnSync('/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, join(copy, 'bin', 'context'), 'list-caches', '--root', '.'], { cwd: copy, encoding: 'utf8' });
  t.equal(r.status, 7, 'exit 7 (internal_error: the installation, not the command)');
  t.equal(r.stdout, '');
  t.equal(
    r.stderr,
    'error: internal_error: Internal error (cannot read the compiled CLI dist/bundle/main.cjs: it does not exist (ENOENT); build it: npm run build (or npm ci, which installs and builds))\n',
  );
  const elsewhere = spawnSync('/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, join(copy, 'bin', 'context'), '--help'], { cwd: dir, encoding: 'utf8' });
  t.match(elsewhere.stderr, /^error: internal_error: Internal error \(cannot read the compiled CLI checkout\/dist\/bundle\/main\.cjs: it does not exist \(ENOENT\); build it: cd checkout && npm run build \(or cd checkout && npm ci, which installs and builds\)\)\n$/, 'from another folder: where to build');
  t.notMatch(r.stderr + elsewhere.stderr, /\n\s+at /, 'no stack');
});
