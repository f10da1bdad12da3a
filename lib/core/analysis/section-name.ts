// The name of a document's leading part (the text before its first heading that cuts a
// section): docs/sources.md "Sections". A heading names the sections after it; the text before
// any heading is named by the page: its front-matter `title`, else its first line of text,
// with Markdown marks removed as they are from a heading (markdown-inline.ts), trimmed and
// at most NAME_MAX code points. Pure, and it reads no further than that first line.

import type { Heading } from './markdown.js';
import { renderHeadingText } from './markdown-inline.js';

/** The most code points a name taken from a line keeps ('…' included when it was cut). */
export const NAME_MAX = 80;

const NO_DEFINITIONS: ReadonlySet<string> = new Set();

// A line that opens or closes fenced code: 3+ backticks or tildes, indented at most 3 spaces.
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// A thematic break or setext underline: one of - * _ = repeated, spaces and tabs between.
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|=+[ \t]*)$/;
// MDX statements and comments, no text to read: `import …`, `export …`, `{/* … */}`.
const MDX = /^(?:(?:import|export)[ \t]|\{\/\*.*\*\/\}[ \t]*$)/;
// Block markers before a line's inline content: block quotes, list items, an ATX opening.
const MARKERS = /^[ \t]*(?:>[ \t]?|[-+*][ \t]+|[0-9]{1,9}[.)][ \t]+)*(?:#{1,6}(?:[ \t]+|$))?/;
// An ATX heading's closing sequence.
const CLOSING = /[ \t]+#+[ \t]*$/;

/**
 * The leading part's name: `title` when the front matter gives one, else the text of the
 * first line from `from` on that shows any (blank lines, fence lines and the code between
 * them, thematic breaks, HTML comments, MDX import/export lines and `{/* … *\/}` comments are
 * skipped; a line that starts one of the document's top-level `headings` shows that
 * heading's text), cut to NAME_MAX code points; null when nothing shows text.
 */
export function leadingName(text: string, from: number, title: string | null, headings: readonly Heading[]): string | null {
  if (title !== null && title.trim() !== '') return title;
  let fence: string | null = null;
  let comment = false;
  let pos = from;
  let h = 0;
  while (pos < text.length) {
    const start = pos;
    while (h < headings.length && (headings[h] as Heading).start < start) h++;
    if (fence === null && !comment && h < headings.length && (headings[h] as Heading).start === start) {
      const shown = (headings[h] as Heading).text;
      if (shown !== '') return bounded(shown);
    }
    let end = pos;
    while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
    // A byte order mark is no part of the first line's text.
    const line = text.slice(start === 0 && text.charCodeAt(0) === 0xfeff ? 1 : pos, end);
    pos = end < text.length && text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
    if (comment) {
      comment = !line.includes('-->');
      continue;
    }
    const open = FENCE.exec(line);
    if (fence !== null) {
      // Closed by a run of the same character, at least as long, and nothing else.
      if (open !== null && (open[1] as string).startsWith(fence) && line.trim() === (open[1] as string)) fence = null;
      continue;
    }
    if (open !== null) {
      fence = open[1] as string;
      continue;
    }
    if (RULE.test(line) || MDX.test(line)) continue;
    const content = line.slice((MARKERS.exec(line) as RegExpExecArray)[0].length).replace(CLOSING, '');
    if (content.trimStart().startsWith('<!--') && !content.includes('-->')) {
      comment = true;
      continue;
    }
    const shown = renderHeadingText(content, NO_DEFINITIONS).text;
    if (shown !== '') return bounded(shown);
  }
  return null;
}

/** `s` cut to NAME_MAX code points, at a space when one is in its second half, and '…' added. */
function bounded(s: string): string {
  const points = Array.from(s);
  if (points.length <= NAME_MAX) return s;
  let kept = points.slice(0, NAME_MAX - 1).join('');
  const space = kept.lastIndexOf(' ');
  if (space >= NAME_MAX / 2) kept = kept.slice(0, space);
  return `${kept.trimEnd()}…`;
}
