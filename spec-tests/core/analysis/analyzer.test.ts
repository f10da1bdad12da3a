// Checks docs/engine.md "Terms: the analyzer" (steps 1-4, and 6: text read in character pairs) and issue 9 "Ranking made for docs
// and code" against lib/core/analysis/analyzer.ts: raw tokens, identifiers split with the
// whole identifier kept, Unicode letters/marks/digits, full-Unicode lowercase, Porter2 on
// ASCII words only, the 128-unit token limit, and a query's distinct byte-sorted terms.
// Every expectation is written out by hand from those rules.
import t from 'tap';
import { analyzeText, forEachRawToken, MAX_TOKEN_LENGTH, queryTermsV1, termsOfToken, TokenTerms } from '../../../lib/core/analysis/analyzer.js';

const rawTokens = (text: string): string[] => {
  const out: string[] = [];
  forEachRawToken(text, (raw) => out.push(raw));
  return out;
};

t.test('engine.md step 1: raw tokens are letter/mark/digit runs, joined by a single . _ or -', async (t) => {
  t.same(rawTokens('See repomix.config.json, snake_case and --map-tokens.'), ['See', 'repomix.config.json', 'snake_case', 'and', 'map-tokens']);
  t.same(rawTokens('a..b a.-b a__b a--b'), ['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b'], 'two joiners in a row separate');
  t.same(rawTokens('-x- .y. _z_'), ['x', 'y', 'z'], 'leading and trailing joiners are not part of a token');
  t.same(rawTokens('1.2.3 v2.0-rc1'), ['1.2.3', 'v2.0-rc1'], 'digits are runs too');
  t.same(rawTokens("don't (x) [y] {z} a/b a:b a+b a@b"), ['don', 't', 'x', 'y', 'z', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b'], 'any other character separates');
  t.same(rawTokens('  \t\n'), [], 'whitespace only: no token');
  t.same(rawTokens(''), []);
  const slice: string[] = [];
  forEachRawToken('alpha beta gamma', (r) => slice.push(r), 3, 9);
  t.same(slice, ['ha', 'bet'], '[3, 9) is "ha bet": a [start, end) slice is tokenized as if it were the whole text');
});

t.test('engine.md step 4: identifiers give the whole identifier (unstemmed) then each part (stemmed)', async (t) => {
  const cases: [string, string[]][] = [
    ['useState', ['usestate', 'use', 'state']],
    ['snake_case', ['snake_case', 'snake', 'case']],
    ['kebab-case', ['kebab-case', 'kebab', 'case']],
    ['repomix.config.json', ['repomix.config.json', 'repomix', 'config', 'json']],
    // Leading dashes make a code token as well ("Queries as people write them"): kept whole too.
    ['--map-tokens', ['--map-tokens', 'map-tokens', 'map', 'token']],
    ['HTTPServer', ['httpserver', 'http', 'server']],
    ['AZURE_OPENAI_API_KEY', ['azure_openai_api_key', 'azur', 'openai', 'api', 'key']],
    ['getHTTPResponseCode', ['gethttpresponsecode', 'get', 'http', 'respons', 'code']],
    ['parseJSON', ['parsejson', 'pars', 'json']],
    ['installingPackages', ['installingpackages', 'instal', 'packag']],
    ['x86_64', ['x86_64', 'x86', '64']],
    ['base64Encode', ['base64encode', 'base64', 'encod']],
    ['utf8ToString', ['utf8tostring', 'utf8', 'to', 'string']],
    ['v2.0-rc1', ['v2.0-rc1', 'v2', '0', 'rc1']],
    ['foo-foo', ['foo-foo', 'foo']],
  ];
  for (const [text, terms] of cases) t.same(analyzeText(text), terms, text);
  t.same(analyzeText('ABC'), ['abc'], 'all capitals: one hump, a plain word');
  t.same(analyzeText('Running'), ['run'], 'an initial capital is not a hump');
  t.same(analyzeText('a1b2'), ['a1b2'], 'digits between letters are no hump');
  t.same(termsOfToken('foo-foo'), ['foo-foo', 'foo'], 'terms of one token are distinct');
});

t.test('engine.md step 1 + 2: Unicode letters, marks and digits; full Unicode lowercase, locale-independent', async (t) => {
  t.same(analyzeText('naïve Café Ünïcödé'), ['naïve', 'café', 'ünïcödé'], 'accented words are one token each, lowercased, never stemmed');
  // A combining mark continues its token (\p{M}), it does not split it.
  t.same(analyzeText('cafe\u0301s'), ['caf\u00e9s'], 'a combining acute accent stays inside the token (and NFKC composes it)');
  t.same(analyzeText('x\u0302'), ['x\u0302'], 'a mark with no precomposed letter stays a combining mark');
  // NFKC first: the decomposed and precomposed forms are one term; compatibility forms too.
  t.same(analyzeText('cafe\u0301'), analyzeText('caf\u00e9'), 'NFD and NFC spellings are the same term (NFKC)');
  t.same(analyzeText('caf\u00e9'), ['caf\u00e9']);
  t.same(analyzeText('\ufb01le'), ['file'], 'the ﬁ ligature is fi, and the word is then ASCII and stemmed');
  t.same(analyzeText('\uff55\uff53\uff45\uff33\uff54\uff41\uff54\uff45'), ['usestate', 'use', 'state'], 'fullwidth useState is useState');
  // Case folding: lowercase, then ß -> ss and final ς -> σ.
  t.same(analyzeText('Straße'), ['strass'], 'ß folds to ss; the word is then ASCII and stemmed');
  t.same(analyzeText('\u1E9E'), ['ss'], 'capital sharp s lowercases to ß, which folds to ss');
  t.same(analyzeText('STRASSE'), analyzeText('straße'), 'STRASSE meets straße');
  // İ (U+0130) lowercases to i + U+0307 everywhere: no Turkish locale.
  t.same(analyzeText('\u0130'), ['i\u0307']);
  t.same(analyzeText('\u0130stanbul'), ['i\u0307stanbul'], 'İstanbul: i + combining dot above, not stemmed (not ASCII)');
  t.same(analyzeText('I'), ['i'], 'dotless uppercase I lowercases to ASCII i (no Turkish locale)');
  // The Kelvin sign (U+212A) is K under NFKC, so the word is then an ASCII word.
  t.same(analyzeText('\u212Aelvin'), ['kelvin']);
  t.same(analyzeText('\u212A'), ['k']);
  // Greek: final ς and medial σ fold to one letter, wherever the word ends.
  t.same(analyzeText('ΟΔΟΣ'), ['οδοσ']);
  t.same(analyzeText('ΟΔΟΣ'), analyzeText('οδος'), 'an upper-case query meets the lower-case text');
  t.same(analyzeText('ΣΟΦΙΑ'), ['σοφια'], 'σ inside a word');
  t.same(analyzeText('ΟΔΟΣ_ΚΑΙ'), ['οδοσ_και', 'οδοσ', 'και'], 'whole identifier and parts, sigma folded in each');
  t.same(rawTokens('日本語のテキスト。次'), ['日本語のテキスト', '次'], 'CJK: one raw token per run of letters (its terms: step 6)');
  t.same(analyzeText('中文 text'), ['中文', 'text']);
  t.same(analyzeText('١٢٣ ２０２６'), ['١٢٣', '2026'], 'non-ASCII digits are \\p{N}; fullwidth digits are ASCII digits under NFKC');
  t.same(analyzeText('hello😀world 🚀launch ✨'), ['hello', 'world', 'launch'], 'emoji separate tokens and give no term');
  t.same(analyzeText('ǅemal'), ['džemal'], 'a titlecase letter (Lt) is no camelCase hump (NFKC spells ǅ as Dž)');
  t.same(analyzeText('camelCaseÉté'), ['camelcaseété', 'camel', 'case', 'été'], 'humps at non-ASCII capitals too');
});

t.test('engine.md step 3: Porter2 (Snowball English) stems of ASCII words; other words are their own stem', async (t) => {
  // From the Snowball English stemmer's published vocabulary and its exceptional forms.
  const porter2: [string, string][] = [
    ['consign', 'consign'], ['consigned', 'consign'], ['consignment', 'consign'], ['consistency', 'consist'],
    ['consistently', 'consist'], ['consolation', 'consol'], ['consolatory', 'consolatori'], ['consolidating', 'consolid'],
    ['consolingly', 'consol'], ['conspicuous', 'conspicu'], ['conspiracy', 'conspiraci'], ['constable', 'constabl'],
    ['generate', 'generat'], ['generously', 'generous'], ['generic', 'generic'], ['communism', 'communism'],
    ['arsenal', 'arsenal'], ['caresses', 'caress'], ['ponies', 'poni'], ['happily', 'happili'],
    ['skies', 'sky'], ['dying', 'die'], ['lying', 'lie'], ['idly', 'idl'], ['gently', 'gentl'], ['ugly', 'ugli'],
    ['early', 'earli'], ['only', 'onli'], ['singly', 'singl'], ['news', 'news'], ['atlas', 'atlas'], ['bias', 'bias'],
    ['inning', 'inning'], ['outing', 'outing'], ['herring', 'herring'], ['proceed', 'proceed'], ['succeed', 'succeed'],
    ['installing', 'instal'], ['configuration', 'configur'], ['tokens', 'token'], ['running', 'run'],
  ];
  for (const [word, stem] of porter2) t.same(analyzeText(word), [stem], `${word} -> ${stem}`);
  t.same(analyzeText('Configuration CONFIGURATION'), ['configur', 'configur'], 'lowercased first, then stemmed');
  t.same(analyzeText('utf8 v2 2026'), ['utf8', 'v2', '2026'], 'a word with digits is not stemmed');
  t.same(analyzeText('généralement'), ['généralement'], 'a non-ASCII word is not stemmed');
  t.same(analyzeText('running runs ran'), ['run', 'run', 'ran'], 'with repeats, in text order');
});

t.test('engine.md step 1: tokens longer than 128 UTF-16 units give no term', async (t) => {
  t.equal(MAX_TOKEN_LENGTH, 128);
  const hex128 = '0123456789abcdef'.repeat(8);
  t.same(analyzeText(hex128), [hex128], '128 units: kept');
  t.same(analyzeText(hex128 + 'f'), [], '129 units: no term');
  t.same(analyzeText(`before ${hex128}0 after`), ['befor', 'after'], 'the long token is dropped, its neighbours are not');
  const longIdentifier = Array.from({ length: 30 }, () => 'part').join('-'); // 149 units
  t.same(analyzeText(longIdentifier), [], 'a long identifier gives neither its whole nor its parts');
  // Astral letters count two UTF-16 units each: 64 of them are 128 units, 65 are 130.
  const script = '\u{10428}'; // DESERET SMALL LETTER LONG I, a letter (Ll) outside the BMP, NFKC-stable
  t.same(analyzeText(script.repeat(64)), [script.repeat(64)]);
  t.same(analyzeText(script.repeat(65)), [], 'the limit counts UTF-16 units, not code points');
  const base64 = 'QUJD'.repeat(40); // 160 units of base64
  t.same(analyzeText(`data:${base64}`), ['data'], 'base64 blobs give no term');
});

t.test('engine.md "Query terms are distinct": queryTermsV1 is distinct and sorted by UTF-8 bytes', async (t) => {
  const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  const query = 'zeta Alpha alpha ZETA é \uFE20 \u{10428} useState state';
  const terms = queryTermsV1(query);
  const expected = [...new Set(['zeta', 'alpha', 'alpha', 'zeta', 'é', '\uFE20', '\u{10428}', 'usestate', 'use', 'state', 'state'])].sort(byBytes);
  t.same(terms, expected);
  // U+FE20 (EF B8 A0; a combining mark, a token of its own) sorts before U+10428 (F0 90 90 A8)
  // in UTF-8, after it in UTF-16 (FE20 > D801).
  t.ok(terms.indexOf('\uFE20') < terms.indexOf('\u{10428}'), 'UTF-8 byte order, not UTF-16 order');
  t.same(queryTermsV1(''), [], 'empty query: no terms');
  t.same(queryTermsV1('  😀 ... '), [], 'no token: no terms');
  t.same(queryTermsV1('Installing install INSTALL'), ['instal'], 'one term however often it appears');
});

t.test('TokenTerms memo: a bounded memo never changes a result', async (t) => {
  const memo = new TokenTerms(2);
  const tokens = ['useState', 'snake_case', 'Running', 'useState', 'HTTPServer', 'snake_case'];
  for (const raw of tokens) t.same(memo.of(raw), termsOfToken(raw), raw);
});

t.test('engine.md step 6: runs of Han, Hiragana, Katakana and Hangul give overlapping character pairs', async (t) => {
  t.same(analyzeText('代理服务器'), ['代理', '理服', '服务', '务器'], 'Chinese: each pair of neighbours, as Lucene\'s CJKBigramFilter');
  t.same(analyzeText('日本語のテキスト'), ['日本', '本語', '語の', 'のテ', 'テキ', 'キス', 'スト'], 'Japanese: kanji, kana and the pairs across them');
  t.same(analyzeText('サーバー'), ['サー', 'ーバ', 'バー'], 'the prolonged sound mark ー goes with kana (Script_Extensions)');
  t.same(analyzeText('프록시 시간'), ['프록', '록시', '시간'], 'Hangul too, word by word as spaces cut it');
  t.same(analyzeText('日'), ['日'], 'a run of one character is its own term');
  t.same(analyzeText('时时刻刻'), ['时时', '时刻', '刻刻'], 'a pair met twice in a token is one term of it');
  t.same(analyzeText('ｶﾀｶﾅ'), ['カタ', 'タカ', 'カナ'], 'halfwidth katakana: NFKC first');
  t.same(analyzeText('𠀀𠀁𠀂'), ['𠀀𠀁', '𠀁𠀂'], 'characters outside the BMP are characters, not UTF-16 units');
  t.same(analyzeText('か\u3099き'), ['がき'], 'a combining mark stays with its character (NFKC composes か + ゛)');
});

t.test('engine.md step 6: the other runs of such a token give their own terms; the token whole gives none', async (t) => {
  t.same(analyzeText('Vue组件'), ['vue', '组件'], 'Latin then Han: the word, then the pair');
  t.same(analyzeText('v2版本'), ['v2', '版本']);
  t.same(analyzeText('组件.名称'), ['组件', '名称'], 'a joiner between two runs separates them, giving no term');
  t.same(analyzeText('useState钩子'), ['usestate', 'use', 'state', '钩子'], 'an identifier run keeps its whole and its parts');
  t.same(analyzeText('installing安装'), ['instal', '安装'], 'an English run is stemmed as alone');
  t.same(termsOfToken('組'.repeat(MAX_TOKEN_LENGTH + 1)), [], 'the token limit holds as for any token');
});

t.test('engine.md step 6: a query written without spaces meets the text it asks about', async (t) => {
  const text = new Set(analyzeText('要设置代理服务器的超时时间，请在配置文件中修改。'));
  const asked = queryTermsV1('如何配置代理服务器超时');
  const shared = asked.filter((q) => text.has(q));
  t.same(shared, ['代理', '务器', '服务', '理服', '置代', '超时', '配置'].sort(), 'the pairs the question and the text share (设置代理 holds 置代 too)');
  t.ok(shared.length >= asked.length / 2, `${shared.length} of the question's ${asked.length} pairs are in the text`);
});
