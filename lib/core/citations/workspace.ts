// One verification's view of the workspace: path rules, containment (no parent directory
// may be a symlink that leaves the root), and memoised reads, so a document citing one
// file fifty times reads it once and sees one consistent snapshot.

import * as nodePath from 'node:path';
import { isWithin, resolveUnderRoot, type ResolvedPath } from './paths.js';
import { readCanonicalText, type TextRead } from './read-text.js';
import { isAbsentError, type EntryKind, type WorkspaceFs } from './workspace-fs.js';

/** Where a resolved path lies: under the root, absent (or its root is), outside, or unknown. */
export type Placement = 'inside' | 'absent' | 'escape' | 'io_error';

export interface Workspace {
  readonly fs: WorkspaceFs;
  /** The absolute, lexically resolved root. */
  readonly rootAbs: string;
  resolve(path: string): ResolvedPath;
  place(absolutePath: string): Placement;
  /** `lstat` of a placed path: its kind, `absent`, or `io_error`. */
  kindOf(absolutePath: string): EntryKind | 'absent' | 'io_error';
  /** Canonical text of a placed path (memoised). */
  readText(absolutePath: string): TextRead;
}

export function openWorkspace(fs: WorkspaceFs, rootAbs: string): Workspace {
  const realDirs = new Map<string, string | 'absent' | 'io_error'>();
  const texts = new Map<string, TextRead>();

  const realDir = (dir: string): string | 'absent' | 'io_error' => {
    let real = realDirs.get(dir);
    if (real === undefined) {
      try {
        real = fs.realPath(dir);
      } catch (err) {
        real = isAbsentError(err) ? 'absent' : 'io_error';
      }
      realDirs.set(dir, real);
    }
    return real;
  };

  return {
    fs,
    rootAbs,
    resolve: (path) => resolveUnderRoot(rootAbs, path),
    place(absolutePath) {
      const root = realDir(rootAbs);
      if (root === 'absent' || root === 'io_error') return root;
      const parent = realDir(nodePath.dirname(absolutePath));
      if (parent === 'absent' || parent === 'io_error') return parent;
      return isWithin(root, parent) ? 'inside' : 'escape';
    },
    kindOf(absolutePath) {
      try {
        return fs.lstat(absolutePath);
      } catch (err) {
        return isAbsentError(err) ? 'absent' : 'io_error';
      }
    },
    readText(absolutePath) {
      let text = texts.get(absolutePath);
      if (text === undefined) {
        text = readCanonicalText(fs, absolutePath);
        texts.set(absolutePath, text);
      }
      return text;
    },
  };
}
