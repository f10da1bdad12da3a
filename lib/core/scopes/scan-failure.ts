// Why a project scan failed, in words a person can act on: the OS error's code and the
// directory or file it concerns, relative to the project root (never an absolute path of
// this machine). A scan that fails for any other reason says so instead of guessing.

import { isAbsolute, relative, sep } from 'node:path';

const MEANINGS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EIO: 'input/output error',
  ENAMETOOLONG: 'file name too long',
};

/** `cannot read "proc/1/fdinfo" (EACCES: permission denied)`, or the bare code. */
export function scanFailureReason(err: unknown, rootDir: string): string {
  const e = err as { code?: unknown; path?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code === undefined || !/^E[A-Z0-9]+$/.test(code)) return 'internal error while scanning';
  const meaning = MEANINGS[code];
  const what = meaning === undefined ? code : `${code}: ${meaning}`;
  if (typeof e?.path !== 'string') return what;
  const rel = relative(rootDir, e.path);
  if (rel.startsWith('..') || isAbsolute(rel)) return what;
  return `cannot read "${rel === '' ? '.' : rel.split(sep).join('/')}" (${what})`;
}
