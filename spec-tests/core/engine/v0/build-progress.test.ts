// Checks issue 12 item 3 at the core: the v0 build reports lib/core/store/progress.ts
// BuildProgress to an `onProgress` listener — scan, then read (files and bytes), then write,
// then done — and "reports are advisory: they never change what is built".
import t from 'tap';
import { join } from 'node:path';
import { buildCache } from '../../../../lib/core/engine/v0/build.js';
import type { BuildProgress } from '../../../../lib/core/store/progress.js';
import { CREATED_AT, snapshot } from './fixture.js';

const SOURCES = { 'a.md': 'alpha', sub: { 'b.md': 'beta beta', 'c.txt': 'not markdown' }, 'é.md': 'été' };
const BYTES = Buffer.byteLength('alpha') + Buffer.byteLength('beta beta') + Buffer.byteLength('été');

t.test('the phases in order, with files, totals and source bytes', async (t) => {
  const dir = t.testdir({ src: SOURCES });
  const reports: BuildProgress[] = [];
  const summary = buildCache({ sources: join(dir, 'src'), cache: join(dir, 'cache'), force: false, createdAt: CREATED_AT, onProgress: (p) => void reports.push(p) });
  t.equal(summary.documentCount, 3);
  t.same(reports.map((p) => p.phase), ['scan', 'scan', 'scan', 'read', 'read', 'read', 'write', 'write', 'write', 'done']);
  t.same(reports.filter((p) => p.phase === 'scan').map((p) => [p.files, p.filesTotal]), [[1, 0], [2, 0], [3, 0]], 'scan: files found so far');
  const reads = reports.filter((p) => p.phase === 'read');
  t.same(reads.map((p) => [p.files, p.filesTotal]), [[1, 3], [2, 3], [3, 3]], 'read: files read of the total');
  t.ok(reads.every((p, i) => i === 0 || p.bytes > (reads[i - 1] as BuildProgress).bytes), 'bytes only grow');
  t.equal(reads[2]?.bytes, BYTES, 'every source byte counted once');
  t.same(reports.filter((p) => p.phase === 'write').map((p) => p.files), [1, 2, 3], 'write: documents written');
  t.same(reports.at(-1), { phase: 'done', files: 3, filesTotal: 3, bytes: BYTES });
});

t.test('an empty source folder: done at once, nothing else', async (t) => {
  const dir = t.testdir({ src: { 'x.txt': 'x' } });
  const reports: BuildProgress[] = [];
  buildCache({ sources: join(dir, 'src'), cache: join(dir, 'cache'), force: false, createdAt: CREATED_AT, onProgress: (p) => void reports.push(p) });
  t.same(reports, [{ phase: 'done', files: 0, filesTotal: 0, bytes: 0 }]);
});

t.test('a listener changes nothing in the cache', async (t) => {
  const dir = t.testdir({ src: SOURCES });
  buildCache({ sources: join(dir, 'src'), cache: join(dir, 'with'), force: false, createdAt: CREATED_AT, onProgress: () => {} });
  buildCache({ sources: join(dir, 'src'), cache: join(dir, 'without'), force: false, createdAt: CREATED_AT });
  t.same(snapshot(join(dir, 'with')), snapshot(join(dir, 'without')), 'byte-identical caches');
});

t.test('a failed build reports no done', async (t) => {
  const dir = t.testdir({ src: { 'a.md': 'fine', 'b.md': Buffer.from([0xff, 0xfe]) } });
  const reports: BuildProgress[] = [];
  t.throws(
    () => buildCache({ sources: join(dir, 'src'), cache: join(dir, 'cache'), force: false, createdAt: CREATED_AT, onProgress: (p) => void reports.push(p) }),
    { code: 'cache_invalid' },
  );
  t.notOk(reports.some((p) => p.phase === 'done' || p.phase === 'write'), 'stopped while reading');
});
