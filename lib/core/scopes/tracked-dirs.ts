// The tracked-directory walk (dotcontext's rule): every directory below the root that holds
// files, minus hidden, build/vendor and ignored ones; a directory is kept when
// ceil(bytes of its direct files / 4) >= min_tokens or a child was kept; the root always is.

import { join } from 'node:path';
import { compareBytes } from '../../json.js';
import { lstat, readDir } from '../fs.js';
import { CONFIG_FILENAME, CONTEXT_FILENAME } from './context-file.js';
import type { IgnoreStack } from '../sources/gitignore.js';
import { withNestedGitignore, type ProjectConfig } from './project-config.js';

/** Directory names never scanned: dependency, build, cache and tool folders. */
export const ALWAYS_IGNORED_DIRS: ReadonlySet<string> = new Set([
  'node_modules', '.git', 'dist', 'build', '.next', '.nuxt', '__pycache__', '.venv', 'venv',
  '.tox', '.mypy_cache', '.pytest_cache', 'target', 'vendor', '.cache', 'coverage', '.turbo',
  '.vercel', '.svelte-kit',
]);

const BYTES_PER_TOKEN = 4;

export interface TrackedDir {
  /** `/`-separated path from the root; `.` for the root. */
  readonly scope: string;
  /** Absolute directory. */
  readonly dir: string;
  /** The ignore rules that apply to the files directly in this directory. */
  readonly rules: IgnoreStack;
}

export interface TrackedScan {
  /** Kept directories, sorted by scope in byte order. */
  readonly dirs: readonly TrackedDir[];
  /** Directories with files that the min_tokens rule left out. */
  readonly skipped: number;
  /** Every directory the walk considered, kept or skipped, sorted by scope. */
  readonly candidates: readonly TrackedDir[];
}

interface Node extends TrackedDir {
  readonly bytes: number;
  readonly fileCount: number;
  readonly children: readonly Node[];
}

function scanDir(dir: string, scope: string, depth: number, inherited: IgnoreStack, config: ProjectConfig, root: string): Node {
  const rules = withNestedGitignore(root, scope, inherited);
  let bytes = 0;
  let fileCount = 0;
  const children: Node[] = [];
  for (const entry of readDir(dir)) {
    const name = entry.name;
    if (name === CONTEXT_FILENAME || name === CONFIG_FILENAME) continue;
    const rel = scope === '.' ? name : `${scope}/${name}`;
    if (entry.isDirectory()) {
      if (ALWAYS_IGNORED_DIRS.has(name) || name.startsWith('.')) continue;
      if (rules.ignores(rel, true) || depth >= config.maxDepth) continue;
      const child = scanDir(join(dir, name), rel, depth + 1, rules, config, root);
      if (child.fileCount > 0 || child.children.length > 0) children.push(child);
    } else if (entry.isFile()) {
      if (rules.ignores(rel, false)) continue;
      bytes += lstat(join(dir, name)).size;
      fileCount++;
    }
  }
  return { scope, dir, rules, bytes, fileCount, children };
}

/** Scans the project at absolute `root`. Throws if any directory cannot be read. */
export function scanTrackedDirs(root: string, config: ProjectConfig): TrackedScan {
  const top = scanDir(root, '.', 0, config.rootRules, config, root);
  const kept: TrackedDir[] = [];
  const candidates: TrackedDir[] = [];
  let skipped = 0;
  const visit = (node: Node): boolean => {
    let childKept = false;
    for (const child of node.children) childKept = visit(child) || childKept;
    const estimate = Math.ceil(node.bytes / BYTES_PER_TOKEN);
    const keep = node === top || config.minTokens <= 0 || estimate >= config.minTokens || childKept;
    const entry: TrackedDir = { scope: node.scope, dir: node.dir, rules: node.rules };
    candidates.push(entry);
    if (keep) kept.push(entry);
    else skipped++;
    return keep;
  };
  visit(top);
  const byScope = (a: TrackedDir, b: TrackedDir): number => compareBytes(a.scope, b.scope);
  return { dirs: kept.sort(byScope), skipped, candidates: candidates.sort(byScope) };
}
