// The section structure of a reStructuredText document, as docutils reads it, for sections.ts:
// the same MarkdownStructure the Markdown reader returns (no front matter). A small reader,
// not a parser (no maintained pure-JS rST parser exists); the rules are docutils' own
// (docs/engine.md "Sources", reStructuredText):
// - a section title is one line of text at column 0 underlined by a run of one punctuation
//   character (trailing spaces allowed), optionally overlined by the same run; with an
//   overline the underline must match it exactly and the title may be inset. The run must be
//   at least as long as the title (East Asian wide characters count two columns), or at
//   least 4 characters (docutils then only warns); a shorter run is text.
// - the title starts a paragraph: the line before it is blank, the start of the document, or
//   the end of a title, an explicit markup block or a literal block. A bullet list item
//   (`- item`) is not a title.
// - levels follow the order in which adornment styles first appear (a character with an
//   overline is a style distinct from the character alone), 1, 2, 3, …; styles past the
//   sixth are level 6.
// - `.. _label:` (or `.. _`label`:`) targets directly before a title (blank lines and other
//   targets between allowed) name its id, made as docutils makes ids (docutils make_id);
//   otherwise the id is make_id of the title's text. An id taken earlier in the document is
//   numbered `id-1`, `-2`, ….
// - titles are not looked for inside literal blocks (the indented, or quoted, block after a
//   paragraph ending in `::`) nor inside explicit markup blocks (`.. name::` directives,
//   comments, footnotes: the indented lines after the `..` line).
// Linear in the text's length.

import { finishTitles, indentOf, isBlank, splitLines, type RawTitle } from './lines.js';
import type { MarkdownStructure } from './markdown.js';

export interface RstOptions {
  readonly slugs?: boolean;
  readonly headingBytes?: number;
}

/** docutils' adornment characters: printable 7-bit ASCII that is neither a letter, a digit nor a space. */
function isAdornmentChar(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/** The length of an adornment run if text[start, end) is one (a character repeated, then only spaces), else 0. */
function adornment(text: string, start: number, end: number): number {
  if (start >= end) return 0;
  const c = text.charCodeAt(start);
  if (!isAdornmentChar(c)) return 0;
  let i = start + 1;
  while (i < end && text.charCodeAt(i) === c) i++;
  const run = i - start;
  while (i < end && text.charCodeAt(i) === 0x20) i++;
  return i === end ? run : 0;
}

/** Whether code point cp is East Asian wide or fullwidth (docutils column_width counts it twice). */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** docutils column_width: code points, wide ones twice, combining marks not at all. */
function columnWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0x300 && cp <= 0x36f) continue;
    w += isWide(cp) ? 2 : 1;
  }
  return w;
}

/**
 * docutils make_id: NFKD, non-ASCII dropped, lowercased, every run of characters other than
 * a-z and 0-9 one hyphen, leading digits and hyphens and trailing hyphens removed.
 */
export function makeId(text: string): string {
  const ascii = text.normalize('NFKD').replace(/[^\x00-\x7f]/g, '').toLowerCase();
  return ascii.replace(/[^a-z0-9]+/g, '-').replace(/^[-0-9]+|-+$/g, '');
}

/** A title's text without the commonest inline markup: roles, interpreted text, emphasis, literals, references, escapes. */
export function rstPlainText(raw: string): string {
  return raw
    .replace(/:[A-Za-z0-9_.+-]+:(?=`)/g, '')
    .replace(/`([^`<]*)<[^`>]*>`_{0,2}/g, (_m, t: string) => t.trimEnd())
    .replace(/``([^`]+)``/g, '$1')
    .replace(/`([^`]+)`_{0,2}/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/\\(.)/g, '$1')
    .trim();
}

// `.. _label:` or `.. _`label`:` (an internal hyperlink target with no link block).
/** A longer `..` line is no target (no label is that long; bounds the regular expression's work). */
const MAX_TARGET_LINE = 4096;
const TARGET = /^\.\.[ \t]+_(?:`([^`]+)`|([^:`\\]+)):[ \t]*$/;

function isBulletItem(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  if (c !== 0x2d && c !== 0x2b && c !== 0x2a && c !== 0x2022 && c !== 0x2023 && c !== 0x2043) return false;
  return start + 1 === end || text.charCodeAt(start + 1) === 0x20 || text.charCodeAt(start + 1) === 0x09;
}

function isExplicitMarkup(text: string, start: number, end: number): boolean {
  if (end - start < 2 || text.charCodeAt(start) !== 0x2e || text.charCodeAt(start + 1) !== 0x2e) return false;
  if (start + 2 === end) return true;
  const c = text.charCodeAt(start + 2);
  return c === 0x20 || c === 0x09;
}

/** Whether the line's text (trailing spaces aside) ends in `::`, announcing a literal block. */
function endsWithLiteralMarker(text: string, start: number, end: number): boolean {
  let e = end;
  while (e > start && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x09)) e--;
  return e - start >= 2 && text.charCodeAt(e - 1) === 0x3a && text.charCodeAt(e - 2) === 0x3a;
}

export function parseRst(text: string, options: RstOptions = {}): MarkdownStructure {
  if (typeof text !== 'string') throw new TypeError('parseRst: text must be a string');
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const { starts, ends, count } = splitLines(text, from);
  const titles: RawTitle[] = [];
  const blocks: number[] = [];
  const styles: string[] = [];
  const levelOf = (key: string): number => {
    let k = styles.indexOf(key);
    if (k < 0) k = styles.push(key) - 1;
    return Math.min(k + 1, 6);
  };
  let pendingTargets: string[] = [];
  // Whether the previous line ends a block, so that a title may start on this one.
  let afterBreak = true;
  let i = 0;
  /** Skip the lines after line `i - 1` that are blank or indented more than `base` columns; returns the next line. */
  const skipIndented = (j: number, base: number): number => {
    let last = j;
    while (j < count) {
      const s = starts[j] as number;
      const e = ends[j] as number;
      if (!isBlank(text, s, e)) {
        if (indentOf(text, s, e) <= base) break;
        last = j + 1;
      }
      j++;
    }
    // Trailing blank lines are not part of the block.
    return last;
  };
  while (i < count) {
    const s = starts[i] as number;
    const e = ends[i] as number;
    if (isBlank(text, s, e)) {
      afterBreak = true;
      i++;
      continue;
    }
    const indent = indentOf(text, s, e);
    const paragraphStart = afterBreak;
    if (paragraphStart) blocks.push(s);
    afterBreak = false;
    if (indent === 0 && isExplicitMarkup(text, s, e)) {
      const target = e - s <= MAX_TARGET_LINE ? TARGET.exec(text.slice(s, e)) : null;
      if (target !== null) pendingTargets.push((target[1] ?? target[2] ?? '').trim());
      else pendingTargets = [];
      i = skipIndented(i + 1, 0);
      afterBreak = true;
      continue;
    }
    if (indent === 0 && paragraphStart) {
      // Overline, title, underline.
      const over = adornment(text, s, e);
      if (over > 0 && i + 2 < count) {
        const ts = starts[i + 1] as number;
        const te = ends[i + 1] as number;
        const us = starts[i + 2] as number;
        const ue = ends[i + 2] as number;
        const under = adornment(text, us, ue);
        const title = text.slice(ts, te).trim();
        if (title !== '' && under === over && text.charCodeAt(us) === text.charCodeAt(s) && adornment(text, ts, te) === 0 && (over >= columnWidth(title) || over >= 4)) {
          const plain = rstPlainText(title);
          titles.push({ level: levelOf('o' + text[s]), text: plain, idText: plain, id: idOf(pendingTargets), start: s, end: starts[i + 3] as number });
          pendingTargets = [];
          i += 3;
          afterBreak = true;
          continue;
        }
      }
      // Title, underline.
      if (over === 0 && i + 1 < count && !isBulletItem(text, s, e)) {
        const us = starts[i + 1] as number;
        const ue = ends[i + 1] as number;
        const under = adornment(text, us, ue);
        const title = text.slice(s, e).trimEnd();
        if (under > 0 && !(under === 2 && text.slice(us, us + 2) === '::' ) && (under >= columnWidth(title) || under >= 4)) {
          const plain = rstPlainText(title);
          titles.push({ level: levelOf('u' + text[us]), text: plain, idText: plain, id: idOf(pendingTargets), start: s, end: starts[i + 2] as number });
          pendingTargets = [];
          i += 2;
          afterBreak = true;
          continue;
        }
      }
    }
    pendingTargets = [];
    // A paragraph's last line ending in `::` announces a literal block after the blank line:
    // indented more than the paragraph, or quoted (every line starting with one punctuation
    // character, at the paragraph's indentation).
    if (endsWithLiteralMarker(text, s, e) && (i + 1 === count || isBlank(text, starts[i + 1] as number, ends[i + 1] as number))) {
      let j = i + 1;
      while (j < count && isBlank(text, starts[j] as number, ends[j] as number)) j++;
      if (j < count) {
        const js = starts[j] as number;
        const je = ends[j] as number;
        if (indentOf(text, js, je) > indent) {
          blocks.push(js);
          i = skipIndented(j, indent);
          afterBreak = true;
          continue;
        }
        const q = text.charCodeAt(js);
        if (indentOf(text, js, je) === indent && isAdornmentChar(q)) {
          blocks.push(js);
          while (j < count && (starts[j] as number) < (ends[j] as number) && text.charCodeAt((starts[j] as number) + indent) === q) j++;
          i = j;
          afterBreak = true;
          continue;
        }
      }
    }
    i++;
  }
  // A title with no id of its own (no ASCII letter) is `section-N`, as docutils names it.
  let unnamed = 0;
  const headings = finishTitles(titles, (t, taken) => {
    const id = makeId(t);
    if (id !== '') return id;
    do unnamed++;
    while (taken.has(`section-${unnamed}`));
    return `section-${unnamed}`;
  }, { slugs: options.slugs !== false, ...(options.headingBytes === undefined ? {} : { headingBytes: options.headingBytes }) });
  // Block starts strictly ascending, none at a title's inside.
  const out: number[] = [];
  for (const b of blocks) if (out.length === 0 || b > (out[out.length - 1] as number)) out.push(b);
  return { frontMatter: null, headings, blocks: out };
}

/** The id the targets before a title give it (the first that makes an id), or null. */
function idOf(targets: readonly string[]): string | null {
  for (let k = 0; k < targets.length; k++) {
    const id = makeId(targets[k] as string);
    if (id !== '') return id;
  }
  return null;
}
