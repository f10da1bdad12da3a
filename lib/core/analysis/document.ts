// One entry point for every format a v1 build reads: the section structure of a document,
// by the format its path names (../sources/extensions.ts). Markdown and MDX: markdown.ts;
// reStructuredText: rst.ts; AsciiDoc: asciidoc.ts; plain text: plain-text.ts; HTML: html.ts.
// A document's text — what its units are offsets into, print, count and index — is its source
// as it is, except an HTML page's, which is its visible text (html.ts; its structure carries it).
// readDocument adds what depends on the path: a book's table of contents has no body.

import { formatOfPath, type DocumentFormat } from '../sources/extensions.js';
import { parseAsciidoc } from './asciidoc.js';
import { isBookContents } from './book-contents.js';
import { bodyStartOf, parseMarkdown, type MarkdownOptions, type MarkdownStructure } from './markdown.js';
import { parseHtml, type HtmlStructure } from './html.js';
import { parsePlainText } from './plain-text.js';
import { parseRst } from './rst.js';

export type { DocumentFormat } from '../sources/extensions.js';
export { formatOfPath } from '../sources/extensions.js';

export function parseDocumentAs(format: DocumentFormat, text: string, options: MarkdownOptions = {}): MarkdownStructure {
  const common = { ...(options.slugs === undefined ? {} : { slugs: options.slugs }), ...(options.headingBytes === undefined ? {} : { headingBytes: options.headingBytes }) };
  switch (format) {
    case 'markdown':
      return parseMarkdown(text, options);
    case 'rst':
      return parseRst(text, common);
    case 'asciidoc':
      return parseAsciidoc(text, common);
    case 'text':
      return parsePlainText(text);
    case 'html':
      return parseHtml(text, common);
  }
}

/** A document's text (HTML: its visible text; any other format: `source` itself) and its structure. */
export function readDocumentAs(format: DocumentFormat, source: string, options: MarkdownOptions = {}): { readonly text: string; readonly structure: MarkdownStructure } {
  const structure = parseDocumentAs(format, source, options);
  return { text: format === 'html' ? (structure as HtmlStructure).text : source, structure };
}

/**
 * The document at `path` as a v1 build reads it: readDocumentAs in the format its extension
 * names, except that a book's table of contents (mdBook's and GitBook's SUMMARY.md,
 * book-contents.ts) is navigation and has no body.
 */
export function readDocument(path: string, source: string, options: MarkdownOptions = {}): { readonly text: string; readonly structure: MarkdownStructure } {
  const format = formatOfPath(path);
  const read = readDocumentAs(format, source, options);
  if (format !== 'markdown' || !isBookContents(path, read.text, bodyStartOf(read.structure))) return read;
  return { text: read.text, structure: { frontMatter: read.structure.frontMatter, bodyStart: read.text.length, headings: [], blocks: [] } };
}

/** The structure of the document at `path` (its extension names the format; HTML's offsets are into its visible text). */
export function parseDocument(path: string, text: string, options: MarkdownOptions = {}): MarkdownStructure {
  return parseDocumentAs(formatOfPath(path), text, options);
}
