// The Markdown files under a directory, for verifying a whole folder in one call: names
// ending in `.md` or `.markdown` (ASCII case-insensitive), found without following
// symlinks, skipping `.git` and `node_modules`, sorted by relative path in UTF-8 byte order.

import * as nodePath from 'node:path';
import { compareBytes } from '../../json.js';
import type { WorkspaceFs } from './workspace-fs.js';

export const SKIPPED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

export interface MarkdownFile {
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  readonly absolutePath: string;
}

export function isMarkdownName(name: string): boolean {
  const lower = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return (lower.endsWith('.md') && lower.length > 3) || (lower.endsWith('.markdown') && lower.length > 9);
}

/** Every Markdown file below `dirAbs` (whose root-relative path is `dirPath`); throws on I/O. */
export function listMarkdownFiles(fs: WorkspaceFs, dirPath: string, dirAbs: string): MarkdownFile[] {
  const found: MarkdownFile[] = [];
  const pending: Array<{ path: string; abs: string }> = [{ path: dirPath.replace(/\/+$/, ''), abs: dirAbs }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const entry of fs.readDir(next.abs)) {
      const path = `${next.path}/${entry.name}`;
      const abs = nodePath.join(next.abs, entry.name);
      if (entry.kind === 'dir' && !SKIPPED_DIRECTORIES.includes(entry.name)) pending.push({ path, abs });
      else if (entry.kind === 'file' && isMarkdownName(entry.name)) found.push({ path, absolutePath: abs });
    }
  }
  return found.sort((a, b) => compareBytes(a.path, b.path));
}
