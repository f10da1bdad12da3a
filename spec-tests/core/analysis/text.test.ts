// Checks the text rules of specs/core/context_selection.md "Relevance" as DESIGN.md pins
// them to the reference's Rust: full Unicode lowercase (to_lowercase) and split on Unicode
// White_Space (split_whitespace), duplicates kept, exact word equality.
import t from 'tap';
import {
  asciiWordMatcher,
  countAsciiMatches,
  countTermsLowered,
  countWords,
  isWhiteSpace,
  lowercase,
  WHITE_SPACE_UNITS,
  queryTerms,
  splitWords,
  tokensForBytes,
} from '../../../lib/core/analysis/text.js';

t.test('White_Space is Unicode White_Space, not JavaScript \\s', async (t) => {
  // DESIGN.md: "U+0085 is whitespace; U+FEFF is not — JS \s differs on both".
  t.ok(isWhiteSpace(0x85), 'U+0085 NEXT LINE splits');
  t.notOk(isWhiteSpace(0xfeff), 'U+FEFF ZERO WIDTH NO-BREAK SPACE does not split');
  t.ok(/\s/.test('\ufeff') && !/\s/.test('\u0085'), 'and JavaScript \\s disagrees on both');
  t.ok(isWhiteSpace(0x3000), 'U+3000 IDEOGRAPHIC SPACE splits');
  const all = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];
  for (let c = 0x2000; c <= 0x200a; c++) all.push(c);
  const found: number[] = [];
  for (let c = 0; c < 0x10000; c++) if (isWhiteSpace(c)) found.push(c);
  t.same(found, all.sort((a, b) => a - b), 'exactly the 25 White_Space code points');
  t.notOk(isWhiteSpace(0x1c), 'U+001C (Python isspace) is not White_Space');
  t.notOk(isWhiteSpace(0x200b), 'U+200B ZERO WIDTH SPACE is not White_Space');
  t.notOk(isWhiteSpace(0x180e), 'U+180E MONGOLIAN VOWEL SEPARATOR is not White_Space');
  let differ = 0;
  for (let c = 0; c < 0x10000; c++) if (WHITE_SPACE_UNITS[c] !== (isWhiteSpace(c) ? 1 : 0)) differ++;
  t.equal(differ, 0, 'the table of code units (hot loops read it) says what isWhiteSpace says, on each of the 65,536');
});

t.test('split_whitespace: runs of any White_Space, no empty words', async (t) => {
  t.same(splitWords('  a\u0085b\u3000\u3000c\ufeffd  '), ['a', 'b', 'c\ufeffd']);
  t.same(splitWords(''), []);
  t.same(splitWords(' \t\r\n '), []);
  t.same(splitWords('line one\r\nline two\r\n'), ['line', 'one', 'line', 'two'], 'CRLF is two whitespace characters');
  t.same(splitWords('a\u00a0b\u2028c'), ['a', 'b', 'c'], 'NBSP and LINE SEPARATOR split');
});

t.test('lowercase is Rust to_lowercase: full mappings and final sigma', async (t) => {
  t.equal(lowercase('İ'), 'i\u0307', 'U+0130 lowercases to two code points (SpecialCasing)');
  t.equal(lowercase('ß'), 'ß', 'ß has no lowercase change');
  t.equal(lowercase('ẞ'), 'ß', 'capital sharp s lowercases to ß');
  t.equal(lowercase('ΟΔΟΣ'), 'οδος', 'final sigma at the end of a word becomes ς');
  t.equal(lowercase('ΣΑ'), 'σα', 'a sigma not at a word end is σ');
  t.equal(lowercase('ΟΔΟΣ ΟΔΟΣ'), 'οδος οδος', 'final sigma before a space');
  t.equal(lowercase('\u212a'), 'k', 'KELVIN SIGN lowercases to ASCII k');
  t.equal(lowercase('DEPLOYMENT'), 'deployment');
});

t.test('query terms: lowercase then split; duplicates kept', async (t) => {
  // context_selection.md: query_terms := lowercase(split(query, whitespace)).
  t.same(queryTerms('Deployment  SECURITY deployment'), ['deployment', 'security', 'deployment']);
  t.same(queryTerms(''), [], 'an empty query has no terms');
  t.same(queryTerms(' \u0085 '), [], 'whitespace only has no terms');
  t.same(queryTerms('ΟΔΟΣ'), ['οδος']);
  t.same(queryTerms('İstanbul'), ['i\u0307stanbul']);
  t.same(queryTerms('a\ufeffb'), ['a\ufeffb'], 'U+FEFF stays inside a term');
});

t.test('countWords equals split_whitespace().count() on text and on its lowercase', async (t) => {
  for (const s of ['', 'a', ' a ', 'a b  c', 'İ İ', 'x\u0085y\u3000z', 'a\ufeffb', 'ΟΔΟΣ ΟΔΟΣ\r\n']) {
    t.equal(countWords(s), splitWords(s).length, JSON.stringify(s));
    t.equal(countWords(lowercase(s)), countWords(s), `lowercasing keeps the count of ${JSON.stringify(s)}`);
  }
});

t.test('whole-word matching: equal after lowercasing, no punctuation stripping', async (t) => {
  const counts = new Uint32Array(3);
  countTermsLowered(lowercase('Deployment deployment. deployments DEPLOYMENT'), ['deployment', 'deployment.', 'x'], counts);
  t.same([...counts], [2, 1, 0]);
  const m = asciiWordMatcher('deployment') as RegExp;
  t.equal(countAsciiMatches('Deployment deployment. deployments DEPLOYMENT', m), 2, 'the ASCII matcher agrees');
  t.equal(countAsciiMatches('deployment\tdeployment\x0bdeployment', m), 3, 'ASCII whitespace bounds words');
  t.equal(asciiWordMatcher('café'), null, 'a non-ASCII term never matches ASCII text');
  t.equal(countAsciiMatches('a.b a+b a.b', asciiWordMatcher('a.b') as RegExp), 2, 'regex characters are literal');
  t.equal(countAsciiMatches('(x) [x] (x)', asciiWordMatcher('(x)') as RegExp), 2);
});

t.test('tokens = ceil(UTF-8 bytes / 4)', async (t) => {
  // context_selection.md "Token Counting"; the reference counts bytes, not characters.
  t.equal(tokensForBytes(0), 0);
  t.equal(tokensForBytes(1), 1);
  t.equal(tokensForBytes(4), 1);
  t.equal(tokensForBytes(5), 2);
  t.equal(tokensForBytes(Buffer.byteLength('日本', 'utf8')), 2, '6 bytes, 2 tokens');
});
