// The structure of a plain-text document for sections.ts: no headings (the whole file is one
// section, which analyze names by the file's name), and its paragraphs (a non-blank line
// after a blank one) as the places a section over the cap is cut. Linear.

import { isBlank, splitLines } from './lines.js';
import type { MarkdownStructure } from './markdown.js';

export function parsePlainText(text: string): MarkdownStructure {
  if (typeof text !== 'string') throw new TypeError('parsePlainText: text must be a string');
  const { starts, ends, count } = splitLines(text);
  const blocks: number[] = [];
  let afterBreak = true;
  for (let i = 0; i < count; i++) {
    const s = starts[i] as number;
    if (isBlank(text, s, ends[i] as number)) afterBreak = true;
    else {
      if (afterBreak) blocks.push(s);
      afterBreak = false;
    }
  }
  return { frontMatter: null, headings: [], blocks };
}
