// The core's one door to the file system: the few synchronous calls the engine needs (and
// one asynchronous flush), in one place, so the rest of lib/core stays free of process
// state and is easy to audit.
// Every call here is one syscall-sized operation; callers keep per-file work O(1).

import * as fs from 'node:fs';
import * as fsAsync from 'node:fs/promises';
import { isAscii, isUtf8 } from 'node:buffer';
import { join } from 'node:path';

export type Dirent<Name extends string | Buffer = string> = fs.Dirent<Name>;
export type Stats = fs.Stats;
export type BigIntStats = fs.BigIntStats;

export const readFile = (path: string): Buffer => readRegularFile(path);
export const readText = (path: string): string => readRegularFile(path).toString('utf8');
export const writeFile = (path: string, data: string | Uint8Array): void => fs.writeFileSync(path, data);
/** Writes a new file; fails with EEXIST if anything (even a dangling symlink) is at `path`. */
export const createFile = (path: string, data: string | Uint8Array): void => fs.writeFileSync(path, data, { flag: 'wx' });
/** Writes a new file from `chunks`, in order (as createFile, without joining them first: one writev per 1,024 chunks). */
export function createFileFrom(path: string, chunks: readonly Uint8Array[]): void {
  const fd = fs.openSync(path, 'wx');
  try {
    let i = 0;
    let skip = 0; // bytes of chunks[i] already written
    while (i < chunks.length) {
      const batch = chunks.slice(i, i + 1024).map((c, k) => (k === 0 && skip > 0 ? c.subarray(skip) : c));
      let n = fs.writevSync(fd, batch);
      while (i < chunks.length && n >= (chunks[i] as Uint8Array).length - skip) {
        n -= (chunks[i] as Uint8Array).length - skip;
        skip = 0;
        i++;
      }
      skip += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}
/** The sibling replaceFile writes `path`'s new bytes to before renaming it over `path`. */
export const replacementOf = (path: string): string => `${path}.tmp`;
/** Replaces a file atomically: writes a temporary sibling, then renames it over `path`. */
export function replaceFile(path: string, data: string | Uint8Array): void {
  const temp = replacementOf(path);
  fs.rmSync(temp, { force: true });
  try {
    fs.writeFileSync(temp, data, { flag: 'wx' });
    fs.renameSync(temp, path);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}
/** The probe file waitForNextFileTime writes (and removes) in the directory it is given. */
export const TICK_PROBE = '.tick-probe';
/**
 * Waits, inside `dir`, until a file written now gets a modification time strictly later
 * than every file written before the call. File times come from a coarse clock (a few ms
 * per tick), so files written within one tick share a time: a probe file is written, then
 * rewritten (1 ms apart) until its time moves past the first one, then removed. Costs at
 * most one tick; gives up after `limitMs` (the caller's later file then merely shares a
 * time with earlier ones).
 */
export function waitForNextFileTime(dir: string, limitMs = 1000): void {
  const probe = join(dir, TICK_PROBE);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  try {
    fs.writeFileSync(probe, 'x');
    const first = fs.statSync(probe, { bigint: true }).mtimeNs;
    for (let waited = 0; waited < limitMs; waited++) {
      Atomics.wait(sleeper, 0, 0, 1);
      fs.writeFileSync(probe, 'x');
      if (fs.statSync(probe, { bigint: true }).mtimeNs > first) break;
    }
  } finally {
    fs.rmSync(probe, { force: true });
  }
}
/** A second name for an existing file (a hard link); copies it where links are refused. */
export function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK' && code !== 'EOPNOTSUPP') throw err;
    fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  }
}
export const lstat = (path: string): fs.Stats => fs.lstatSync(path);
export const stat = (path: string): fs.Stats => fs.statSync(path);
export const statOrNull = (path: string): fs.Stats | null => fs.statSync(path, { throwIfNoEntry: false }) ?? null;
/** Stat with nanosecond times (BigInt), or null when absent; follows symlinks. */
export const statBigOrNull = (path: string): fs.BigIntStats | null => fs.statSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
export const lstatOrNull = (path: string): fs.Stats | null => fs.lstatSync(path, { throwIfNoEntry: false }) ?? null;
export const readDir = (path: string): fs.Dirent[] => fs.readdirSync(path, { withFileTypes: true });
export const readDirNames = (path: string): string[] => fs.readdirSync(path);
/** Entries with their names as raw bytes (a name need not be valid UTF-8). */
export const readDirRaw = (path: string): fs.Dirent<Buffer>[] => fs.readdirSync(path, { withFileTypes: true, encoding: 'buffer' });
export const mkdir = (path: string): void => void fs.mkdirSync(path, { recursive: true });
export const makeTempDir = (prefix: string): string => fs.mkdtempSync(prefix);
/** Removes a file; nothing when it is absent. */
export const removeFile = (path: string): void => fs.rmSync(path, { force: true });
/**
 * Starts the flush of `path` to the disk: an fsync on libuv's threads, while the caller goes
 * on. Resolves when it ends, whether it succeeded or not: only syncTree's fsync, later,
 * vouches that a file reached the disk; this one only gets it going early.
 */
export async function flushSoon(path: string): Promise<void> {
  try {
    const handle = await fsAsync.open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // syncTree meets the same failure, and reports it.
  }
}
/**
 * Gives `dir` (made by makeTempDir: always 0700) the mode a plain mkdir gives under the
 * process's umask, learnt from a probe directory made inside it (the core never reads the
 * process's umask itself).
 */
export function applyUmask(dir: string): void {
  const probe = `${dir}/.umask-probe`;
  fs.mkdirSync(probe);
  try {
    fs.chmodSync(dir, fs.statSync(probe).mode & 0o777);
  } finally {
    fs.rmdirSync(probe);
  }
}
export const rename = (from: string, to: string): void => fs.renameSync(from, to);
/**
 * Removes a directory tree (or a file), absent or not. The common case, a tree of files
 * this process wrote (a replaced cache: ~300 packs), takes one unlink per file; anything
 * unexpected (a race, a permission) is left to Node's rmSync, which retries and knows more.
 */
export function removeTree(path: string): void {
  try {
    unlinkTree(path);
  } catch {
    fs.rmSync(path, { recursive: true, force: true });
  }
}
function unlinkTree(dir: string): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = `${dir}/${e.name}`;
    if (e.isDirectory()) unlinkTree(child);
    else fs.unlinkSync(child);
  }
  fs.rmdirSync(dir);
}
/**
 * Flushes a tree this process just wrote to the disk: every regular file, then every
 * directory (its entries), deepest first, so that a rename publishing the tree never lands
 * on the disk before the bytes it names. One open + fsync + close per file; symlinks and
 * other kinds are left alone (a cache holds none).
 */
export function syncTree(dir: string): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = `${dir}/${e.name}`;
    if (e.isDirectory()) syncTree(child);
    else if (e.isFile()) syncFile(child);
  }
  syncDir(dir);
}
function syncFile(path: string): void {
  const fd = fs.openSync(path, fs.constants.O_RDONLY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
/** Errors of file systems and platforms that cannot open or fsync a directory: nothing to flush there. */
const DIR_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP', 'EOPNOTSUPP']);
/** fsync of a directory, which makes its entries (a rename into it) durable; where the platform cannot, a no-op. */
export function syncDir(path: string): void {
  try {
    syncFile(path);
  } catch (err) {
    if (!DIR_SYNC_UNSUPPORTED.has(String((err as { code?: unknown }).code))) throw err;
  }
}
export const realPath = (path: string): string => fs.realpathSync(path);
export const exists = (path: string): boolean => fs.existsSync(path);
export { isAscii, isUtf8 };

/** An open file for positioned reads (a cache's pack, read while its directory may be swapped). */
// Non-blocking: a FIFO put in a cache's place fails its reads (EAGAIN) instead of hanging.
export const openRead = (path: string): number => fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
export const closeFile = (fd: number): void => fs.closeSync(fd);
/** Exactly `length` bytes at `position`, or an EIO-coded error if the file is shorter. */
export function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  readInto(fd, buf, length, position);
  return buf;
}

/** As readAt, into the first `length` bytes of `buf` (a buffer used again and again). */
export function readInto(fd: number, buf: Uint8Array, length: number, position: number): void {
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, position + done);
    if (n === 0) throw Object.assign(new Error('file is shorter than expected'), { code: 'ESHORT' });
    done += n;
  }
}
export const fstat = (fd: number): fs.Stats => fs.fstatSync(fd);

/** Watches a directory for any change; the watcher never keeps the process alive. */
export function watchDir(path: string, onChange: () => void): { close(): void } {
  const watcher = fs.watch(path, { persistent: false }, () => onChange());
  watcher.on('error', () => onChange());
  return watcher;
}

/** The target of a symbolic link (used on /proc entries to identify processes). */
export const readLink = (path: string): string => fs.readlinkSync(path);

/**
 * The bytes of a regular file. Opened non-blocking and checked before reading: a FIFO
 * (named `x.md`, `.gitignore`…) would block a plain read forever, and a device such as
 * /dev/zero would never end; both are refused with an error coded ENOTREG.
 */
function readRegularFile(path: string): Buffer {
  const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) {
      const code = st.isDirectory() ? 'EISDIR' : 'ENOTREG'; // EISDIR: as readFileSync says it
      throw Object.assign(new Error(`not a regular file: ${path}`), { code, path });
    }
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
