// The section structure of a reStructuredText document, as docutils reads it, for sections.ts:
// the same MarkdownStructure the Markdown reader returns (no front matter). A small reader,
// not a parser (no maintained pure-JS rST parser exists); the rules are docutils' own
// (docs/sources.md "Formats and files", reStructuredText):
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
// - Sphinx's object descriptions (`.. function:: walk(top)`, `.. py:data:: X`, a class's
//   `.. method::` at its body's indentation) and a `.. glossary::`'s terms are titles too, a
//   level below their section (members one more), with the anchors Sphinx gives them
//   (`os.walk`, `c.PyObject`, `term-GIL`): docs/sources.md "Formats and files", reStructuredText.
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

/**
 * Sphinx's object descriptions at the start of a line: `.. function:: walk(top)`, with an
 * optional domain (`.. py:data:: SECRET_KEY`, `.. c:function:: …`, `.. std:option:: -v`).
 * Groups: the domain, the directive, the signature (its first line).
 */
const OBJECT_DIRECTIVE = /^\.\.[ \t]+(?:(py|c|cpp|js|rst|std):)?(function|class|method|classmethod|staticmethod|attribute|property|data|exception|decorator|decoratormethod|macro|struct|union|enum|enumerator|type|member|var|concept|directive|role|option|cmdoption|envvar|describe|object|confval)::[ \t]+(\S.*)$/;
/** The Python domain's object directives, whose anchor Sphinx makes from the module and the name. */
const PY_OBJECTS = new Set(['function', 'class', 'method', 'classmethod', 'staticmethod', 'attribute', 'property', 'data', 'exception', 'decorator', 'decoratormethod']);
/** `.. module:: os`, `.. currentmodule:: os` (`py:` allowed; `None` ends it). */
const MODULE_DIRECTIVE = /^\.\.[ \t]+(?:py:)?(?:module|currentmodule)::[ \t]+([A-Za-z_][\w.]*)[ \t]*$/;
/** `.. program:: sphinx-build` (`std:` allowed; `None` ends it): the program options belong to. */
const PROGRAM_DIRECTIVE = /^\.\.[ \t]+(?:std:)?program::[ \t]+(\S.*?)[ \t]*$/;

/** The anchor Sphinx gives a Python object: its module, a dot, and the name before any `(`. */
function pythonId(module: string, signature: string): string | null {
  const name = /^[A-Za-z_][\w.]*/.exec(signature.replace(/^(?:(?:async|class|exception|final|abstractmethod|classmethod|staticmethod)[ \t]+)+/, ''))?.[0] ?? '';
  if (name === '') return null;
  return module === '' || name.startsWith(`${module}.`) ? name : `${module}.${name}`;
}

/**
 * An object directive's title (its signature's first line, a trailing `\\` dropped) and id: the
 * anchor Sphinx makes for a Python or C object (under `prefix`, the module or the enclosing
 * object), else `fallback` (null: the title's make_id).
 */
function objectTitle(object: RegExpExecArray, prefix: string, program: string, fallback: string | null): { text: string; id: string | null; python: boolean } {
  const text = (object[3] as string).replace(/[ \t]*\\?[ \t]*$/, '');
  const domain = object[1];
  const directive = object[2] as string;
  const python = (domain === undefined || domain === 'py') && PY_OBJECTS.has(directive);
  const std = domain === undefined || domain === 'std';
  let id = fallback;
  if (python) id = pythonId(prefix, text);
  else if (domain === 'c') id = cId(text);
  else if (std && (directive === 'option' || directive === 'cmdoption')) id = optionId(program, text);
  else if (std && (directive === 'envvar' || directive === 'confval')) {
    const name = text.split(/\s/)[0] ?? '';
    id = name === '' ? fallback : `${directive}-${name}`;
  }
  return { text, id, python };
}

/** The anchor Sphinx gives a command-line option: `cmdoption-`, the program and a hyphen if one is set, the first option's name. */
function optionId(program: string, signature: string): string | null {
  const name = /^[-/+]*([^\s,=[<]+)/.exec(signature)?.[1];
  if (name === undefined) return null;
  return `cmdoption-${program === '' ? '' : `${program.replace(/\s+/g, '-')}-`}${name}`;
}

/** `.. glossary::` (with Sphinx's `std:` domain or without). */
const GLOSSARY = /^\.\.[ \t]+(?:std:)?glossary::[ \t]*$/;

/** The anchor Sphinx gives a glossary term: `term-`, then its ASCII letters and digits, other runs a hyphen. */
function termId(term: string): string | null {
  const id = term.normalize('NFKD').replace(/[^\x00-\x7f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return id === '' ? null : `term-${id}`;
}

/** The anchor Sphinx gives a C object: `c.` and its name, the last identifier before any `(`. */
function cId(signature: string): string | null {
  const names = signature.split('(')[0]?.match(/[A-Za-z_][\w.]*/g) ?? [];
  const name = names[names.length - 1];
  return name === undefined ? null : `c.${name}`;
}

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
  // The level of the last section title (0 before the first), and the current Python module.
  let sectionLevel = 0;
  let module = '';
  let program = '';
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
  const lineEnd = (j: number): number => (j + 1 < count ? (starts[j + 1] as number) : text.length);
  /**
   * The terms of a glossary whose body is lines `from` to `to`: each line at the indentation
   * the body's entries start at (options such as `:sorted:` aside) is a term, titled at
   * `level`, its id Sphinx's (`term-` and the term, case kept). Definitions, indented deeper,
   * are not looked into.
   */
  const glossaryTerms = (from: number, to: number, level: number): void => {
    let base = -1;
    for (let k = from; k < to; k++) {
      const ks = starts[k] as number;
      const ke = ends[k] as number;
      if (isBlank(text, ks, ke)) continue;
      const ind = indentOf(text, ks, ke);
      const line = text.slice(ks, ke).trim();
      if (base === -1) {
        if (line.startsWith(':')) continue; // the directive's options
        base = ind;
      }
      if (ind !== base || line.length > MAX_TARGET_LINE) continue;
      const term = rstPlainText(line.replace(/ : .*$/, ''));
      if (term === '') continue;
      blocks.push(ks);
      titles.push({ level, text: term, idText: term, id: termId(term), start: ks, end: lineEnd(k) });
    }
  };
  /**
   * The object descriptions in the body (lines `from` to `to`) of one at `level`: a directive
   * line starting a block at the indentation its object's body starts at is a member, titled a
   * level deeper, its Python anchor under `prefix` (the object's own). Deeper lines (a literal
   * block, another directive's body) are not looked into. Each line is read once.
   */
  const members = (from: number, to: number, level: number, prefix: string): void => {
    const stack: { at: number; body: number; level: number; prefix: string }[] = [{ at: 0, body: -1, level, prefix }];
    for (let k = from; k < to; k++) {
      const ks = starts[k] as number;
      const ke = ends[k] as number;
      if (isBlank(text, ks, ke)) continue;
      const ind = indentOf(text, ks, ke);
      while (stack.length > 1) {
        const top = stack[stack.length - 1] as { at: number; body: number };
        if (top.body === -1 ? ind <= top.at : ind < top.body) stack.pop();
        else break;
      }
      const top = stack[stack.length - 1] as { at: number; body: number; level: number; prefix: string };
      if (top.body === -1) top.body = ind;
      if (ind !== top.body || (k > from && !isBlank(text, starts[k - 1] as number, ends[k - 1] as number))) continue;
      const object = ke - ks <= MAX_TARGET_LINE ? OBJECT_DIRECTIVE.exec(text.slice(ks, ke).trimStart()) : null;
      if (object === null) continue;
      const title = objectTitle(object, top.prefix, program, null);
      blocks.push(ks);
      titles.push({ level: Math.min(6, top.level + 1), text: title.text, idText: title.text, id: title.id, start: ks, end: lineEnd(k) });
      stack.push({ at: ind, body: -1, level: top.level + 1, prefix: title.python ? (title.id ?? top.prefix) : top.prefix });
    }
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
      const line = e - s <= MAX_TARGET_LINE ? text.slice(s, e) : '';
      const target = TARGET.exec(line);
      const object = target === null ? OBJECT_DIRECTIVE.exec(line) : null;
      if (target !== null) pendingTargets.push((target[1] ?? target[2] ?? '').trim());
      else if (object !== null) {
        // An object description (`.. function:: walk(top)`): titled a level below its section,
        // and the members its body describes (a class's methods) each a level below it.
        const level = Math.min(6, sectionLevel + 1);
        const title = objectTitle(object, module, program, idOf(pendingTargets));
        titles.push({ level, text: title.text, idText: title.text, id: title.id, start: s, end: lineEnd(i) });
        pendingTargets = [];
        const bodyEnd = skipIndented(i + 1, 0);
        members(i + 1, bodyEnd, level, title.python ? (title.id ?? module) : module);
        i = bodyEnd;
        afterBreak = true;
        continue;
      } else if (GLOSSARY.test(line)) {
        // A glossary's terms: each a heading a level below its section, as Sphinx's HTML has them.
        const bodyEnd = skipIndented(i + 1, 0);
        glossaryTerms(i + 1, bodyEnd, Math.min(6, sectionLevel + 1));
        pendingTargets = [];
        i = bodyEnd;
        afterBreak = true;
        continue;
      } else {
        const current = MODULE_DIRECTIVE.exec(line);
        if (current !== null) module = current[1] === 'None' ? '' : (current[1] as string);
        const runs = PROGRAM_DIRECTIVE.exec(line);
        if (runs !== null) program = runs[1] === 'None' ? '' : (runs[1] as string);
        pendingTargets = [];
      }
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
          sectionLevel = levelOf('o' + text[s]);
          titles.push({ level: sectionLevel, text: plain, idText: plain, id: idOf(pendingTargets), start: s, end: starts[i + 3] as number });
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
          sectionLevel = levelOf('u' + text[us]);
          titles.push({ level: sectionLevel, text: plain, idText: plain, id: idOf(pendingTargets), start: s, end: starts[i + 2] as number });
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
