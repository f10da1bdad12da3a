// A book's table of contents: mdBook's and GitBook's `SUMMARY.md`, which those tools read to
// know a book's chapters and their order and show as the sidebar, never as a page. Its lines
// name every chapter, so as text it matched any question that names one, and an answer
// spent its tokens on a list of links. It is navigation, as an HTML page's menus are
// (docs/sources.md "Formats and files"): the document stays in the cache and has no body.
//
// A file is one when its name is `SUMMARY.md` and every line of its body (past any front
// matter) is blank or one of what the format allows: a heading (a part title), a link alone
// or as a list item (`[Intro](README.md)`, `- [Install](guide/install.md)`, a draft's
// `[Draft]()`), a separator (`---`) or an HTML comment. One line of prose and it is read as
// any page. Linear: each line is matched once by expressions without nested repetition.

import { isBlankSpan, lineAt } from './markdown-chars.js';

const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const LINK = /^[ \t]*(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)?\[[^\]\n]*\]\([^)\n]*\)[ \t]*$/;
const SEPARATOR = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const COMMENT = /^[ \t]*<!--.*-->[ \t]*$/;

/** Whether the file at `path` is a book's table of contents, its body being text[from, end). */
export function isBookContents(path: string, text: string, from: number): boolean {
  if (!(path === 'SUMMARY.md' || path.endsWith('/SUMMARY.md'))) return false;
  let links = 0;
  for (let at = from; at < text.length; ) {
    const { end, next } = lineAt(text, at);
    const line = text.slice(at, end);
    if (LINK.test(line)) links++;
    else if (!isBlankSpan(text, at, end) && !HEADING.test(line) && !SEPARATOR.test(line) && !COMMENT.test(line)) return false;
    at = next > at ? next : text.length;
  }
  return links > 0;
}
