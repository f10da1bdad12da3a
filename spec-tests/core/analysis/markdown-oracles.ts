// Two independent Markdown parsers as oracles for the top-level headings of a document:
// micromark (events: atxHeading / setextHeading inside blockQuote / list tokens) and
// commonmark.js, the CommonMark reference implementation (AST with source positions), read
// as cmark reads it where the two differ (tabs before a line break).
// Each reports, per top-level heading, its level, first and last line, and rendered text
// (markup removed, image alt kept, raw HTML dropped, trimmed), the way parseMarkdown does.

import { createRequire } from 'node:module';
import { compile, parse, postprocess, preprocess } from 'micromark';
import type { CompileContext, Event } from 'micromark-util-types';

export interface OracleHeading {
  readonly level: number;
  /** 1-based line of the heading's first text line (null where the oracle cannot say). */
  readonly startLine: number | null;
  readonly endLine: number;
  readonly text: string;
}

const CONTAINERS = new Set(['blockQuote', 'listOrdered', 'listUnordered']);

function trimAscii(s: string): string {
  return s.replace(/^[ \t\n\r\f\v]+/, '').replace(/[ \t\n\r\f\v]+$/, '');
}

/** The text of micromark's heading HTML: tags dropped (image alt kept), its escapes undone. */
function htmlToText(html: string): string {
  return trimAscii(
    html
      .replace(/<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")? \/>/g, '$1')
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\r\n?/g, '\n'),
  );
}

export function micromarkHeadings(doc: string): OracleHeading[] {
  const events: Event[] = postprocess(parse().document().write(preprocess()(doc, undefined, true)));
  interface Found {
    depth: number;
    level: number;
    startLine: number;
    endLine: number;
    html: string;
  }
  const found: Found[] = [];
  let depth = 0;
  for (const [kind, token] of events) {
    if (CONTAINERS.has(token.type)) depth += kind === 'enter' ? 1 : -1;
    if (kind !== 'enter') continue;
    const current = found[found.length - 1];
    if (token.type === 'atxHeading' || token.type === 'setextHeading') {
      found.push({ depth, level: 0, startLine: token.start.line, endLine: token.end.line, html: '' });
    } else if (token.type === 'setextHeadingText' && current !== undefined) {
      current.startLine = token.start.line;
    } else if (token.type === 'atxHeadingSequence' && current !== undefined && current.level === 0) {
      current.level = token.end.offset - token.start.offset;
    } else if (token.type === 'setextHeadingLineSequence' && current !== undefined) {
      current.level = doc.charAt(token.start.offset) === '=' ? 1 : 2;
    }
  }
  // Heading HTML: capture the compiled content of each heading text; drop raw inline HTML.
  const texts: string[] = [];
  const capture = {
    enter: {
      atxHeadingText(this: CompileContext): undefined {
        this.buffer();
      },
      setextHeadingText(this: CompileContext): undefined {
        this.buffer();
      },
      htmlText(this: CompileContext): undefined {
        this.buffer();
      },
    },
    exit: {
      atxHeadingText(this: CompileContext): undefined {
        const html = this.resume();
        texts.push(html);
        this.raw(html);
      },
      setextHeadingText(this: CompileContext): undefined {
        const html = this.resume();
        texts.push(html);
        this.raw(html);
        this.setData('slurpAllLineEndings', true);
      },
      htmlText(this: CompileContext): undefined {
        this.resume();
      },
    },
  };
  compile({ allowDangerousHtml: true, htmlExtensions: [capture] })(events);
  let heading = -1;
  let text = 0;
  for (const [kind, token] of events) {
    if (kind !== 'enter') continue;
    if (token.type === 'atxHeading' || token.type === 'setextHeading') heading++;
    const current = found[heading];
    if ((token.type === 'atxHeadingText' || token.type === 'setextHeadingText') && current !== undefined) {
      current.html = texts[text++] ?? '';
    }
  }
  return found
    .filter((h) => h.depth === 0)
    .map((h) => ({ level: h.level, startLine: h.startLine, endLine: h.endLine, text: htmlToText(h.html) }));
}

/** The slice of commonmark.js's API the oracle uses (the package ships no types). */
interface CmNode {
  readonly type: string;
  readonly level: number;
  readonly literal: string | null;
  readonly sourcepos: [[number, number], [number, number]];
  readonly firstChild: CmNode | null;
  readonly next: CmNode | null;
  readonly prev: CmNode | null;
  walker(): { next(): { entering: boolean; node: CmNode } | null };
}
interface CommonmarkModule {
  Parser: new () => { parse(input: string): CmNode };
}
const commonmark = createRequire(import.meta.url)('commonmark') as CommonmarkModule;

/**
 * commonmark.js's top-level headings. It strips only spaces from the text before a line
 * ending, where cmark strips tabs too: the text is read as cmark would for soft breaks, and
 * for hard breaks only when `trimBeforeHardBreaks` (a hard break made by a backslash keeps
 * what precedes it, one made by two spaces does not, and the tree does not say which).
 */
export function commonmarkHeadings(doc: string, trimBeforeHardBreaks: boolean): OracleHeading[] {
  const tree = new commonmark.Parser().parse(doc);
  const out: OracleHeading[] = [];
  for (let node = tree.firstChild; node !== null; node = node.next) {
    if (node.type !== 'heading') continue;
    let text = '';
    let lastTextStart = -1;
    const walker = node.walker();
    for (let step = walker.next(); step !== null; step = walker.next()) {
      if (!step.entering) continue;
      const n = step.node;
      if (n.type === 'text' || n.type === 'code') {
        lastTextStart = n.type === 'text' ? text.length : -1;
        text += n.literal ?? '';
      } else if (n.type === 'softbreak' || n.type === 'linebreak') {
        if ((n.type === 'softbreak' || trimBeforeHardBreaks) && n.prev?.type === 'text' && lastTextStart >= 0) {
          text = text.slice(0, lastTextStart) + text.slice(lastTextStart).replace(/[ \t]+$/, '');
        }
        text += '\n';
        lastTextStart = -1;
      } else {
        lastTextStart = -1;
      }
    }
    // A setext heading's source position starts at any link reference definitions before
    // it, so only its last line is comparable.
    out.push({ level: node.level, startLine: null, endLine: node.sourcepos[1][0], text: trimAscii(text) });
  }
  return out;
}

/** The 1-based line of each UTF-16 offset (CR, LF and CRLF end lines, as in CommonMark). */
export function lineOfOffset(doc: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < doc.length; i++) {
    const c = doc.charCodeAt(i);
    if (c === 0x0a) starts.push(i + 1);
    else if (c === 0x0d) {
      if (doc.charCodeAt(i + 1) === 0x0a) i++;
      starts.push(i + 1);
    }
  }
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** micromark and commonmark.js know no front matter: its lines are blanked (line numbers stay). */
export function blankFrontMatter(doc: string, end: number): string {
  return doc.slice(0, end).replace(/[^\r\n]/g, '') + doc.slice(end);
}
