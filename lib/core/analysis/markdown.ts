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
// - MDX goes through the same parser: JSX is just text. The `import` / `export` statements
//   and `<script>` / `<style>` blocks that open a page (after its front matter;
//   leadingStatementsEnd) are not its body, as front matter is not: MDX compiles the
//   statements away (Docusaurus reads `.md` files as MDX), VitePress hoists a page's
//   `<script setup>`, and no renderer shows either. Any later one is text.
// - With `headingIds` (engine v1 turns it on), a heading ending in `{#id}`, `{ #id }` or MDX
//   `{/*id*/}` has that id as its slug, and the braces are not part of its text; so does an
//   attribute list as Pandoc, kramdown and Python-Markdown's attr_list write one
//   (`{: #id .class key="value" }`), whose id, if it names one, is the slug (docs/engine.md
//   "Heading ids as sites render them"); slugs stay unique within the document.
// - `blocks`: where top-level blocks start, the places sections may be cut between blocks.
// - With `headingBytes` (engine v1's sections: 1,024), a heading whose text is longer than
//   that many UTF-8 bytes keeps the longest prefix of whole code points within
//   headingBytes - 3 bytes, then `…` (U+2026), as its text; its slug is made from its anchor
//   text cut the same way (no `…`), then numbered as any other, so slugs stay unique. A
//   heading that is one long word (a base64 blob) then costs each section under it a
//   bounded trail and id (docs/engine.md "Counting pieces once").

import { flatString } from './flat-string.js';
import { isBlankSpan, lineAt } from './markdown-chars.js';
import { Slugger } from './slugger.js';
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
  /**
   * Where the body starts: past the front matter and the import / export statements and
   * `<script>` / `<style>` blocks that open a page (leadingStatementsEnd; absent: at the
   * front matter's end, or 0). No section holds what is before.
   */
  readonly bodyStart?: number;
  readonly headings: readonly Heading[];
  /** UTF-16 offsets where top-level blocks (and items of top-level lists) start, ascending. */
  readonly blocks: readonly number[];
}

export interface MarkdownOptions {
  // Read `{#id}`, `{ #id }` and MDX `{/*id*/}` at the end of a heading as its anchor
  // (default false: GitHub's reading).
  readonly headingIds?: boolean;
  // Compute anchor slugs (default true). Without them every heading's slug is '': for callers
  // that never address a heading (engine v1's whole-file units), which skips github-slugger.
  readonly slugs?: boolean;
  // The most UTF-8 bytes a heading's text (and the text its slug is made from) keeps
  // (absent: no bound). At least 4.
  readonly headingBytes?: number;
}

/** `text` when it is at most `max` UTF-8 bytes, else its longest prefix of whole code points within `max` bytes. */
export function utf8Prefix(text: string, max: number): string {
  if (text.length * 3 <= max) return text;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let n = 1;
    let width = 1;
    if (c >= 0x80) {
      if (c < 0x800) n = 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
        n = 4;
        width = 2;
      } else n = 3;
    }
    if (bytes + n > max) return text.slice(0, i);
    bytes += n;
    i += width - 1;
  }
  return text;
}

/** A heading's text within `max` UTF-8 bytes: as it is, or cut (utf8Prefix within max - 3) and `…` added. */
export function boundedHeading(text: string, max: number): string {
  const within = utf8Prefix(text, max);
  return within === text ? text : utf8Prefix(text, max - 3) + '\u2026';
}

// A custom heading id at the end of a heading's raw content: `{#id}` / `{ #id }` (Docusaurus,
// kramdown, Pandoc) or `{/*id*/}` (MDX sites such as react.dev). An id is letters, digits,
// `_`, `-`, `.` and `:` (never `~`, which section ids use for sub-parts).
const HEADING_ID = /[ \t]*\{[ \t]*(?:#([\p{L}\p{N}_.:-]+)|\/\*[ \t]*([\p{L}\p{N}_.:-]+)[ \t]*\*\/)[ \t]*\}[ \t]*$/u;
const ID = /^[\p{L}\p{N}_.:-]+$/u;
// One attribute of an attribute list, as Pandoc, kramdown and Python-Markdown's attr_list
// (MkDocs, Material for MkDocs) write them after a heading: `#id`, `.class`, `key=value`,
// `key="value"`, `key='value'`, or Pandoc's `-` (unnumbered). A bare word is not one: GitHub
// shows `{word}` as text, and so do we.
const ATTRIBUTE = /[ \t]*(?:#([^\s{}"'=]+)|\.[^\s{}"'=.#]+|([A-Za-z_:][\w.:-]*)=(?:"([^"{}\n]*)"|'([^'{}\n]*)'|([^\s{}"'=]+))|-(?=[ \t}]))/y;

/**
 * The attribute list `{ … }` closing a heading's raw content (after a space or tab; `{:`
 * as kramdown and Python-Markdown also write it): the content before it, and the id it
 * names (the last `#id` or `id=…`; null: none, the slug is made from the text). Null when
 * the braces are no such list, or an id in it is not letters, digits, `_ - . :`.
 */
function attributeList(content: string, close: number): { content: string; id: string | null } | null {
  const open = content.lastIndexOf('{', close);
  if (open <= 0 || (content.charCodeAt(open - 1) !== 0x20 && content.charCodeAt(open - 1) !== 0x09)) return null;
  let at = open + 1;
  if (content.charCodeAt(at) === 0x3a) at++; // `{:`
  let id: string | null = null;
  let attributes = 0;
  for (;;) {
    while (at < close && (content.charCodeAt(at) === 0x20 || content.charCodeAt(at) === 0x09)) at++;
    if (at === close) break;
    ATTRIBUTE.lastIndex = at;
    const m = ATTRIBUTE.exec(content);
    if (m === null || ATTRIBUTE.lastIndex > close) return null;
    const named = m[1] ?? (m[2] === 'id' ? (m[3] ?? m[4] ?? m[5]) : undefined);
    if (named !== undefined) {
      if (!ID.test(named)) return null;
      id = named;
    }
    attributes++;
    at = ATTRIBUTE.lastIndex;
  }
  return attributes === 0 ? null : { content: content.slice(0, open), id };
}

/**
 * A heading's id and attributes at the end of its raw content, read as the sites that
 * render them do (docs/sources.md "Heading ids as sites render them"): the content without
 * them, and the id they name (null: a list naming none). Null: nothing to read.
 */
export function headingId(content: string): { content: string; id: string | null } | null {
  let last = content.length - 1;
  while (last >= 0 && (content.charCodeAt(last) === 0x20 || content.charCodeAt(last) === 0x09)) last--;
  if (content.charCodeAt(last) !== 0x7d) return null;
  const m = HEADING_ID.exec(content);
  let found: { at: number; content: string; id: string | null } | null = null;
  if (m !== null) found = { at: m.index, content: content.slice(0, m.index), id: (m[1] ?? m[2]) as string };
  else {
    const list = attributeList(content, last);
    if (list !== null) found = { at: list.content.length, ...list };
  }
  if (found === null) return null;
  // An escaped brace (`\{#id}`) is literal text.
  let slashes = 0;
  const brace = content.indexOf('{', found.at);
  for (let i = brace - 1; i >= 0 && content.charCodeAt(i) === 0x5c; i--) slashes++;
  if (slashes % 2 === 1) return null;
  return { content: found.content, id: found.id };
}

const NO_DEFINITIONS: ReadonlySet<string> = new Set();

/** Where the body of a document of this structure starts (MarkdownStructure.bodyStart). */
export function bodyStartOf(structure: MarkdownStructure): number {
  return structure.bodyStart ?? structure.frontMatter?.end ?? 0;
}

// The first line of an MDX import or export statement, shaped as JavaScript, at column 0:
// `import x from 'y'`, `import { a, b } from "y"`, `import 'y'`, `import {` (its names on the
// lines below), `export const …`, `export default …`, `export { … }`. Prose that starts with
// the word (`import the data first`) is not a statement: an import must name its module
// (a quote, or `from` and a quote, within its block).
const IMPORT_LINE = /^import[ \t]+(?:["']|[\p{L}\p{N}_$*{])/u;
const EXPORT_LINE = /^export[ \t]+(?:(?:const|let|var|function|async|class|default|type|interface|enum)[ \t\n{(*]|[{*])/;
const MODULE_NAMED = /(?:^import[ \t]+["']|\bfrom[ \t]*["'])/;
// A `<script>` or `<style>` element opening a page, as VitePress pages open with
// `<script setup>` (hoisted into the page's Vue component) and as any Markdown renderer
// shows nothing of it: CommonMark's HTML block of type 1 (up to 3 spaces of indent), which
// ends at the first line holding `</script>`, `</style>`, `</pre>` or `</textarea>`.
const HIDDEN_BLOCK = /^ {0,3}<(?:script|style)(?:[ \t>]|$)/i;
const HIDDEN_END = /<\/(?:script|style|pre|textarea)>/gi;

/**
 * Past the import / export statements and the `<script>` / `<style>` blocks that open a page
 * at `pos` (blank lines between them skipped): a statement is a block of lines from a line
 * IMPORT_LINE or EXPORT_LINE matches up to a blank line or the end, as MDX reads them (an
 * import must name its module); a script or style block runs to the line that closes it
 * (HIDDEN_BLOCK). `pos` itself when none opens it; else just past the last one's last line,
 * its line ending included.
 */
export function leadingStatementsEnd(text: string, pos: number): number {
  let end = pos;
  let at = pos;
  while (at < text.length) {
    let line = lineAt(text, at);
    if (isBlankSpan(text, at, line.end)) {
      at = line.next;
      continue;
    }
    const first = text.slice(at, line.end);
    if (HIDDEN_BLOCK.test(first)) {
      // A <script> or <style> block (CommonMark's HTML block of type 1), up to the line that
      // closes it; one never closed is left as it is (it would hide the rest of the page).
      HIDDEN_END.lastIndex = at;
      const close = HIDDEN_END.exec(text);
      if (close === null) break;
      end = lineAt(text, close.index).next;
      at = end;
      continue;
    }
    const isImport = IMPORT_LINE.test(first);
    if (!isImport && !EXPORT_LINE.test(first + '\n')) break;
    // The block: this line and those after it up to a blank line.
    const blockStart = at;
    let blockEnd = line.next;
    while (blockEnd < text.length) {
      line = lineAt(text, blockEnd);
      if (isBlankSpan(text, blockEnd, line.end)) break;
      blockEnd = line.next;
    }
    if (isImport && !MODULE_NAMED.test(text.slice(blockStart, blockEnd))) break;
    end = blockEnd;
    at = blockEnd;
  }
  return end;
}

export function parseMarkdown(text: string, options: MarkdownOptions = {}): MarkdownStructure {
  if (typeof text !== 'string') throw new TypeError('parseMarkdown: text must be a string');
  // A byte order mark is not content (CommonMark implementations drop it).
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const frontMatter = parseFrontMatter(text, from);
  const afterFrontMatter = frontMatter === null ? from : frontMatter.end;
  const statementsEnd = leadingStatementsEnd(text, afterFrontMatter);
  const lineFrom = statementsEnd !== afterFrontMatter ? statementsEnd : frontMatter === null ? 0 : frontMatter.end;
  const scan = scanBlocks(text, lineFrom, frontMatter === null && statementsEnd === afterFrontMatter ? from : lineFrom);
  // Definitions only matter to headings that could hold a reference link.
  const definitions = scan.headings.some((h) => h.content.includes(']')) ? scan.definitionLabels() : NO_DEFINITIONS;
  // GitHub numbers duplicate anchors over every heading, nested ones included.
  const slugger = new Slugger();
  // Custom ids may repeat, or equal a slug the slugger made or will make: a taken one gets
  // -1, -2, ... as the slugger numbers its own (without custom ids nothing is ever taken).
  const taken = new Set<string>();
  const headings: Heading[] = [];
  const slugs = options.slugs !== false;
  const max = options.headingBytes;
  if (max !== undefined && !(max >= 4)) throw new RangeError('parseMarkdown: headingBytes must be at least 4');
  for (const raw of scan.headings) {
    const custom = options.headingIds === true ? headingId(raw.content) : null;
    const rendered = renderHeadingText(custom === null ? raw.content : custom.content, definitions);
    const text = max === undefined ? rendered.text : boundedHeading(rendered.text, max);
    // Flat: the term counter and the token counter read heading texts in the loops that read
    // documents (flat-string.ts).
    const headingText = raw.topLevel ? flatString(text) : text;
    if (!slugs) {
      if (raw.topLevel) headings.push({ level: raw.level, text: headingText, slug: '', start: raw.start, end: raw.end });
      continue;
    }
    let slug = custom?.id ?? slugger.slug(max === undefined ? rendered.anchorText : utf8Prefix(rendered.anchorText, max));
    if (taken.has(slug)) {
      let n = 1;
      while (taken.has(`${slug}-${n}`)) n++;
      slug = `${slug}-${n}`;
    }
    taken.add(slug);
    if (raw.topLevel) headings.push({ level: raw.level, text: headingText, slug, start: raw.start, end: raw.end });
  }
  return statementsEnd === afterFrontMatter ? { frontMatter, headings, blocks: scan.blockStarts } : { frontMatter, bodyStart: statementsEnd, headings, blocks: scan.blockStarts };
}
