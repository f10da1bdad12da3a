// Checks lib/core/analysis/term-counter.ts against its own promise ("Text is scanned by a
// char-code loop that finds exactly the raw tokens the analyzer's Unicode regex finds") and
// against docs/engine.md "Terms: the analyzer" through analyzeText: the counts a build writes
// into the index are the analyzer's terms, whichever path counted them. fast-check properties
// over random text, plus the interner's growth past its initial tables.
import t from 'tap';
import fc from 'fast-check';
import { runs } from '../../sizes.js';
import { analyzeText } from '../../../lib/core/analysis/analyzer.js';
import { FIELD_COUNT, FIELDS, TermCounter, Vocabulary, WordSpans, type UnitTerms } from '../../../lib/core/analysis/term-counter.js';

/** term -> frequency per field, from one finished unit. */
function countsOf(counter: TermCounter, unit: UnitTerms): Map<string, number[]> {
  const out = new Map<string, number[]>();
  unit.termIds.forEach((id, k) => {
    out.set(counter.terms[id] as string, Array.from(unit.tfs.subarray(k * FIELD_COUNT, (k + 1) * FIELD_COUNT)));
  });
  return out;
}

/** The analyzer's terms of `text` as field-0 counts. */
function expectedCounts(text: string, field = 0): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const term of analyzeText(text)) {
    const tfs = out.get(term) ?? new Array<number>(FIELD_COUNT).fill(0);
    tfs[field] = (tfs[field] as number) + 1;
    out.set(term, tfs);
  }
  return out;
}

const sorted = (m: Map<string, number[]>): [string, number[]][] => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

// ASCII text rich in what the tokenizer cares about: letters of both cases, digits, the three
// joiners (also doubled and at edges), whitespace and other punctuation.
const asciiUnit = fc.constantFrom(...'aAbBzZeEsSiIyY019_-.  \t\n,;:/@#()[]`\'"!?*+=~'.split(''));
const asciiWord = fc.oneof(
  fc.string({ unit: asciiUnit, maxLength: 12 }),
  fc.constantFrom('useState', 'HTTPServer', 'snake_case', '--map-tokens', 'repomix.config.json', 'installing', 'a.b-c_d', 'x86_64', 'ABCdef'),
  fc.string({ unit: fc.constantFrom('a', 'b', '0', '-'), minLength: 120, maxLength: 140 }), // around the 128-unit limit
);
const asciiText = fc.array(asciiWord, { maxLength: 30 }).map((words) => words.join(' '));

// Text where the scan's non-ASCII branch matters: accented and non-Latin letters, astral
// letters (𝒜, a surrogate pair), combining marks, non-ASCII digits, emoji (no letter), lone
// surrogates, fullwidth letters, and the three joiners next to all of them; and the scripts
// read in character pairs (analyzer.ts: Han, kana with its prolonged sound mark, halfwidth
// kana, Hangul, an astral ideograph, a kana voicing mark).
const wideUnit = fc.constantFrom(
  ...'aZ09_-. ,é日本ßΣς\u0301٣ｕ😀'.split(''), '𝒜', '\ud800', '\udc00', '\u00a0', 'ﬁ', '-é', 'é-', '._', '😀a', 'a😀',
  'カ', 'ー', 'ｶ', '한', '𠀀', '\u3099', '。', 'A组',
);
const wideText = fc.array(fc.oneof(asciiWord, fc.string({ unit: wideUnit, maxLength: 12 })), { maxLength: 30 }).map((w) => w.join(' '));

/** A slice [start, end) of `text` picked by two random naturals (empty text: [0, 0)). */
function sliceOf(text: string, a: number, b: number): [number, number] {
  const start = text.length === 0 ? 0 : a % (text.length + 1);
  return [start, start + (text.length === 0 ? 0 : b % (text.length - start + 1))];
}

t.test('term-counter.ts: the char-code scan counts exactly the analyzer\'s terms of any slice (ASCII and not)', async (t) => {
  let checked = 0;
  fc.assert(
    fc.property(fc.oneof(asciiText, wideText), fc.nat(), fc.nat(), (text, a, b) => {
      checked++;
      const [start, end] = sliceOf(text, a, b);
      const counter = new TermCounter();
      counter.count(text, 0, start, end);
      const unit = counter.finishUnit();
      const slice = text.slice(start, end);
      return JSON.stringify(sorted(countsOf(counter, unit))) === JSON.stringify(sorted(expectedCounts(slice))) && unit.lengths[0] === analyzeText(slice).length;
    }),
    { numRuns: runs(3000) },
  );
  t.equal(checked >= runs(3000), true, `${checked} random texts and slices: same terms, same frequencies, same field length`);
});

t.test('engine.md "Terms": TermCounter counts analyzeText\'s terms (ASCII and Unicode text)', async (t) => {
  const unicodeText = fc.array(
    fc.oneof(fc.string({ unit: 'grapheme', maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 10 }), asciiWord),
    { maxLength: 20 },
  ).map((w) => w.join(' '));
  fc.assert(
    fc.property(fc.oneof(asciiText, unicodeText), fc.constantFrom(0, 1, 2, 3), (text, field) => {
      const counter = new TermCounter();
      counter.count(text, field, 0, text.length);
      const unit = counter.finishUnit();
      const want = expectedCounts(text, field);
      const lengthOk = unit.lengths.every((n, f) => n === (f === field ? analyzeText(text).length : 0));
      return JSON.stringify(sorted(countsOf(counter, unit))) === JSON.stringify(sorted(want)) && lengthOk;
    }),
    { numRuns: runs(1000) },
  );
  t.pass('1000 random texts: per-term frequencies and the field length equal the analyzer\'s');
});

t.test('units are independent; terms counted into each field separately; termIdsOf = analyzeText', async (t) => {
  const counter = new TermCounter();
  counter.count('useState useState', 0);
  counter.count('State of things', 1);
  counter.countTerms(counter.termIdsOf('guide/Install-Docker'), 3);
  const first = countsOf(counter, counter.finishUnit());
  t.same(first.get('usestate'), [2, 0, 0, 0], 'whole identifier in body, twice');
  t.same(first.get('state'), [2, 1, 0, 0], 'a part in body (twice) and a heading word (once)');
  t.same(first.get('install-dock'), undefined, 'the whole identifier is not stemmed');
  t.same(first.get('install-docker'), [0, 0, 0, 1]);
  t.same(first.get('docker'), [0, 0, 0, 1]);
  t.same(first.get('guid'), [0, 0, 0, 1]);
  counter.count('plain', 2);
  const second = counter.finishUnit();
  t.same(sorted(countsOf(counter, second)), [['plain', [0, 0, 1, 0]]], 'the next unit starts from nothing');
  t.same(second.lengths, [0, 0, 1, 0]);
  t.same(counter.termIdsOf('useState plain').map((id) => counter.terms[id]), analyzeText('useState plain'));
  t.same(FIELDS, ['body', 'headings', 'title', 'path'], 'the fixed field order of the index');
});

t.test('the interner grows past its first tables without losing a token', async (t) => {
  // 20,000 distinct raw tokens (initial tables hold 2,048) and a pool over 64 Ki units.
  const words = Array.from({ length: 20000 }, (_, i) => `w${i.toString(36)}x${'q'.repeat(i % 7)}`);
  const text = words.join(' ') + ' ' + words.slice(0, 500).join(' ');
  const counter = new TermCounter();
  counter.count(text, 0, 0, text.length);
  const unit = counter.finishUnit();
  const counts = countsOf(counter, unit);
  t.equal(counts.size, new Set(analyzeText(text)).size);
  t.same(sorted(counts), sorted(expectedCounts(text)), 'every term counted exactly');
  // The same tokens again, and through termIdsOf (the regex path), hit the interned entries.
  counter.count(text, 0, 0, text.length);
  t.same(counter.termIdsOf(words.slice(0, 50).join(' ')).map((id) => counter.terms[id]), analyzeText(words.slice(0, 50).join(' ')));
  t.same(sorted(countsOf(counter, counter.finishUnit())), sorted(expectedCounts(text)));
});

t.test('code tokens ("Queries as people write them"): the char-code chunk scan counts exactly analyzeText\'s code terms', async (t) => {
  // An alphabet dense in code characters and their edge cases: every code character, joiners,
  // brackets, non-ASCII letters and marks, an astral letter, a lone surrogate, separators.
  const unit = fc.constantFrom(...['a', 'B', '0', 'é', '\u0301', '\u{10428}', '\uD800', '—', ...'._-:<>()?!&#@$+ ,/`"=*[]{}']);
  const codeWord = fc.oneof(
    fc.string({ unit, maxLength: 10 }),
    fc.constantFrom('Rc<T>', '--fix-dry-run', 'client:load', 'foo()', 'foo(a,', '(see', 'this)', 'key:', 'works?', '?', '??', '?.', 'a_', 'a._', '(a)', 'a-)', '__init__', 'Vec<Vec<u8>>', 'x'.repeat(130) + ':'),
  );
  fc.assert(
    fc.property(fc.array(codeWord, { maxLength: 20 }), fc.constantFrom(' ', '', '\n'), (words, sep) => {
      const text = words.join(sep);
      const counter = new TermCounter();
      counter.count(text, 0, 0, text.length);
      const unit = counter.finishUnit();
      return JSON.stringify(sorted(countsOf(counter, unit))) === JSON.stringify(sorted(expectedCounts(text))) && unit.lengths[0] === analyzeText(text).length;
    }),
    { numRuns: runs(3000) },
  );
  t.pass('3000 random code-dense texts: the same terms and field length as the analyzer');
});

// "the raw-token interner and each raw token's analysis are the thread's (`Vocabulary`:
// analysed once per thread, its terms numbered thread-wide), and a counter maps the thread's
// term numbers to its own ids": counters that share the thread's vocabulary (the properties
// above run thousands of them in a row) count the analyzer's terms, each with its own ids,
// also when two are used at once.
t.test('term-counter.ts: counters sharing the thread\'s vocabulary each count the analyzer\'s terms', async (t) => {
  const { Vocabulary } = await import('../../../lib/core/analysis/term-counter.js');
  const { termsOfToken, codeTermsOf } = await import('../../../lib/core/analysis/analyzer.js');
  const vocabulary = new Vocabulary();
  for (const raw of ['Installing', 'HTTPServer', 'snake_case', 'x86_64', 'naïve', 'Installing']) {
    const scratch = Uint16Array.from(raw, (c) => c.charCodeAt(0));
    let h = 0x811c9dc5 | 0;
    for (const c of scratch) h = Math.imul(h ^ c, 16777619);
    // lookup: the one term number, or ~the raw number (its terms in rawTerms) when not one.
    const what = vocabulary.lookup(scratch, raw.length, h, raw, 0);
    const numbers = what >= 0 ? [what] : (vocabulary.rawTerms[~what] as number[]);
    t.same(numbers.map((n) => vocabulary.terms[n]), termsOfToken(raw), `${raw}: the analyzer's terms`);
    t.equal(what >= 0, termsOfToken(raw).length === 1, `${raw}: a term number when it has one term`);
  }
  t.equal(vocabulary.size, 5, 'a raw token seen twice is one entry');
  for (const chunk of ['foo()', 'import.meta.glob', 'Rc<T>', '?', '--fix-dry-run']) {
    const numbers = vocabulary.chunkTerms(chunk, 0, chunk.length);
    t.same(numbers.map((n) => vocabulary.terms[n]), codeTermsOf(chunk), `${chunk}: the analyzer's code terms`);
    const inside = `say ${chunk} twice`;
    t.equal(vocabulary.chunkTerms(inside, 4, 4 + chunk.length), numbers, `${chunk}: found again inside another text, not analyzed again`);
  }
  // Two chunks of one length with the same 32-bit FNV-1a hash: told apart by their characters.
  const [colliding, twin] = ['gqzsyvluvo()', 'oqrtzmsqwh()'].map((c) => vocabulary.chunkTerms(c, 0, c.length));
  t.same(colliding?.map((n) => vocabulary.terms[n]), codeTermsOf('gqzsyvluvo()'));
  t.same(twin?.map((n) => vocabulary.terms[n]), codeTermsOf('oqrtzmsqwh()'), 'a colliding hash is not the same chunk');
  // A vocabulary that forgets its chunks every 3: each chunk still gets its own terms.
  const forgetful = new Vocabulary(3);
  const chunks = Array.from({ length: 40 }, (_, i) => [`f${i % 7}()`, `a.b${i % 5}.c`, `x<${i % 3}>`][i % 3] as string);
  let wrong = 0;
  for (const chunk of [...chunks, ...chunks]) if (forgetful.chunkTerms(chunk, 0, chunk.length).map((n) => forgetful.terms[n]).join(' ') !== codeTermsOf(chunk).join(' ')) wrong++;
  t.equal(wrong, 0, '80 lookups in a vocabulary that forgets every 3 chunks: each the analyzer\'s code terms');
  const a = 'Installing the HTTPServer: run `npm install --save-dev x86_64` and useState() twice.';
  const b = 'Zebra crossings and useState(): a different text, then HTTPServer again.';
  const first = new TermCounter();
  const second = new TermCounter();
  // Interleaved: each counter gives ids in its own order, from the one vocabulary.
  second.count(b, 0, 0, b.length);
  first.count(a, 0, 0, a.length);
  second.count(a, 1, 0, a.length);
  const one = countsOf(first, first.finishUnit());
  const two = countsOf(second, second.finishUnit());
  t.same(sorted(one), sorted(expectedCounts(a)), 'the first counts the analyzer\'s terms of its text');
  const both = expectedCounts(b);
  for (const [term, tfs] of expectedCounts(a, 1)) both.set(term, (both.get(term) ?? new Array<number>(FIELD_COUNT).fill(0)).map((x, f) => x + (tfs[f] as number)));
  t.same(sorted(two), sorted(both), 'the second counts both texts, each in its field');
  t.equal(new Set(first.terms).size, first.terms.length, 'no term twice in a counter\'s dictionary');
});

// "the final merge cheap (dictionaries sorted once, compared as bytes)" (Builds at native
// speed on real text, What to build item 2): a thread that makes packs beside its analysis
// asks its vocabulary for the UTF-8 byte order of every term it has numbered, once per chunk;
// only the terms numbered since the last call are sorted, then merged in. Counters in a row
// on one vocabulary, each asking after it counts: the order holds every term once, in byte
// order, and each counter's local ids rank to their own terms.
t.test('term-counter.ts: byteRanks gives each local term its rank in the byte order of the thread\'s terms (property)', async (t) => {
  const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  const word = fc.oneof(
    fc.constantFrom('alpha', 'Beta', 'useState', 'é', '日本', '\uFE20', '\u{10428}', '\u{1F600}x', 'x86_64', 'installing', 'zed', 'a', 'ab', 'b', 'snake_case'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }),
  );
  const texts = fc.array(fc.array(word, { maxLength: 10 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 6 });
  let counters = 0;
  fc.assert(
    fc.property(fc.array(texts, { minLength: 1, maxLength: 4 }), (chunks) => {
      let previous: readonly string[] = [];
      for (const chunk of chunks) {
        const counter = new TermCounter();
        for (const text of chunk) {
          counter.count(text, 0);
          counter.finishUnit();
        }
        const { terms, ranks } = counter.byteRanks();
        for (let k = 1; k < terms.length; k++) if (byBytes(terms[k - 1] as string, terms[k] as string) >= 0) return false;
        if (ranks.length !== counter.terms.length) return false;
        for (let id = 0; id < ranks.length; id++) if (terms[ranks[id] as number] !== counter.terms[id]) return false;
        // A later call keeps every term an earlier one ordered (the thread's vocabulary only grows).
        const held = new Set(terms);
        if (!previous.every((term) => held.has(term))) return false;
        previous = terms;
        counters++;
      }
      return true;
    }),
    { numRuns: runs(300), seed: 24 },
  );
  t.ok(counters >= runs(300), `${counters} counters in a row: every term once, in UTF-8 byte order, each local id ranked to its term`);
});

// The same order from a vocabulary of its own, batch after batch: terms of the Basic
// Multilingual Plane only (byteOrder then compares them as the engine compares strings, by
// UTF-16 code units) and, in a second run, characters above U+FFFF too (where UTF-16 order
// is not UTF-8's and compareBytes decides, from the batch that brings the first one on).
t.test('term-counter.ts: Vocabulary.byteOrder keeps every term in UTF-8 byte order as batches arrive, with ranks to match (property)', async (t) => {
  const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  const tail = fc.string({ unit: fc.constantFrom('a', 'b', 'z', 'é', '\u00ff', '\u0100', 'Ω', '\ue000', '\uffff', '0'), maxLength: 14 });
  const bmp = fc.oneof(
    tail.filter((s) => s.length > 0),
    fc.tuple(fc.constantFrom('aaaaaaaa', 'aaaaaaaaa', 'aaaaaaaab', 'installat', 'é\uffffé\uffffé\uffffé\uffffé'), tail).map(([p, s]) => p + s),
  );
  const wide = fc.oneof(bmp, fc.constantFrom('\u{10428}', 'a\u{1F600}', '\u{1F600}x', 'aaaaaaaaa\u{10000}', 'aaaaaaaaa\uffff'));
  let batches = 0;
  for (const [name, term] of [['BMP terms', bmp], ['terms with surrogates', wide]] as const) {
    fc.assert(
      fc.property(fc.array(fc.array(term, { maxLength: 40 }), { minLength: 1, maxLength: 6 }), (arrivals) => {
        const vocabulary = new Vocabulary();
        const known: string[] = [];
        for (const batch of arrivals) {
          for (const s of batch) {
            const n = vocabulary.termNumber(s);
            if (n === known.length) known.push(s);
            else if (known[n] !== s) return false;
          }
          const { terms, rank } = vocabulary.byteOrder();
          if (terms.length !== known.length || rank.length !== known.length) return false;
          const expected = [...known].sort(byBytes);
          if (terms.some((s, r) => s !== expected[r])) return false;
          for (let n = 0; n < known.length; n++) if (terms[rank[n] as number] !== known[n]) return false;
          batches++;
        }
        return true;
      }),
      { numRuns: runs(400), seed: 2411 },
    );
    t.pass(`${name}: every batch's order is the terms' UTF-8 byte order, each rank its term's`);
  }
  t.ok(batches >= 2 * runs(400), `${batches} batches ordered`);
});

// The raw tokens count() lists (WordSpans, what the exact token counter steps over): every
// raw token of the slice up to the length limit (the analyzer's RAW_TOKEN matches), in order,
// where it stands in the text, one raw number per distinct token and one token per number.
t.test('term-counter.ts: count() lists the raw tokens it meets, each with one number per distinct token (property)', async (t) => {
  const RAW = /[\p{L}\p{M}\p{N}]+(?:[._-][\p{L}\p{M}\p{N}]+)*/gu;
  // Numbers are the thread vocabulary's, and a vocabulary past its limit is replaced: per source.
  const sources = new Map<object, Map<number, string>>();
  let checked = 0;
  let listed = 0;
  fc.assert(
    fc.property(fc.oneof(asciiText, wideText), fc.nat(), fc.nat(), (text, a, b) => {
      checked++;
      const [start, end] = sliceOf(text, a, b);
      const counter = new TermCounter();
      const words = new WordSpans();
      words.push(0, 0, 999_999); // what an earlier count left is emptied
      counter.count(text, 0, start, end, words);
      counter.finishUnit();
      const want = [...text.slice(start, end).matchAll(RAW)].filter((m) => m[0].length <= 128).map((m) => [start + (m.index as number), start + (m.index as number) + m[0].length]);
      const got = Array.from({ length: words.count }, (_, k) => [words.starts[k], words.ends[k]]);
      if (JSON.stringify(got) !== JSON.stringify(want)) return false;
      let max = -1;
      const tokenOf = sources.get(words.source) ?? new Map<number, string>();
      sources.set(words.source, tokenOf);
      for (let k = 0; k < words.count; k++) {
        const token = text.slice(words.starts[k], words.ends[k]);
        const raw = words.raws[k] as number;
        max = Math.max(max, raw);
        const before = tokenOf.get(raw);
        if (before !== undefined && before !== token) return false;
        tokenOf.set(raw, token);
        listed++;
      }
      return words.maxRaw === max;
    }),
    { numRuns: runs(3000), seed: 2431 },
  );
  let distinct = 0;
  for (const tokenOf of sources.values()) {
    const numbers = new Map<string, number>();
    for (const [raw, token] of tokenOf) {
      if (numbers.has(token)) t.fail(`${JSON.stringify(token)} has two numbers`);
      numbers.set(token, raw);
    }
    distinct += numbers.size;
  }
  t.ok(checked >= runs(3000) && listed > 1_000, `${checked} random texts and slices, ${listed} tokens listed where the regex finds them, ${distinct} numbers each for one token`);
  const counter = new TermCounter();
  counter.count('plain words here', 0);
  t.equal(counter.finishUnit().lengths[0], 3, 'without a list, count() counts as before');
});
