// Checks issue 11 item 3 "Crash safety of builds" against lib/core/store/staging.ts and
// build-owner.ts: staging directories carry their owner; the next build of a cache removes
// those of killed builds and never one a live build is writing (a live pid with its start
// time, another machine, boot or pid namespace, another user, an untagged name); a cache
// left moved aside by a build killed mid-swap is put back; concurrent swaps never leave a
// partial cache and the loser fails with io_error.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { currentOwner, ownerState } from '../../../lib/core/store/build-owner.js';
import { checkCacheTarget, sweepLeftovers, writeCacheAtomically } from '../../../lib/core/store/staging.js';
import { namesIn } from '../engine/v0/fixture.js';

const me = currentOwner();
if (me === null) throw new Error('these tests need /proc (Linux)');
const [machine, pid, start] = me.tag.split('-') as [string, string, string];
const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));

/** A staging directory as a build with `tag` would have left it, holding one file. */
function leave(dir: string, name: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'manifest.json'), '{}');
}

function writeCache(dir: string, marker: string): void {
  writeFileSync(join(dir, 'marker'), marker);
}

t.test('a build\'s staging directory is named after its owner: machine, pid, start time', async (t) => {
  const dir = t.testdir({});
  let seen = '';
  writeCacheAtomically(join(dir, 'c'), (temp) => {
    seen = basename(temp);
    writeCache(temp, 'new');
  });
  t.match(seen, new RegExp(`^\\.c\\.tmp-${machine}-${process.pid}-${start}-[A-Za-z0-9]{6}$`));
  t.equal(pid, String(process.pid), 'the tag names this process');
  t.same(namesIn(dir), ['c'], 'nothing beside the cache');
});

t.test('ownerState: this process is alive; a gone pid, a reused pid and a zombie are dead; others unknown', async (t) => {
  t.equal(ownerState(me.tag, me), 'alive');
  t.equal(ownerState(`${machine}-${pidMax + 1}-${start}`, me), 'dead', 'no such pid');
  t.equal(ownerState(`${machine}-${pid}-${Number(start) + 1}`, me), 'dead', 'same pid, another start time: reused');
  t.equal(ownerState(`000000000000-${pid}-${start}`, me), 'unknown', 'another machine, boot or pid namespace');
  t.equal(ownerState('not-a-tag', me), 'unknown');
  // A child that has exited but is not yet reaped is a zombie: it writes nothing any more.
  const child = spawn('/bin/sh', ['-c', 'exit 0'], { stdio: 'ignore' });
  const childPid = child.pid as number;
  const childStart = readFileSync(`/proc/${childPid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? '';
  const tag = `${machine}-${childPid}-${childStart}`;
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
  t.equal(ownerState(tag, me), 'dead', 'exited child');
});

t.test('the next build removes the leftovers of killed builds, and only those', async (t) => {
  const dir = t.testdir({});
  const cache = join(dir, 'c');
  const sleeper = spawn('/bin/sleep', ['30'], { stdio: 'ignore' });
  t.teardown(() => void sleeper.kill('SIGKILL'));
  const sleeperPid = sleeper.pid as number;
  const sleeperStart = readFileSync(`/proc/${sleeperPid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? '';
  const dead = [`.c.tmp-${machine}-${pidMax + 1}-1-aaaaaa`, `.c.old-${machine}-${pid}-${Number(start) + 7}-bbbbbb`];
  const kept = [
    `.c.tmp-${me.tag}-cccccc`, // this very process: alive
    `.c.tmp-${machine}-${sleeperPid}-${sleeperStart}-dddddd`, // a live build elsewhere
    `.c.tmp-000000000000-${pidMax + 1}-1-eeeeee`, // another machine: cannot judge
    '.c.tmp-ffffff', // untagged (an older version, or no /proc): cannot judge
    `.c2.tmp-${machine}-${pidMax + 1}-1-gggggg`, // another cache's leftover
    `.c.tmp-x.tmp-${machine}-${pidMax + 1}-1-hhhhhh`, // cache "c.tmp-x"'s, not c's
  ];
  for (const name of [...dead, ...kept]) leave(dir, name);
  writeFileSync(join(dir, `.c.tmp-${machine}-${pidMax + 1}-1-iiiiii`), 'a file, not a directory');
  kept.push(`.c.tmp-${machine}-${pidMax + 1}-1-iiiiii`);
  const report = sweepLeftovers(cache);
  t.same(report, { removed: 2, restored: false, kept: 4 }, 'two dead removed; four of c\'s kept (two alive, one foreign, one not a directory)');
  t.same(namesIn(dir), [...kept].sort(), 'exactly the dead ones are gone');
  // A build runs the same sweep first.
  leave(dir, dead[0] as string);
  checkCacheTarget(cache, false);
  t.notOk(existsSync(join(dir, dead[0] as string)), 'checkCacheTarget sweeps');
  sleeper.kill('SIGKILL');
  await new Promise<void>((resolve) => sleeper.on('exit', () => resolve()));
  t.equal(sweepLeftovers(cache).removed, 1, 'once the live build is gone, its directory goes too');
});

t.test('a cache moved aside by a build killed mid-swap is put back by the next build', async (t) => {
  const dir = t.testdir({});
  const cache = join(dir, 'c');
  const old = `.c.old-${machine}-${pidMax + 1}-1-aaaaaa`;
  const tmp = `.c.tmp-${machine}-${pidMax + 1}-1-bbbbbb`;
  mkdirSync(join(dir, old, 'cache'), { recursive: true });
  writeCache(join(dir, old, 'cache'), 'the old cache');
  leave(dir, tmp); // the new cache, complete but never renamed
  t.same(sweepLeftovers(cache), { removed: 2, restored: true, kept: 0 });
  t.equal(readFileSync(join(cache, 'marker'), 'utf8'), 'the old cache', 'the old cache is back in place');
  t.same(namesIn(dir), ['c']);
  t.throws(() => checkCacheTarget(cache, false), { code: 'io_error' }, 'and counts as existing again');

  // Not while a live build of the same cache is under way: that build's swap decides.
  const dir2 = t.testdir({});
  mkdirSync(join(dir2, old, 'cache'), { recursive: true });
  leave(dir2, `.c.tmp-${me.tag}-cccccc`);
  t.same(sweepLeftovers(join(dir2, 'c')), { removed: 1, restored: false, kept: 1 });
  t.notOk(existsSync(join(dir2, 'c')));
});

t.test('concurrent builds: another build creating the cache meanwhile wins unless --force', async (t) => {
  const dir = t.testdir({});
  const cache = join(dir, 'c');
  t.throws(
    () =>
      writeCacheAtomically(
        cache,
        (temp) => {
          writeCache(temp, 'mine');
          mkdirSync(cache);
          writeCache(cache, 'theirs'); // the other build finished first
        },
        false,
      ),
    { code: 'io_error', detail: 'another build created this cache meanwhile; its cache stands' },
  );
  t.equal(readFileSync(join(cache, 'marker'), 'utf8'), 'theirs');
  t.same(namesIn(dir), ['c'], 'no staging directory left');
  writeCacheAtomically(cache, (temp) => writeCache(temp, 'forced'), true);
  t.equal(readFileSync(join(cache, 'marker'), 'utf8'), 'forced', '--force replaces it (one build after the other)');
  t.same(namesIn(dir), ['c']);
});

t.test('concurrent builds: a swap that collides with another build\'s swap fails cleanly', async (t) => {
  const realFs = await import('../../../lib/core/fs.js');
  const dir = t.testdir({});
  const cache = join(dir, 'c');
  mkdirSync(cache);
  writeCache(cache, 'previous');
  let renames = 0;
  const mockedFs = {
    ...realFs,
    rename: (from: string, to: string) => {
      realFs.rename(from, to);
      if (++renames === 1) {
        // Between our two renames, another build puts its cache in place.
        mkdirSync(cache);
        writeCache(cache, 'theirs');
      }
    },
  };
  const staging = await t.mockImport<typeof import('../../../lib/core/store/staging.js')>('../../../lib/core/store/staging.js', {
    '../../../lib/core/fs.js': mockedFs,
  });
  t.throws(() => staging.writeCacheAtomically(cache, (temp) => writeCache(temp, 'mine')), {
    code: 'io_error',
    detail: 'another build replaced this cache at the same moment; its cache stands',
  });
  t.equal(readFileSync(join(cache, 'marker'), 'utf8'), 'theirs', 'the winner stands');
  t.same(namesIn(dir), ['c'], 'neither our new cache nor the superseded old one is left');
});

t.test('concurrent builds: the old cache vanishing before it is moved aside is an empty spot', async (t) => {
  const realFs = await import('../../../lib/core/fs.js');
  const dir = t.testdir({});
  const cache = join(dir, 'c');
  mkdirSync(cache);
  writeCache(cache, 'previous');
  let first = true;
  const mockedFs = {
    ...realFs,
    rename: (from: string, to: string) => {
      if (first) {
        first = false;
        realFs.removeTree(cache); // another build moved it aside a moment ago
      }
      realFs.rename(from, to);
    },
  };
  const staging = await t.mockImport<typeof import('../../../lib/core/store/staging.js')>('../../../lib/core/store/staging.js', {
    '../../../lib/core/fs.js': mockedFs,
  });
  staging.writeCacheAtomically(cache, (temp) => writeCache(temp, 'mine'));
  t.equal(readFileSync(join(cache, 'marker'), 'utf8'), 'mine');
  t.same(namesIn(dir), ['c']);
});

t.test('readWhileBuilding: a read failing while a live build swaps the cache is tried again; otherwise at once', async (t) => {
  const { ContextError } = await import('../../../lib/errors.js');
  const { readWhileBuilding } = await import('../../../lib/core/store/staging.js');
  const dir = t.testdir({});
  const cache = join(dir, 'c');
  const failing = (times: number, code: 'cache_missing' | 'cache_invalid' | 'invalid_query') => {
    let calls = 0;
    return {
      read: () => {
        if (++calls <= times) throw new ContextError(code);
        return 'answer';
      },
      calls: () => calls,
    };
  };
  const none = failing(2, 'cache_missing');
  t.throws(() => readWhileBuilding(cache, none.read), { code: 'cache_missing' }, 'no build under way: read once more, then the failure stands');
  t.equal(none.calls(), 2);
  const finished = failing(1, 'cache_missing');
  t.equal(readWhileBuilding(cache, finished.read), 'answer', 'a build that swapped and removed its staging directories between the read and the look for them: the read once more sees its cache');
  t.equal(finished.calls(), 2);
  leave(dir, `.c.old-${machine}-${pidMax + 1}-1-aaaaaa`);
  const dead = failing(2, 'cache_missing');
  t.throws(() => readWhileBuilding(cache, dead.read), { code: 'cache_missing' }, 'a dead build\'s leftovers: no wait');
  t.equal(dead.calls(), 2);
  leave(dir, `.c.tmp-${me.tag}-bbbbbb`); // a live build (this process) is staging
  const swapping = failing(3, 'cache_missing');
  t.equal(readWhileBuilding(cache, swapping.read), 'answer', 'tried again until the swap is over');
  t.equal(swapping.calls(), 4);
  const mixed = failing(2, 'cache_invalid');
  t.equal(readWhileBuilding(cache, mixed.read), 'answer', 'a read across the swap (old manifest, new files) too');
  const query = failing(1, 'invalid_query');
  t.throws(() => readWhileBuilding(cache, query.read), { code: 'invalid_query' }, 'other errors are not the swap\'s');
  const forever = failing(1000, 'cache_missing');
  t.throws(() => readWhileBuilding(cache, forever.read), { code: 'cache_missing' }, 'bounded');
  t.equal(forever.calls(), 10, '1, 2, 4 … 256 ms: ten tries, about half a second');
});

// Issue 24 item 5 "Durable caches": files and directories of a new cache are flushed before
// the swap that publishes it, and the parent's entry after it.
t.test('durable before visible: the new tree is fsynced before the rename, the parent after it', async (t) => {
  const realFs = await import('../../../lib/core/fs.js');
  for (const previous of [false, true]) {
    const dir = t.testdir({});
    const cache = join(dir, 'c');
    if (previous) {
      mkdirSync(cache);
      writeCache(cache, 'previous');
    }
    const events: string[] = [];
    const name = (p: string): string => (p === dir ? 'parent' : p === cache ? 'cache' : basename(p).includes('.tmp-') ? 'temp' : basename(p).includes('.old-') ? 'old' : basename(p));
    const mockedFs = {
      ...realFs,
      syncTree: (p: string) => {
        events.push(`syncTree ${name(p)} holding ${readFileSync(join(p, 'marker'), 'utf8')}`);
        realFs.syncTree(p);
      },
      syncDir: (p: string) => {
        events.push(`syncDir ${name(p)}`);
        realFs.syncDir(p);
      },
      rename: (from: string, to: string) => {
        events.push(`rename ${name(from)} -> ${name(to)}`);
        realFs.rename(from, to);
      },
    };
    const staging = await t.mockImport<typeof import('../../../lib/core/store/staging.js')>('../../../lib/core/store/staging.js', {
      '../../../lib/core/fs.js': mockedFs,
    });
    staging.writeCacheAtomically(cache, (temp) => writeCache(temp, 'new'));
    t.same(
      events,
      previous
        ? ['syncTree temp holding new', 'rename cache -> cache', 'rename temp -> cache', 'syncDir parent']
        : ['syncTree temp holding new', 'rename temp -> cache', 'syncDir parent'],
      previous ? 'with --force: flushed, swapped, parent flushed' : 'into an empty spot: flushed, renamed, parent flushed',
    );
    t.equal(readFileSync(join(cache, 'marker'), 'utf8'), 'new');
  }
});

t.test('syncTree flushes every file and directory of a tree, deepest first; syncDir tolerates a platform that cannot', async (t) => {
  const dir = t.testdir({ a: 'x', sub: { b: 'y', deeper: { c: 'z' } } });
  const synced: string[] = [];
  const nodeFs = await import('node:fs');
  const opened = new Map<number, string>();
  const fsMod = await t.mockImport<typeof import('../../../lib/core/fs.js')>('../../../lib/core/fs.js', {
    'node:fs': {
      ...nodeFs,
      openSync: (p: string, flags: number) => {
        const fd = nodeFs.openSync(p, flags);
        opened.set(fd, p);
        return fd;
      },
      fsyncSync: (fd: number) => {
        synced.push((opened.get(fd) as string).slice(dir.length) || '/');
        nodeFs.fsyncSync(fd);
      },
    },
  });
  fsMod.syncTree(dir);
  t.same([...synced].sort(), ['/', '/a', '/sub', '/sub/b', '/sub/deeper', '/sub/deeper/c'], 'every file and directory once');
  t.ok(synced.indexOf('/sub/deeper/c') < synced.indexOf('/sub/deeper') && synced.indexOf('/sub') < synced.indexOf('/'), 'children before their directory');

  const refusing = await t.mockImport<typeof import('../../../lib/core/fs.js')>('../../../lib/core/fs.js', {
    'node:fs': {
      ...nodeFs,
      fsyncSync: () => {
        throw Object.assign(new Error('EINVAL'), { code: 'EINVAL' });
      },
    },
  });
  t.doesNotThrow(() => refusing.syncDir(dir), 'a directory that cannot be fsynced is not an error');
  t.throws(() => refusing.syncTree(dir), { code: 'EINVAL' }, 'a file that cannot be fsynced is');
  const failing = await t.mockImport<typeof import('../../../lib/core/fs.js')>('../../../lib/core/fs.js', {
    'node:fs': {
      ...nodeFs,
      fsyncSync: () => {
        throw Object.assign(new Error('EIO'), { code: 'EIO' });
      },
    },
  });
  t.throws(() => failing.syncDir(dir), { code: 'EIO' }, 'an I/O error on a directory is reported');
});
