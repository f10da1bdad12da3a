// The sources of a v1 build: the files of the document formats under a root, found by a walk
// that honours .gitignore files (each applying to its own directory and below, as git reads
// them), skips `.git`, `node_modules` and hidden entries, and applies --include/--exclude
// globs (picomatch, matched against the `/`-separated path from the root); the sources of
// HTML pages read beside them are left out (withoutSourceCopies: a Sphinx build's copies, a
// `P.txt` beside `P.html`). Paths
// come back sorted by UTF-8 byte order. What cannot become a document is listed with a
// reason, never silently dropped: names that are not UTF-8, special files (FIFOs, sockets...).

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compareBytes, sortByBytes } from '../../json.js';
import { ContextError, osError, osFailure } from '../../errors.js';
import * as fs from '../fs.js';
import { IgnoreStack } from './gitignore.js';
import { MAX_IGNORE_LINE } from './limits.js';
import { isWithinRoots } from '../confine.js';

/** Why a symlinked source leading out of the allowed roots is left out (both engines say it). */
export const OUTSIDE_ROOTS = 'symlink leads outside the allowed roots';

export interface SourceOptions {
  /** File name extensions taken (lowercase, compared case-insensitively). */
  readonly extensions: readonly string[];
  /** Globs a file must match one of (none: every file). */
  readonly include: readonly string[];
  /** Globs that leave a file (or a whole directory) out. */
  readonly exclude: readonly string[];
  /** Honour .gitignore files. */
  readonly gitignore: boolean;
  /**
   * Roots every source must lie inside by real path: a symlinked file leading out of them
   * is skipped and reported (symlinked folders are never entered). Absent: no such rule.
   */
  readonly confine?: readonly string[];
}

export interface SkippedSource {
  /** `/`-separated path from the root (undecodable bytes shown as U+FFFD). */
  readonly path: string;
  readonly reason: string;
}

export interface SourceListing {
  /** `/`-separated paths from the root, sorted by UTF-8 byte order. */
  readonly files: readonly string[];
  readonly skipped: readonly SkippedSource[];
}

export { DEFAULT_EXTENSIONS } from './extensions.js';
import { formatOfPath, SOURCE_COPY_FORMATS } from './extensions.js';
const ALWAYS_SKIPPED_DIRS = new Set(['.git', 'node_modules']);

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Whether a symlink leads to a regular file (dangling or looping: no). */
function linksToFile(path: string): boolean {
  try {
    return fs.statOrNull(path)?.isFile() === true;
  } catch {
    return false;
  }
}

/**
 * io_error unless `dir` (a sources folder) is a folder: `sources_missing` when it is absent
 * or not a folder, the error naming it either way.
 */
export function requireSourcesDir(dir: string): void {
  let st: fs.Stats | null;
  try {
    st = fs.statOrNull(dir);
  } catch (err) {
    throw osFailure(err, { op: 'examine', role: 'sources', subject: dir });
  }
  if (st === null || !st.isDirectory()) throw osError('io_error', { op: 'examine', role: 'sources', subject: dir }, st === null ? 'ENOENT' : 'ENOTDIR', 'sources_missing');
}

/** A source listed by the walk that was gone when the build came to it. */
export function sourceVanished(sources: string, file: string): ContextError {
  return osError('io_error', { op: 'read', role: 'sources', subject: sources, path: file }, 'ENOENT');
}

export function listSources(root: string, options: SourceOptions): SourceListing {
  const extensions = new Set(options.extensions);
  // picomatch loads only when globs are given (most builds name none).
  const glob = (globs: readonly string[]): ((path: string) => boolean) | null =>
    globs.length === 0 ? null : (createRequire(import.meta.url)('picomatch') as typeof import('picomatch'))([...globs], { dot: true });
  const included = glob(options.include);
  const excluded = glob(options.exclude);
  const files: string[] = [];
  const skipped: SkippedSource[] = [];

  /**
   * A directory's entries, named. Read with UTF-8 names, the fast path; a name that is not
   * UTF-8 decodes with U+FFFD, and a directory holding one is read again as raw bytes to
   * tell which names really are (U+FFFD is also a valid character).
   */
  const entriesOf = (dir: string): { readonly e: fs.Dirent | fs.Dirent<Buffer>; readonly name: string; readonly valid: boolean }[] => {
    const entries = fs.readDir(dir);
    if (!entries.some((e) => e.name.includes('\uFFFD'))) return entries.map((e) => ({ e, name: e.name, valid: true }));
    return fs.readDirRaw(dir).map((e) => ({ e, name: e.name.toString('utf8'), valid: fs.isUtf8(e.name) }));
  };

  // Entries are taken in the order the directory gives them: both lists are sorted at the end.
  const walk = (dir: string, rel: string, rules: IgnoreStack): void => {
    let named: ReturnType<typeof entriesOf>;
    try {
      named = entriesOf(dir);
    } catch (err) {
      throw osFailure(err, { op: 'list', role: 'sources', subject: root });
    }
    if (options.gitignore && named.some((n) => n.name === '.gitignore' && n.e.isFile())) {
      const tooLong: number[] = [];
      try {
        rules = rules.with(rel, fs.readText(join(dir, '.gitignore')), tooLong);
      } catch (err) {
        throw osFailure(err, { op: 'read', role: 'sources', subject: root });
      }
      if (tooLong.length > 0) {
        const which = tooLong.length === 1 ? `line ${tooLong[0] as number} is` : `${tooLong.length} lines (first: ${tooLong[0] as number}) are`;
        skipped.push({ path: rel === '' ? '.gitignore' : `${rel}/.gitignore`, reason: `${which} over ${MAX_IGNORE_LINE} characters: not applied` });
      }
    }
    for (const { e, name, valid } of named) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      if (name.startsWith('.') || ALWAYS_SKIPPED_DIRS.has(name)) continue;
      const isDir = e.isDirectory();
      if (rules.ignores(relPath, isDir)) continue;
      // A directory matches with or without its trailing slash (`drafts/` and `drafts` both
      // drop it, as in .gitignore); only a glob ending in `/` is directories-only.
      if (excluded !== null && (excluded(relPath) || (isDir && excluded(relPath + '/')))) continue;
      if (isDir) {
        if (!valid) {
          skipped.push({ path: relPath, reason: 'directory name is not UTF-8' });
          continue;
        }
        walk(join(dir, name), relPath, rules);
        continue;
      }
      if (!extensions.has(extensionOf(name))) continue;
      if (included !== null && !included(relPath)) continue;
      if (!valid) {
        skipped.push({ path: relPath, reason: 'file name is not UTF-8' });
        continue;
      }
      if (e.isSymbolicLink() && options.confine !== undefined && !isWithinRoots(join(dir, name), options.confine)) {
        skipped.push({ path: relPath, reason: OUTSIDE_ROOTS });
      } else if (e.isFile() || (e.isSymbolicLink() && linksToFile(join(dir, name)))) files.push(relPath);
      else skipped.push({ path: relPath, reason: e.isSymbolicLink() ? 'symlink does not lead to a regular file' : 'not a regular file' });
    }
  };
  walk(root, '', IgnoreStack.empty());
  sortByBytes(files);
  skipped.sort((a, b) => compareBytes(a.path, b.path));
  return { files: withoutSourceCopies(files), skipped };
}

const SOURCES_DIR = '_sources/';

/**
 * `files` without the sources of HTML pages that are read beside them, so each page is read
 * once, as HTML (its headings, ids and text, where the source would be read as plain text):
 * - the copies a Sphinx HTML build ships of its pages' sources: `R/_sources/P.EXT.txt` (EXT a
 *   source format, ./extensions.ts) when `R/P.html` is among `files`; a copy whose page is not
 *   there (the walk was pointed at `_sources/` itself, or `--include` kept no HTML) stays, read
 *   in its own format;
 * - a text file beside the page of the same name: `D/P.txt` when `D/P.html` (or `.htm`) is among `files`
 *   (git's manual ships `git-commit.txt`, its AsciiDoc source, beside `git-commit.html`; so
 *   do other AsciiDoc and Markdown builds that name their sources `.txt`).
 */
export function withoutSourceCopies(files: readonly string[]): string[] {
  const pages = new Set(files.filter((f) => /\.html?$/i.test(f)));
  if (pages.size === 0) return [...files];
  return files.filter((f) => sphinxPageOf(f, pages) === null && !hasPageBeside(f, pages));
}

/** Whether `path` is a text file `D/P.txt` (the extension in any case) with `D/P.html` or `D/P.htm` among `pages`. */
function hasPageBeside(path: string, pages: ReadonlySet<string>): boolean {
  if (!path.toLowerCase().endsWith('.txt')) return false;
  const stem = path.slice(0, -'.txt'.length);
  return pages.has(`${stem}.html`) || pages.has(`${stem}.htm`);
}

/** The page among `pages` that `path` is Sphinx's source copy of, or null. */
function sphinxPageOf(path: string, pages: ReadonlySet<string>): string | null {
  if (!path.toLowerCase().endsWith('.txt') || !SOURCE_COPY_FORMATS.has(formatOfPath(path))) return null;
  const stem = path.slice(0, path.lastIndexOf('.', path.length - 5));
  for (let at = stem.indexOf(SOURCES_DIR); at >= 0; at = stem.indexOf(SOURCES_DIR, at + 1)) {
    if (at > 0 && stem[at - 1] !== '/') continue;
    const page = `${stem.slice(0, at)}${stem.slice(at + SOURCES_DIR.length)}.html`;
    if (pages.has(page)) return page;
  }
  return null;
}
