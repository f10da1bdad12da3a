// `context build`: compiles every `*.md` under a sources directory into an immutable v0
// cache. All documents are read and validated before anything is written; the cache is
// written into a temporary sibling directory and renamed into place, so a failed build
// leaves nothing behind and `--force` replaces an old cache only once the new one is whole.

import { join } from 'node:path';
import { compareBytes } from '../../../json.js';
import { ContextError, osFailure } from '../../../errors.js';
import { checkCacheTarget, writeCacheAtomically } from '../../store/staging.js';
import { CACHE_LAYOUTS } from '../layouts.js';
import type { TargetGuard } from '../../store/target.js';
import { isWithinRoots } from '../../confine.js';
import { OUTSIDE_ROOTS, requireSourcesDir, type SkippedSource } from '../../sources/walk.js';
import type { BuildProgress, ProgressListener } from '../../store/progress.js';
import * as fs from '../../fs.js';
import { versionOf } from '../../hash.js';
import {
  cacheVersion,
  DOCUMENTS_DIR,
  documentFile,
  documentText,
  INDEX_FILE,
  indexText,
  MANIFEST_FILE,
  manifestText,
  type ManifestEntry,
  type StoredDocument,
} from './format.js';

export interface BuildOptions {
  readonly sources: string;
  readonly cache: string;
  readonly force: boolean;
  /** The manifest's informational `created_at` (the caller owns the clock). */
  readonly createdAt: string;
  /** Told what the build is doing (advisory: the cache is the same with or without it). */
  readonly onProgress?: ProgressListener;
  /** Called once, just before the build first writes (it may throw to stop the build there). */
  readonly beforeWrite?: () => void;
  /** What the target may not be or hold (./target.ts); absent: only the cache rules apply. */
  readonly guard?: TargetGuard;
  /** Roots a source must lie inside by real path (a symlink leading out is skipped); absent: no such rule. */
  readonly confine?: readonly string[];
}

export interface BuildSummary {
  readonly cacheVersion: string;
  readonly documentCount: number;
  /** Sources left out, with why (only symlinks leading out of `confine`). */
  readonly skipped: readonly SkippedSource[];
}


/** Rust `Path::extension() == Some("md")`: text after the last dot, not a leading one. */
function isMarkdownName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && name.slice(dot + 1) === 'md';
}

/** id: relative path, `/` separators, no leading `./`, lowercased (document_model.md). */
export function documentId(relativePath: string): string {
  let id = relativePath.replaceAll('\\', '/');
  while (id.startsWith('./')) id = id.slice(2);
  return id.toLowerCase();
}

/** Rust's `Path::is_file()` on a symlink: follows it; dangling or looping means "no". */
function isFileThroughLink(path: string): boolean {
  try {
    return fs.statOrNull(path)?.isFile() === true;
  } catch {
    return false; // ELOOP, EACCES on the target...: not a readable regular file
  }
}

/**
 * Relative paths of the source files, walked depth-first with each directory's entries in
 * byte order of their names (walkdir's sort_by_file_name). A symlink to a regular file is
 * read, as the reference does; symlinked directories are not descended. One readdir per
 * directory; a stat only for symlinks.
 */
export function findSources(
  root: string,
  onFound?: (count: number) => void,
  confine?: { readonly roots: readonly string[]; readonly skipped: SkippedSource[] },
): string[] {
  const found: string[] = [];
  const walk = (dir: string, rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readDir(dir);
    } catch (err) {
      // The reference skips unreadable directories silently; a cache missing documents
      // without a word is worse than a clear failure.
      throw osFailure(err, { op: 'list', role: 'sources', subject: root });
    }
    entries.sort((a, b) => compareBytes(a.name, b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.name.includes('\uFFFD') && fs.lstatOrNull(path) === null) {
        // readdir decoded a name that is not UTF-8 (a U+FFFD stands for its bad bytes), so
        // the decoded name names nothing. An id must be text, and invalid bytes are
        // rejected, not cleaned (document_model.md invariant 4), as for contents.
        throw new ContextError('cache_invalid', `file name is not valid UTF-8: ${relPath}`);
      }
      if (entry.isDirectory()) {
        walk(path, relPath);
      } else if (isMarkdownName(entry.name)) {
        if (entry.isFile() || (entry.isSymbolicLink() && isFileThroughLink(path))) {
          if (confine !== undefined && entry.isSymbolicLink() && !isWithinRoots(path, confine.roots)) {
            confine.skipped.push({ path: relPath, reason: OUTSIDE_ROOTS });
            continue;
          }
          found.push(relPath);
          onFound?.(found.length);
        }
      }
    }
  };
  walk(root, '');
  return found;
}

interface SourceDocument extends StoredDocument {
  readonly file: string;
}

function readSources(root: string, relPaths: readonly string[], report: ProgressListener): { docs: SourceDocument[]; bytes: number } {
  const docs: SourceDocument[] = [];
  let bytesRead = 0;
  for (const rel of relPaths) {
    let bytes: Buffer;
    try {
      bytes = fs.readFile(join(root, rel));
    } catch (err) {
      throw osFailure(err, { op: 'read', role: 'sources', subject: root });
    }
    if (!fs.isUtf8(bytes)) {
      // document_model.md invariant 4: invalid bytes are rejected, not cleaned.
      throw new ContextError('cache_invalid', `not valid UTF-8: ${rel}`);
    }
    const version = versionOf(bytes);
    docs.push({ id: documentId(rel), version, source: rel, content: bytes.toString('utf8'), file: documentFile(version) });
    bytesRead += bytes.length;
    report({ phase: 'read', files: docs.length, filesTotal: relPaths.length, bytes: bytesRead });
  }
  docs.sort((a, b) => compareBytes(a.id, b.id));
  const files = new Set<string>();
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as SourceDocument;
    if (i > 0 && (docs[i - 1] as SourceDocument).id === doc.id) {
      throw new ContextError('cache_invalid', `duplicate document id: ${doc.id}`);
    }
    if (files.has(doc.file)) {
      // context_cache.md "Storage Format": filename collisions are fatal build errors —
      // and two files with the same content share a version, hence a file name.
      throw new ContextError('cache_invalid', `document file name collision: ${doc.file} (${doc.id})`);
    }
    files.add(doc.file);
  }
  return { docs, bytes: bytesRead };
}

function writeCacheTree(dir: string, docs: readonly SourceDocument[], createdAt: string, report: (written: number) => void): string {
  const entries: ManifestEntry[] = docs.map((d) => ({ id: d.id, version: d.version, file: d.file }));
  const version = cacheVersion(entries);
  fs.mkdir(join(dir, DOCUMENTS_DIR));
  for (const [i, doc] of docs.entries()) {
    fs.writeFile(join(dir, doc.file), documentText(doc));
    report(i + 1);
  }
  fs.writeFile(join(dir, INDEX_FILE), indexText(entries));
  fs.writeFile(join(dir, MANIFEST_FILE), manifestText(version, createdAt, entries));
  return version;
}

export function buildCache(options: BuildOptions): BuildSummary {
  const { sources, cache, force, createdAt } = options;
  requireSourcesDir(sources);
  checkCacheTarget(cache, force, options.guard, CACHE_LAYOUTS);
  const report: ProgressListener = options.onProgress ?? (() => {});
  // Everything is read and checked before the first byte is written.
  const skipped: SkippedSource[] = [];
  const confine = options.confine === undefined ? undefined : { roots: options.confine, skipped };
  const relPaths = findSources(sources, (found) => report({ phase: 'scan', files: found, filesTotal: 0, bytes: 0 }), confine);
  const { docs, bytes } = readSources(sources, relPaths, report);
  const at = (phase: BuildProgress['phase'], files: number): BuildProgress => ({ phase, files, filesTotal: docs.length, bytes });
  options.beforeWrite?.();
  const version = writeCacheAtomically(cache, (temp) => writeCacheTree(temp, docs, createdAt, (n) => report(at('write', n))), force);
  report(at('done', docs.length));
  skipped.sort((a, b) => compareBytes(a.path, b.path));
  return { cacheVersion: version, documentCount: docs.length, skipped };
}
