// The citation engine's only door to the file system: four calls, injected so tests can
// simulate OS failures (EACCES, races) without a real disk. Nothing here follows a
// symlink except `realPath`; `lstat` reports a symlink as a symlink.

import * as fs from '../fs.js';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

export interface DirEntry {
  readonly name: string;
  readonly kind: EntryKind;
}

/** Each call throws a Node-style error (`code` set) on failure. */
export interface WorkspaceFs {
  lstat(path: string): EntryKind;
  readFile(path: string): Uint8Array;
  realPath(path: string): string;
  readDir(path: string): readonly DirEntry[];
}

function kindOf(entry: { isSymbolicLink(): boolean; isFile(): boolean; isDirectory(): boolean }): EntryKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  return 'other';
}

export const nodeWorkspaceFs: WorkspaceFs = {
  lstat: (path) => kindOf(fs.lstat(path)),
  readFile: (path) => fs.readFile(path),
  realPath: (path) => fs.realPath(path),
  readDir: (path) => fs.readDir(path).map((d) => ({ name: d.name, kind: kindOf(d) })),
};

/** "Not there": the path or one of its parents does not exist (or is not a directory). */
export function isAbsentError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
