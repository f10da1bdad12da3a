// Checks issue 4 "The format": the two token regexes exactly as VeriContext's, tokens found
// anywhere in the text (usually inside HTML comments) in order of appearance, and that a
// rendered token parses back to the same parts.
import t from 'tap';
import {
  CITATION_PATTERN,
  STRUCTURE_PATTERN,
  isCitablePath,
  isClaimablePath,
  parseCitations,
  parseStructureClaims,
  renderCitation,
  renderStructureClaim,
} from '../../../lib/core/citations/tokens.js';

t.test('the regexes are the issue\'s, character for character', async (t) => {
  t.equal(CITATION_PATTERN.source, String.raw`\[\[vctx:([^#\]]+)#L([0-9]+)-L([0-9]+)@([a-f0-9]{8})\]\]`);
  t.equal(CITATION_PATTERN.flags, 'g');
  t.equal(STRUCTURE_PATTERN.source, String.raw`\[\[vctx-(exists|exists-file|exists-dir|missing):([^\]]+)\]\]`);
  t.equal(STRUCTURE_PATTERN.flags, 'g');
});

t.test('citations are found anywhere, in order of appearance', async (t) => {
  const text = 'x <!-- [[vctx:b.md#L2-L3@0123abcd]] --> y [[vctx:a.md#L1-L1@ffffffff]]\n`[[vctx:c#L10-L20@abcdef01]]`';
  const found = parseCitations(text);
  t.same(
    found.map((c) => [c.raw, c.path, c.startLine, c.endLine, c.hash8]),
    [
      ['[[vctx:b.md#L2-L3@0123abcd]]', 'b.md', 2, 3, '0123abcd'],
      ['[[vctx:a.md#L1-L1@ffffffff]]', 'a.md', 1, 1, 'ffffffff'],
      ['[[vctx:c#L10-L20@abcdef01]]', 'c', 10, 20, 'abcdef01'],
    ],
  );
  t.same(parseCitations(text), found, 'the shared /g regex keeps no state between calls');
});

t.test('near misses are not tokens', async (t) => {
  t.same(parseCitations('[[vctx:a.md#L1-L2@ABCDEF01]]'), [], 'HASH8 is lowercase hex');
  t.same(parseCitations('[[vctx:a.md#L1-L2@abcdef0]]'), [], 'HASH8 has exactly 8 digits');
  t.same(parseCitations('[[vctx:a.md#1-2@abcdef01]]'), [], 'lines carry an L');
  t.same(parseCitations('[[vctx:#L1-L2@abcdef01]]'), [], 'the path is not empty');
  t.same(parseStructureClaims('[[vctx-present:a]] [[vctx-exists:]]'), [], 'unknown kind, empty path');
});

t.test('leading zeros and long digit strings parse as numbers', async (t) => {
  const [c] = parseCitations('[[vctx:a#L007-L0010@abcdef01]]');
  t.equal(c?.startLine, 7);
  t.equal(c?.endLine, 10);
  const [big] = parseCitations(`[[vctx:a#L1-L${'9'.repeat(30)}@abcdef01]]`);
  t.notOk(Number.isSafeInteger(big?.endLine), 'an unsafe END later fails as range_invalid');
});

t.test('structure claims: each kind, in order of appearance', async (t) => {
  const text = '[[vctx-missing:x]] <!-- [[vctx-exists-dir:src/]] --> [[vctx-exists:a b]] [[vctx-exists-file:f.ts]]';
  t.same(
    parseStructureClaims(text).map((c) => [c.kind, c.path, c.raw]),
    [
      ['missing', 'x', '[[vctx-missing:x]]'],
      ['exists-dir', 'src/', '[[vctx-exists-dir:src/]]'],
      ['exists', 'a b', '[[vctx-exists:a b]]'],
      ['exists-file', 'f.ts', '[[vctx-exists-file:f.ts]]'],
    ],
  );
});

t.test('rendering round-trips through parsing', async (t) => {
  const token = renderCitation('docs/a.md', 3, 9, '0badf00d');
  t.equal(token, '[[vctx:docs/a.md#L3-L9@0badf00d]]');
  t.same(parseCitations(token).map((c) => [c.path, c.startLine, c.endLine, c.hash8]), [['docs/a.md', 3, 9, '0badf00d']]);
  const claim = renderStructureClaim('exists-dir', 'src/');
  t.equal(claim, '[[vctx-exists-dir:src/]]');
  t.same(parseStructureClaims(claim).map((c) => [c.kind, c.path]), [['exists-dir', 'src/']]);
});

t.test('paths a token cannot carry', async (t) => {
  t.notOk(isCitablePath('a#b'), '# would end the path');
  t.notOk(isCitablePath('a]b'), '] would end the path');
  t.ok(isCitablePath('a b/ü.md'));
  t.notOk(isClaimablePath('a]b'));
  t.ok(isClaimablePath('a#b'), '# is fine in a structure claim');
});
