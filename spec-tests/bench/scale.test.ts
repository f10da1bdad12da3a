// Checks that `npm run bench:scale` (bench/scale.mjs) runs end to end and prints its figures:
// at --docs 200 with no settling, a few seconds. The bench itself (100,000 documents, many
// minutes of both cores) is run by hand only, never by a test or CI.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../mcp/spawn-server.js';

t.test('bench/scale.mjs --docs 200 prints the build, query and rebuild figures and removes its files', (t) => {
  if (!existsSync(join(REPO, 'dist', 'bundle', 'main.cjs'))) {
    t.fail('dist/ is missing: run `npm run build` first');
    t.end();
    return;
  }
  const work = join(t.testdir({}), 'scale');
  // Through env(1) without NODE_OPTIONS: tap puts its loader there, which the bench's own
  // children (bin/context) must not inherit (spec-tests/cli/harness.ts).
  const r = spawnSync('/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, join(REPO, 'bench', 'scale.mjs'), '--docs', '200', '--settle', '0', '--work', work], { encoding: 'utf8' });
  t.equal(r.status, 0, r.stderr);
  for (const label of ['scale: 200 real-text documents', 'build (with fsync)', 'peak RSS', 'bytes on disk', 'cold query', '7-page cache', 'warm new-question p50', 'rebuild, nothing changed', 'rebuild, 10 files changed']) {
    t.match(r.stdout, label, label);
  }
  t.notOk(existsSync(work), 'the corpus and caches are removed');
  t.end();
});
