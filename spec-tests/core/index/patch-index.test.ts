// Checks lib/core/index/patch-index.ts ("The bytes are exactly those of the full path,
// encodeIndex(buildIndexData(...)) over the same units (the old ones as
// PreviousIndex.unitsOf gives them back)", and terms "left without postings drop out"): on
// random Markdown corpora and random edit scripts, patching the old index.bin gives the very
// bytes of the full path, which are those of a build from scratch of the edited corpus. Also
// the order patchIndex requires of old documents, and damage it refuses.
import t from 'tap';
import fc from 'fast-check';
import { FIELD_COUNT, TermCounter } from '../../../lib/core/analysis/term-counter.js';
import { analyzeDocument } from '../../../lib/core/engine/v1/analyze.js';
import type { Granularity } from '../../../lib/core/engine/v1/config.js';
import { PreviousIndex } from '../../../lib/core/engine/v1/previous.js';
import { buildIndexData, type UnitInput } from '../../../lib/core/index/build-index.js';
import { IndexFormatError } from '../../../lib/core/index/bytes.js';
import { encodeIndex, IndexReader } from '../../../lib/core/index/index-format.js';
import { patchIndex, type PatchDoc } from '../../../lib/core/index/patch-index.js';
import { loadTokenCounter, type TokenCounter } from '../../../lib/core/tokens/count.js';

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const countTokens: TokenCounter = await loadTokenCounter('bytes4');

type Corpus = ReadonlyMap<string, string>;

/**
 * Units of `docs` (path, text) in order, analyzed as a build does, numbered from document 0;
 * a new TermCounter (another thread's term ids) starts at each document listed in `cuts`.
 */
function analyze(docs: readonly (readonly [string, string])[], granularity: Granularity, cuts: readonly number[] = []): UnitInput[][] {
  let counter = new TermCounter();
  return docs.map(([path, text], d) => {
    if (cuts.includes(d)) counter = new TermCounter();
    return analyzeDocument(path, text, granularity, countTokens, counter).map((u) => ({ ...u, doc: d, dictionary: counter.terms }));
  });
}

const sorted = (corpus: Corpus): [string, string][] => [...corpus].sort((a, b) => byBytes(a[0], b[0]));

/** index.bin of a build from scratch. */
function fullBuild(corpus: Corpus, granularity: Granularity, cuts: readonly number[] = []): Uint8Array {
  const docs = sorted(corpus);
  return encodeIndex(buildIndexData(docs.length, FIELD_COUNT, analyze(docs, granularity, cuts).flat()));
}

/**
 * The rebuild of `next` over the old index of `prev`: unchanged documents (same path, same
 * text) kept from the old index unless listed in `reanalyze`, the others analyzed anew.
 * Returns the patched bytes and the full path's bytes.
 */
function rebuild(prev: Corpus, next: Corpus, granularity: Granularity, reanalyze: ReadonlySet<string>, cuts: readonly number[]): { patched: Uint8Array; full: Uint8Array } {
  const old = new IndexReader(fullBuild(prev, granularity));
  const oldDocs = sorted(prev).map(([p]) => p);
  const docs = sorted(next);
  const fresh = analyze(docs, granularity, cuts);
  const parts: PatchDoc[] = docs.map(([path, text], d) =>
    prev.get(path) === text && !reanalyze.has(path)
      ? { kind: 'old', oldDoc: oldDocs.indexOf(path) }
      // The doc field is ignored: make it wrong to show it.
      : { kind: 'new', units: (fresh[d] as UnitInput[]).map((u) => ({ ...u, doc: 999 })) },
  );
  const previous = new PreviousIndex(old);
  const units = parts.flatMap((p, d) => (p.kind === 'old' ? previous.unitsOf(p.oldDoc, d) : p.units.map((u) => ({ ...u, doc: d }))));
  return { patched: patchIndex(old, parts, FIELD_COUNT), full: encodeIndex(buildIndexData(docs.length, FIELD_COUNT, units)) };
}

// Words whose UTF-8 byte order differs from their UTF-16 order (U+FE20 < U+10428 in UTF-8,
// not in UTF-16), identifiers, stemmed forms, a word only one document is likely to hold.
const WORDS = ['alpha', 'Beta', 'useState', 'é', '日本', '\uFE20', '\u{10428}', 'x86_64', 'installing', 'install', 'zed', 'naïve', 'Straße', 'rare'];
const PATHS = ['a.md', 'b/c.md', 'b/d.md', 'é.md', '\uFE20.md', '\u{10428}.md', 'z.md', 'b.md'];

const word = fc.constantFrom(...WORDS);
/** A section: heading level and words, a paragraph repeated (section granularity splits at 512 bytes). */
const sectionText = fc
  .record({ level: fc.integer({ min: 1, max: 3 }), heading: fc.array(word, { minLength: 1, maxLength: 3 }), words: fc.array(word, { maxLength: 12 }), repeat: fc.integer({ min: 0, max: 14 }) })
  .map(({ level, heading, words, repeat }) => `${'#'.repeat(level)} ${heading.join(' ')}\n\n${Array.from({ length: repeat }, () => words.join(' ')).join('\n')}\n\n`);
const docText = fc.oneof(fc.constant(''), fc.array(sectionText, { maxLength: 4 }).map((s) => s.join('')), fc.array(word, { maxLength: 8 }).map((w) => w.join(' ')));
const corpus = fc.dictionary(fc.constantFrom(...PATHS), docText, { maxKeys: 6 }).map((o) => new Map(Object.entries(o)) as Corpus);

type Edit =
  | { op: 'add' | 'edit' | 'append'; path: string; text: string }
  | { op: 'delete'; path: string }
  | { op: 'rename' | 'copy'; path: string; to: string };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constantFrom('add' as const, 'edit' as const), path: fc.constantFrom(...PATHS), text: docText }),
  fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...PATHS) }),
  fc.record({ op: fc.constantFrom('rename' as const, 'copy' as const), path: fc.constantFrom(...PATHS), to: fc.constantFrom(...PATHS) }),
  fc.record({ op: fc.constant('append' as const), path: fc.constantFrom(...PATHS), text: word }),
);

function applyEdits(corpus: Corpus, edits: readonly Edit[]): Corpus {
  const next = new Map(corpus);
  for (const e of edits) {
    const text = next.get(e.path);
    if ('text' in e) {
      if (e.op !== 'append') next.set(e.path, e.text);
      else if (text !== undefined) next.set(e.path, `${text}\n${e.text}\n`);
    } else if (text === undefined) continue;
    else if (!('to' in e)) next.delete(e.path);
    else {
      // rename / copy: the same content at another path (copy: identical content twice)
      if (e.op === 'rename') next.delete(e.path);
      next.set(e.to, text);
    }
  }
  return next;
}

t.test('patch-index.ts: the patched index.bin is byte for byte the full path\'s, and a build from scratch\'s (property)', async (t) => {
  for (const granularity of ['file', 'section'] as const) {
    fc.assert(
      fc.property(corpus, fc.array(edit, { maxLength: 6 }), fc.uniqueArray(fc.constantFrom(...PATHS), { maxLength: 3 }), fc.uniqueArray(fc.nat({ max: 7 }), { maxLength: 2 }), (prev, edits, reanalyze, cuts) => {
        const next = applyEdits(prev, edits);
        const { patched, full } = rebuild(prev, next, granularity, new Set(reanalyze), cuts);
        return Buffer.from(patched).equals(Buffer.from(full)) && Buffer.from(patched).equals(Buffer.from(fullBuild(next, granularity)));
      }),
      { numRuns: 250 },
    );
    t.pass(`${granularity} granularity: 250 random corpora and edit scripts, patched bytes === full path's === from scratch`);
  }
});

t.test('patch-index.ts: terms without postings drop out, new terms merge into UTF-8 byte order', async (t) => {
  const prev: Corpus = new Map([
    ['a.md', 'alpha \u{10428} gone'],
    ['b.md', 'alpha zed'],
  ]);
  const next: Corpus = new Map([
    ['a.md', 'alpha \uFE20 middle'],
    ['b.md', 'alpha zed'],
  ]);
  const { patched, full } = rebuild(prev, next, 'file', new Set(), []);
  t.ok(Buffer.from(patched).equals(Buffer.from(full)), 'same bytes as the full path');
  const r = new IndexReader(patched);
  const terms = Array.from({ length: r.termCount }, (_, i) => r.term(i));
  t.equal(r.findTerm('gone'), -1, 'a term whose only document changed is gone');
  t.equal(r.findTerm('\u{10428}'), -1, 'so is one outside the BMP');
  t.ok(terms.indexOf('middl') >= 0 || terms.indexOf('middle') >= 0, 'a new term is in');
  t.same(terms, [...terms].sort(byBytes), 'the dictionary is in UTF-8 byte order');
  t.ok(terms.indexOf('\uFE20') > terms.indexOf('zed'), 'U+FE20 merged after zed');
  const alpha = r.postings(r.findTerm('alpha'));
  t.same(Array.from(alpha.units), [0, 1], 'a term of kept and new units: one postings list, in unit order');
  t.equal(r.docCount, 2);
});

t.test('patch-index.ts: old documents only once and in ascending order; the old index\'s field count', async (t) => {
  const old = new IndexReader(fullBuild(new Map([['a.md', 'alpha'], ['b.md', 'beta']]), 'file'));
  t.throws(() => patchIndex(old, [{ kind: 'old', oldDoc: 1 }, { kind: 'old', oldDoc: 0 }], FIELD_COUNT), RangeError, 'descending');
  t.throws(() => patchIndex(old, [{ kind: 'old', oldDoc: 0 }, { kind: 'old', oldDoc: 0 }], FIELD_COUNT), RangeError, 'twice');
  t.throws(() => patchIndex(old, [{ kind: 'old', oldDoc: 2 }], FIELD_COUNT), RangeError, 'out of range');
  t.throws(() => patchIndex(old, [], FIELD_COUNT - 1), RangeError, 'another field count');
  t.same(Buffer.from(patchIndex(old, [], FIELD_COUNT)), Buffer.from(encodeIndex(buildIndexData(0, FIELD_COUNT, []))), 'no documents: the empty index');
});

t.test('patch-index.ts: damaged postings raise IndexFormatError ("Throws IndexFormatError on damage found in the old bytes")', async (t) => {
  const bytes = fullBuild(new Map([['a.md', 'alpha beta'], ['b.md', 'alpha gamma']]), 'file');
  const r = new IndexReader(bytes);
  const post = r.sections().postings;
  const at = post.byteOffset - bytes.byteOffset;
  const keepAll: PatchDoc[] = [{ kind: 'old', oldDoc: 0 }, { kind: 'old', oldDoc: 1 }];
  t.ok(Buffer.from(patchIndex(r, keepAll, FIELD_COUNT)).equals(Buffer.from(bytes)), 'undamaged: keeping everything gives the same bytes');
  // The first posting is: unit delta 0, field mask, frequencies. Damage each in turn.
  for (const [what, offset, value] of [
    ['unit beyond the units', 0, 0x7f],
    ['field mask beyond the fields', 1, 0x7f],
    ['zero frequency', 2, 0],
    ['unterminated varints', 1, 0xff],
  ] as const) {
    const damaged = Uint8Array.from(bytes);
    damaged[at + offset] = value;
    if (what === 'unterminated varints') damaged.fill(0xff, at + offset, at + post.length);
    t.throws(() => patchIndex(new IndexReader(damaged), keepAll, FIELD_COUNT), IndexFormatError, what);
  }
});
