// Checks lib/core/store/target.ts isReplaceable with every engine's layout (issue 44 item 1,
// "a folder is replaced by --force only if it is empty or is a cache that this program
// wrote"): each engine's manifest check accepts what that engine writes, in every format
// and under any rules it records, and nothing else; a folder is a cache only when it holds
// nothing a cache never holds. Caches built from an empty folder hold no data file, so
// here a manifest alone decides (the damaged-cache rule needs one).
import t from 'tap';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_LAYOUTS } from '../../../lib/core/engine/layouts.js';
import { buildCache } from '../../../lib/core/engine/v0/build.js';
import { isV0ManifestText } from '../../../lib/core/engine/v0/check.js';
import { isV1ManifestText } from '../../../lib/core/engine/v1/manifest.js';
import { insideWalkedSources, isReplaceable } from '../../../lib/core/store/target.js';
import { buildV1 } from '../engine/v1/fixture.js';

const REFERENCE = new URL('../../fixtures/compat-v0/caches/', import.meta.url).pathname;
const replaceable = (dir: string): boolean => isReplaceable(dir, CACHE_LAYOUTS);
const edited = (text: string, edit: (m: Record<string, unknown>) => void): string => {
  const m = JSON.parse(text) as Record<string, unknown>;
  edit(m);
  return JSON.stringify(m, null, 2);
};
const configOf = (m: Record<string, unknown>): Record<string, unknown> => m['build_config'] as Record<string, unknown>;

t.test('engine v1 accepts the manifests it wrote: every format, any recorded rules; nothing else', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' } });
  await buildV1(join(dir, 'docs'), join(dir, 'c'));
  const text = readFileSync(join(dir, 'c', 'manifest.json'), 'utf8');
  t.ok(isV1ManifestText(text), 'as built');
  for (const version of ['3', '4', '5', '6', '7', '8', '9']) t.ok(isV1ManifestText(edited(text, (m) => void (configOf(m)['version'] = version))), `format ${version}`);
  t.ok(isV1ManifestText(edited(text, (m) => void (configOf(m)['analyzer'] = { version: 'older' }))), 'another analyzer');
  const format2 = edited(text, (m) => {
    configOf(m)['version'] = '2';
    m['files'] = { 'index.bin': { bytes: 10, sha256: 'a'.repeat(64) }, 'documents.pack': { bytes: 5, sha256: 'b'.repeat(64) } };
    m['documents'] = [{ path: 'a.md', version: `sha256:${'c'.repeat(64)}`, offset: 0, bytes: 5 }];
  });
  t.ok(isV1ManifestText(format2), 'format 2 (index.bin beside it)');
  const refused: [string, string][] = [
    ['{"cache_version":"x"}', 'the look-alike of the report'],
    ['{ not json', 'not JSON'],
    ['[]', 'not an object'],
    [edited(text, (m) => void (configOf(m)['version'] = '21')), 'a format never written'],
    [edited(text, (m) => void (configOf(m)['engine'] = 'v2')), 'another engine'],
    [edited(text, (m) => void (m['cache_version'] = 'x')), 'a cache_version that is no sha256'],
    [edited(text, (m) => void delete m['files']), 'no files'],
    [edited(text, (m) => void (m['document_count'] = 7)), 'a document count the packs do not hold'],
    [edited(format2, (m) => void delete m['documents']), 'format 2 without its documents'],
  ];
  for (const [bad, what] of refused) t.notOk(isV1ManifestText(bad), what);
  t.notOk(isV1ManifestText(readFileSync(join(REFERENCE, 'realistic', 'manifest.json'), 'utf8')), 'a v0 manifest is not v1\'s');
});

t.test('engine v0 accepts its manifest (the reference\'s too) and nothing else', async (t) => {
  const text = readFileSync(join(REFERENCE, 'realistic', 'manifest.json'), 'utf8');
  t.ok(isV0ManifestText(text), 'the reference\'s cache');
  t.notOk(isV0ManifestText('{"cache_version":"x"}'), 'the look-alike of the report');
  t.notOk(isV0ManifestText(readFileSync(join(REFERENCE, 'future_version', 'manifest.json'), 'utf8')), 'a build_config v0 does not write');
  t.notOk(isV0ManifestText(edited(text, (m) => void (m['documents'] = [{ id: 'a.md', version: `sha256:${'c'.repeat(64)}`, file: 'documents/notes.md' }]))), 'a document file not named by its version');
});

t.test('isReplaceable: empty, or a cache with nothing a cache never holds', async (t) => {
  const dir = t.testdir({ empty: {}, none: {}, docs: { 'a.md': 'alpha' } });
  t.ok(replaceable(join(dir, 'empty')), 'an empty folder');
  buildCache({ sources: join(dir, 'none'), cache: join(dir, 'v0'), force: false, createdAt: 'x' });
  await buildV1(join(dir, 'none'), join(dir, 'v1'));
  await buildV1(join(dir, 'docs'), join(dir, 'v1-full'));
  t.ok(replaceable(join(dir, 'v0')), 'a v0 cache of no document');
  t.ok(replaceable(join(dir, 'v1')), 'a v1 cache of no document');
  const variant = (from: string, name: string, change: (at: string) => void): string => {
    const at = join(dir, name);
    cpSync(join(dir, from), at, { recursive: true });
    change(at);
    return at;
  };
  const v1Text = readFileSync(join(dir, 'v1', 'manifest.json'), 'utf8');
  t.ok(replaceable(variant('v1', 'v1-format4', (at) => writeFileSync(join(at, 'manifest.json'), edited(v1Text, (m) => void (configOf(m)['version'] = '4'))))), 'a v1 cache of format 4');
  t.ok(replaceable(variant('v1', 'v1-state', (at) => writeFileSync(join(at, 'build-state.json.tmp'), '{'))), 'with the build state\'s replacement a killed rebuild left');
  t.ok(replaceable(variant('v1-full', 'v1-damaged', (at) => writeFileSync(join(at, 'manifest.json'), '{'))), 'a damaged manifest beside its packs');
  const refused: [string, string][] = [
    [variant('v1', 'look-alike', (at) => writeFileSync(join(at, 'manifest.json'), '{"cache_version":"x"}')), 'a look-alike manifest and an empty packs/'],
    [variant('v0', 'v0-note', (at) => writeFileSync(join(at, 'n.md'), 'a note')), 'a v0 cache with a note beside it'],
    [variant('v1', 'v1-v0-name', (at) => writeFileSync(join(at, 'index.json'), '{}')), 'a v1 cache with a name only v0 holds'],
    [variant('v0', 'v0-v1-name', (at) => mkdirSync(join(at, 'packs'))), 'a v0 cache with a name only v1 holds'],
    [variant('v1', 'v1-link', (at) => {
      rmSync(join(at, 'manifest.json'));
      symlinkSync(join(dir, 'v1', 'manifest.json'), join(at, 'manifest.json'));
    }), 'a symlinked manifest'],
    [variant('v1-full', 'v1-damaged-link', (at) => {
      writeFileSync(join(at, 'manifest.json'), '{');
      symlinkSync(join(dir, 'docs', 'a.md'), join(at, 'packs', `${'d'.repeat(64)}.pack`));
    }), 'a damaged manifest with a symlink among the packs'],
    [variant('v0', 'v0-folder-file', (at) => {
      rmSync(join(at, 'documents'), { recursive: true });
      writeFileSync(join(at, 'documents'), 'not a folder');
    }), 'documents as a file'],
  ];
  for (const [at, what] of refused) t.notOk(replaceable(at), what);
});

// Issue 44 item 5(b): where a cache lies inside the sources folder a walk would go through.
t.test('insideWalkedSources: inside the sources, by real path, unless a hidden folder is on the way', async (t) => {
  const dir = t.testdir({ docs: { guide: {} }, elsewhere: {} });
  symlinkSync(join(dir, 'docs'), join(dir, 'link'));
  const docs = join(dir, 'docs');
  const cases: [string, string, boolean][] = [
    [join(docs, 'cache'), docs, true],
    [join(docs, 'guide', 'cache'), docs, true],
    [join(dir, 'link', 'cache'), docs, true],
    [join(docs, 'cache'), join(dir, 'link'), true],
    [join(docs, '.context', 'cache'), docs, false],
    [join(docs, 'guide', '.cache'), docs, false],
    [join(dir, 'caches', 'docs'), docs, false],
    [join(dir, 'elsewhere', 'cache'), docs, false],
    [docs, docs, false],
    [dir, docs, false],
  ];
  for (const [cache, sources, inside] of cases) t.equal(insideWalkedSources(cache, sources), inside, `${cache.slice(dir.length)} in ${sources.slice(dir.length)}`);
});
