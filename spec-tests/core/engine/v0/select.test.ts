// Checks specs/core/context_selection.md: scoring, ordering, budgeting, explainability and
// the output shape — through selectDocuments, and against a direct transcription of the
// reference scorer on random documents (the ASCII fast path and the Unicode path alike).
import t from 'tap';
import { compact } from '../../../../lib/json.js';
import { ScoringCorpus } from '../../../../lib/core/engine/v0/corpus.js';
import { selectDocuments, type SelectableDocument } from '../../../../lib/core/engine/v0/select.js';
import { countWords, tokensForBytes } from '../../../../lib/core/analysis/text.js';
import { formatF32 } from '../../../../lib/f32.js';

interface Doc {
  id: string;
  content: string;
}

function prepare(docs: readonly Doc[]): { documents: SelectableDocument[]; corpus: ScoringCorpus } {
  const documents = docs.map((d) => ({
    id: d.id,
    version: 'sha256:' + '0'.repeat(64),
    content: d.content,
    tokens: tokensForBytes(Buffer.byteLength(d.content, 'utf8')),
  }));
  const texts = docs.map((d) => ({ content: d.content, ascii: /^[\x00-\x7f]*$/.test(d.content) }));
  const words = Uint32Array.from(docs.map((d) => countWords(d.content)));
  return { documents, corpus: new ScoringCorpus(texts, words) };
}

function select(docs: readonly Doc[], query: string, budget: number): string {
  const { documents, corpus } = prepare(docs);
  return compact(selectDocuments(documents, query, budget, (terms) => corpus.stats(terms)));
}

interface Out {
  documents: { id: string; score: number; tokens: number; why: { query_terms: string[]; term_matches: number; total_words: number } }[];
  selection: Record<string, number | string>;
}
const parse = (s: string): Out => JSON.parse(s) as Out;

t.test('score = term_matches / total_words; 0.0 without terms or words', async (t) => {
  const out = parse(select([{ id: 'a.md', content: 'deployment guide deployment x' }], 'deployment', 100));
  t.same(out.documents[0]?.why, { query_terms: ['deployment'], term_matches: 2, total_words: 4 });
  t.equal(out.documents[0]?.score, 0.5);
  const empty = parse(select([{ id: 'a.md', content: 'deployment' }], '', 100));
  t.equal(empty.documents[0]?.score, 0, 'empty query: every document scores 0.0');
  t.same(empty.documents[0]?.why.query_terms, []);
  const noWords = select([{ id: 'e.md', content: '' }], 'deployment', 100);
  t.match(noWords, /"score":0\.0,"tokens":0,"why":\{"query_terms":\["deployment"\],"term_matches":0,"total_words":0\}/);
});

t.test('duplicate query terms count twice (scores may exceed 1.0)', async (t) => {
  const out = select([{ id: 'a.md', content: 'deployment' }], 'deployment DEPLOYMENT', 100);
  t.match(out, /"score":2\.0,/, 'printed as Rust prints the f32 2.0');
  t.match(out, /"query_terms":\["deployment","deployment"\],"term_matches":2,"total_words":1/);
});

t.test('ordering: score descending, then id ascending in byte order', async (t) => {
  const docs = [
    { id: 'b.md', content: 'x deployment' },
    { id: 'a.md', content: 'x deployment' },
    { id: 'c.md', content: 'deployment' },
    { id: 'Z.md', content: 'nothing' },
    { id: 'é.md', content: 'nothing' },
    { id: 'z.md', content: 'nothing' },
  ];
  const out = parse(select(docs, 'deployment', 1000));
  t.same(out.documents.map((d) => d.id), ['c.md', 'a.md', 'b.md', 'Z.md', 'z.md', 'é.md'], 'ties by id, uppercase before lowercase before é');
});

t.test('budget: greedy, skip and continue, never exceeded, never truncated', async (t) => {
  const docs = [
    { id: 'a.md', content: 'deployment '.repeat(8) }, // 88 bytes -> 22 tokens, best score
    { id: 'b.md', content: 'deployment filler filler filler filler' }, // 38 bytes -> 10 tokens
    { id: 'c.md', content: 'deployment x x x x x x x x x x x x x x' }, // 38 bytes -> 10 tokens, lowest score
  ];
  const out = parse(select(docs, 'deployment', 20));
  t.same(out.documents.map((d) => d.id), ['b.md', 'c.md'], 'a.md (22 tokens) is skipped; the next ones still fill the budget');
  t.equal(out.selection['tokens_used'], 20);
  t.equal(out.selection['documents_excluded_by_budget'], 1);
  const zero = parse(select(docs, 'deployment', 0));
  t.same(zero.documents, [], 'budget 0 returns an empty selection');
  t.equal(zero.selection['documents_excluded_by_budget'], 3);
  const exact = parse(select(docs, 'deployment', 22));
  t.same(exact.documents.map((d) => d.id), ['a.md'], 'a document that fits exactly is selected');
});

t.test('score-0 documents are selected when they fit; empty documents cost nothing', async (t) => {
  const out = parse(select([{ id: 'a.md', content: 'nothing here' }, { id: 'e.md', content: '' }], 'deployment', 0));
  t.same(out.documents.map((d) => d.id), ['e.md'], 'a 0-token document fits a 0 budget');
});

t.test('selection metadata and field order', async (t) => {
  const s = select([{ id: 'a.md', content: 'hello world' }], 'hello', 10);
  t.equal(
    s,
    '{"documents":[{"id":"a.md","version":"sha256:' + '0'.repeat(64) + '","content":"hello world","score":0.5,"tokens":3,' +
      '"why":{"query_terms":["hello"],"term_matches":1,"total_words":2}}],' +
      '"selection":{"query":"hello","budget":10,"tokens_used":3,"documents_considered":1,"documents_selected":1,"documents_excluded_by_budget":0}}',
  );
});

t.test('query is echoed unchanged, not normalized', async (t) => {
  const out = parse(select([{ id: 'a.md', content: 'x' }], '  Mixed CASE\u0085 ', 10));
  t.equal(out.selection['query'], '  Mixed CASE\u0085 ');
});

// A direct transcription of the reference scorer (context-core ranking.rs): lowercase the
// content, split_whitespace, and for every word and every term count equality.
const WS = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
const refSplit = (s: string): string[] => s.split(WS).filter((w) => w !== '');
function referenceSelect(docs: readonly Doc[], query: string, budget: number): string {
  const terms = refSplit(query.toLowerCase());
  const scored = docs.map((d) => {
    const words = refSplit(d.content.toLowerCase());
    let matches = 0;
    if (words.length > 0 && terms.length > 0) for (const w of words) for (const q of terms) if (w === q) matches++;
    const score = words.length === 0 ? 0 : Math.fround(Math.fround(matches) / Math.fround(words.length));
    return { d, words: words.length, matches, score, tokens: Math.ceil(Buffer.byteLength(d.content, 'utf8') / 4) };
  });
  scored.sort((a, b) => (a.score !== b.score ? b.score - a.score : Buffer.compare(Buffer.from(a.d.id), Buffer.from(b.d.id))));
  let used = 0;
  const parts: string[] = [];
  for (const s of scored) {
    if (used + s.tokens > budget) continue;
    used += s.tokens;
    parts.push(
      `{"id":${JSON.stringify(s.d.id)},"version":"sha256:${'0'.repeat(64)}","content":${JSON.stringify(s.d.content)},` +
        `"score":${formatF32(s.score)},"tokens":${s.tokens},"why":{"query_terms":${JSON.stringify(terms)},` +
        `"term_matches":${s.matches},"total_words":${s.words}}}`,
    );
  }
  return (
    `{"documents":[${parts.join(',')}],"selection":{"query":${JSON.stringify(query)},"budget":${budget},` +
    `"tokens_used":${used},"documents_considered":${docs.length},"documents_selected":${parts.length},` +
    `"documents_excluded_by_budget":${docs.length - parts.length}}}`
  );
}

t.test('random documents: identical to the reference scorer, ASCII and Unicode alike', async (t) => {
  const alphabet = ['a', 'B', 'c', 'D', 'x', ' ', ' ', '\n', '\r\n', '\t', '.', 'İ', 'ß', 'Σ', 'σ', 'ς', 'é', 'K', '\u212a', '\u0085', '\ufeff', '\u3000', '\u00a0', '😀', 'ab', 'AB', 'Ab', 'ΟΔΟΣ', 'οδος', 'i\u0307'];
  let seed = 7;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const text = (len: number): string => Array.from({ length: len }, () => alphabet[rand(alphabet.length)]).join('');
  const asciiText = (len: number): string => Array.from({ length: len }, () => ['a', 'B', 'ab', 'AB', 'Ab', ' ', '\n', 'x', '.'][rand(9)]).join('');
  let mismatches = 0;
  for (let round = 0; round < 300; round++) {
    const docs: Doc[] = Array.from({ length: 1 + rand(6) }, (_, i) => ({ id: `${String.fromCharCode(97 + rand(5))}${i}.md`, content: round % 2 === 0 ? asciiText(rand(40)) : text(rand(40)) }));
    const query = round % 3 === 0 ? asciiText(rand(8)) : text(rand(8));
    const budget = rand(60);
    if (select(docs, query, budget) !== referenceSelect(docs, query, budget)) mismatches++;
  }
  t.equal(mismatches, 0, '300 random cases agree byte for byte');
});

t.test('ordering across score magnitudes and with shuffled ids: identical to the reference scorer', async (t) => {
  // The order is computed from sort keys (score bits, then id rank): scores above 1.0 (duplicate
  // terms), tiny ones, many ties, ids given in no particular order, a second query on the same
  // document array (ranks reused), and equal ids (kept in their given order, as a stable sort).
  const docs: Doc[] = [];
  let seed = 11;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let i = 0; i < 400; i++) {
    const hits = rand(4);
    const filler = i % 80 === 0 ? 200_000 + rand(3) : rand(30); // a few tiny scores (~5e-6)
    docs.push({ id: `${['b', 'a', 'B', 'é', 'a/b', 'a.b'][rand(6)]}${rand(1000)}.md`, content: 'x '.repeat(filler) + 'hit '.repeat(hits) });
  }
  docs.push({ id: 'same.md', content: 'hit' }, { id: 'same.md', content: 'hit hit' }, { id: 'same.md', content: 'hit' });
  const { documents, corpus } = prepare(docs);
  for (const query of ['hit', 'hit hit HIT', 'x', 'nothing', '']) {
    const ours = compact(selectDocuments(documents, query, 1_000_000_000, (q) => corpus.stats(q)));
    t.equal(ours, referenceSelect(docs, query, 1_000_000_000), `query ${JSON.stringify(query)}`);
  }
  t.equal(select(docs, 'hit', 5000), referenceSelect(docs, 'hit', 5000), 'a budget that skips documents');
});

t.test('memoized statistics: a second query reuses counts and agrees', async (t) => {
  const docs = [{ id: 'a.md', content: 'Deployment x' }, { id: 'b.md', content: 'ΟΔΟΣ deployment οδος' }];
  const { documents, corpus } = prepare(docs);
  const first = compact(selectDocuments(documents, 'deployment οδος', 100, (q) => corpus.stats(q)));
  const second = compact(selectDocuments(documents, 'deployment οδος', 100, (q) => corpus.stats(q)));
  t.equal(first, second);
  t.equal(first, referenceSelect(docs, 'deployment οδος', 100));
});
