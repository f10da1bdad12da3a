// Directory fingerprints. Ours: sha256 over the sorted lines `NAME:sha256(bytes)` of the
// direct regular files (not .context.yaml, not ignored), 8 hex — touch and checkout change
// nothing. dotcontext's stat-based one (`NAME:floor(mtimeMs):SIZE`) is accepted as fresh too.

import { join } from 'node:path';
import { compareBytes } from '../../json.js';
import { readDir, readFile, stat } from '../fs.js';
import { sha256Hex } from '../hash.js';
import { CONTEXT_FILENAME } from './context-file.js';
import type { IgnoreStack } from '../sources/gitignore.js';

export interface DirFingerprints {
  /** Ours: content hashes of the non-ignored files. */
  readonly content: string;
  /** dotcontext's: names, whole-millisecond mtimes and sizes of every regular file. */
  readonly stat: string;
}

export type FreshnessState = 'fresh' | 'stale' | 'missing';

const short = (lines: readonly string[]): string => sha256Hex(lines.join('\n')).slice(0, 8);

// dotcontext sorts with JavaScript's default sort (UTF-16 code units); so must we, to
// reproduce its hash. Ours sorts by UTF-8 bytes, like every other list in this project.
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Both fingerprints of absolute directory `dir`, whose scope is `scope`; `rules` are the
 * ignore rules that apply there. Throws if the directory or a file cannot be read.
 */
export function fingerprintDir(dir: string, scope: string, rules: IgnoreStack): DirFingerprints {
  const contentLines: string[] = [];
  const statLines: string[] = [];
  for (const entry of readDir(dir)) {
    if (!entry.isFile() || entry.name === CONTEXT_FILENAME) continue;
    const path = join(dir, entry.name);
    const info = stat(path);
    statLines.push(`${entry.name}:${Math.floor(info.mtimeMs)}:${info.size}`);
    const rel = scope === '.' ? entry.name : `${scope}/${entry.name}`;
    if (!rules.ignores(rel, false)) contentLines.push(`${entry.name}:${sha256Hex(readFile(path))}`);
  }
  contentLines.sort(compareBytes);
  statLines.sort(byCodeUnits);
  return { content: short(contentLines), stat: short(statLines) };
}

/**
 * `fresh` when the stored fingerprint equals ours or dotcontext's, else `stale`. The
 * reported `computed` is the one that matched, or ours when neither did.
 */
export function judgeFreshness(stored: string, prints: DirFingerprints): { state: FreshnessState; computed: string } {
  if (stored === prints.content) return { state: 'fresh', computed: prints.content };
  if (stored === prints.stat) return { state: 'fresh', computed: prints.stat };
  return { state: 'stale', computed: prints.content };
}
