// A unit's text as a reader sees it, for telling copies apart (docs/engine.md "Repeated
// text"): a generated page that gathers other pages (markdownlint's doc/Rules.md holds every
// doc/mdNNN.md one heading level down, an HTML anchor between them; CMake's manuals include
// one options list in several pages) repeats their sections with different markup only.
//
// Line by line (LF, CRLF or CR), outside fenced code:
//   - a heading's markers go: the `#`s of an ATX heading, the `=`s of an AsciiDoc title
//     (up to 3 spaces before them, a space or the line's end after them);
//   - lines that show nothing are dropped: blank lines, lines of one punctuation character
//     repeated (3 or more: rST and Setext underlines, thematic breaks, block delimiters), and
//     lines holding only HTML tags and comments or an MDX comment (`<a name="x"></a>`,
//     `<!-- … -->`, `{/* … */}`);
//   - every other line is kept, its trailing spaces and tabs removed.
// Fenced code (``` or ~~~, as CommonMark opens and closes it) is kept line for line, only
// trailing spaces and tabs removed. reStructuredText has no fences (its `~~~` lines are
// underlines). Linear in the text's length: no regular expression backtracks here.

/** `text` as its reader sees it (above); `fences`: whether ``` and ~~~ open fenced code. */
export function visibleText(text: string, fences = true): string {
  const out: string[] = [];
  let fenceChar = '';
  let fenceLength = 0;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = trimEnd(raw);
    if (fenceLength > 0) {
      out.push(line);
      const run = fenceRun(line);
      if (run !== null && run.char === fenceChar && run.length >= fenceLength && line.slice(run.end).trim() === '') fenceLength = 0;
      continue;
    }
    const run = fences ? fenceRun(line) : null;
    if (run !== null && !(run.char === '`' && line.indexOf('`', run.end) >= 0)) {
      fenceChar = run.char;
      fenceLength = run.length;
      out.push(line);
      continue;
    }
    const t = line.trim();
    if (t === '' || isRule(t) || showsNothing(t)) continue;
    out.push(withoutHeadingMarks(line));
  }
  return out.join('\n');
}

function trimEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 0x20 || line.charCodeAt(end - 1) === 0x09)) end--;
  return line.slice(0, end);
}

/** Up to 3 spaces, then 3 or more backticks or tildes: the run, or null. */
function fenceRun(line: string): { char: string; length: number; end: number } | null {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 0x20) i++;
  const c = line[i];
  if (c !== '`' && c !== '~') return null;
  let j = i;
  while (line[j] === c) j++;
  return j - i >= 3 ? { char: c, length: j - i, end: j } : null;
}

const RULE_CHARS = '=-`:\'"~^_*+#<>.';

/** A trimmed line of 3 or more of one punctuation character (spaces between allowed for `* * *`). */
function isRule(t: string): boolean {
  const c = t[0] as string;
  if (!RULE_CHARS.includes(c)) return false;
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    const d = t[i];
    if (d === c) n++;
    else if (d !== ' ' && d !== '\t') return false;
  }
  return n >= 3;
}

/** A trimmed line made only of HTML tags and comments, or an MDX comment. */
function showsNothing(t: string): boolean {
  if (t.startsWith('{/*') && t.endsWith('*/}') && t.indexOf('*/') === t.length - 3) return true;
  let i = 0;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (c === 0x20 || c === 0x09) {
      i++;
      continue;
    }
    if (c !== 0x3c /* < */) return false;
    if (t.startsWith('<!--', i)) {
      const close = t.indexOf('-->', i + 4);
      if (close < 0) return false;
      i = close + 3;
      continue;
    }
    const name = t.charCodeAt(i + 1) === 0x2f /* / */ ? i + 2 : i + 1;
    if (!isLetter(t.charCodeAt(name))) return false;
    const close = t.indexOf('>', name);
    if (close < 0) return false;
    const inner = t.indexOf('<', name);
    if (inner >= 0 && inner < close) return false;
    i = close + 1;
  }
  return true;
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** The line less an ATX heading's `#`s or an AsciiDoc title's `=`s (and the spaces after them). */
function withoutHeadingMarks(line: string): string {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 0x20) i++;
  const c = line[i];
  if (c !== '#' && c !== '=') return line;
  let j = i;
  while (line[j] === c && j - i < 7) j++;
  if (j - i > 6) return line;
  if (j < line.length && line[j] !== ' ' && line[j] !== '\t') return line;
  while (line[j] === ' ' || line[j] === '\t') j++;
  return line.slice(j);
}
