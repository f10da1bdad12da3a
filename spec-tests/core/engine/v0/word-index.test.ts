// Checks lib/core/engine/v0/word-index.ts against issue 9 item 7 ("v0 answers new queries
// fast too ... v0 output stays byte-identical"): the in-memory index gives exactly the
// counts of the scan (ScoringCorpus) that implements specs/core/context_selection.md
// "Relevance" — total_words := len(split(lowercase(content), whitespace)), and a word
// matches a term only when equal after lowercasing — on fixed traps and random Unicode.
import t from 'tap';
import fc from 'fast-check';
import { compact } from '../../../../lib/json.js';
import { ScoringCorpus, type WordStats } from '../../../../lib/core/engine/v0/corpus.js';
import { selectDocuments, type SelectableDocument } from '../../../../lib/core/engine/v0/select.js';
import { countWords, isWhiteSpace, lowercase, queryTerms, splitWords, tokensForBytes } from '../../../../lib/core/analysis/text.js';
import { hashOf, WordIndex, WordIndexBuilder } from '../../../../lib/core/engine/v0/word-index.js';

const indexOf = (contents: readonly string[]): WordIndex => {
  const b = new WordIndexBuilder();
  for (const c of contents) b.add(c);
  return b.finish();
};
const scanOf = (contents: readonly string[]): ScoringCorpus =>
  new ScoringCorpus(
    contents.map((content) => ({ content, ascii: /^[\x00-\x7f]*$/.test(content) })),
    Uint32Array.from(contents.map(countWords)),
  );
const plain = (s: WordStats): { totalWords: number[]; termCounts: [string, number[]][] } => ({
  totalWords: Array.from(s.totalWords),
  termCounts: [...s.termCounts].map(([term, c]) => [term, Array.from(c)]),
});

const documentsOf = (contents: readonly string[]): SelectableDocument[] =>
  contents.map((content, i) => ({
    id: `d${String(i).padStart(3, '0')}.md`,
    version: 'sha256:' + '0'.repeat(64),
    content,
    tokens: tokensForBytes(Buffer.byteLength(content, 'utf8')),
  }));

/** The selection bytes with the index's counts and with the scan's, for one query. */
function bothSelections(contents: readonly string[], query: string, budget: number): [string, string] {
  const docs = documentsOf(contents);
  const index = indexOf(contents);
  const scan = scanOf(contents);
  return [
    compact(selectDocuments(docs, query, budget, (terms) => index.stats(terms))),
    compact(selectDocuments(docs, query, budget, (terms) => scan.stats(terms))),
  ];
}

t.test('fixed traps: Σ/ς, İ, ẞ, Kelvin sign, U+0085 splits, U+FEFF does not', async (t) => {
  const contents = [
    'ΟΔΟΣ οδος ΟΔΟΣ\u0085ΟΔΟΣ ΣΑ σα', // final sigma before U+0085 and at the end; σ inside a word
    'İstanbul ISTANBUL i\u0307stanbul istanbul', // İ lowercases to i + U+0307 (two code units)
    'STRAẞE straße STRASSE', // ẞ lowercases to ß; ß stays ß
    '\u212a k K \u212a\u212a', // KELVIN SIGN lowercases to ASCII k
    'a\u0085b a\ufeffb a b', // U+0085 is White_Space, U+FEFF is not
    'deployment Deployment. DEPLOYMENT deployments', // no punctuation stripping, no stemming
  ];
  const index = indexOf(contents);
  const scan = scanOf(contents);
  const terms = queryTerms(
    'οδος ΟΔΟΣ σα ΣΑ ος İstanbul istanbul straße STRASSE strasse k \u212a a b a\ufeffb deployment deployment. deployments',
  );
  t.same(plain(index.stats(terms)), plain(scan.stats(terms)), 'every term, every document: the scan\'s counts');
  t.same(Array.from(index.totalWords), contents.map(countWords), 'total_words = split_whitespace().count()');
  t.same(Array.from(index.counts('οδος')), [4, 0, 0, 0, 0, 0], 'ΟΔΟΣ (final ς) and οδος are one word; U+0085 ends a word');
  t.same(Array.from(index.counts('i\u0307stanbul')), [0, 2, 0, 0, 0, 0], 'İstanbul and i + U+0307 + stanbul, not ISTANBUL');
  t.same(Array.from(index.counts('istanbul')), [0, 2, 0, 0, 0, 0], 'ISTANBUL and istanbul');
  t.same(Array.from(index.counts('straße')), [0, 0, 2, 0, 0, 0], 'STRAẞE and straße');
  t.same(Array.from(index.counts('k')), [0, 0, 0, 3, 0, 0], 'k, K and the Kelvin sign');
  t.same(Array.from(index.counts('a\ufeffb')), [0, 0, 0, 0, 1, 0], 'U+FEFF stays inside a word');
  t.same(Array.from(index.counts('a')), [0, 0, 0, 0, 2, 0], 'U+0085 splits a\u0085b');
});

t.test('edge cases: a term longer than any word, empty query, duplicate terms, zero-word documents', async (t) => {
  const contents = ['', ' \u0085\u3000 ', 'alpha beta alpha', 'beta'];
  const index = indexOf(contents);
  t.same(Array.from(index.totalWords), [0, 0, 3, 1], 'documents with zero words count 0');
  t.same(Array.from(index.counts('alpha beta alpha')), [0, 0, 0, 0], 'a term longer than any word matches nothing');
  t.same(Array.from(index.counts('x'.repeat(70_000))), [0, 0, 0, 0], 'even a 64 KiB term');
  t.same(Array.from(index.counts('alph')), [0, 0, 0, 0], 'a prefix of a word is not the word');
  t.same(plain(index.stats([])), { totalWords: [0, 0, 3, 1], termCounts: [] }, 'empty query: no terms to count');
  const dup = index.stats(['alpha', 'alpha']);
  t.same([...dup.termCounts.keys()], ['alpha'], 'a duplicate term is looked up once');
  for (const [query, label] of [['', 'empty query'], ['alpha ALPHA', 'duplicate terms count twice'], ['beta', 'plain'], ['zzz', 'no match']]) {
    const [viaIndex, viaScan] = bothSelections(contents, query as string, 100);
    t.equal(viaIndex, viaScan, `${label as string}: the same selection bytes`);
  }
  t.match(bothSelections(contents, 'alpha ALPHA', 100)[0], /"term_matches":4,"total_words":3/, 'duplicates: 2 + 2 matches');
  const none = indexOf([]);
  t.equal(none.documentCount, 0);
  t.same(plain(none.stats(['a'])), { totalWords: [], termCounts: [['a', []]] }, 'an index of no documents');
});

t.test('sizes are reported; a finished builder refuses more work', async (t) => {
  const b = new WordIndexBuilder();
  t.equal(b.add('one two two'), 3, 'add returns total_words');
  t.equal(b.add('Two THREE'), 2);
  const index = b.finish();
  t.equal(index.wordCount, 3, 'one, two, three');
  t.equal(index.postingCount, 4, 'one:d0, two:d0, two:d1, three:d1');
  t.ok(index.byteSize > 0 && index.byteSize < 16_384, `typed arrays only (${index.byteSize} bytes)`);
  t.throws(() => b.add('more'), /add after finish/);
  t.throws(() => b.finish(), /finish twice/);
});

t.test('two words with the same 32-bit hash stay two words; the table grows past its first size', async (t) => {
  t.equal(hashOf('w4pvu'), hashOf('wb3ea'), 'precondition: these two words collide');
  const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
  const contents = ['w4pvu w4pvu wb3ea', 'wb3ea', words.join(' '), words.slice(0, 100).reverse().join('\n')];
  const index = indexOf(contents);
  t.same(Array.from(index.counts('w4pvu')), [2, 0, 0, 0]);
  t.same(Array.from(index.counts('wb3ea')), [1, 1, 0, 0]);
  t.equal(index.wordCount, 5002, 'every distinct word once');
  const scan = scanOf(contents);
  const sample = words.filter((_, i) => i % 37 === 0).concat(['w4pvu', 'wb3ea', 'w0', 'wzzzz']);
  t.same(plain(index.stats(sample)), plain(scan.stats(sample)), 'sampled words: the scan\'s counts');
});

t.test('word-by-word lowercasing equals slices of the lowercased text (Final_Sigma stops at White_Space)', async (t) => {
  // Why keys are context-free: to_lowercase is per code point except Final_Sigma, whose
  // context skips Case_Ignorable characters and looks for a cased one. No White_Space code
  // point is cased or Case_Ignorable, so the context of a Σ never crosses White_Space, and
  // no code point lowercases to or from White_Space. Checked for every BMP code point on
  // either side of every White_Space character, and for astral cased letters.
  const white: string[] = [];
  for (let c = 0; c < 0x10000; c++) if (isWhiteSpace(c)) white.push(String.fromCharCode(c));
  t.equal(white.length, 25);
  const others: string[] = [];
  for (let c = 0; c < 0x10000; c++) if (!isWhiteSpace(c) && (c < 0xd800 || c > 0xdfff)) others.push(String.fromCharCode(c));
  others.push('\u{10400}', '\u{10428}', '\u{1E900}', '\u{1F600}', 'Α\u0301', '\u00ad');
  let failures = 0;
  for (const w of white) {
    for (const c of others) {
      const text = `${c}${w}ΑΣ${w}Σ${w}${c}`;
      const whole = lowercase(text);
      const pieces = `${lowercase(c)}${w}ας${w}σ${w}${lowercase(c)}`;
      if (whole !== pieces || countWords(whole) !== countWords(text)) failures++;
    }
  }
  t.equal(failures, 0, `${white.length * others.length} texts: lowercase(text) = the lowercase of each word, whitespace kept`);
  t.equal(lowercase('ΑΣ\ufeffΑ'), 'ασ\ufeffα', 'U+FEFF is Case_Ignorable inside a word: Σ is not final there');
  t.equal(lowercase('ΑΣ\u0085Α'), 'ας\u0085α', 'U+0085 is White_Space: Σ is final before it');
  const traps = 'ΟΔΟΣ\u0085ΟΔΟΣ ΑΣ\ufeffΑ İSTANBUL STRAẞE \u212a Σ ΑΣ\u3000Α';
  t.same(splitWords(lowercase(traps)), splitWords(traps).map(lowercase), 'the traps, split then lowercased = lowercased then split');
});

// Random documents: units drawn from the traps, ASCII, whitespace of every kind and any
// code point at all (fast-check 'binary': the full Unicode range, no lone surrogates).
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'B', 'ab', 'AB', 'Ab', 'x', '.', 'K', 'k') },
  { weight: 4, arbitrary: fc.constantFrom(' ', ' ', '\n', '\r\n', '\t', '\u0085', '\u00a0', '\u3000', '\u2028', '\u1680', '\u200a') },
  { weight: 3, arbitrary: fc.constantFrom('Σ', 'σ', 'ς', 'ΟΔΟΣ', 'οδος', 'Α', 'İ', 'i\u0307', 'ẞ', 'ß', '\u212a', '\ufeff', '\u0301', '\u00ad', '😀', 'é', 'É') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const text = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit, maxLength });

t.test('property: index counts = scan counts on random Unicode documents and queries', async (t) => {
  const result = fc.check(
    fc.property(
      fc.array(fc.oneof(text(40), fc.string({ unit: 'grapheme-ascii', maxLength: 40 })), { maxLength: 8 }),
      text(10),
      fc.nat(),
      (contents, query, pick) => {
        // Terms: the random query's, every third word of the documents as written (so most
        // terms match something), and one longer than any word.
        const words = contents.flatMap(splitWords);
        const fromDocs = words.filter((_, i) => (i + pick) % 3 === 0).join(' ');
        const longest = words.reduce((m, w) => Math.max(m, lowercase(w).length), 0);
        const terms = [...queryTerms(query), ...queryTerms(fromDocs), 'z'.repeat(longest + 1)];
        const sameCounts = JSON.stringify(plain(indexOf(contents).stats(terms))) === JSON.stringify(plain(scanOf(contents).stats(terms)));
        const [viaIndex, viaScan] = bothSelections(contents, `${query} ${fromDocs}`, pick % 200);
        return sameCounts && viaIndex === viaScan;
      },
    ),
    { numRuns: 500, seed: 9 },
  );
  t.equal(result.failed, false, result.failed ? `counterexample: ${JSON.stringify(result.counterexample)}` : '500 random cases agree');
  t.equal(result.numRuns, 500);
});
