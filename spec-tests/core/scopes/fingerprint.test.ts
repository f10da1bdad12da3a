// Checks issue 5 "Fingerprint": ours is sha256 over the sorted lines NAME:sha256(bytes) of
// the regular files directly in the directory (not .context.yaml, not ignored), first 8
// hex; dotcontext's is sha256 over sorted NAME:floor(mtimeMs):SIZE lines. touch keeps ours.
import t from 'tap';
import { createHash } from 'node:crypto';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintDir, judgeFreshness } from '../../../lib/core/scopes/fingerprint.js';
import { IgnoreStack } from '../../../lib/core/sources/gitignore.js';

const NONE = IgnoreStack.empty();

const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

/** The rule, written out independently. */
function expectedContent(files: Record<string, string>): string {
  const lines = Object.entries(files).map(([name, body]) => `${name}:${sha(body)}`);
  lines.sort();
  return sha(lines.join('\n')).slice(0, 8);
}

/** dotcontext's computeFingerprint, restated from its documented behaviour. */
function expectedStat(dir: string): string {
  const lines = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== '.context.yaml')
    .map((e) => {
      const s = statSync(join(dir, e.name));
      return `${e.name}:${Math.floor(s.mtimeMs)}:${s.size}`;
    });
  lines.sort();
  return sha(lines.join('\n')).slice(0, 8);
}

t.test('content fingerprint: direct regular files only, .context.yaml excluded', async (t) => {
  const dir = t.testdir({
    'a.ts': 'export const a = 1;\n',
    'b.md': '# B\n',
    '.context.yaml': 'version: 1\n',
    sub: { 'deep.ts': 'not counted' },
    link: t.fixture('symlink', 'a.ts'),
  });
  const prints = fingerprintDir(dir, '.', NONE);
  t.equal(prints.content, expectedContent({ 'a.ts': 'export const a = 1;\n', 'b.md': '# B\n' }));
  t.match(prints.content, /^[0-9a-f]{8}$/);
});

t.test("stat fingerprint reproduces dotcontext's", async (t) => {
  const dir = t.testdir({ 'a.ts': 'x', 'B.ts': 'yy', '.hidden': 'z', '.context.yaml': 'v' });
  utimesSync(join(dir, 'a.ts'), 1700000000.123, 1700000000.123);
  t.equal(fingerprintDir(dir, '.', NONE).stat, expectedStat(dir));
});

t.test('ignored files leave our fingerprint (dotcontext counts them)', async (t) => {
  const dir = t.testdir({ 'a.ts': 'x', 'debug.log': 'noise' });
  const rules = IgnoreStack.empty().with('', '*.log\n');
  t.equal(fingerprintDir(dir, '.', rules).content, expectedContent({ 'a.ts': 'x' }));
  t.equal(fingerprintDir(dir, '.', NONE).content, expectedContent({ 'a.ts': 'x', 'debug.log': 'noise' }));
  t.equal(fingerprintDir(dir, '.', rules).stat, expectedStat(dir));
});

t.test('touch changes nothing of ours; an edit does', async (t) => {
  const dir = t.testdir({ 'a.ts': 'one', 'b.ts': 'two' });
  const before = fingerprintDir(dir, '.', NONE);
  utimesSync(join(dir, 'a.ts'), 2000000000, 2000000000);
  const touched = fingerprintDir(dir, '.', NONE);
  t.equal(touched.content, before.content, 'touch: content fingerprint unchanged');
  t.not(touched.stat, before.stat, "touch: dotcontext's fingerprint changes (its known weakness)");
  writeFileSync(join(dir, 'a.ts'), 'ONE');
  t.not(fingerprintDir(dir, '.', NONE).content, before.content, 'same size, new bytes: changed');
});

t.test('freshness: ours or dotcontext\'s matches -> fresh, reporting the one that matched', async (t) => {
  const prints = { content: 'aaaaaaaa', stat: 'bbbbbbbb' };
  t.same(judgeFreshness('aaaaaaaa', prints), { state: 'fresh', computed: 'aaaaaaaa' });
  t.same(judgeFreshness('bbbbbbbb', prints), { state: 'fresh', computed: 'bbbbbbbb' });
  t.same(judgeFreshness('cccccccc', prints), { state: 'stale', computed: 'aaaaaaaa' });
});

t.test('an empty directory hashes the empty string', async (t) => {
  const dir = t.testdir({});
  t.same(fingerprintDir(dir, '.', NONE), { content: sha('').slice(0, 8), stat: sha('').slice(0, 8) });
});
