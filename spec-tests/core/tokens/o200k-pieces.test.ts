// Checks lib/core/tokens/o200k-pieces.ts ("Where o200k_base's split pattern cuts text, read
// from char codes for ASCII ... The same as the end of O200K_PATTERN's match at `p` whenever it
// is not -1"), which serves "Exact tokens for a fraction of the cost" (Builds at native speed
// on real text, What to build item 4): the pieces must be the pattern's, character for
// character, or a count could change.
import t from 'tap';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { O200K_PATTERN, pieceEnd } from '../../../lib/core/tokens/o200k-pieces.js';
import { devPages } from './dev-pages.js';

const require = createRequire(import.meta.url);
const core = (require('gpt-tokenizer/cjs/encoding/o200k_base') as { default: { bytePairEncodingCoreProcessor: { tokenSplitRegex: RegExp } } }).default
  .bytePairEncodingCoreProcessor;

/** The pattern's own pieces (the package's regex, run over the whole text). */
function patternPieces(text: string): string[] {
  return [...text.matchAll(new RegExp(core.tokenSplitRegex.source, 'gu'))].map((m) => m[0]);
}

/** The scan's pieces, asking the pattern (sticky, at that position) wherever the scan answers -1. */
function scanPieces(text: string): { pieces: string[]; fallbacks: number } {
  const sticky = new RegExp(O200K_PATTERN, 'uy');
  const pieces: string[] = [];
  let fallbacks = 0;
  for (let p = 0; p < text.length; ) {
    let e = pieceEnd(text, p);
    if (e < 0) {
      fallbacks++;
      sticky.lastIndex = p;
      if (!sticky.test(text)) throw new Error(`no match at ${p}`);
      e = sticky.lastIndex;
    }
    if (e <= p) throw new Error(`no progress at ${p}`);
    pieces.push(text.slice(p, e));
    p = e;
  }
  return { pieces, fallbacks };
}

t.test('o200k-pieces.ts: the pattern it reads is the one gpt-tokenizer holds for o200k_base', async (t) => {
  t.equal(core.tokenSplitRegex.source, O200K_PATTERN);
  t.ok(core.tokenSplitRegex.flags.includes('u'), 'a Unicode pattern');
});

t.test('o200k-pieces.ts: the cuts are the pattern\'s on random text built from what each alternative reads', async (t) => {
  // Runs of letters in either case, contractions and near-contractions, digits, punctuation
  // with and without a leading space, slashes and line breaks after punctuation, white-space
  // runs of every kind (before words, before line breaks, at the end), control characters,
  // and characters outside ASCII next to all of them (letters, marks, digits, white space).
  const unit = fc.constantFrom(
    'a', 'z', 'A', 'Z', 'word', 'Word', 'WORD', 'wORD', 'HTTPServer', "'", "'s", "'S", "'t", "'d", "'m", "'ll", "'LL", "'lL", "'ve", "'VE",
    "'re", "'Re", "'l", "'v", "'r", "'x", '0', '7', '12', '123', '1234', '.', ',', '...', '!?', '/', '//', '-', '_', '`', '(', ')', '{', '}',
    '#', '*', '\\', ' ', '  ', '   ', '\t', '\n', '\r', '\r\n', '\n\n', ' \n', '\t\n ', '\v', '\f', '\u0000', '\u001f', '\u007f',
    'é', 'É', '\u0301', 'ß', 'ǅ', 'ʰ', '日本', 'Ωμέγα', '٣', '²', '😀', '\ud800', '\udc00', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028',
    '→', '×', '…', '—', '“', '”', '·', '©', '\u0085', '\u200b', '\u00ad', '€', '✓', '│',
  );
  let fallbacks = 0;
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 30 }).map((u) => u.join('')), (text) => {
      const scanned = scanPieces(text);
      fallbacks += scanned.fallbacks;
      return JSON.stringify(scanned.pieces) === JSON.stringify(patternPieces(text));
    }),
    { numRuns: 20_000, seed: 20261125 },
  );
  t.pass('20,000 random texts cut alike');
  t.ok(fallbacks > 0, `the pattern was asked ${fallbacks} times, where the text was not ASCII`);
});

// "Outside ASCII ... an upper-case or title-case letter (Lu, Lt) is in alternatives 1 and 2's
// first set only, as A-Z are; a lower-case letter (Ll) in their second set only, as a-z are;
// a character that is no letter, mark or number is what ASCII punctuation is, and one of \s
// what a tab is": every code unit below U+10000, in each place a piece can hold it (alone,
// leading letters, after a space, inside punctuation, white space, inside and after runs of
// either case, before a contraction, before a line break, at the end).
t.test('o200k-pieces.ts: every code unit of the Basic Multilingual Plane, in every place a piece can hold it, is cut as the pattern cuts it', async (t) => {
  let wrong = 0;
  let read = 0;
  for (let c = 0x80; c < 0x10000; c++) {
    const x = String.fromCharCode(c);
    const text = `${x}a ${x}b.${x}, ${x}\n\t${x} Ab's${x}${x}x1${x}/${x}\r\n${x} Ab${x}cD${x}'s ${x}${x}'VE a${x}B ${x}`;
    const scanned = scanPieces(text);
    if (JSON.stringify(scanned.pieces) !== JSON.stringify(patternPieces(text))) wrong++;
    if (scanned.fallbacks === 0) read++;
  }
  t.equal(wrong, 0, 'no code unit cut otherwise');
  t.ok(read > 1000, `${read} code units read without the pattern (not Lm, Lo, marks, numbers or surrogates)`);
});

t.test('o200k-pieces.ts: pure ASCII text is read without the pattern, with the same cuts', async (t) => {
  const ascii = fc.array(fc.integer({ min: 0, max: 127 }), { maxLength: 60 }).map((codes) => String.fromCharCode(...codes));
  fc.assert(
    fc.property(ascii, (text) => {
      const scanned = scanPieces(text);
      return scanned.fallbacks === 0 && JSON.stringify(scanned.pieces) === JSON.stringify(patternPieces(text));
    }),
    { numRuns: 20_000, seed: 7 },
  );
  t.pass('20,000 random ASCII texts');
});

t.test('o200k-pieces.ts: the cuts are the pattern\'s on every page of both relevance dev sets', async (t) => {
  const pages = devPages();
  let wrong = 0;
  let pieces = 0;
  let fallbacks = 0;
  for (const page of pages) {
    const scanned = scanPieces(page);
    pieces += scanned.pieces.length;
    fallbacks += scanned.fallbacks;
    if (JSON.stringify(scanned.pieces) !== JSON.stringify(patternPieces(page))) wrong++;
  }
  t.equal(wrong, 0, `${pages.length} pages, ${pieces} pieces, the pattern asked ${fallbacks} times`);
  t.ok(fallbacks < pieces / 20, 'the pattern runs only where the text is not ASCII');
});
