// Checks lib/core/tokens/count.ts (a build option recorded in the cache: "bytes4 is v0's rule
// (ceil(UTF-8 bytes / 4)); o200k_base and cl100k_base are OpenAI's encodings, counted exactly
// by gpt-tokenizer ... Special-token text such as "<|endoftext|>" counts as ordinary text").
import t from 'tap';
import { runs, share } from '../../sizes.js';
import { isTokenizerName, loadTokenCounter, TOKENIZERS } from '../../../lib/core/tokens/count.js';

t.test('count.ts: bytes4 is v0\'s ceil(UTF-8 bytes / 4)', async (t) => {
  const count = await loadTokenCounter('bytes4');
  for (const [text, bytes] of [['', 0], ['a', 1], ['abcd', 4], ['abcde', 5], ['é', 2], ['日本語', 9], ['😀', 4], ['😀x', 5]] as const) {
    t.equal(count(text), Math.ceil(bytes / 4), `${JSON.stringify(text)}: ${bytes} bytes`);
  }
});

t.test('count.ts: o200k_base and cl100k_base count BPE tokens; special-token text is ordinary text', async (t) => {
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const count = await loadTokenCounter(name);
    t.equal(count(''), 0, `${name}: empty text is 0 tokens`);
    t.equal(count('hello world'), 2, `${name}: "hello" + " world"`);
    t.equal(count('Hello, world!'), 4, `${name}: "Hello" "," " world" "!"`);
    t.ok(count('<|endoftext|>') > 1, `${name}: <|endoftext|> is several ordinary tokens, not one control token`);
  }
  t.not((await loadTokenCounter('o200k_base'))('naïve café 日本語'), (await loadTokenCounter('cl100k_base'))('naïve café 日本語'), 'two different encodings');
});

t.test('count.ts: the tokenizer names', async (t) => {
  t.same(TOKENIZERS, ['bytes4', 'o200k_base', 'cl100k_base']);
  t.equal(isTokenizerName('o200k_base'), true);
  t.equal(isTokenizerName('gpt2'), false);
  t.equal(isTokenizerName('BYTES4'), false, 'exact spelling');
});

// "Exact tokens for a fraction of the cost" (Builds at native speed on real text, What to
// build item 4): the memo in front of the package must give the package's count for every
// text — pieces cut by the encoding's own pattern, each counted as the package counts it.
// Checked against gpt-tokenizer's countTokens on every page of both relevance dev sets (whole,
// and cut at arbitrary points, so pieces meet text edges), and on random text rich in what the
// split pattern cares about (whitespace runs before words, newlines, contractions, digits,
// punctuation runs, non-Latin letters, marks, emoji, lone surrogates, special-token text).
// Both ways to the ranks are checked: the build's rank files (what tokenCounter uses in a
// built checkout) and the package's own tables (its fallback).
t.test('count.ts: the piece memo counts exactly what gpt-tokenizer counts (dev-set pages and random text)', async (t) => {
  const { createRequire } = await import('node:module');
  const { devPages } = await import('./dev-pages.js');
  const fc = (await import('fast-check')).default;
  const { counterSource, memoCounter, PIECE_MEMO_LIMIT, tokenCounter } = await import('../../../lib/core/tokens/count.js');
  const require = createRequire(import.meta.url);
  const ORDINARY = { disallowedSpecial: new Set<string>() };
  const pages = devPages();
  t.ok(pages.length > 300, `${pages.length} pages`);
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const encoding = require(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens(text: string, o: object): number };
    for (const [ranks, count] of [['the package\'s tables', memoCounter(encoding as never)], ['the rank file', tokenCounter(name)]] as const) {
      if (ranks === 'the rank file') t.equal(counterSource(name), 'table', `${name}: tokenCounter counts from the rank file`);
      let wrong = 0;
      let total = 0;
      for (const page of share(pages)) {
        const want = page === '' ? 0 : encoding.countTokens(page, ORDINARY);
        total += want;
        if (count(page) !== want) wrong++;
        // Slices at arbitrary points (a prime stride), each counted alone.
        for (let i = 0; i < page.length; i += 997) {
          const slice = page.slice(i, i + 1500);
          if (count(slice) !== encoding.countTokens(slice, ORDINARY)) wrong++;
        }
      }
      t.equal(wrong, 0, `${name}, ${ranks}: every page and slice counted as the package counts it (${total} tokens in the pages)`);
      const unit = fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', 'a', 'Z', 'word', "'s", "'LL", '1', '12345', '.', '...', '!?', '/', 'é', '\u0301', '日本', 'Ωμέγα', '😀', '\ud800', '<|endoftext|>', 'x\u00a0y');
      fc.assert(
        fc.property(fc.array(unit, { maxLength: 40 }).map((u) => u.join('')), (text) => count(text) === (text === '' ? 0 : encoding.countTokens(text, ORDINARY))),
        { numRuns: runs(2000), seed: 24 },
      );
      t.pass(`${name}, ${ranks}: ${runs(2000)} random texts counted alike`);
    }
  }
  // The memo starts over when full: the counts stay the same.
  const encoding = require('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens(text: string, o: object): number };
  const count = memoCounter(encoding as never);
  const words = Array.from({ length: PIECE_MEMO_LIMIT + 10 }, (_, i) => ` w${i.toString(36)}`).join('');
  t.equal(count(words), encoding.countTokens(words, ORDINARY), 'more distinct pieces than the memo holds');
  t.equal(count(words.slice(0, 1000)), encoding.countTokens(words.slice(0, 1000), ORDINARY), 'and counted again after it started over');
  // Without the package's core (another version): its countTokens, unchanged.
  const plain = memoCounter({ countTokens: (text: string) => text.length * 10 } as never);
  t.equal(plain('abc'), 30, 'falls back to countTokens');
  t.equal(plain(''), 0);
});

// count.ts, o200k_base's `words`: "once such a piece was seen to be exactly the token (with
// its space), it is wherever the token stands again without an apostrophe after it, and costs
// the same". Given the raw tokens the term counter lists (WordSpans), the count must be the
// package's for every dev-set page and slice of one (counted twice: the second time from the
// costs the first one learnt), and for random text crowded with what decides a word's piece:
// a space or line break or punctuation before it, an apostrophe or contraction after it
// ('s 'S 'll), digits inside it, camelCase, letters outside ASCII, marks, and words over the
// 128-unit limit (never listed).
t.test('count.ts: o200k_base stepping over words counts exactly what gpt-tokenizer counts', async (t) => {
  const { createRequire } = await import('node:module');
  const { devPages } = await import('./dev-pages.js');
  const fc = (await import('fast-check')).default;
  const { TermCounter, WordSpans } = await import('../../../lib/core/analysis/term-counter.js');
  const { tokenCounter } = await import('../../../lib/core/tokens/count.js');
  const require = createRequire(import.meta.url);
  const encoding = require('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens(text: string, o: object): number };
  const ORDINARY = { disallowedSpecial: new Set<string>() };
  const want = (text: string): number => (text === '' ? 0 : encoding.countTokens(text, ORDINARY));
  const count = tokenCounter('o200k_base');
  const stepper = count.words;
  if (stepper === undefined) throw new Error('o200k_base has no words counter');
  t.equal(tokenCounter('cl100k_base').words, undefined, 'cl100k_base (another split pattern) has none');
  const spans = new WordSpans();
  /** text[start, end) counted by stepping over the raw tokens the term counter lists there. */
  const stepped = (text: string, start: number, end: number): number => {
    const counter = new TermCounter();
    counter.count(text, 0, start, end, spans);
    counter.finishUnit();
    return stepper(text.slice(start, end), start, spans);
  };
  let wrong = 0;
  let steps = 0;
  for (const round of [1, 2]) {
    for (const page of share(devPages())) {
      if (stepped(page, 0, page.length) !== want(page)) wrong++;
      steps += spans.count;
      for (let i = 0; i < page.length; i += 997) {
        const end = Math.min(page.length, i + 1500);
        if (stepped(page, i, end) !== want(page.slice(i, end))) wrong++;
      }
    }
    t.equal(wrong, 0, `round ${round}: every dev-set page and slice counted as the package counts it`);
  }
  t.ok(steps > 100_000, `${steps} words listed over the pages`);
  const unit = fc.constantFrom(' ', '  ', '\n', '\t', '(', '**', '`', '"', "'", "'s", "'S", "'ll", "'t", 'a', 'word', 'Word', 'WORD', 'wordy', 'useState', 'HTTPServer', 'abc123', '123abc', '1', '.', '_', '-', 'snake_case', 'é', 'café', 'Éa', '\u0301', '日本', 'Ωμέγα', '😀', 'x'.repeat(130), ' ' + 'y'.repeat(127));
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 40 }).map((u) => u.join('')), fc.nat(), fc.nat(), (text, a, b) => {
      const start = text.length === 0 ? 0 : a % (text.length + 1);
      const end = start + (text.length === 0 ? 0 : b % (text.length - start + 1));
      const expected = want(text.slice(start, end));
      return stepped(text, start, end) === expected && stepped(text, start, end) === expected;
    }),
    { numRuns: runs(5000), seed: 2430 },
  );
  t.pass(`${runs(5000)} random texts and slices, each counted twice, as the package counts them`);
  // It does step: a word's cost, once learnt, is added without looking at the word (which is
  // why the spans must be the text's own raw tokens, one number per distinct token).
  const hello = ' hello';
  t.equal(stepped(hello, 0, hello.length), 1, '" hello" is one token, learnt');
  const raw = spans.raws[0] as number;
  const lying = { count: 1, starts: Int32Array.of(1), ends: Int32Array.of(16), raws: Int32Array.of(raw), maxRaw: raw, source: spans.source };
  const long = ' pneumonoultramicroscopic';
  t.ok(want(long.slice(0, 16)) > 1, 'the text it is handed costs more than one token');
  t.equal(stepper(long.slice(0, 16), 0, lying), 1, 'told it is " hello" again, it adds what " hello" costs');
});

// "The split patterns are the engine's own copies (O200K_PATTERN, CL100K_PATTERN, each tested
// equal to the package's), so a counting process never loads the package" (docs/engine.md,
// "Ranks that load in milliseconds").
t.test('count.ts: the split patterns are the ones gpt-tokenizer holds', async (t) => {
  const { createRequire } = await import('node:module');
  const { SPLIT_PATTERNS } = await import('../../../lib/core/tokens/count.js');
  const require = createRequire(import.meta.url);
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const regex = (require(`gpt-tokenizer/cjs/encoding/${name}`) as { default: { bytePairEncodingCoreProcessor: { tokenSplitRegex: RegExp } } }).default.bytePairEncodingCoreProcessor.tokenSplitRegex;
    t.equal(SPLIT_PATTERNS[name], regex.source, `${name}: the same source`);
    t.equal(regex.flags, 'gu', `${name}: flags gu (the counter runs it with u, sticky)`);
  }
});

// count.ts stretchCounter: "each text is cut where a piece of either exact encoding always
// ends ... an ASCII digit after an ASCII letter or punctuation mark ... the stretches'
// counts sum to the text's count". Against the package's countTokens, on random texts
// crowded with digits next to everything a piece can hold (whitespace runs, contractions,
// slashes, marks, digits outside ASCII), on dev-set pages, and on JSON made of them (what
// answers are), each text counted twice by one counter (the second time from its memo).
t.test('count.ts: stretchCounter counts exactly what gpt-tokenizer counts', async (t) => {
  const { createRequire } = await import('node:module');
  const { devPages } = await import('./dev-pages.js');
  const fc = (await import('fast-check')).default;
  const { stretchCounter } = await import('../../../lib/core/tokens/count.js');
  const require = createRequire(import.meta.url);
  const ORDINARY = { disallowedSpecial: new Set<string>() };
  const pages = devPages().slice(0, 120);
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const encoding = require(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens(text: string, o: object): number };
    const want = (text: string): number => (text === '' ? 0 : encoding.countTokens(text, ORDINARY));
    const count = stretchCounter(name);
    const unit = fc.constantFrom('0', '7', '42', '1234', ' ', '  ', '\n', '\r\n', '\t', '\u000b', '\u00a0', 'a', 'Z', 'word', "'s", "'", "'LL", '.', '":', '/', '\\n', '-', '_', 'é', '\u0301', '٣', '²', '日本', '😀', '\ud800', 'x\u00a0y');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 50 }).map((u) => u.join('')), (text) => count(text) === want(text) && count(text) === want(text)),
      { numRuns: runs(4000), seed: 1126 },
    );
    t.pass(`${name}: ${runs(4000)} random texts, each counted alike twice`);
    let wrong = 0;
    for (const page of pages) {
      if (count(page) !== want(page)) wrong++;
      const json = JSON.stringify({ id: 'a.md#x', version: 'sha256:0a1b2c', content: page, score: 12.5, tokens: 301 });
      if (count(json) !== want(json)) wrong++;
    }
    t.equal(wrong, 0, `${name}: ${pages.length} dev-set pages, and each as a JSON entry, counted alike`);
  }
  t.equal(stretchCounter('bytes4')('abc1def2'), 2, 'bytes4: ceil(8 / 4), never summed over stretches');
});

// count.ts StretchCounter.outside: "a lower bound of the count of any text that is `text`
// with text[from .. to) replaced by other characters ... never more than the whole text's
// count, whatever stands in between". Random texts, regions and replacements (the regions'
// edges next to digits, whitespace and letters), against the package's count; and a JSON
// entry with its content left empty bounds the entry with any content.
t.test('count.ts: StretchCounter.outside bounds every text with that region replaced', async (t) => {
  const { createRequire } = await import('node:module');
  const fc = (await import('fast-check')).default;
  const { stretchCounter } = await import('../../../lib/core/tokens/count.js');
  const require = createRequire(import.meta.url);
  const ORDINARY = { disallowedSpecial: new Set<string>() };
  const unit = fc.constantFrom('0', '42', ' ', '  ', '\n', 'a', 'word', "'s", '.', '":', '/', '\\n', 'é', '日本', '\u00a0');
  const text = fc.array(unit, { maxLength: 30 }).map((u) => u.join(''));
  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    const encoding = require(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens(text: string, o: object): number };
    const want = (s: string): number => (s === '' ? 0 : encoding.countTokens(s, ORDINARY));
    const count = stretchCounter(name);
    let tight = 0;
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), text, (s, a, b, middle) => {
        const from = s.length === 0 ? 0 : a % (s.length + 1);
        const to = from + (s.length - from === 0 ? 0 : b % (s.length - from + 1));
        const bound = count.outside(s, from, to);
        if (bound > 0 && bound === want(s.slice(0, from) + middle + s.slice(to))) tight++;
        return bound <= want(s.slice(0, from) + middle + s.slice(to)) && bound <= want(s) && count.outside(s, 0, 0) === want(s);
      }),
      { numRuns: runs(3000), seed: 26 },
    );
    t.ok(tight > Math.floor(runs(3000) / 150), `${name}: ${runs(3000)} random cases bounded (${tight} of them exactly: the bound is not trivially 0)`);
    const entry = (content: string): string => JSON.stringify({ id: 'a.md#x', version: 'sha256:9f86d08', content, score: 12.5, tokens: 301, why: { terms: ['deploy'] } }) + ',';
    const empty = entry('');
    const at = empty.indexOf('"content":""') + '"content":"'.length;
    const bound = count.outside(empty, at, at);
    t.ok(bound > 10, `${name}: the entry around its content: ${bound} tokens`);
    for (const content of ['', 'x', '12 rollback steps', '"quoted"\n\n# Heading 2\n', 'é'.repeat(50)]) {
      t.ok(bound <= want(entry(content)), `${name}: bounds the entry holding ${JSON.stringify(content.slice(0, 20))}`);
    }
  }
});
