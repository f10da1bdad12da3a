// The file extensions a v1 build takes as documents by default, and the format each names.
// A module of its own so that readers of build_config (resolve, load) need not load the walk
// and its glob and gitignore libraries.

/** A document's format: which section reader reads it (docs/sources.md "Formats and files"). */
export type DocumentFormat = 'markdown' | 'rst' | 'asciidoc' | 'text' | 'html';

/** Extension (lowercase, no dot) -> format. */
const FORMAT_OF: Readonly<Record<string, DocumentFormat>> = {
  adoc: 'asciidoc',
  asciidoc: 'asciidoc',
  htm: 'html',
  html: 'html',
  markdown: 'markdown',
  md: 'markdown',
  mdx: 'markdown',
  rst: 'rst',
  txt: 'text',
};

/** Sorted by UTF-8 byte order (build_config records them so). */
export const DEFAULT_EXTENSIONS: readonly string[] = Object.keys(FORMAT_OF).sort();

/**
 * Source formats whose files are also published as `NAME.EXT.txt`: Sphinx copies each page's
 * source to `_sources/PAGE.rst.txt` (or `.md.txt`) beside the HTML it built. Such a file is
 * read in the format its inner extension names; any other `.txt` is plain text.
 */
export const SOURCE_COPY_FORMATS: ReadonlySet<DocumentFormat> = new Set(['markdown', 'rst', 'asciidoc']);

/**
 * The format of a path by its extension (any case); a path whose extension is none of them is
 * read as Markdown. `NAME.EXT.txt`, where EXT is a Markdown, reStructuredText or AsciiDoc
 * extension, is read as EXT (a published copy of a source, SOURCE_COPY_FORMATS).
 */
export function formatOfPath(path: string): DocumentFormat {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1) return 'markdown';
  const format = FORMAT_OF[path.slice(dot + 1).toLowerCase()] ?? 'markdown';
  if (format !== 'text') return format;
  const inner = path.lastIndexOf('.', dot - 1);
  if (inner <= slash + 1) return format;
  const copied = FORMAT_OF[path.slice(inner + 1, dot).toLowerCase()];
  return copied !== undefined && SOURCE_COPY_FORMATS.has(copied) ? copied : format;
}

/** The name a build's report counts a format's documents under. */
export const FORMAT_NAMES: Readonly<Record<DocumentFormat, string>> = { markdown: 'md', rst: 'rst', asciidoc: 'adoc', text: 'txt', html: 'html' };

/** Documents per format, keys in byte order, formats with none left out: `{"adoc":1,"md":12}`. */
export function formatCounts(paths: Iterable<string>): Record<string, number> {
  const counts = new Map<string, number>();
  for (const p of paths) {
    const name = FORMAT_NAMES[formatOfPath(p)];
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const out: Record<string, number> = {};
  for (const k of [...counts.keys()].sort()) out[k] = counts.get(k) as number;
  return out;
}
