// `context resolve --format text`: the SelectionResult for a person. One block per selected
// entry — rank, id, score, tokens, the units a merged entry joins, then which query terms
// matched where and which stood close together (proximity) — then the better units the budget left out, with the budget that would
// include the first ("raise the budget to N to include X"), and one closing line on the
// budget. Numbers print as the JSON prints them (scores in the same binary32 form); nothing
// depends on the terminal, so the text is as deterministic as the JSON. Answer scope counts
// this very text (docs/engine.md "Token budgets").

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
  const matches = asList(why['matches']);
  if (why['matches'] !== undefined) {
    lines.push(`     matched: ${matches.length === 0 ? 'nothing' : v1Matches(matches)}`);
    const near = asObj(why['proximity']);
    if (why['proximity'] !== undefined) lines.push(`     in one passage: ${asList(near['terms']).map(str).join(', ')} (+${num(near['score'])})`);
  } else {
    const terms = asList(why['query_terms']).map(str);
    const words = `${grouped(why['term_matches'])} of ${plural(why['total_words'], 'word', 'words')}`;
    lines.push(`     matched: ${words} equal a query term${terms.length === 0 ? '' : ` (${[...new Set(terms)].join(', ')})`}`);
  }
  return lines;
}

/** One entry's lines as selectionText prints them (rank and padding aside): what it adds to the text. */
export function entryText(entry: Json): string {
  const doc = asObj(entry);
  return entryLines(1, doc, str(doc['id']).length).join('\n') + '\n';
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
    ? `the whole answer is ${grouped(selection['answer_tokens'])} of ${plural(selection['budget'], 'token', 'tokens')} (${grouped(selection['tokens_used'])} of content)`
    : `${grouped(selection['tokens_used'])} of ${plural(selection['budget'], 'token', 'tokens')} used`;
  const units = docs.reduce((n, d) => n + Math.max(1, asList(d['merged']).length), 0);
  const selected = units > docs.length ? `${grouped(selection['documents_selected'])} entries (${grouped(units)} units)` : grouped(selection['documents_selected']);
  const budgetLine = `selected ${selected} ${considered}; ${spent}; ${grouped(selection['documents_excluded_by_budget'])} left out by the budget`;
  lines.push('', budgetLine, '');
  return lines.join('\n');
}
