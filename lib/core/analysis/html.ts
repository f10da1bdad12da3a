// An HTML page read as its visible text, and the section structure of that text, for
// sections.ts (docs/sources.md "Formats and files", HTML). A scanner, not a parser; linear in the page.
//
// The text (what an HTML document's units are offsets into, what they print, count and index):
// - dropped with everything inside them: `<head>` (to `</head>` or `<body>`); `<script>`,
//   `<style>`, `<template>`, `<textarea>`, `<title>`, `<noscript>`, `<iframe>`, `<noembed>`,
//   `<noframes>`, `<xmp>` (skipped to their closing tag); `<svg>`, `<math>`, `<button>`,
//   `<select>`; navigation and page chrome: `<nav>`, an `<aside>` outside the page's main
//   region (inside it, an aside is content: docutils' footnotes, sidebars, topics), any
//   element whose `role` is `navigation`, `search`, `banner`, `contentinfo` or
//   `complementary`, any element of class `navheader` or `navfooter` (DocBook XSL's
//   navigation tables), and a `<header>` or `<footer>` that is the page's (not inside an
//   `<article>`, `<section>` or `<main>`); hidden elements (a `hidden` attribute,
//   `aria-hidden="true"`); comments, doctypes, processing instructions; GNU Texinfo's
//   navigation: its Next / Previous / Up panels (`nav-panel`, or a `div.header` holding a
//   `rel="next"`-like link), subsection lists (`mini-toc`, `section-toc`, `menu`), index
//   tables and tables of contents (`SEC_Contents`, …).
// - a page that redirects at once (`<meta http-equiv="refresh" content="0; url=…">`) has no text.
// - when the page has a main region (`<main>`, or an element with `role="main"`, outside the
//   dropped regions), only the text inside it is kept.
// - tags are removed, character references decoded (HTML's named references, numeric ones);
//   a permalink mark (an `<a href="#…">` whose text on one line has no letter or digit) is left out;
//   runs of whitespace are one space; block elements start new lines, paragraphs and the like
//   a blank line; `<br>` a new line; list items their own line, `- ` (`1. ` in an `<ol>`),
//   indented two spaces a nesting level (at most eight); table cells ` | ` apart, a row a line.
// - before the first heading, a line whose text is all link text (`<a href>`), apart from list
//   markers and separators, is a site menu or breadcrumb and is dropped (withoutNavigationLines);
//   a first heading that is all one link to the site's home page (isHomeLink) is the site's
//   name, read as such a line.
// - a heading `<hN>` (outside dropped regions) is a line of N `#`, a space and its text; an
//   `<a>` inside it whose text has no letter or digit (a permalink mark such as `¶`) is left
//   out. A heading whose text is empty, or never closed (another opens first, the page ends),
//   is none (its text stays, as a paragraph); so is one inside a DocBook admonition
//   (`<div class="note">` and the like, isAdmonition).
// - `<pre>` keeps its text verbatim (tags removed, references decoded), fenced with ``` (one
//   more backtick than its longest run, at least three); inline `<code>` is wrapped in
//   backticks (not inside a heading, whose text stays plain).
// The structure: a heading's text is its text as above, its span its line (with its line
// ending); its id is its `id` attribute, else the `id` of a `<section>`, `<article>` or `<div>`
// opened just before it with no text between (Sphinx, docutils), kept as written; else the name
// of an empty anchor it opens with (DocBook XSL: `<h2><a name="x"></a>…`); else GitHub's slug of
// its text (github-slugger), numbered when repeated. A definition term (`<dt>`) with an id and a
// link to it inside the term (Sphinx's API entries and glossary terms: linksToItself), or one
// that opens with its own empty anchor (DocBook XSL's variablelist entries: anchorOpening), is a
// heading too, a level below the section it is in and one more per list it is nested in, its id
// kept. Blocks (where a unit over the cap may be cut): headings, paragraphs, fences
// and list items.

import { characterEntities } from 'character-entities';
import { finishTitles, type RawTitle } from './lines.js';
import type { MarkdownStructure } from './markdown.js';
import { Slugger } from './slugger.js';

export interface HtmlOptions {
  readonly slugs?: boolean;
  readonly headingBytes?: number;
}

export interface HtmlStructure extends MarkdownStructure {
  /** The page's visible text: what the headings' and blocks' offsets are into. */
  readonly text: string;
}

/** Elements whose content is raw text (skipped to their closing tag): never page text. */
const RAW = new Set(['script', 'style', 'template', 'textarea', 'title', 'noscript', 'iframe', 'noembed', 'noframes', 'xmp']);
/** Elements dropped with their content (matched to their closing tag by nesting depth). */
const DROPPED = new Set(['nav', 'svg', 'math', 'button', 'select']);
const CHROME_ROLES = new Set(['navigation', 'search', 'banner', 'contentinfo', 'complementary']);
/**
 * Classes that mark navigation where a generator uses neither `<nav>` nor a role: DocBook XSL's
 * Prev / Up / Home / Next tables above and below every page (PostgreSQL's manual, among others).
 */
const CHROME_CLASSES = new Set(['navheader', 'navfooter']);
/**
 * Classes that mark a manual's navigation in GNU Texinfo's HTML: the Next / Previous / Up panel
 * above every node (`nav-panel`, Texinfo 7) and the list of a node's subsections (`mini-toc`,
 * Texinfo 7; `section-toc`, 6.8; `menu`, a table in earlier versions and in 7). Texinfo 6's
 * panel, `<div class="header">`, is recognised by its links (headerIsNavigation).
 */
const TEXINFO_NAV_CLASSES = new Set(['nav-panel', 'mini-toc', 'section-toc', 'menu']);
/** A cheap test before reading the class and id attributes for Texinfo's navigation. */
const MAY_BE_TEXINFO_NAV = /nav-panel|toc|menu|index|SEC_/;
/** Texinfo's index tables: `index-cp`, `index-fn`, … (6.x), `cp-entries-printindex`, … (7). */
const TEXINFO_INDEX_CLASS = /^(?:index-[a-z]{2}|[a-z]{2}-entries-printindex)$/;
/** Texinfo's tables of contents, by the id of the element holding each. */
const TEXINFO_CONTENTS_IDS = new Set(['SEC_Contents', 'SEC_Overview', 'SEC_Shortcontents']);
/** A link to the next, previous or enclosing page (HTML's link types): a navigation link. */
const NAV_REL = /\brel\s*=\s*["']?\s*(?:next|prev|previous|up)\b/gi;
/**
 * Texinfo 6's panel as it repeats below a node's text: its links carry no `rel`, but it
 * opens (after an optional `<p>`) with `Next:`, `Previous:` or `Up:` and a link.
 */
const NAV_WORDS = /\s*(?:<p(?:\s[^>]*)?>\s*)?(?:Next|Previous|Prev|Up):\s*<a[\s>]/iy;
/** Where a `<div>` closes (the first that does, nesting aside). */
const DIV_CLOSE = /<\/div[\s>]/gi;
/**
 * A `<meta http-equiv="refresh">` content that leaves the page at once for another: a delay of
 * 0 and a URL (`0; url=page.html#node`, `0;URL='x'`, `0, x`).
 */
const IMMEDIATE_REDIRECT = /^\s*0*(?:\.0*)?\s*[;,]\s*(?:url\s*=\s*)?\S/i;
/**
 * DocBook XSL's admonitions, `<div class="note">` and the like, title themselves with a heading
 * element (`<h3 class="title">Note</h3>`): a heading inside one is no section title, or every
 * note would start a section named "Note" holding the rest of the section it sits in.
 */
const ADMONITION_CLASSES = new Set(['note', 'tip', 'warning', 'caution', 'important']);
const MAY_BE_ADMONITION = /note|tip|warning|caution|important/;

/** Whether a `<meta>` tag sends the reader to another page at once (IMMEDIATE_REDIRECT). */
function isImmediateRedirect(tag: Tag): boolean {
  if (!/refresh/i.test(tag.attrs)) return false;
  const equiv = attribute(tag.attrs, 'http-equiv');
  if (equiv === null || equiv.trim().toLowerCase() !== 'refresh') return false;
  const content = attribute(tag.attrs, 'content');
  return content !== null && IMMEDIATE_REDIRECT.test(content);
}

/** Whether an attribute's value (null: absent) lists a space-separated token that passes `test`. */
function hasToken(value: string | null, test: (token: string) => boolean): boolean {
  return value !== null && value.trim().split(/\s+/).some(test);
}

function isAdmonition(tag: Tag): boolean {
  if (tag.name !== 'div' || !MAY_BE_ADMONITION.test(tag.attrs)) return false;
  return hasToken(attribute(tag.attrs, 'class'), (c) => ADMONITION_CLASSES.has(c));
}
/** Elements that make a page's `<header>` / `<footer>` their own. */
const SECTIONING = new Set(['article', 'section', 'main']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen']);
/** Blank line before and after. */
const PARAGRAPH = new Set(['p', 'ul', 'ol', 'dl', 'table', 'blockquote', 'figure', 'hr', 'section', 'article', 'main', 'header', 'footer', 'details', 'address', 'fieldset', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre']);
/** A new line before and after. */
const LINE = new Set(['div', 'li', 'dt', 'dd', 'tr', 'br', 'caption', 'figcaption', 'summary', 'legend', 'center', 'dialog', 'thead', 'tbody', 'tfoot', 'option', 'hgroup', 'search']);
const ID_HOLDERS = new Set(['section', 'article', 'div']);
/** Nesting levels a list item is indented by, at most (deeper items are not indented further: the text stays linear). */
const MAX_INDENT = 8;

const hasOwn = Object.prototype.hasOwnProperty;
const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,8})|#([0-9]{1,9})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;

/** `s` with its character references decoded (named ones by HTML's table; a number past Unicode is U+FFFD). */
export function decodeReferences(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(REFERENCE, (m, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return hasOwn.call(characterEntities, name) ? (characterEntities[name] as string) : m;
    const cp = hex !== undefined ? parseInt(hex, 16) : parseInt(dec as string, 10);
    return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
  });
}

interface Tag {
  readonly name: string;
  readonly closing: boolean;
  /** Past its `>`, or -1 when no `>` follows. */
  readonly end: number;
  /** The attributes' source (between the name and `>`). */
  readonly attrs: string;
}

/** The tag starting at `i` (text[i] is `<`), or null when it is no tag. */
function tagAt(text: string, i: number): Tag | null {
  let j = i + 1;
  const closing = text.charCodeAt(j) === 0x2f;
  if (closing) j++;
  const nameStart = j;
  const first = text.charCodeAt(j) | 0x20;
  if (!(first >= 0x61 && first <= 0x7a)) return null;
  j++;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    const l = c | 0x20;
    if ((l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) j++;
    else break;
  }
  const name = text.slice(nameStart, j).toLowerCase();
  // To the closing `>`, skipping quoted attribute values.
  let quote = 0;
  const attrStart = j;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) break;
    j++;
  }
  if (j >= text.length) return { name, closing, end: -1, attrs: '' };
  return { name, closing, end: j + 1, attrs: text.slice(attrStart, j) };
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/** The value of attribute `name` (lowercase) in `attrs`, '' when it has none, null when absent. */
function attribute(attrs: string, name: string): string | null {
  if (attrs.length === 0 || attrs.toLowerCase().indexOf(name) < 0) return null;
  ATTRIBUTE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTRIBUTE.exec(attrs)) !== null) {
    if ((m[1] as string).toLowerCase() === name) return m[2] ?? m[3] ?? m[4] ?? '';
  }
  return null;
}

const CLOSING: Readonly<Record<string, RegExp>> = Object.fromEntries([...RAW].map((n) => [n, new RegExp(`</${n}`, 'gi')]));

/** Past the `>` of `</name` next at or after `from` (any case), or the end of the text. */
function pastClosingTag(text: string, name: string, from: number): number {
  const re = CLOSING[name] as RegExp;
  re.lastIndex = from;
  const m = re.exec(text);
  if (m === null) return text.length;
  const gt = text.indexOf('>', m.index);
  return gt < 0 ? text.length : gt + 1;
}

/**
 * Whether an opening tag drops its element (with its content) as navigation, chrome or hidden.
 * An `<aside>` is a site's sidebar outside the page's main region, and the page's own content
 * inside it (docutils writes footnotes, `.. sidebar::` and `.. topic::` as asides).
 */
function drops(tag: Tag, sectioning: number, inMain: boolean): boolean {
  if (DROPPED.has(tag.name)) return true;
  if (tag.name === 'aside' && !inMain) return true;
  if ((tag.name === 'header' || tag.name === 'footer') && sectioning === 0) return true;
  if (tag.attrs.length === 0) return false;
  if (hasToken(attribute(tag.attrs, 'role'), (r) => CHROME_ROLES.has(r.toLowerCase()))) return true;
  if (attribute(tag.attrs, 'hidden') !== null) return true;
  if (tag.attrs.includes('nav') && hasToken(attribute(tag.attrs, 'class'), (c) => CHROME_CLASSES.has(c))) return true;
  if (MAY_BE_TEXINFO_NAV.test(tag.attrs)) {
    if (hasToken(attribute(tag.attrs, 'class'), (c) => TEXINFO_NAV_CLASSES.has(c) || TEXINFO_INDEX_CLASS.test(c))) return true;
    const id = attribute(tag.attrs, 'id');
    if (id !== null && TEXINFO_CONTENTS_IDS.has(id.trim())) return true;
  }
  const ariaHidden = attribute(tag.attrs, 'aria-hidden');
  return ariaHidden !== null && ariaHidden.trim().toLowerCase() === 'true';
}

function isMain(tag: Tag): boolean {
  if (tag.name === 'main') return true;
  return tag.attrs.length > 0 && hasToken(attribute(tag.attrs, 'role'), (r) => r.toLowerCase() === 'main');
}

/** No page without this has a main region (`<main`, or a `main` role). */
const MAY_HAVE_MAIN = /<main[\s>/]|role\s*=\s*["']?(?:[\w-]+\s+)*main/i;
const isHeadingName = (name: string): boolean => name.length === 2 && name.charCodeAt(0) === 0x68 && name.charCodeAt(1) >= 0x31 && name.charCodeAt(1) <= 0x36;
const SPACES = /[ \t\n\r\f]+/g;
/** Where a definition term ends, at the latest: `</dt`, `</dl`, `<dd`, `<dt`. */
const TERM_END = /<(?:\/d[lt]|d[dt])/gi;
/** An empty anchor at an element's start: DocBook XSL's ids (`<dt><a name="x"></a>`, `<h2><a name="x"></a>`). */
const OPENING_ANCHOR = /[ \t\n\r\f]*<a[ \t\n\r\f]+(?:name|id)[ \t\n\r\f]*=[ \t\n\r\f]*(?:"([^"]*)"|'([^']*)'|([^ \t\n\r\f>'"/]+))[ \t\n\r\f]*(?:\/>|>[ \t\n\r\f]*<\/a[ \t\n\r\f]*>)/iy;
/** HTML's whitespace: space, tab, line feed, form feed, carriage return. */
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The longest run of backticks in `s`. */
function longestBacktickRun(s: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === 0x60) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

/** The page's visible text and its structure (or only whether it has a main region). */
class Reader {
  private readonly out: string[] = [];
  private length = 0;
  /** Line endings at the end of the output. */
  private trailing = 0;
  /** Line endings wanted before the next text (0, 1 or 2). */
  private need = 0;
  /** What goes before the next text on its line: a space, a cell separator. */
  private gap = '';
  /** A list item's marker, written before its first text. */
  private marker = '';
  private blockNext = false;
  readonly titles: RawTitle[] = [];
  readonly blocks: number[] = [];
  private readonly lists: number[] = []; // 0: unordered, else the next number + 1
  private cell = 0;
  /** The output's length when the last list item or definition opened. */
  private itemAt = -1;
  /** An open heading: an `<hN>`, or a `<dt>` with an id (tag `dt`, see tag()). */
  private heading: { tag: string; level: number; id: string | null; pieces: string[]; anchor: number; home: boolean; homeText: string[] } | null = null;
  /** The level of the last `<hN>` heading (0 before the first): a term with an id is titled below it. */
  private sectionLevel = 0;
  /** Open `<dl>` elements. */
  private dlDepth = 0;
  /** For linksToItself: where TERM_END last matched (-1: nowhere after; -2: not looked yet). */
  private termEnd = -2;
  private pre: string[] | null = null;
  private preDepth = 0;
  private code: string[] | null = null;
  private codeDepth = 0;
  /** Ids given by open section elements, innermost last: each with the output length when it opened and the ID_HOLDERS then open. */
  private readonly sectionIds: { id: string; at: number; depth: number }[] = [];
  /** Open `section`, `article` and `div` elements (ID_HOLDERS), to know when one with an id has closed. */
  private holders = 0;
  /** Inside an `<a href>` outside headings (links do not nest: an `<a>` ends any open one, and so does a new line). */
  private inLink = false;
  /** Before the first heading: the output ranges written inside links, [start, end) pairs (withoutNavigationLines). */
  readonly linkRanges: number[] = [];
  /**
   * An open `<a href="#…">` outside headings, a permalink mark if its text turns out to have no
   * letter or digit (Sphinx's `¶` after every API signature): the output's state when it opened,
   * to take that text back out when it closes.
   */
  private mark: { pieces: number; length: number; trailing: number; blocks: number; ranges: number; gap: string; marker: string; need: number; blockNext: boolean } | null = null;
  /** Inside a DocBook admonition (isAdmonition): its headings are paragraphs. */
  private inAdmonition = false;
  /** A `<meta http-equiv="refresh">` sends the reader to another page at once: the page has no text. */
  redirect = false;
  /** The next navigation link (NAV_REL) and `</div` at or after where each was last looked for (-1: none). */
  private navRelAt = -2;
  private divCloseAt = -2;

  constructor(
    private readonly src: string,
    /** Keep only the text inside main regions. */
    private readonly mainOnly: boolean,
    /** Only find out whether the page has a main region (no output). */
    private readonly detect: boolean,
  ) {}

  /** Reads the page; in detect mode, whether it has a main region. */
  run(): boolean {
    const text = this.src;
    const n = text.length;
    let i = 0;
    // Dropped: the element (name) being skipped and its nesting depth; `head` until </head> or <body>.
    let dropName: string | null = null;
    let dropDepth = 0;
    let mainName: string | null = null;
    let mainDepth = 0;
    let sectioning = 0;
    // The admonition being read (isAdmonition) and its nesting depth.
    let noteName: string | null = null;
    let noteDepth = 0;
    const keeping = (): boolean => dropName === null && (!this.mainOnly || mainName !== null);
    while (i < n) {
      const lt = text.indexOf('<', i);
      const textEnd = lt < 0 ? n : lt;
      if (textEnd > i && !this.detect && keeping()) this.text(text.slice(i, textEnd));
      if (lt < 0) break;
      if (text.startsWith('<!--', lt)) {
        const close = text.indexOf('-->', lt + 4);
        i = close < 0 ? n : close + 3;
        continue;
      }
      const next = text.charCodeAt(lt + 1);
      if (next === 0x21 || next === 0x3f) {
        const close = text.indexOf('>', lt);
        i = close < 0 ? n : close + 1;
        continue;
      }
      const tag = tagAt(text, lt);
      if (tag === null) {
        if (!this.detect && keeping()) this.text('<');
        i = lt + 1;
        continue;
      }
      // No `>` to the end of the page: the rest is text (and no later `<` can close either).
      if (tag.end < 0) {
        if (!this.detect && keeping()) this.text(text.slice(lt));
        break;
      }
      i = tag.end;
      const name = tag.name;
      if (name === 'meta' && !tag.closing && isImmediateRedirect(tag)) this.redirect = true;
      if (!tag.closing && RAW.has(name)) {
        i = pastClosingTag(text, name, tag.end);
        continue;
      }
      if (dropName !== null) {
        if (dropName === 'head') {
          if ((tag.closing && name === 'head') || (!tag.closing && name === 'body')) dropName = null;
        } else if (name === dropName) {
          if (tag.closing) dropDepth--;
          else if (!tag.attrs.endsWith('/')) dropDepth++;
          if (dropDepth === 0) dropName = null;
        }
        continue;
      }
      if (tag.closing) {
        if (SECTIONING.has(name) && sectioning > 0) sectioning--;
        if (noteName !== null && name === noteName && --noteDepth === 0) noteName = null;
        if (mainName !== null && name === mainName && --mainDepth === 0) {
          mainName = null;
          if (!this.detect) this.flushInline();
        }
      } else {
        if (name === 'head') {
          dropName = 'head';
          continue;
        }
        if (
          !VOID.has(name) &&
          (drops(tag, sectioning, mainName !== null) || (name === 'div' && this.headerIsNavigation(tag))) &&
          !((name === 'svg' || name === 'math') && tag.attrs.endsWith('/'))
        ) {
          dropName = name;
          dropDepth = 1;
          continue;
        }
        if (SECTIONING.has(name)) sectioning++;
        // A self-closed `<div/>` (XHTML) has no closing tag to balance it.
        if (noteName !== null && name === noteName && !tag.attrs.endsWith('/')) noteDepth++;
        else if (noteName === null && !this.detect && isAdmonition(tag)) {
          noteName = name;
          noteDepth = 1;
        }
        if (mainName !== null && name === mainName) mainDepth++;
        else if (mainName === null && !VOID.has(name) && isMain(tag)) {
          if (this.detect) return true;
          mainName = name;
          mainDepth = 1;
        }
      }
      if (!this.detect && keeping()) {
        this.inAdmonition = noteName !== null;
        this.tag(tag);
      }
    }
    if (!this.detect) this.finish();
    return false;
  }

  /**
   * Whether a `<div class="header">` is Texinfo 6's navigation panel: it opens with `Next:`,
   * `Previous:` or `Up:` and a link (the panel below a node's text, whose links have no
   * `rel`), or a link to the next, previous or enclosing node (`rel="next"`, …) stands before
   * the first `</div>` after it (Doxygen's `div.header` holds the page's title and is kept). Each search goes on from where the last
   * stopped, so a page of a million such divs is read once.
   */
  private headerIsNavigation(tag: Tag): boolean {
    if (!tag.attrs.includes('header') || !hasToken(attribute(tag.attrs, 'class'), (c) => c === 'header')) return false;
    const from = tag.end;
    NAV_WORDS.lastIndex = from;
    if (NAV_WORDS.test(this.src)) return true;
    const next = (re: RegExp, at: number): number => {
      if (at >= from || at === -1) return at;
      re.lastIndex = from;
      const m = re.exec(this.src);
      return m === null ? -1 : m.index;
    };
    this.navRelAt = next(NAV_REL, this.navRelAt);
    this.divCloseAt = next(DIV_CLOSE, this.divCloseAt);
    return this.navRelAt >= 0 && (this.divCloseAt < 0 || this.navRelAt < this.divCloseAt);
  }

  /** Text between tags (raw: references not yet decoded). */
  private text(raw: string): void {
    if (this.pre !== null) {
      this.pre.push(decodeReferences(raw));
      return;
    }
    let from = 0;
    while (from < raw.length && isSpace(raw.charCodeAt(from))) from++;
    if (from > 0) this.space();
    if (from === raw.length) return;
    let to = raw.length;
    while (isSpace(raw.charCodeAt(to - 1))) to--;
    let core = raw.slice(from, to).replace(SPACES, ' ');
    // A decoded reference may be whitespace (`&#10;`): one space too.
    if (core.indexOf('&') >= 0) core = decodeReferences(core).replace(SPACES, ' ');
    this.inline(core);
    if (to < raw.length) this.space();
  }

  private space(): void {
    if (this.heading !== null) this.heading.pieces.push(' ');
    else if (this.code !== null) this.code.push(' ');
    else if (this.gap === '' && this.trailing === 0 && this.length > 0) this.gap = ' ';
  }

  /** Inline text (whitespace already made single spaces). */
  private inline(s: string): void {
    if (s === '') return;
    if (this.heading !== null) this.heading.pieces.push(s);
    else if (this.code !== null) this.code.push(s);
    else this.write(s);
  }

  /** Writes `s` on the current line, after the line endings and gap it waits for. */
  private write(s: string): void {
    if (this.length > 0 && this.need > this.trailing) this.emit('\n'.repeat(this.need - this.trailing));
    const lineStart = this.length === 0 || this.trailing > 0;
    if (lineStart && (this.blockNext || this.length === 0)) this.block(this.length);
    this.need = 0;
    this.blockNext = false;
    if (lineStart) {
      if (this.marker !== '') this.emit(this.marker);
    } else if (this.gap !== '') this.emit(this.gap);
    this.marker = '';
    this.gap = '';
    this.emit(s);
    if (this.inLink && this.titles.length === 0) {
      const end = this.length;
      const ranges = this.linkRanges;
      // Adjacent link text (a link's words written one by one) is one range.
      if (ranges.length > 0 && ranges[ranges.length - 1] === end - s.length) ranges[ranges.length - 1] = end;
      else ranges.push(end - s.length, end);
    }
  }

  private emit(s: string): void {
    this.out.push(s);
    this.length += s.length;
    let k = s.length;
    while (k > 0 && s.charCodeAt(k - 1) === 0x0a) k--;
    this.trailing = k === 0 ? this.trailing + s.length : s.length - k;
  }

  private block(at: number): void {
    const last = this.blocks[this.blocks.length - 1];
    if (last === undefined || at > last) this.blocks.push(at);
  }

  private breakLine(lines: number): void {
    if (lines > this.need) this.need = lines;
    if (lines >= 2) this.blockNext = true;
    this.gap = '';
  }

  /** Ends inline code and a heading left open where a block ends them. */
  private flushInline(): void {
    if (this.code !== null) this.closeCode();
    if (this.heading !== null) this.dropHeading();
  }

  private tag(tag: Tag): void {
    const name = tag.name;
    if (this.pre !== null) {
      if (name === 'pre') {
        if (tag.closing && --this.preDepth === 0) this.closePre();
        else if (!tag.closing) this.preDepth++;
      } else if (name === 'br') this.pre.push('\n');
      return;
    }
    // In an admonition a heading is a paragraph (the generic path below), unless one is open.
    if (isHeadingName(name) && (this.heading !== null || !this.inAdmonition)) {
      if (tag.closing) {
        if (this.heading !== null && this.heading.tag !== 'dt') this.closeHeading();
      } else {
        this.flushInline();
        const own = attribute(tag.attrs, 'id')?.trim() ?? '';
        const open = this.sectionIds[this.sectionIds.length - 1];
        const id = own !== '' ? own : open !== undefined && open.at === this.length ? open.id : this.anchorOpening(tag.end);
        const given = id !== '' ? id : null;
        this.heading = { tag: name, level: name.charCodeAt(1) - 0x30, id: given, pieces: [], anchor: -1, home: false, homeText: [] };
      }
      return;
    }
    if (this.heading !== null && this.heading.tag === 'dt' && (name === 'dt' || name === 'dd' || name === 'dl')) {
      // A term titled as a heading ends at its closing tag, or where the list moves on without one.
      this.closeHeading();
      if (name === 'dt' && tag.closing) return;
    }
    // A definition list's term that links to itself — an id, and a permalink to it inside the
    // term — is an anchor the page offers as a heading does, and is titled as one: a level below
    // the section it is in (one more per list it is nested in). Sphinx's API entries (`<dt
    // class="sig sig-object py" id="os.walk">`: functions, classes and their methods, options)
    // and glossary terms, each with its `¶`; not an index's terms, which have ids but no link.
    // So is a term that opens with its own empty anchor: DocBook XSL's variablelist entry with an
    // id (`<dt><a name="opt.leak-check"></a><span class="term">`: Valgrind's options).
    if (name === 'dt' && this.heading === null && !this.inAdmonition && !tag.closing) {
      const own = attribute(tag.attrs, 'id')?.trim() ?? '';
      const id = own !== '' && this.linksToItself(own, tag.end) ? own : this.anchorOpening(tag.end);
      if (id !== '') {
        this.flushInline();
        this.heading = { tag: 'dt', level: Math.min(6, this.sectionLevel + Math.max(1, this.dlDepth)), id, pieces: [], anchor: -1, home: false, homeText: [] };
        return;
      }
    }
    if (this.heading !== null) {
      // Inside a heading: a permalink `<a>` (no letter or digit in its text) is left out.
      if (name === 'a') {
        if (!tag.closing) {
          this.heading.anchor = this.heading.pieces.length;
          this.heading.home = isHomeLink(attribute(tag.attrs, 'href'));
        } else if (this.heading.anchor >= 0) {
          const added = this.heading.pieces.slice(this.heading.anchor).join('');
          if (!LETTER_OR_DIGIT.test(added)) this.heading.pieces.length = this.heading.anchor;
          else if (this.heading.home) this.heading.homeText.push(added);
          this.heading.anchor = -1;
          this.heading.home = false;
        }
      } else if (name === 'br') this.heading.pieces.push(' ');
      return;
    }
    if (name === 'a') {
      if (tag.closing) {
        this.inLink = false;
        this.closeMark();
      } else {
        // The attribute is read only where it matters (links are many): before the first
        // heading (the menus rule), or where the tag may link to a place on the page.
        const early = this.titles.length === 0;
        const inPage = IN_PAGE_HREF.test(tag.attrs);
        const href = early || inPage ? attribute(tag.attrs, 'href') : null;
        this.inLink = early && href !== null && !tag.attrs.endsWith('/');
        this.mark = inPage && href !== null && href.trim().startsWith('#') ? { pieces: this.out.length, length: this.length, trailing: this.trailing, blocks: this.blocks.length, ranges: this.linkRanges.length, gap: this.gap, marker: this.marker, need: this.need, blockNext: this.blockNext } : null;
      }
    }
    if (name === 'code' || name === 'kbd' || name === 'samp') {
      if (!tag.closing) {
        if (this.code === null) {
          this.code = [];
          this.codeDepth = 1;
        } else this.codeDepth++;
      } else if (this.code !== null && --this.codeDepth === 0) this.closeCode();
      return;
    }
    if (name === 'pre' && !tag.closing) {
      this.flushInline();
      this.breakLine(2);
      this.pre = [];
      this.preDepth = 1;
      return;
    }
    if (ID_HOLDERS.has(name)) {
      if (!tag.closing) {
        // A self-closed `<div/>` (XHTML) has no closing tag to balance it.
        if (!tag.attrs.endsWith('/')) this.holders++;
        const id = attribute(tag.attrs, 'id');
        if (id !== null && id.trim() !== '') this.sectionIds.push({ id: id.trim(), at: this.length, depth: this.holders });
      } else {
        if (this.holders > 0) this.holders--;
        // An element with an id has closed: a heading after it is not its first content
        // (SQLite's pages: `<div id="searchmenu">` holds a search form, no text, then ends).
        while (this.sectionIds.length > 0 && (this.sectionIds[this.sectionIds.length - 1] as { depth: number }).depth > this.holders) this.sectionIds.pop();
      }
    }
    // A list inside a list item starts a line, not a paragraph.
    const isList = name === 'ul' || name === 'ol' || name === 'menu';
    // So does a paragraph that opens a list item or a definition (no text since it opened).
    const paragraph = PARAGRAPH.has(name) && !(isList && this.lists.length > (tag.closing ? 1 : 0)) && !(name === 'p' && !tag.closing && this.itemAt === this.length);
    if (name === 'dl') this.dlDepth = tag.closing ? Math.max(0, this.dlDepth - 1) : this.dlDepth + 1;
    if ((name === 'li' || name === 'dd' || name === 'dt') && !tag.closing) this.itemAt = this.length;
    if (paragraph || LINE.has(name) || isList) {
      // A link left open ends at the line (browsers would carry it on; the menus rule must not).
      this.inLink = false;
      if (this.code !== null) this.closeCode();
      this.breakLine(paragraph ? 2 : 1);
    }
    if (isList) {
      if (!tag.closing) this.lists.push(name === 'ol' ? 1 : 0);
      else if (this.lists.length > 0) this.lists.pop();
    } else if (name === 'li' && !tag.closing) {
      const depth = this.lists.length;
      const kind = depth === 0 ? 0 : (this.lists[depth - 1] as number);
      if (kind > 0) this.lists[depth - 1] = kind + 1;
      this.marker = '  '.repeat(Math.min(MAX_INDENT, Math.max(0, depth - 1))) + (kind > 0 ? `${kind}. ` : '- ');
      this.blockNext = true;
    } else if (name === 'tr' && !tag.closing) {
      this.cell = 0;
    } else if ((name === 'td' || name === 'th') && !tag.closing) {
      if (this.cell > 0 && this.trailing === 0) this.gap = ' | ';
      this.cell++;
    }
  }

  /**
   * Whether the definition term whose start tag ends at `from` holds a link to `#id` before it
   * ends (its `</dt>`, or the next `<dt`, `<dd` or `</dl`, in any case). The next end is found
   * from where the last one was, so the page is scanned once, however many terms it has.
   */
  private linksToItself(id: string, from: number): boolean {
    if (this.termEnd !== -1 && this.termEnd < from) {
      TERM_END.lastIndex = from;
      this.termEnd = TERM_END.exec(this.src)?.index ?? -1;
    }
    const term = this.src.slice(from, this.termEnd === -1 ? this.src.length : this.termEnd);
    return term.includes(`href="#${id}"`) || term.includes(`href='#${id}'`);
  }

  /**
   * The name of the empty anchor an element whose start tag ends at `from` opens with
   * (`<dt><a name="opt.leak-check"></a>`: whitespace may stand before it; `name` or `id`, its
   * first attribute), or ''.
   */
  private anchorOpening(from: number): string {
    OPENING_ANCHOR.lastIndex = from;
    const m = OPENING_ANCHOR.exec(this.src);
    return m === null ? '' : (m[1] ?? m[2] ?? m[3] ?? '').trim();
  }

  /** A permalink mark closes: text with no letter or digit, on one line, is taken back out. */
  private closeMark(): void {
    const m = this.mark;
    this.mark = null;
    if (m === null || this.code !== null || this.length === m.length) return;
    const added = this.out.slice(m.pieces).join('');
    if (LETTER_OR_DIGIT.test(added) || added.includes('\n')) return;
    this.out.length = m.pieces;
    this.length = m.length;
    this.trailing = m.trailing;
    this.blocks.length = m.blocks;
    this.linkRanges.length = m.ranges;
    this.gap = m.gap;
    this.marker = m.marker;
    this.need = m.need;
    this.blockNext = m.blockNext;
  }

  private closeCode(): void {
    const raw = (this.code as string[]).join('');
    this.code = null;
    this.codeDepth = 0;
    const content = raw.trim();
    if (raw.charCodeAt(0) === 0x20) this.space();
    if (content !== '') {
      const ticks = '`'.repeat(longestBacktickRun(content) + 1);
      const pad = content.charCodeAt(0) === 0x60 || content.charCodeAt(content.length - 1) === 0x60 ? ' ' : '';
      this.write(`${ticks}${pad}${content}${pad}${ticks}`);
    }
    if (raw.length > 1 && raw.charCodeAt(raw.length - 1) === 0x20) this.space();
  }

  private closePre(): void {
    let content = (this.pre as string[]).join('');
    this.pre = null;
    this.preDepth = 0;
    // A line ending right after <pre> is not content (HTML's rule); trailing line endings end it.
    if (content.charCodeAt(0) === 0x0d && content.charCodeAt(1) === 0x0a) content = content.slice(2);
    else if (content.charCodeAt(0) === 0x0a || content.charCodeAt(0) === 0x0d) content = content.slice(1);
    content = content.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
    if (content.trim() === '') {
      this.breakLine(2);
      return;
    }
    const fence = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
    this.marker = '';
    this.breakLine(2);
    this.write(`${fence}\n${content}\n${fence}`);
    this.breakLine(2);
  }

  private closeHeading(): void {
    const h = this.heading as { tag: string; level: number; id: string | null; pieces: string[]; homeText: string[] };
    this.heading = null;
    const text = h.pieces.join('').replace(SPACES, ' ').trim();
    if (text === '') return;
    // The page's first heading, all of it a link to the site's home page, is the site's name
    // in its header (Django's theme: `<div id="hd"><h1><a href="../index.html">Django
    // documentation</a></h1>`), not a section title: a line of link text, which the menus
    // rule then drops (withoutNavigationLines) with the menus under it.
    if (this.titles.length === 0 && h.homeText.length > 0 && h.homeText.join('').replace(SPACES, ' ').trim() === text) {
      const inLink = this.inLink;
      this.breakLine(2);
      this.inLink = true;
      this.write(text);
      this.inLink = inLink;
      this.breakLine(2);
      return;
    }
    this.marker = '';
    this.breakLine(2);
    // The heading's line starts once the line endings before it are written.
    if (this.length > 0 && this.need > this.trailing) this.emit('\n'.repeat(this.need - this.trailing));
    const start = this.length;
    this.need = 0;
    this.blockNext = false;
    this.gap = '';
    this.block(start);
    this.emit(`${'#'.repeat(h.level)} ${text}\n`);
    this.titles.push({ level: h.level, text, idText: text, id: h.id, start, end: this.length });
    if (h.tag !== 'dt') this.sectionLevel = h.level;
    this.breakLine(2);
  }

  /** A heading never closed: its text stays, as a paragraph. */
  private dropHeading(): void {
    const text = (this.heading as { pieces: string[] }).pieces.join('').replace(SPACES, ' ').trim();
    this.heading = null;
    if (text === '') return;
    this.breakLine(2);
    this.write(text);
    this.breakLine(2);
  }

  private finish(): void {
    if (this.pre !== null) this.closePre();
    this.flushInline();
    if (this.length > 0 && this.trailing === 0) this.emit('\n');
  }

  result(): string {
    return this.out.join('');
  }
}

/** The visible text of an HTML page (see the top of this file): what its units are offsets into. */
export function htmlText(source: string): string {
  return parseHtml(source, { slugs: false }).text;
}

export function parseHtml(source: string, options: HtmlOptions = {}): HtmlStructure {
  if (typeof source !== 'string') throw new TypeError('parseHtml: text must be a string');
  // Whether the page has a main region: a scan that stops at it, only when one may be there.
  const mainOnly = MAY_HAVE_MAIN.test(source) && new Reader(source, false, true).run();
  const reader = new Reader(source, mainOnly, false);
  reader.run();
  // A page that sends the reader on at once (Texinfo writes one for every node that lives
  // inside another page) shows nothing of its own: no text, no units.
  if (reader.redirect) return { frontMatter: null, headings: [], blocks: [], text: '' };
  // Joined once from its pieces: a flat string already (analysis/flat-string.ts).
  const read = withoutNavigationLines(reader.result(), reader.titles, reader.blocks, reader.linkRanges);
  const slugger = new Slugger();
  const headings = finishTitles(read.titles, (t) => slugger.slug(t), { slugs: options.slugs !== false, ...(options.headingBytes === undefined ? {} : { headingBytes: options.headingBytes }) });
  return { frontMatter: null, headings, blocks: read.blocks, text: read.text };
}

/** An `href` that may begin with `#` (a quick test; `attribute` reads the value). */
const IN_PAGE_HREF = /href\s*=\s*["']?\s*#/i;

/** A link to a site's home page: `/`, `./`, `../../`, `index.html`, `../index.html`, `/index.htm`. */
const HOME_HREF = /^(?:\/|(?:\.{1,2}\/)+|(?:\/|(?:\.{1,2}\/)*)index\.html?)$/i;

function isHomeLink(href: string | null): boolean {
  return href !== null && HOME_HREF.test(href.trim());
}

/** What may stand between the links of a navigation line: list markers, spaces, separators. */
const NAV_FILLER = /^[\s|>»«›‹·•/,;:\-–—()[\]0-9.]*$/;

/**
 * The text without the navigation lines before its first heading: a line there whose text is
 * all link text, apart from list markers, spaces and separators (`|`, `>`, `»`, `·`, `/`, …),
 * is a site's menu or breadcrumb (Apache's and SQLite's manuals mark theirs with classes and
 * ids alone: "Modules | Directives | FAQ | Glossary | Sitemap", "- Home", "- About", …), not
 * the page's words. Blank lines left next to a dropped line are dropped with it; the headings'
 * and blocks' offsets move with the text. A page without a heading keeps every line.
 */
function withoutNavigationLines(text: string, titles: readonly RawTitle[], blocks: readonly number[], links: readonly number[]): { text: string; titles: readonly RawTitle[]; blocks: readonly number[] } {
  const first = titles[0];
  if (first === undefined || links.length === 0) return { text, titles, blocks };
  const kept: string[] = [];
  // Removed spans of the text before the first heading: [start, end) pairs, in order.
  const removed: number[] = [];
  let link = 0;
  for (let at = 0; at < first.start; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 || nl >= first.start ? first.start : nl + 1;
    const line = text.slice(at, end);
    while (link < links.length && (links[link + 1] as number) <= at) link += 2;
    // The line's characters outside links, and how many are inside.
    let outside = '';
    let inside = 0;
    let pos = at;
    for (let k = link; k < links.length && (links[k] as number) < end; k += 2) {
      const start = Math.max(links[k] as number, at);
      const stop = Math.min(links[k + 1] as number, end);
      if (start > pos) outside += text.slice(pos, start);
      if (stop > start) inside += stop - start;
      pos = Math.max(pos, stop);
    }
    if (pos < end) outside += text.slice(pos, end);
    const blank = line.trim() === '';
    const afterRemoved = removed.length > 0 && removed[removed.length - 1] === at;
    const lastKept = kept[kept.length - 1];
    // A blank line right after a dropped one goes too, where a break is already there.
    const drop = blank ? afterRemoved && (lastKept === undefined || lastKept.trim() === '') : inside > 0 && NAV_FILLER.test(outside);
    if (!drop) kept.push(line);
    else if (afterRemoved) removed[removed.length - 1] = end;
    else removed.push(at, end);
    at = end;
  }
  if (removed.length === 0) return { text, titles, blocks };
  let cut = 0;
  for (let i = 0; i < removed.length; i += 2) cut += (removed[i + 1] as number) - (removed[i] as number);
  const out = kept.join('') + text.slice(first.start);
  // Blocks in order: each moves back by the removed text before it (one inside a removed span
  // lands at the span's start, where the next kept text now begins).
  const movedBlocks: number[] = [];
  let span = 0;
  let shift = 0;
  for (const b of blocks) {
    while (span < removed.length && (removed[span + 1] as number) <= b) {
      shift += (removed[span + 1] as number) - (removed[span] as number);
      span += 2;
    }
    const inSpan = span < removed.length && (removed[span] as number) <= b ? b - (removed[span] as number) : 0;
    const m = b - shift - inSpan;
    if (movedBlocks.length === 0 || m > (movedBlocks[movedBlocks.length - 1] as number)) movedBlocks.push(m);
  }
  return { text: out, titles: titles.map((t) => ({ ...t, start: t.start - cut, end: t.end - cut })), blocks: movedBlocks };
}
