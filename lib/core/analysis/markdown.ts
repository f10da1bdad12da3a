// The block structure of a Markdown (or MDX) document that sections need: its front matter
// and its top-level headings, each with GitHub's plain text and unique anchor slug and its
// exact span. Pure and linear; the rules are in docs/engine.md "Markdown structure and
// sections":
// - CommonMark decides what is a heading (ATX, setext; not inside fenced or indented code,
//   HTML blocks, block quotes or list items); GFM tables are not modelled.
// - Heading text is what GitHub renders: markup removed, code spans, link text and image
//   alt kept, raw HTML dropped, escapes and character references decoded.
// - Slugs come from github-slugger, one slugger per document, fed every heading in document
//   order with the text GitHub anchors (image alt excluded), so duplicates get -1, -2.
// - MDX goes through the same parser: import/export lines and JSX are just text.

import GithubSlugger from 'github-slugger';
import { parseFrontMatter, type FrontMatter } from './front-matter.js';
import { scanBlocks } from './markdown-blocks.js';
import { renderHeadingText } from './markdown-inline.js';

export type { FrontMatter } from './front-matter.js';

export interface Heading {
  readonly level: number;
  /** Plain text as GitHub renders the heading (inline markup removed, entities/escapes decoded), trimmed. */
  readonly text: string;
  /** GitHub anchor slug (github-slugger), unique within the document: numbered over ALL headings in document order, as GitHub does. */
  readonly slug: string;
  /** UTF-16 offset of the start of the heading's first line. */
  readonly start: number;
  /** UTF-16 offset just past the heading's last line (setext: past the underline), line ending included. */
  readonly end: number;
}

export interface MarkdownStructure {
  readonly frontMatter: FrontMatter | null;
  readonly headings: readonly Heading[];
}

const NO_DEFINITIONS: ReadonlySet<string> = new Set();

export function parseMarkdown(text: string): MarkdownStructure {
  if (typeof text !== 'string') throw new TypeError('parseMarkdown: text must be a string');
  // A byte order mark is not content (CommonMark implementations drop it).
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const frontMatter = parseFrontMatter(text, from);
  const lineFrom = frontMatter === null ? 0 : frontMatter.end;
  const scan = scanBlocks(text, lineFrom, frontMatter === null ? from : lineFrom);
  // Definitions only matter to headings that could hold a reference link.
  const definitions = scan.headings.some((h) => h.content.includes(']')) ? scan.definitionLabels() : NO_DEFINITIONS;
  // GitHub numbers duplicate anchors over every heading, nested ones included.
  const slugger = new GithubSlugger();
  const headings: Heading[] = [];
  for (const raw of scan.headings) {
    const rendered = renderHeadingText(raw.content, definitions);
    const slug = slugger.slug(rendered.anchorText);
    if (raw.topLevel) headings.push({ level: raw.level, text: rendered.text, slug, start: raw.start, end: raw.end });
  }
  return { frontMatter, headings };
}
