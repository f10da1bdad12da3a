// `context resolve --format text`: the SelectionResult for a person. One block per selected
// entry — rank, id, score, tokens, the units a merged entry joins, the other units with its
// very text (left out: they would repeat it), then which query terms
// matched where and which stood close together (proximity), and (v1) the first words of its
// content — then the better units the budget left out, with the budget that would include
// the first ("raise the budget to N to include X"), and one closing line on the budget.
// Numbers print as the JSON prints them (scores in the same binary32 form); nothing depends
// on the terminal, so the text is as deterministic as the JSON. On a v1 cache the text shows
// the entries of the JSON answer at the same budget, which is what answer scope counts
// (docs/engine.md "The answer").
//
// `context resolve --format markdown`: the answer for agents that read text (v1 caches):
// each entry's content under one header line, in rank order, then one closing line. Answer
// scope counts this very text.

import { compact, type Json } from '../../json.js';

type Obj = { readonly [key: string]: Json | undefined };

const asObj = (v: Json | undefined): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const asList = (v: Json | undefined): readonly Json[] => (Array.isArray(v) ? (v as readonly Json[]) : []);
const num = (v: Json | undefined): string => (v === undefined ? '?' : compact(v));
const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');
const grouped = (v: Json | undefined): string => (typeof v === 'number' ? String(v).replace(/\B(?=(\d{3})+$)/g, ',') : num(v));
const plural = (n: Json | undefined, one: string, many: string): string => `${grouped(n)} ${n === 1 ? one : many}`;

/** v1: `term (body 7, headings 1; 2.8963678)` per matching term (fields and share of the score), in the answer's order. */
function v1Matches(matches: readonly Json[]): string {
  return matches
    .map((m) => {
      const match = asObj(m);
      const fields = Object.entries(match)
        .filter(([key]) => key !== 'term' && key !== 'score')
        .map(([field, count]) => `${field} ${num(count)}`);
      return `${str(match['term'])} (${fields.join(', ')}; ${num(match['score'])})`;
    })
    .join(', ');
}

function entryLines(rank: number, doc: Obj, idWidth: number): string[] {
  const why = asObj(doc['why']);
  const id = str(doc['id']);
  const lines = [`${String(rank).padStart(3)}  ${id.padEnd(idWidth)}  score ${num(doc['score'])}  ${plural(doc['tokens'], 'token', 'tokens')}`];
  const trail = asList(doc['trail']).map(str);
  if (trail.length > 0) lines.push(`     in: ${trail.join(' > ')}`);
  const merged = asList(doc['merged']).map((m) => str(asObj(m)['id']));
  if (merged.length > 0) lines.push(`     joins: ${merged.join(' + ')}`);
  const same = asList(doc['same_text']).map((m) => str(asObj(m)['id']));
  const sameCount = typeof doc['same_text_count'] === 'number' ? doc['same_text_count'] : same.length;
  if (same.length > 0) lines.push(`     same text at: ${same.join(', ')}${sameCount > same.length ? ` and ${grouped(sameCount - same.length)} more` : ''}`);
  const matches = asList(why['matches']);
  if (why['matches'] !== undefined) {
    lines.push(`     matched: ${matches.length === 0 ? 'nothing' : v1Matches(matches)}`);
    const near = asObj(why['proximity']);
    if (why['proximity'] !== undefined) lines.push(`     in one passage: ${asList(near['terms']).map(str).join(', ')} (+${num(near['score'])})`);
    if (why['release_notes'] !== undefined) lines.push(`     release notes: score x ${num(why['release_notes'])} (the question does not ask about releases)`);
    const preview = previewOf(str(doc['content']));
    if (preview !== '') lines.push(`     | ${preview}`);
  } else {
    const terms = asList(why['query_terms']).map(str);
    const words = `${grouped(why['term_matches'])} of ${plural(why['total_words'], 'word', 'words')}`;
    lines.push(`     matched: ${words} equal a query term${terms.length === 0 ? '' : ` (${[...new Set(terms)].join(', ')})`}`);
  }
  return lines;
}

/** At most this many characters of an entry's text are previewed (a person's line). */
export const PREVIEW_CHARS = 100;

/**
 * The first words of a unit's content, for a person: Markdown heading marks and leading
 * blank lines dropped, every run of white space one space, cut at PREVIEW_CHARS UTF-16
 * units (never inside a surrogate pair) with "…" when longer.
 */
export function previewOf(content: string): string {
  const flat = content.replace(/^(?:[ \t]*#{1,6}[ \t]+)/gm, '').replace(/\s+/g, ' ').trim();
  if (flat.length <= PREVIEW_CHARS) return flat;
  let end = PREVIEW_CHARS;
  const last = flat.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return flat.slice(0, end).trimEnd() + '…';
}

export function selectionText(result: Json): string {
  const top = asObj(result);
  const selection = asObj(top['selection']);
  const docs = asList(top['documents']).map(asObj);
  const engine = selection['engine'] === undefined ? 'v0' : str(selection['engine']);
  const about = [engine, ...(selection['granularity'] === 'section' ? ['sections'] : []), ...(selection['tokenizer'] === undefined ? [] : [str(selection['tokenizer'])])];
  const lines = [`query ${compact(selection['query'] ?? '')}, budget ${plural(selection['budget'], 'token', 'tokens')} (${about.join(', ')})`, ''];
  const idWidth = Math.min(60, Math.max(0, ...docs.map((d) => str(d['id']).length)));
  docs.forEach((doc, i) => lines.push(...entryLines(i + 1, doc, idWidth)));
  if (docs.length === 0) lines.push('  nothing selected');
  const omitted = asList(selection['omitted']).map(asObj);
  if (omitted.length > 0) {
    const width = Math.min(60, Math.max(0, ...omitted.map((o) => str(o['id']).length)));
    lines.push('', 'better matches left out by the budget:');
    for (const o of omitted) lines.push(`  -  ${str(o['id']).padEnd(width)}  score ${num(o['score'])}  ${plural(o['tokens'], 'token', 'tokens')}`);
    if (selection['raise_budget_to'] !== undefined) {
      lines.push(`raise the budget to ${grouped(selection['raise_budget_to'])} to include ${str(omitted[0]?.['id'])}`);
    }
  }
  const considered = selection['documents_matched'] === undefined
    ? `of ${grouped(selection['documents_considered'])} considered`
    : `of ${grouped(selection['documents_matched'])} matching (${grouped(selection['documents_considered'])} considered)`;
  const spent = selection['budget_scope'] === 'answer'
    ? `the JSON answer is ${grouped(selection['answer_tokens'])} of ${plural(selection['budget'], 'token', 'tokens')} (${grouped(selection['tokens_used'])} of content)`
    : `${grouped(selection['tokens_used'])} of ${plural(selection['budget'], 'token', 'tokens')} used`;
  const units = docs.reduce((n, d) => n + Math.max(1, asList(d['merged']).length), 0);
  const selected = units > docs.length ? `${grouped(selection['documents_selected'])} entries (${grouped(units)} units)` : grouped(selection['documents_selected']);
  // v0 keeps its closing words byte for byte; v1's count is every matching unit not shown.
  const notTaken = engine === 'v0' ? 'left out by the budget' : 'not selected';
  const budgetLine = `selected ${selected} ${considered}; ${spent}; ${grouped(selection['documents_excluded_by_budget'])} ${notTaken}`;
  lines.push('', budgetLine);
  if (selection['over_budget'] === true) lines.push(`the answer's envelope alone is over the budget of ${plural(selection['budget'], 'token', 'tokens')}: raise it`);
  lines.push('');
  return lines.join('\n');
}

/** An entry's header line in a Markdown answer: rank, id, short version, trail, matched terms. */
function markdownHeader(rank: number, doc: Obj): string {
  const under = str(doc['under']);
  const matched = str(doc['matched']);
  const version = str(doc['version']);
  return `[${rank}] ${str(doc['id'])}${version === '' ? '' : ` @${version}`}${under === '' ? '' : ` | under: ${under}`}${matched === '' ? '' : ` | matched: ${matched}`}`;
}

/** An entry's content as a Markdown answer prints it: ending in exactly one newline. */
function markdownBody(doc: Obj): string {
  const content = str(doc['content']).replace(/\n+$/, '');
  return content === '' ? '' : content + '\n';
}

/** One entry as a Markdown answer prints it (a rank of 10 stands for any): what it adds to the text. */
export function markdownEntryText(entry: Json): string {
  const doc = asObj(entry);
  return `${markdownHeader(10, doc)}\n${markdownBody(doc)}\n`;
}

/**
 * A v1 answer (the lean JSON value) as Markdown: each entry as `[RANK] ID @VERSION | TRAIL |
 * matched: TERMS` and its content, entries parted by a blank line, then one closing line in
 * parentheses: how many units matched, the answer's size, the better units left out for the
 * budget and the budget that takes the first.
 */
export function markdownAnswer(result: Json): string {
  const top = asObj(result);
  const selection = asObj(top['selection']);
  const docs = asList(top['documents']).map(asObj);
  const parts = docs.map((doc, i) => `${markdownHeader(i + 1, doc)}\n${markdownBody(doc)}`);
  const about: string[] = [];
  const matched = selection['matched'] ?? selection['documents_matched'];
  about.push(docs.length === 0 ? `nothing selected; ${plural(matched, 'unit', 'units')} matched` : `${plural(docs.length, 'entry', 'entries')} of ${plural(matched, 'matching unit', 'matching units')}`);
  if (selection['answer_tokens'] !== undefined) about.push(`${grouped(selection['answer_tokens'])} of ${plural(selection['budget'], 'token', 'tokens')}`);
  else about.push(`${grouped(selection['tokens_used'])} of ${plural(selection['budget'], 'token', 'tokens')} of content`);
  if (selection['over_budget'] === true) about.push('over the budget: raise it');
  const omitted = asList(selection['omitted']);
  if (omitted.length > 0) {
    const raise = selection['raise_budget_to'];
    // The lean answer names one unit: the budget that includes it follows it.
    if (omitted.length === 1 && raise !== undefined) about.push(`left out for the budget: ${str(omitted[0])} (a budget of ${grouped(raise)} includes it)`);
    else {
      about.push(`left out for the budget: ${omitted.map((o) => str(o)).join(', ')}`);
      if (raise !== undefined) about.push(`a budget of ${grouped(raise)} includes ${str(omitted[0])}`);
    }
  }
  return [...parts, `(${about.join('; ')})\n`].join('\n');
}
