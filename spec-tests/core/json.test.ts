// The serializer's native fast paths (lib/json.ts): prettyPlain and compactPlain must write
// exactly what pretty and compact write for every plain value (DESIGN.md: one serializer,
// exact output bytes), since the v1 manifest and cache_version are written through them.
import t from 'tap';
import fc from 'fast-check';
import { compact, compactPlain, compareBytes, pretty, prettyPlain, sortByBytes, type PlainJson } from '../../lib/json.js';

// Strings with every escaping case: controls, quotes, backslashes, non-ASCII, astral
// characters, and lone surrogates.
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udfff', 'é', '😀', 'a', '/') }),
);
const number = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.constant(-0),
);
const { value: plain } = fc.letrec<{ value: PlainJson }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('value')),
    fc.dictionary(text, fc.option(tie('value'), { nil: undefined })),
  ) as fc.Arbitrary<PlainJson>,
}));

t.test('prettyPlain and compactPlain write the bytes pretty and compact write, for any plain value', async (t) => {
  fc.assert(
    fc.property(plain, (v) => prettyPlain(v) === pretty(v) && compactPlain(v) === compact(v)),
    { numRuns: 2000 },
  );
  t.pass('2000 random values agree');
});

t.test('the cases that matter for a manifest, spelled out', async (t) => {
  const manifest: PlainJson = {
    cache_version: 'sha256:00',
    build_config: { version: '2', weights: [1.5, 0.25, -0, 3], empty: {}, none: [], flag: true, nothing: null },
    source_root: null,
    skipped: undefined,
    documents: [{ path: 'a "quoted" \\ path\n\u0001é😀\ud800.md', version: 'v', pack: 0, offset: 0, bytes: 12 }],
  };
  t.equal(prettyPlain(manifest), pretty(manifest));
  t.equal(compactPlain(manifest), compact(manifest));
  t.match(prettyPlain(manifest), /\n {2}"build_config": \{\n {4}"version": "2",/, 'two-space indent, "key": value');
  t.match(prettyPlain(manifest), /"empty": \{\},\n {4}"none": \[\],/, 'empty object and list on one line');
  t.notMatch(prettyPlain(manifest), /skipped/, 'undefined members left out');
});

t.test('sortByBytes orders strings as compareBytes does (UTF-8 byte order), natively or not', async (t) => {
  const paths = fc.array(fc.string({ unit: fc.constantFrom('a', 'B', '-', '/', '.', 'é', '\uffff', '\ue000', '\ud83d', '\ude00', '😀', '\u0000') }), { maxLength: 40 });
  fc.assert(
    fc.property(paths, (xs) => {
      const want = [...xs].sort(compareBytes);
      return JSON.stringify(sortByBytes([...xs])) === JSON.stringify(want);
    }),
    { numRuns: 2000 },
  );
  // The case the native order gets wrong: a surrogate (U+1F600) against U+FFFF.
  t.same(sortByBytes(['\uffff', '😀']), ['\uffff', '😀'], 'U+FFFF before U+1F600, as in UTF-8');
  t.same(sortByBytes(['b/x', 'a-b', 'a/x', 'a']), ['a', 'a-b', 'a/x', 'b/x'], 'plain paths, natively');
});
