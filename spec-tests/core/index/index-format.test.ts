// Checks lib/core/index/index-format.ts (the index.bin layout in its header comment, and "The
// reader checks bounds on every access, so damaged bytes raise IndexFormatError rather than
// yield wrong numbers") and docs/cache-format.md (index.bin: header, units, their
// slugs and trails, term dictionary sorted by UTF-8 bytes, postings; "A term's document
// frequency is its number of postings"): an exact round trip, and every kind of damage.
import t from 'tap';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { IndexFormatError } from '../../../lib/core/index/bytes.js';
import { compareU8, encodeIndex, INDEX_FORMAT, INDEX_MAGIC, IndexReader, prefixOf, termHash, type IndexData, type IndexPostings, type IndexUnit } from '../../../lib/core/index/index-format.js';

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const FIELDS = 4;

/** Everything a reader exposes, as plain data (throws what the reader throws). */
function readAll(bytes: Uint8Array): IndexData {
  const r = new IndexReader(bytes);
  const units: IndexUnit[] = [];
  for (let u = 0; u < r.unitCount; u++) {
    const lengths: number[] = [];
    for (let f = 0; f < r.fieldCount; f++) lengths.push(r.unitLength(u, f));
    const { slug, trail } = r.unitStrings(u);
    units.push({ doc: r.unitDoc(u), start: r.unitStart(u), end: r.unitEnd(u), tokens: r.unitTokens(u), words: r.unitWordCount(u), lengths, slug, trail });
  }
  const terms: string[] = [];
  const postings: IndexPostings[] = [];
  for (let i = 0; i < r.termCount; i++) {
    terms.push(r.term(i));
    const p = r.postings(i);
    if (p.units.length !== r.documentFrequency(i)) throw new Error('df differs from the postings count');
    postings.push(p);
  }
  return { docCount: r.docCount, fieldCount: r.fieldCount, units, terms, postings };
}

const plain = (d: IndexData): unknown => ({
  ...d,
  postings: d.postings.map((p) => ({ units: Array.from(p.units), tfs: Array.from(p.tfs) })),
});

const indexData: fc.Arbitrary<IndexData> = fc
  .record({
    docCount: fc.integer({ min: 1, max: 6 }),
    unitCount: fc.integer({ min: 0, max: 12 }),
    terms: fc.uniqueArray(fc.string({ unit: fc.oneof(fc.constantFrom('a', 'b', 'é', '日', '\u{1F600}', '_', '\uFF41'), fc.constantFrom('z')), minLength: 1, maxLength: 6 }), { maxLength: 15 }),
  })
  .chain(({ docCount, unitCount, terms }) => {
    const unit = fc
      .record({
        doc: fc.integer({ min: 0, max: docCount - 1 }),
        start: fc.integer({ min: 0, max: 5000 }),
        span: fc.integer({ min: 0, max: 5000 }),
        tokens: fc.integer({ min: 0, max: 0xffffffff }),
        words: fc.integer({ min: 0, max: 0xffffffff }),
        lengths: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: FIELDS, maxLength: FIELDS }),
        slug: fc.string({ unit: 'grapheme', maxLength: 20 }),
        trail: fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { maxLength: 4 }),
      })
      .map(({ start, span, ...rest }): IndexUnit => ({ ...rest, start, end: start + span }));
    const posting = (): fc.Arbitrary<IndexPostings> =>
      fc.subarray(Array.from({ length: unitCount }, (_, i) => i)).chain((us) =>
        fc
          .array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 0xffffffff })), { minLength: us.length * FIELDS, maxLength: us.length * FIELDS })
          .map((tfs) => ({ units: Uint32Array.from(us), tfs: Uint32Array.from(tfs) })),
      );
    const sortedTerms = [...terms].sort(byBytes);
    return fc.record({
      docCount: fc.constant(docCount),
      fieldCount: fc.constant(FIELDS),
      units: fc.array(unit, { minLength: unitCount, maxLength: unitCount }),
      terms: fc.constant(sortedTerms),
      postings: fc.tuple(...sortedTerms.map(() => posting())).map((ps) => ps as IndexPostings[]),
    });
  });

t.test('index-format.ts: encodeIndex -> IndexReader round trip is exact (property)', async (t) => {
  fc.assert(
    fc.property(indexData, (data) => {
      const bytes = encodeIndex(data);
      if (bytes.length % 4 !== 0) return false; // "4-byte aligned"
      const back = readAll(bytes);
      if (!isDeepStrictEqual(plain(back), plain(data))) return false;
      // Re-encoding what was read gives the same bytes: one encoding per index.
      if (!Buffer.from(encodeIndex(back)).equals(Buffer.from(bytes))) return false;
      const r = new IndexReader(bytes);
      // Header sums: "f64 × fields: sum over units of each field's length".
      for (let f = 0; f < FIELDS; f++) if (r.lengthSums[f] !== data.units.reduce((s, u) => s + (u.lengths[f] as number), 0)) return false;
      // findTerm: binary search in UTF-8 byte order finds every term, and nothing else.
      if (!data.terms.every((term, i) => r.findTerm(term) === i)) return false;
      return r.findTerm('not-a-term-\u{10FFFF}') === -1 && r.findTerm('') === -1;
    }),
    { numRuns: 300 },
  );
  t.pass('300 random indexes: every count, unit, string, term and posting reads back');
});

t.test('index-format.ts: a dictionary searched through its samples finds exactly what the plain search finds (property)', async (t) => {
  // Many terms sharing their first bytes, terms shorter than four bytes, prefixes of others
  // and multi-byte characters: every sample block boundary and prefix tie.
  const term = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '\u0001', 'é', '日', '\u{1F600}'), minLength: 1, maxLength: 7 });
  fc.assert(
    fc.property(fc.uniqueArray(term, { minLength: 1, maxLength: 400, size: 'max' }), fc.array(term, { maxLength: 40 }), (terms, asked) => {
      const sorted = [...terms].sort(byBytes);
      const bytes = encodeIndex({ docCount: 1, fieldCount: FIELDS, units: [], terms: sorted, postings: sorted.map(() => ({ units: new Uint32Array(0), tfs: new Uint32Array(0) })) });
      const plainReader = new IndexReader(bytes);
      const sampled = new IndexReader(bytes);
      sampled.mayHold(termHash(Buffer.from('x'))); // builds the filter and the samples
      for (const key of [...sorted, ...asked, '', 'zzz']) {
        const expected = sorted.indexOf(key);
        if (plainReader.findTerm(key) !== expected || sampled.findTerm(key) !== expected) return false;
      }
      return true;
    }),
    { numRuns: 300 },
  );
  // prefixOf: unequal prefixes order two byte strings as the strings order.
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 6 }), fc.uint8Array({ maxLength: 6 }), (a, b) => {
      const pa = prefixOf(a, 0, a.length);
      const pb = prefixOf(b, 0, b.length);
      return pa === pb || Math.sign(pa - pb) === Math.sign(compareU8(a, b));
    }),
    { numRuns: 5000 },
  );
  t.pass('300 dictionaries of up to 400 terms; 5,000 pairs of prefixes');
});

/** A small, fully known index for the damage cases. */
const SAMPLE: IndexData = {
  docCount: 2,
  fieldCount: FIELDS,
  units: [
    { doc: 0, start: 0, end: 10, tokens: 3, words: 2, lengths: [2, 0, 0, 1], slug: '', trail: [] },
    { doc: 1, start: 0, end: 7, tokens: 2, words: 1, lengths: [1, 1, 0, 1], slug: 'intro', trail: ['Guide', 'Intro'] },
  ],
  terms: ['alpha', 'beta', 'é'],
  postings: [
    { units: Uint32Array.from([0, 1]), tfs: Uint32Array.from([2, 0, 0, 0, 1, 1, 0, 0]) },
    { units: Uint32Array.from([1]), tfs: Uint32Array.from([0, 0, 0, 1]) },
    { units: Uint32Array.from([0]), tfs: Uint32Array.from([0, 0, 0, 1]) },
  ],
};

/** Byte offsets of the parts of SAMPLE's encoding, computed from the documented layout. */
function layout(bytes: Uint8Array): { units: number; strings: number; dict: number; stats: number; post: number } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pad = (n: number): number => (n + 3) & ~3;
  const units = 8 + 6 * 4 + FIELDS * 8; // magic, six u32, f64 sums
  const strings = units + 4 + pad(dv.getUint32(units, true));
  const dict = strings + 4 + pad(dv.getUint32(strings, true));
  const stats = dict + 4 + pad(dv.getUint32(dict, true));
  const post = stats + 4 + pad(dv.getUint32(stats, true));
  return { units, strings, dict, stats, post };
}

const damaged = (edit: (b: Uint8Array, dv: DataView, at: ReturnType<typeof layout>) => void): Uint8Array => {
  const b = encodeIndex(SAMPLE).slice();
  edit(b, new DataView(b.buffer), layout(b));
  return b;
};

t.test('index-format.ts header: "CTXINDEX", u32 format 1, docs, units, terms, fields 4, 0', async (t) => {
  const b = encodeIndex(SAMPLE);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  t.equal(Buffer.from(b.subarray(0, 8)).toString('latin1'), INDEX_MAGIC);
  t.same([1, 2, 3, 4, 5, 6].map((k) => dv.getUint32(4 + 4 * k, true)), [INDEX_FORMAT, 2, 2, 3, FIELDS, 0]);
  t.same([0, 1, 2, 3].map((f) => dv.getFloat64(32 + 8 * f, true)), [3, 1, 0, 2], 'sum of each field length over units');
  t.same(plain(readAll(b)), plain(SAMPLE));
  t.equal(new IndexReader(b).documentFrequency(0), 2, 'df = number of postings');
});

t.test('every kind of damage is IndexFormatError', async (t) => {
  const whole = encodeIndex(SAMPLE);
  for (let n = 0; n < whole.length; n++) {
    t.throws(() => readAll(whole.subarray(0, n)), IndexFormatError, `truncated to ${n} of ${whole.length} bytes`);
  }
  const cases: [string, Uint8Array][] = [
    ['bad magic', damaged((b) => void (b[0] = 0x63))],
    ['magic not UTF-8', damaged((b) => void (b[3] = 0xff))],
    ['format 2', damaged((_b, dv) => dv.setUint32(8, 2, true))],
    ['format 0', damaged((_b, dv) => dv.setUint32(8, 0, true))],
    ['reserved header word not 0', damaged((_b, dv) => dv.setUint32(28, 1, true))],
    ['field count 0', damaged((_b, dv) => dv.setUint32(24, 0, true))],
    ['field count 17', damaged((_b, dv) => dv.setUint32(24, 17, true))],
    ['unit count larger than the unit table', damaged((_b, dv) => dv.setUint32(16, 3, true))],
    ['unit count 2^32-1', damaged((_b, dv) => dv.setUint32(16, 0xffffffff, true))],
    ['term count larger than the dictionary', damaged((_b, dv) => dv.setUint32(20, 4, true))],
    ['term count 2^32-1', damaged((_b, dv) => dv.setUint32(20, 0xffffffff, true))],
    ['a section length past the end', damaged((_b, dv, at) => dv.setUint32(at.post, 0x7fffffff, true))],
    ['a unit of a document out of range', damaged((_b, dv, at) => dv.setUint32(at.units + 4, 2, true))],
    ['a unit whose start is after its end', damaged((_b, dv, at) => dv.setUint32(at.units + 4 + 4, 11, true))],
    ['a string offset out of range', damaged((_b, dv, at) => dv.setUint32(at.strings + 4 + 4, 0xffff, true))],
    ['string offsets decreasing', damaged((_b, dv, at) => dv.setUint32(at.strings + 4 + 8, 0, true))],
    ['a term offset out of range', damaged((_b, dv, at) => dv.setUint32(at.dict + 4 + 4, 0xffff, true))],
    ['term offsets decreasing', damaged((_b, dv, at) => dv.setUint32(at.dict + 4 + 8, 0, true))],
    ['a term not UTF-8', damaged((b, _dv, at) => void (b[at.dict + 4 + 4 * 4] = 0xc3))],
    ['a postings offset out of range', damaged((_b, dv, at) => dv.setUint32(at.stats + 4, 0xffff, true))],
    ['a postings count past the postings', damaged((_b, dv, at) => dv.setUint32(at.stats + 4 + 4, 200, true))],
    ['a postings count of 2^32-1', damaged((_b, dv, at) => dv.setUint32(at.stats + 4 + 4, 0xffffffff, true))],
    ['a posting out of range', damaged((b, _dv, at) => void (b[at.post + 4] = 7))],
    ['a posting repeating its unit', damaged((b, _dv, at) => void (b[at.post + 4 + 3] = 0))],
    ['a varint of 9 bytes', damaged((b, _dv, at) => b.fill(0x80, at.post + 4, at.post + 4 + 9))],
  ];
  for (const [what, bytes] of cases) t.throws(() => readAll(bytes), IndexFormatError, what);
  const trailing = new Uint8Array(whole.length + 4);
  trailing.set(whole);
  t.throws(() => new IndexReader(trailing), IndexFormatError, 'trailing bytes after the index');
  t.throws(() => new IndexReader(new Uint8Array(0)), IndexFormatError, 'empty file');
});

t.test('any single corrupted byte: IndexFormatError or a decodable index, never another failure', async (t) => {
  // Bytes the structure does not constrain (a frequency, a length sum) can change without an
  // error: the manifest's sha256 catches those. What must never happen is a crash of another
  // kind, or a read outside the buffer.
  const whole = encodeIndex(SAMPLE);
  let refused = 0;
  for (let at = 0; at < whole.length; at++) {
    for (const value of [0x00, 0x01, 0x7f, 0x80, 0xff]) {
      if (whole[at] === value) continue;
      const b = whole.slice();
      b[at] = value;
      try {
        readAll(b);
      } catch (err) {
        if (!(err instanceof IndexFormatError)) {
          t.fail(`byte ${at} = ${value}: ${String(err)}`);
          return;
        }
        refused++;
      }
    }
  }
  t.ok(refused > 0, `every corruption either decodes or is IndexFormatError (${refused} refused)`);
});

// scopedIndex: what a one-query load keeps of a pack's index ("read only what the query
// needs", Builds at native speed on real text, What to build item 6).
/** The encoded index of `texts`, one unit each (unit d: tokens d + 1, slug sd, trail Top > Hd). */
async function indexBytesOf(texts: readonly string[]): Promise<Uint8Array> {
  const { buildIndexData } = await import('../../../lib/core/index/build-index.js');
  const { TermCounter, FIELD_COUNT } = await import('../../../lib/core/analysis/term-counter.js');
  const counter = new TermCounter();
  const units = texts.map((text, doc) => {
    counter.count(text, 0);
    return { doc, start: 0, end: text.length, tokens: doc + 1, words: 3, slug: `s${doc}`, trail: ['Top', `H${doc}`], terms: counter.finishUnit(), dictionary: counter.terms };
  });
  return encodeIndex(buildIndexData(texts.length, FIELD_COUNT, units));
}

t.test('index-format.ts: scopedIndex keeps the units, their strings and the asked terms\' postings, nothing else', async (t) => {
  const { scopedIndex } = await import('../../../lib/core/index/index-format.js');
  const texts = ['alpha beta gamma', 'beta delta', 'gamma gamma 日本', 'epsilon alpha'];
  const full = new IndexReader(await indexBytesOf(texts));
  const keys = ['gamma', 'zeta', 'alpha', '日本', 'alpha'].map((k) => new TextEncoder().encode(k));
  const scoped = scopedIndex(full, keys);
  t.equal(scoped.termCount, 3, 'the three asked terms it holds (zeta is in no unit; alpha asked twice)');
  for (const term of ['alpha', 'gamma', '日本']) t.same(scoped.termPostings(term), full.termPostings(term), `${term}: the same postings`);
  t.equal(scoped.termPostings('beta'), null, 'a term not asked for is not there');
  t.same(Array.from(scoped.unitRows()), Array.from(full.unitRows()), 'the same unit rows');
  t.same([0, 1, 2, 3].map((u) => scoped.unitStrings(u)), [0, 1, 2, 3].map((u) => full.unitStrings(u)), 'the same slugs and trails');
  t.same(scoped.lengthSums, full.lengthSums);
  t.equal(scoped.docCount, full.docCount);
});

t.test('index-format.ts: scopedIndex copies a term\'s postings as stored, and refuses a range that is not one', async (t) => {
  const { scopedIndex } = await import('../../../lib/core/index/index-format.js');
  const bytes = await indexBytesOf(['alpha beta gamma', 'beta delta beta', 'gamma gamma 日本', 'epsilon alpha gamma']);
  // A fresh copy each time: the tests below write into a reader's sections.
  const encode = () => new IndexReader(Uint8Array.from(bytes));
  const full = encode();
  const keys = ['beta', 'gamma'].map((k) => new TextEncoder().encode(k));
  const scoped = scopedIndex(full, keys);
  const { postings: kept } = scoped.sections();
  const { postings: all, stats } = full.sections();
  const at = (term: string) => full.findTerm(term);
  const [b, g] = [at('beta'), at('gamma')];
  const bytesOf = (k: number) => all.subarray(stats[k * 2] as number, stats[k * 2 + 2] as number);
  t.same(Array.from(kept), [...bytesOf(b), ...bytesOf(g)], 'the two terms\' postings bytes, back to back, as the pack stores them');
  t.same(scoped.termPostings('gamma'), full.termPostings('gamma'), 'decoded, the same postings');
  // The sections are views of the index's bytes: damage the offset after gamma's so that
  // gamma's range ends before it starts.
  const damaged = encode();
  const s = damaged.sections().stats;
  s[g * 2 + 2] = (s[g * 2] as number) - 1;
  t.throws(() => scopedIndex(damaged, keys), IndexFormatError, 'a range ending before it starts is IndexFormatError');
  const short = encode();
  const s2 = short.sections().stats;
  s2[b * 2 + 2] = (s2[b * 2] as number) + 1;
  t.throws(() => scopedIndex(short, keys), IndexFormatError, 'a range too short for its count is IndexFormatError');
});
