// The engine v1 caches the MCP transcripts in conformance/mcp/v1/ answer from, checked
// against issue 9 "new conformance transcripts cover a v1 resolve (files and sections)":
// each is exactly what `context build --engine v1` writes today from examples/corpus with
// SOURCE_DATE_EPOCH=0, and verifies. When the engine's analysis or format changes (a new
// analyzer version, the Markdown module), this fails first; regenerate with
//   rm -rf conformance/mcp/v1/caches/v1_* && SOURCE_DATE_EPOCH=0 bin/context build --engine v1 \
//     --sources examples/corpus --cache conformance/mcp/v1/caches/v1_files   (and
//     --granularity section ... v1_sections; both with --tokenizer bytes4, and --granularity file for v1_files), then UPDATE_TRANSCRIPTS=1 npx tap conformance/replay.test.ts
// and review the diffs.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyV1 } from '../lib/core/engine/v1/verify.js';
import { buildCacheV1 } from '../lib/core/engine/v1/build.js';

const REPO = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const CACHES = join(REPO, 'conformance', 'mcp', 'v1', 'caches');

for (const [name, granularity] of [['v1_files', 'file'], ['v1_sections', 'section']] as const) {
  t.test(`${name}: what build --engine v1${granularity === 'section' ? ' --granularity section' : ''} writes from examples/corpus`, async (t) => {
    const committed = join(CACHES, name);
    const packs = (dir: string): string[] => readdirSync(join(dir, 'packs')).sort();
    t.same(readdirSync(committed).sort(), ['manifest.json', 'packs']);
    const fresh = join(t.testdir({}), name);
    await buildCacheV1({
      sources: join(REPO, 'examples', 'corpus'),
      cache: fresh,
      force: false,
      createdAt: '1970-01-01T00:00:00Z',
      threads: 1,
      options: { granularity, tokenizer: 'bytes4', include: [], exclude: [] },
    });
    t.same(packs(committed), packs(fresh), 'the same packs (named by their sha256)');
    for (const file of packs(fresh).map((p) => `packs/${p}`)) {
      t.ok(readFileSync(join(committed, file)).equals(readFileSync(join(fresh, file))), `${file}: byte for byte`);
    }
    // source_root is where the sources were seen from; everything else is identical.
    const sourceRoot = /\n {2}"source_root": "[^"]*",\n/;
    const committedManifest = readFileSync(join(committed, 'manifest.json'), 'utf8');
    t.match(committedManifest, /\n {2}"source_root": "\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/examples\/corpus",\n/, 'built from the repository\'s examples/corpus');
    t.equal(committedManifest.replace(sourceRoot, '\n'), readFileSync(join(fresh, 'manifest.json'), 'utf8').replace(sourceRoot, '\n'), 'manifest.json');
    const report = await verifyV1(committed);
    t.equal(report.valid, true, 'it verifies');
  });
}
