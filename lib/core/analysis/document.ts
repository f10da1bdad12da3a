// One entry point for every format a v1 build reads: the section structure of a document,
// by the format its path names (../sources/extensions.ts). Markdown and MDX: markdown.ts;
// reStructuredText: rst.ts; AsciiDoc: asciidoc.ts; plain text: plain-text.ts; HTML: html.ts
// (whose structure also carries the visible text, what is indexed).

import { formatOfPath, type DocumentFormat } from '../sources/extensions.js';
import { parseAsciidoc } from './asciidoc.js';
import { parseMarkdown, type MarkdownOptions, type MarkdownStructure } from './markdown.js';
import { parseHtml } from './html.js';
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

/** The structure of the document at `path` (its extension names the format). */
export function parseDocument(path: string, text: string, options: MarkdownOptions = {}): MarkdownStructure {
  return parseDocumentAs(formatOfPath(path), text, options);
}
