// Checks document_model.md (Identity, Versioning, Metadata, Invariants, Serialization) on
// documents as the build stores them: ids normalised from the source path, versions over the
// raw bytes, v0 metadata empty, content kept byte for byte, invalid UTF-8 rejected.
import t from 'tap';
import { readdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { documentId } from '../../lib/core/engine/v0/build.js';
import { build, fileOf, versionOf } from './engine/v0/fixture.js';

/** The stored document file for `version` in `cache`, as text. */
const stored = (cache: string, version: string): string => readFileSync(join(cache, fileOf(version)), 'utf8');
const ids = (cache: string): string[] =>
  (JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8')) as { documents: { id: string }[] }).documents.map((d) => d.id);

t.test('document_model.md "Identity": normalisation rules', async (t) => {
  t.equal(documentId('./Docs/Deployment.md'), 'docs/deployment.md', 'the spec\'s example');
  t.equal(documentId('././A.md'), 'a.md', 'no leading ./');
  t.equal(documentId('Docs\\Sub\\X.md'), 'docs/sub/x.md', 'forward slashes only');
  t.equal(documentId('ÄRGER/Straße.md'), 'ärger/straße.md', 'lowercase beyond ASCII');
  // Final sigma, as Rust's to_lowercase (checked with rustc): "." is case-ignorable, so the
  // "m" after it keeps Σ non-final; "/" is not, so Σ before it is final.
  t.equal(documentId('ΟΔΟΣ.md'), 'οδοσ.md', 'Σ before ".md" is not word-final');
  t.equal(documentId('ΟΔΟΣ/x.md'), 'οδος/x.md', 'Σ before "/" is word-final');
  t.equal(documentId('İ.md'), 'i\u0307.md', 'İ lowercases to i + combining dot, as Rust does');
});

t.test('document_model.md "Identity": ids relative to the single ingestion root; source keeps case', async (t) => {
  const dir = t.testdir({ root: { Docs: { 'Deployment.md': 'deploy', API: { 'Intro.MD.md': 'intro' } }, 'README.md': 'read me' } });
  const cache = join(dir, 'cache');
  build(join(dir, 'root'), cache);
  t.same(ids(cache), ['docs/api/intro.md.md', 'docs/deployment.md', 'readme.md']);
  const v = versionOf('deploy');
  t.equal(stored(cache, v), `{"id":"docs/deployment.md","version":"${v}","source":"Docs/Deployment.md","content":"deploy","metadata":{}}`);
  // The same tree under another root (and another sources path spelling) gives the same ids.
  const again = join(dir, 'cache2');
  build(`${dir}/root/./Docs/..`, again);
  t.same(ids(again), ids(cache), 'stable identity: same relative path, same id');
});

t.test('document_model.md "Versioning": sha256 of the raw bytes, no newline normalisation or trimming', async (t) => {
  const bytes: Record<string, Buffer> = {
    'crlf.md': Buffer.from('line one\r\nline two\r\n'),
    'lf.md': Buffer.from('line one\nline two\n'),
    'bom.md': Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('# Title\n')]),
    'nobom.md': Buffer.from('# Title\n'),
    'spaces.md': Buffer.from('  padded  \n\n'),
    'cr.md': Buffer.from('old\rmac'),
    'empty.md': Buffer.alloc(0),
    'nul.md': Buffer.from('a\u0000b'),
  };
  const dir = t.testdir({ src: bytes });
  const cache = join(dir, 'cache');
  build(join(dir, 'src'), cache);
  const versions = new Set<string>();
  for (const [name, raw] of Object.entries(bytes)) {
    const v = versionOf(raw);
    versions.add(v);
    const doc = JSON.parse(stored(cache, v)) as { id: string; version: string; content: string };
    t.equal(doc.version, v, `${name}: version = sha256 of the file's bytes`);
    t.ok(Buffer.from(doc.content, 'utf8').equals(raw), `${name}: content is the bytes, unchanged`);
  }
  t.equal(versions.size, Object.keys(bytes).length, 'CRLF vs LF, BOM vs none, trailing space: all distinct versions');
  t.equal(versionOf(Buffer.alloc(0)), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'empty content allowed');
  // The BOM stays in content, literally (not escaped) in the stored JSON.
  const bom = versionOf(bytes['bom.md'] as Buffer);
  t.equal(stored(cache, bom), `{"id":"bom.md","version":"${bom}","source":"bom.md","content":"\u{FEFF}# Title\\n","metadata":{}}`);
  const crlf = versionOf(bytes['crlf.md'] as Buffer);
  t.equal(stored(cache, crlf), `{"id":"crlf.md","version":"${crlf}","source":"crlf.md","content":"line one\\r\\nline two\\r\\n","metadata":{}}`);
});

t.test('document_model.md "Versioning": not path, timestamps or attributes; identical content -> identical version', async (t) => {
  const dir = t.testdir({ one: { 'A.md': 'shared words' }, two: { deep: { 'other.md': 'shared words' } } });
  build(join(dir, 'one'), join(dir, 'c1'));
  const old = new Date('2000-01-01T00:00:00Z');
  utimesSync(join(dir, 'two', 'deep', 'other.md'), old, old);
  build(join(dir, 'two'), join(dir, 'c2'));
  const v = versionOf('shared words');
  const name = fileOf(v).slice('documents/'.length);
  t.same(readdirSync(join(dir, 'c1', 'documents')), [name]);
  t.same(readdirSync(join(dir, 'c2', 'documents')), [name], 'same version (and file name) for the same content elsewhere');
});

t.test('document_model.md "Serialization": field order id, version, source, content, metadata; JSON escapes', async (t) => {
  const content = 'tab\there "quoted" back\\slash \u0001ctl \u007f é 😀 \u2028 </script>';
  const dir = t.testdir({ src: { 'esc.md': content } });
  const cache = join(dir, 'cache');
  build(join(dir, 'src'), cache);
  const v = versionOf(content);
  // serde_json escapes: \t \" \\ and other C0 controls as \u00XX; DEL, non-ASCII, U+2028 and "/" literal.
  t.equal(
    stored(cache, v),
    `{"id":"esc.md","version":"${v}","source":"esc.md","content":"tab\\there \\"quoted\\" back\\\\slash \\u0001ctl \u007f é 😀 \u2028 </script>","metadata":{}}`,
  );
});

t.test('document_model.md "Metadata": v0 extracts nothing and does not parse frontmatter', async (t) => {
  const content = '---\ntitle: Deployment\npriority: 1\n---\n# Deployment Guide\n';
  const dir = t.testdir({ src: { 'fm.md': content } });
  const cache = join(dir, 'cache');
  build(join(dir, 'src'), cache);
  const doc = JSON.parse(stored(cache, versionOf(content))) as { content: string; metadata: object };
  t.same(doc.metadata, {}, 'metadata is empty');
  t.equal(doc.content, content, 'frontmatter delimiters are part of the content');
});

t.test('document_model.md "Invariants" 4: UTF-8 only — invalid bytes rejected, not cleaned', async (t) => {
  const dir = t.testdir({ src: { 'bad.md': Buffer.from([0x68, 0x69, 0xff]) } });
  t.throws(() => build(join(dir, 'src'), join(dir, 'cache')), { code: 'cache_invalid' });
  t.same(readdirSync(dir), ['src'], 'no partial artifact');
  // Valid multi-byte UTF-8 (including 4-byte sequences and U+FFFD itself) is accepted.
  const ok = t.testdir({ src: { 'good.md': Buffer.from('\u{FFFD} 😀 \u{10FFFF}', 'utf8') } });
  t.equal(build(join(ok, 'src'), join(ok, 'cache')).documentCount, 1);
});
