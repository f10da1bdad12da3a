// Front matter: a YAML block fenced by `---` (closed by `---` or `...`) or a TOML block
// fenced by `+++`, opening on the first line of a document that is not blank (after a byte
// order mark, if any: Astro's Markdown reader takes front matter after blank lines, as a page
// that starts with an empty line shows), and the top-level `title` it declares. An unclosed
// block is not front matter. The title is read by a small scanner, not a YAML library: one key, no
// document model, a few microseconds per file.

import { isBlankSpan, isSpaceOrTab, lineAt, type Line } from './markdown-chars.js';

export interface FrontMatter {
  /** UTF-16 offset just past the closing fence line (its line ending included). */
  readonly end: number;
  /** The top-level `title:` value (YAML front matter; quotes removed), else null. */
  readonly title: string | null;
}

/** Whether the line is exactly `fence`, trailing spaces and tabs allowed. */
function isFence(text: string, line: Line, fence: string): boolean {
  if (!text.startsWith(fence, line.start)) return false;
  for (let i = line.start + fence.length; i < line.end; i++) if (!isSpaceOrTab(text.charCodeAt(i))) return false;
  return true;
}

/** The front matter at the start of `text` (content starting at `from`, past a BOM; blank lines before it skipped), or null. */
export function parseFrontMatter(text: string, from: number): FrontMatter | null {
  let first = lineAt(text, from);
  while (first.next > first.start && first.next < text.length && isBlankSpan(text, first.start, first.end)) first = lineAt(text, first.next);
  let closers: readonly string[];
  let toml: boolean;
  if (isFence(text, first, '---')) {
    closers = ['---', '...'];
    toml = false;
  } else if (isFence(text, first, '+++')) {
    closers = ['+++'];
    toml = true;
  } else {
    return null;
  }
  const lines: Line[] = [];
  let pos = first.next;
  while (pos < text.length) {
    const line = lineAt(text, pos);
    if (closers.some((fence) => isFence(text, line, fence))) {
      return { end: line.next, title: toml ? tomlTitle(text, lines) : yamlTitle(text, lines) };
    }
    lines.push(line);
    if (line.next === pos) break;
    pos = line.next;
  }
  return null;
}

function trimSpaces(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpaceOrTab(s.charCodeAt(start))) start++;
  while (end > start && isSpaceOrTab(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/** The lines after `index` that are indented or blank: a value's continuation. */
function continuation(text: string, lines: readonly Line[], index: number): string[] {
  const out: string[] = [];
  for (let k = index + 1; k < lines.length; k++) {
    const line = lines[k] as Line;
    const body = text.slice(line.start, line.end);
    if (body.length > 0 && !isSpaceOrTab(body.charCodeAt(0)) && trimSpaces(body) !== '') break;
    out.push(trimSpaces(body));
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** YAML line folding: single line breaks become spaces, each blank line one "\n". */
function fold(parts: readonly string[]): string {
  let out = '';
  let pendingBlank = 0;
  for (const part of parts) {
    if (part === '') {
      pendingBlank++;
      continue;
    }
    if (out !== '') out += pendingBlank > 0 ? '\n'.repeat(pendingBlank) : ' ';
    out += part;
    pendingBlank = 0;
  }
  return out;
}

const DOUBLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

function decodeDoubleQuoted(body: string): string | null {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body.charAt(i);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body.charAt(i + 1);
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (width > 0) {
      const hex = body.slice(i + 2, i + 2 + width);
      if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) return null;
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) return null;
      out += String.fromCodePoint(code);
      i += 1 + width;
      continue;
    }
    const decoded = DOUBLE_ESCAPES[e];
    if (decoded === undefined) return null;
    out += decoded;
    i += 1;
  }
  return out;
}

/**
 * A quoted YAML scalar that starts the value (`'…'` or `"…"`, possibly over several lines),
 * or null when it is not closed or malformed.
 */
function quotedScalar(first: string, rest: readonly string[]): string | null {
  const quote = first.charAt(0);
  const parts = [first.slice(1), ...rest];
  const joined: string[] = [];
  for (const part of parts) {
    let close = -1;
    for (let i = 0; i < part.length; i++) {
      const c = part.charAt(i);
      if (quote === '"' && c === '\\') {
        i++;
      } else if (c === quote) {
        if (quote === "'" && part.charAt(i + 1) === "'") {
          i++;
        } else {
          close = i;
          break;
        }
      }
    }
    if (close < 0) {
      joined.push(part);
      continue;
    }
    joined.push(part.slice(0, close));
    // After the closing quote only a comment may follow.
    const tail = trimSpaces(part.slice(close + 1));
    if (tail !== '' && !tail.startsWith('#')) return null;
    const text = fold(joined.map((p, k) => (k === 0 ? p.replace(/[ \t]+$/, '') : trimSpaces(p))));
    return quote === "'" ? text.replaceAll("''", "'") : decodeDoubleQuoted(text);
  }
  return null;
}

/** The top-level `title:` of YAML front matter, as a string, or null. */
function yamlTitle(text: string, lines: readonly Line[]): string | null {
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as Line;
    const body = text.slice(line.start, line.end);
    let rest: string;
    if (body.startsWith('title:')) rest = body.slice(6);
    else if (body.startsWith('"title":') || body.startsWith("'title':")) rest = body.slice(8);
    else continue;
    if (rest !== '' && !isSpaceOrTab(rest.charCodeAt(0))) continue;
    const value = trimSpaces(rest);
    const more = continuation(text, lines, k);
    if (value === '' || value.startsWith('#')) {
      // A plain scalar on the following indented lines (a nested mapping is not a title).
      if (more.length === 0 || more.some((part) => /^[^\s#][^:#]*:(\s|$)/.test(part) || part.startsWith('- '))) return null;
      return plainScalar(more);
    }
    const c = value.charAt(0);
    if (c === '"' || c === "'") return quotedScalar(value, more);
    if (c === '|' || c === '>') {
      if (!/^[|>][+-]?[0-9]?[+-]?(\s+#.*)?$/.test(value)) return null;
      const body = more.join(c === '|' ? '\n' : ' ').replace(/\n+$/, '');
      return body === '' ? null : body;
    }
    if (c === '[' || c === '{' || c === '&' || c === '*' || c === '!') return null;
    return plainScalar([value, ...more]);
  }
  return null;
}

/** A plain YAML scalar over lines: comments (` #`) cut, lines folded; `~`/`null` are null. */
function plainScalar(parts: readonly string[]): string | null {
  const kept: string[] = [];
  for (const part of parts) {
    const comment = part.search(/(^|[ \t])#/);
    if (comment >= 0) {
      kept.push(trimSpaces(part.slice(0, comment)));
      break;
    }
    kept.push(part);
  }
  const value = fold(kept);
  if (value === '' || value === '~' || value === 'null' || value === 'Null' || value === 'NULL') return null;
  return value;
}

const TOML_ESCAPES: Readonly<Record<string, string>> = {
  b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\',
};

/** The top-level `title = "…"` of TOML front matter (basic or literal one-line string), or null. */
function tomlTitle(text: string, lines: readonly Line[]): string | null {
  for (const line of lines) {
    const body = trimSpaces(text.slice(line.start, line.end));
    if (body.startsWith('[')) return null; // a table header: later keys are not top-level
    const match = /^title[ \t]*=[ \t]*(.*)$/.exec(body);
    if (match === null) continue;
    const value = match[1] ?? '';
    if (value.startsWith("'") && !value.startsWith("'''")) {
      const close = value.indexOf("'", 1);
      return close < 0 ? null : value.slice(1, close);
    }
    if (value.startsWith('"') && !value.startsWith('"""')) {
      let out = '';
      for (let i = 1; i < value.length; i++) {
        const c = value.charAt(i);
        if (c === '"') return out;
        if (c !== '\\') {
          out += c;
          continue;
        }
        const e = value.charAt(i + 1);
        if (e === 'u' || e === 'U') {
          const width = e === 'u' ? 4 : 8;
          const hex = value.slice(i + 2, i + 2 + width);
          if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) return null;
          const code = Number.parseInt(hex, 16);
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
          out += String.fromCodePoint(code);
          i += 1 + width;
          continue;
        }
        const decoded = TOML_ESCAPES[e];
        if (decoded === undefined) return null;
        out += decoded;
        i += 1;
      }
      return null;
    }
    return null;
  }
  return null;
}
