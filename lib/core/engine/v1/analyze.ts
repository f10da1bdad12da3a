// One document -> its units (the whole file, or its sections) with everything the index
// stores of each: address in the document's text (its source; an HTML page's visible text,
// analysis/html.ts, which is also what load.ts gives resolve), heading trail, token and word counts, and term
// frequencies per field. Sections tile the document's body: front matter is no section's
// content (its title is every unit's title field); a whole-file unit is the whole document,
// as its resource context://CACHE/PATH reads it, but its body field skips the front matter. Fields of a unit: body (its text), headings (its
// own headings and the trail above it; a leading part's trail names the page and is no
// heading), title (the file's front-matter title), path (the file's path without its
// extension).

import { formatOfPath, readDocument } from '../../analysis/document.js';
import { splitSections } from '../../analysis/sections.js';
import { bodyStartOf } from '../../analysis/markdown.js';
import { WordSpans, type TermCounter, type UnitTerms } from '../../analysis/term-counter.js';
import { countWords } from '../../analysis/text.js';
import type { TokenCounter } from '../../tokens/count.js';
import { HEADING_MAX_BYTES, SECTION_RULES, type Granularity } from './config.js';

const BODY = 0;
const HEADINGS = 1;
const TITLE = 2;
const PATH = 3;

export interface AnalyzedUnit {
  readonly start: number;
  readonly end: number;
  readonly slug: string;
  readonly trail: readonly string[];
  readonly tokens: number;
  readonly words: number;
  readonly terms: UnitTerms;
}

/** The heading trail as output carries it, and as its tokens are counted. */
export function trailLine(trail: readonly string[]): string {
  return trail.join(' > ');
}

/**
 * Tokens a unit costs: its content, plus its heading trail when it has one. With `words` (the
 * raw tokens of the content, found at `offset` in its document), counted by stepping over them.
 */
export function unitTokens(count: TokenCounter, content: string, trail: readonly string[], offset = 0, words: WordSpans | null = null, trailTokens = -1): number {
  const body = words !== null && count.words !== undefined ? count.words(content, offset, words) : count(content);
  return body + (trailTokens >= 0 ? trailTokens : trail.length > 0 ? count(trailLine(trail)) : 0);
}

/** The raw tokens of a unit's body, for a token counter that steps over words (one per thread: units are analysed one at a time). */
const unitWords = new WordSpans();

function pathText(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(0, dot) : path;
}

export function analyzeDocument(
  path: string,
  source: string,
  granularity: Granularity,
  countTokens: TokenCounter,
  counter: TermCounter,
): AnalyzedUnit[] {
  // Whole-file units never address a heading: no slugs to compute.
  const format = formatOfPath(path);
  // The document's text: its source, or an HTML page's visible text (docs/sources.md "Formats and files").
  const { text, structure } = readDocument(path, source, granularity === 'section' ? { headingIds: true, headingBytes: HEADING_MAX_BYTES } : { headingIds: true, slugs: false });
  const bodyStart = bodyStartOf(structure);
  const pathTerms = counter.termIdsOf(pathText(path));
  const title = structure.frontMatter?.title ?? null;
  const titleTerms = title === null ? [] : counter.termIdsOf(title);
  const sections =
    granularity === 'file'
      ? [{ start: 0, end: text.length, slug: '', trail: [] as readonly string[], headings: structure.headings.map((h) => h.text), leading: false }]
      : splitSections(text, structure, {
          splitLevel: SECTION_RULES.split_level,
          minBytes: SECTION_RULES.min_bytes,
          maxBytes: SECTION_RULES.max_bytes,
          mergeMaxBytes: SECTION_RULES.merge_max_bytes,
        });
  // A plain-text file has no headings: its sections are named by the file's name.
  const fileTrail: readonly string[] = [path.slice(path.lastIndexOf('/') + 1)];
  const parts = format === 'text' && granularity === 'section' ? sections.map((p) => ({ ...p, trail: fileTrail, headings: p.slug.includes('~') ? [] : fileTrail })) : sections;
  // The sections cut from one heading's text share its trail (one array): counted once.
  let lastTrail: readonly string[] | null = null;
  let lastTrailTokens = 0;
  return parts.map((part) => {
    if (part.trail !== lastTrail) {
      lastTrail = part.trail;
      lastTrailTokens = part.trail.length > 0 ? countTokens(trailLine(part.trail)) : 0;
    }
    const bodyFrom = Math.max(part.start, bodyStart);
    const bodyTo = Math.max(part.end, bodyStart);
    // When the body is the whole unit (a section, or a file without front matter), the raw
    // tokens its terms come from are the unit's too, and a counter that can step over words
    // is given them.
    const words = countTokens.words !== undefined && bodyFrom === part.start && bodyTo === part.end ? unitWords : null;
    counter.count(text, BODY, bodyFrom, bodyTo, words);
    // The trail's last entry is the section's own heading, already among its headings,
    // except in the second and later pieces of a heading's text (slug~k), which hold no
    // heading of their own but still belong under it. A leading part's trail is the page's
    // name (its title, already the title field, or its first line, already body text).
    const above = part.leading ? [] : part.slug.includes('~') ? part.trail : part.trail.slice(0, -1);
    for (const h of above) counter.count(h, HEADINGS);
    for (const h of part.headings) counter.count(h, HEADINGS);
    counter.countTerms(titleTerms, TITLE);
    counter.countTerms(pathTerms, PATH);
    const content = part.start === 0 && part.end === text.length ? text : text.slice(part.start, part.end);
    return {
      start: part.start,
      end: part.end,
      slug: part.slug,
      trail: part.trail,
      tokens: words === null ? unitTokens(countTokens, content, part.trail, 0, null, lastTrailTokens) : unitTokens(countTokens, content, part.trail, part.start, words, lastTrailTokens),
      words: countWords(content),
      terms: counter.finishUnit(),
    };
  });
}
