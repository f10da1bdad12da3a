// Checks "Nothing lost, nothing leaked", what to build items 1, 2 and 4 on the CLI:
// "`build --force` replaces only a cache: the target must be absent, an empty directory, or
// a directory that holds a cache's manifest (either engine); anything else is refused with a
// clear error and exit code, nothing touched. Refuse a target that is the sources folder,
// holds it, or lies inside it, and a working directory or file as target"; "the CLI ...
// offers the same confinement with `--project-root`"; "`--include`/`--exclude` ... have
// documented limits on length and count (usage error)"; "a pathological ignore line is
// skipped and reported (the build goes on)". Each reproduction of the report, both engines.
import t, { type Test } from 'tap';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_GLOB_BYTES, MAX_GLOBS } from '../../lib/core/sources/limits.js';
import { run, spawnContext } from './harness.js';

/** Every file under `dir` with its bytes: what "nothing touched" compares. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p, r);
      else out[r] = st.isSymbolicLink() ? '->link' : readFileSync(p, 'latin1');
    }
  };
  walk(dir, '');
  return out;
}

const PROJECT = { docs: { 'notes.md': '# Notes\n\nkeep me\n' }, src: { 'main.c': 'int main(void) { return 0; }\n' }, 'file.txt': 'a plain file\n' };

for (const engine of ['v0', 'v1'] as const) {
  const e = engine === 'v1' ? ['--engine', 'v1'] : [];
  t.test(`${engine}: --force refuses every target that is not a cache, and touches nothing`, async (t) => {
    const cases: [string, string, RegExp][] = [
      ['.', 'the working directory (it holds the sources)', /sources folder/],
      ['docs', 'the sources folder', /sources folder/],
      ['..', 'a folder holding the sources', /sources folder/],
      ['src', 'a folder of other files', /holds no cache/],
      ['file.txt', 'a plain file', /not a directory/],
    ];
    for (const [cache, what, why] of cases) {
      const dir = t.testdir(PROJECT);
      const before = tree(dir);
      const r = await run(['build', ...e, '--sources', 'docs', '--cache', cache, '--force'], { cwd: dir });
      t.equal(r.code, 6, `${what}: exit 6 (io_error)`);
      t.equal(r.out, '', 'nothing on stdout');
      t.match(r.err, /^error: io_error: I\/O error occurred \(/, 'the error names its code');
      t.match(r.err, why, 'and says why');
      t.same(tree(dir), before, `${what}: every file as it was`);
    }
  });

  t.test(`${engine}: the working directory is refused even when it is not near the sources`, async (t) => {
    const dir = t.testdir({ work: {}, docs: { 'a.md': 'alpha' } });
    const r = await run(['build', ...e, '--sources', '../docs', '--cache', '.', '--force'], { cwd: join(dir, 'work') });
    t.equal(r.code, 6);
    t.match(r.err, /working directory/);
    t.same(readdirSync(join(dir, 'work')), [], 'left as it was (empty)');
  });

  t.test(`${engine}: a symlink at the target is refused with --force, whatever it leads to`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': 'alpha' }, elsewhere: { 'keep.txt': 'x' } });
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'));
    const r = await run(['build', ...e, '--sources', 'docs', '--cache', 'link', '--force'], { cwd: dir });
    t.equal(r.code, 6);
    t.match(r.err, /symbolic link/);
    t.ok(lstatSync(join(dir, 'link')).isSymbolicLink(), 'the link stays');
    t.same(readdirSync(join(dir, 'elsewhere')), ['keep.txt'], 'and what it leads to is untouched');
  });

  t.test(`${engine}: --force still replaces a cache (either engine's), an empty folder, and a damaged cache`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': 'alpha' }, empty: {} });
    t.equal((await run(['build', '--sources', 'docs', '--cache', 'c0'], { cwd: dir })).code, 0);
    t.equal((await run(['build', '--engine', 'v1', '--sources', 'docs', '--cache', 'c1'], { cwd: dir })).code, 0);
    for (const target of ['c0', 'c1', 'empty']) {
      const r = await run(['build', ...e, '--sources', 'docs', '--cache', target, '--force'], { cwd: dir });
      t.equal(r.code, 0, `${target} replaced`);
      t.ok(existsSync(join(dir, target, 'manifest.json')));
    }
    writeFileSync(join(dir, 'c0', 'manifest.json'), '{ not json'); // damaged: repairing it is what --force is for
    t.equal((await run(['build', ...e, '--sources', 'docs', '--cache', 'c0', '--force'], { cwd: dir })).code, 0, 'a cache with an unreadable manifest and only cache files is replaced');
  });
}

t.test('a folder with a manifest.json that is not a cache is not replaced (a web app, say)', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' }, app: { 'manifest.json': '{"name":"app"}', 'index.html': '<p>' }, bare: { 'manifest.json': '{"name":"app"}' } });
  for (const target of ['app', 'bare']) {
    const before = tree(join(dir, target));
    const r = await run(['build', '--sources', 'docs', '--cache', target, '--force'], { cwd: dir });
    t.equal(r.code, 6, `${target}: refused`);
    t.same(tree(join(dir, target)), before, `${target}: as it was (a lone foreign manifest.json is no cache: found by the soak suite)`);
  }
});

// Issue 44, item 1 (data loss through a look-alike manifest): "a folder is replaced by
// --force only if it is empty or is a cache that this program wrote (a manifest that parses
// as a real v0 or v1 manifest, and nothing in the folder that a cache never holds); anything
// else is refused". Each case: exit 6, the refusal's reason, every byte as it was.
const LOOK_ALIKE = '{"cache_version":"x"}';

/** Builds a real cache of `engine` at `dir/name` from `dir/docs`. */
async function realCache(t: Test, dir: string, engine: 'v0' | 'v1', name: string): Promise<void> {
  const r = await run(['build', '--engine', engine, '--sources', 'docs', '--cache', name], { cwd: dir });
  t.equal(r.code, 0, `${engine} cache ${name} built`);
}

/** `build --force` of `engine` over each target in `dir`: refused, nothing touched. */
async function refusesEach(t: Test, dir: string, engine: 'v0' | 'v1', targets: readonly string[]): Promise<void> {
  for (const target of targets) {
    const before = tree(join(dir, target));
    const r = await run(['build', '--engine', engine, '--sources', 'docs', '--cache', target, '--force'], { cwd: dir });
    t.equal(r.code, 6, `${engine} over ${target}: exit 6 (io_error)`);
    t.equal(r.out, '', 'nothing on stdout');
    t.match(r.err, /the target is a directory that holds no cache: it is not replaced/, 'the refusal of a target that is no cache');
    t.same(tree(join(dir, target)), before, `${target}: every file as it was`);
  }
}

for (const engine of ['v0', 'v1'] as const) {
  t.test(`${engine}: a look-alike manifest does not make a folder a cache (issue 44)`, async (t) => {
    const dir = t.testdir({
      docs: { 'a.md': 'alpha' },
      notes: { 'manifest.json': LOOK_ALIKE, 'n.md': '# My note\n\nkeep me\n' },
      // Only names a v0 cache holds, yet no cache: the manifest is none of ours and documents/ holds letters.
      shaped: { 'manifest.json': LOOK_ALIKE, 'index.json': '{}', documents: { 'letter.txt': 'dear reader' } },
      // The same for v1's names: packs/ holds a file no build writes.
      packed: { 'manifest.json': LOOK_ALIKE, packs: { 'holiday.jpg': 'not a pack' } },
    });
    await refusesEach(t, dir, engine, ['notes', 'shaped', 'packed']);
    const note = join(dir, 'notes', 'n.md');
    t.equal(existsSync(note) ? readFileSync(note, 'utf8') : null, '# My note\n\nkeep me\n', 'n.md is still there');
  });

  t.test(`${engine}: a real cache's manifest copied beside other files does not make them a cache (issue 44)`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': 'alpha' }, notes0: { 'n.md': 'note zero' }, notes1: { 'n.md': 'note one', sub: { 'deep.md': 'deep' } } });
    await realCache(t, dir, 'v0', 'c0');
    await realCache(t, dir, 'v1', 'c1');
    copyFileSync(join(dir, 'c0', 'manifest.json'), join(dir, 'notes0', 'manifest.json'));
    copyFileSync(join(dir, 'c1', 'manifest.json'), join(dir, 'notes1', 'manifest.json'));
    await refusesEach(t, dir, engine, ['notes0', 'notes1']);
    t.ok(existsSync(join(dir, 'notes1', 'sub', 'deep.md')), 'nothing lost');
  });

  t.test(`${engine}: a real cache (v0 and v1) with a stray file or folder added is refused (issue 44)`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': 'alpha', 'b.md': 'beta words' } });
    const targets: string[] = [];
    for (const kind of ['v0', 'v1'] as const) {
      await realCache(t, dir, kind, `${kind}-clean`);
      const data = kind === 'v0' ? 'documents' : 'packs';
      const strays: [string, (at: string) => void][] = [
        ['top', (at) => writeFileSync(join(at, 'notes.md'), 'mine')],
        ['folder', (at) => { mkdirSync(join(at, 'drafts')); writeFileSync(join(at, 'drafts', 'x.md'), 'a draft'); }],
        ['inside', (at) => writeFileSync(join(at, data, 'mine.txt'), 'mine')],
        ['other-engine', (at) => writeFileSync(join(at, kind === 'v0' ? 'build-state.json' : 'index.json'), '{}')],
      ];
      for (const [what, add] of strays) {
        const at = join(dir, `${kind}-${what}`);
        cpSync(join(dir, `${kind}-clean`), at, { recursive: true });
        add(at);
        targets.push(`${kind}-${what}`);
      }
    }
    await refusesEach(t, dir, engine, targets);
  });
}

t.test('--force still replaces every cache this program writes: the reference\'s v0, earlier v1 formats and rules, a killed rebuild\'s leftovers, a damaged manifest', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha', 'b.md': 'beta words' } });
  cpSync(new URL('../fixtures/compat-v0/caches/realistic', import.meta.url).pathname, join(dir, 'reference'), { recursive: true });
  await realCache(t, dir, 'v1', 'c1');
  const edits: [string, (m: { build_config: Record<string, unknown> }) => void][] = [
    ['format5', (m) => void (m.build_config['version'] = '5')], // refused by resolve with the advice to rebuild with --force
    ['format4', (m) => void (m.build_config['version'] = '4')],
    ['format3', (m) => void (m.build_config['version'] = '3')],
    ['rules', (m) => void (m.build_config['analyzer'] = { version: 'an older analyzer' })], // a cache written under other rules
  ];
  const targets = ['reference'];
  for (const [name, edit] of edits) {
    cpSync(join(dir, 'c1'), join(dir, name), { recursive: true });
    const m = JSON.parse(readFileSync(join(dir, name, 'manifest.json'), 'utf8')) as { build_config: Record<string, unknown> };
    edit(m);
    writeFileSync(join(dir, name, 'manifest.json'), JSON.stringify(m, null, 2));
    targets.push(name);
  }
  cpSync(join(dir, 'c1'), join(dir, 'leftovers'), { recursive: true });
  writeFileSync(join(dir, 'leftovers', 'build-state.json.tmp'), '{'); // a rebuild killed while it rewrote the build state
  writeFileSync(join(dir, 'leftovers', '.tick-probe'), 'x');
  cpSync(join(dir, 'c1'), join(dir, 'damaged1'), { recursive: true });
  writeFileSync(join(dir, 'damaged1', 'manifest.json'), '{ not json');
  targets.push('leftovers', 'damaged1');
  for (const engine of ['v0', 'v1'] as const) {
    for (const target of targets) {
      const r = await run(['build', '--engine', engine, '--sources', 'docs', '--cache', target, '--force'], { cwd: dir });
      t.equal(r.code, 0, `${engine} over ${target}: replaced`);
      const m = JSON.parse(readFileSync(join(dir, target, 'manifest.json'), 'utf8')) as { build_config: { version: string } };
      t.equal(m.build_config.version, engine === 'v0' ? '1' : '20', 'by the new cache');
    }
  }
});

t.test('the real process: exit 6 and one error line for `--cache . --force`', async (t) => {
  const dir = t.testdir(PROJECT);
  const r = spawnContext(['build', '--sources', 'docs', '--cache', '.', '--force'], { cwd: dir });
  t.equal(r.code, 6);
  t.equal(r.err.split('\n').filter((l) => l !== '').length, 1);
  t.ok(existsSync(join(dir, 'docs', 'notes.md')), 'the sources are still there');
});

for (const engine of ['v0', 'v1'] as const) {
  const e = engine === 'v1' ? ['--engine', 'v1'] : [];
  t.test(`${engine}: --project-root confines the build: symlinks leading out are skipped and reported`, async (t) => {
    const dir = t.testdir({ project: { docs: { 'in.md': 'inside words' }, notes: { 'n.md': 'a note inside the project' } }, 'secret.md': 'TOP SECRET outside' });
    symlinkSync(join(dir, 'secret.md'), join(dir, 'project', 'docs', 'leak.md'));
    symlinkSync(join(dir, 'project', 'notes', 'n.md'), join(dir, 'project', 'docs', 'twin.md')); // out of docs, inside the project: kept
    const cwd = join(dir, 'project');
    const r = await run(['build', ...e, '--project-root', '.', '--sources', 'docs', '--cache', 'c'], { cwd });
    t.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { document_count: number; skipped: { path: string; reason: string }[] };
    t.equal(out.document_count, 2, 'in.md and the link that stays inside');
    t.same(out.skipped, [{ path: 'leak.md', reason: 'symlink leads outside the allowed roots' }]);
    const resolved = await run(['resolve', '--cache', 'c', '--query', 'secret', '--budget', '1000'], { cwd });
    t.notMatch(resolved.out, /TOP SECRET/, 'the outside file is not in the cache');
    // Without --project-root the CLI follows the link, as documented.
    const free = await run(['build', ...e, '--sources', 'docs', '--cache', 'free'], { cwd });
    t.equal((JSON.parse(free.out) as { document_count: number }).document_count, 3);
  });

  t.test(`${engine}: --project-root refuses sources outside it (root_not_allowed, exit 8)`, async (t) => {
    const dir = t.testdir({ project: {}, docs: { 'a.md': 'alpha' } });
    const r = await run(['build', ...e, '--project-root', 'project', '--sources', 'docs', '--cache', 'project/c'], { cwd: dir });
    t.equal(r.code, 8);
    t.match(r.err, /root_not_allowed/);
    t.notOk(existsSync(join(dir, 'project', 'c')));
  });
}

t.test('--include/--exclude limits: count and length are usage errors (exit 1)', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' } });
  const many = Array.from({ length: MAX_GLOBS + 1 }, (_, i) => ['--include', `d${i}/**`]).flat();
  const r1 = await run(['build', '--engine', 'v1', '--sources', 'docs', '--cache', 'c', ...many], { cwd: dir });
  t.equal(r1.code, 1);
  t.match(r1.err, new RegExp(`--include takes at most ${MAX_GLOBS} globs, not ${MAX_GLOBS + 1}`));
  const r2 = await run(['build', '--engine', 'v1', '--sources', 'docs', '--cache', 'c', '--exclude', 'x'.repeat(MAX_GLOB_BYTES + 1)], { cwd: dir });
  t.equal(r2.code, 1);
  t.match(r2.err, new RegExp(`--exclude takes globs of at most ${MAX_GLOB_BYTES} bytes each`));
  const r3 = await run(['build', '--engine', 'v1', '--sources', 'docs', '--cache', 'c', '--exclude', '{'.repeat(25_000) + 'a' + '}'.repeat(25_000)], { cwd: dir });
  t.equal(r3.code, 1, 'the 50 KB brace glob of the report: refused at once, not compiled');
  const ok = await run(['build', '--engine', 'v1', '--sources', 'docs', '--cache', 'c', '--exclude', '{'.repeat(500) + 'a' + '}'.repeat(500)], { cwd: dir });
  t.equal(ok.code, 0, 'a glob within the limit is taken');
  t.notOk(existsSync(join(dir, 'c2')));
});

t.test('a .gitignore line over the limit is skipped and reported; the build goes on (was exit 7)', async (t) => {
  const dir = t.testdir({ docs: { '.gitignore': `drafts/\n${'a*'.repeat(60_000)}\n`, 'a.md': 'alpha', drafts: { 'x.md': 'draft' } } });
  const r = await run(['build', '--engine', 'v1', '--sources', 'docs', '--cache', 'c'], { cwd: dir });
  t.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out) as { document_count: number; skipped: { path: string; reason: string }[] };
  t.equal(out.document_count, 1, 'the other rules still apply (drafts/ ignored)');
  t.same(out.skipped, [{ path: '.gitignore', reason: 'line 2 is over 4096 characters: not applied' }]);
  t.ok(r.err.length < 1000, 'no giant regular expression on stderr');
  mkdirSync(join(dir, 'docs', 'sub'));
  writeFileSync(join(dir, 'docs', 'sub', '.gitignore'), 'x'.repeat(200_000));
  const status = await run(['status', '--cache', 'c'], { cwd: dir });
  t.equal(status.code, 0, 'status walks the same tree without failing');
});

t.test('a cache directory follows the umask, as the files in it do (it was always 0700)', async (t) => {
  const before = process.umask();
  t.teardown(() => void process.umask(before));
  for (const engine of ['v0', 'v1'] as const) {
    for (const [mask, mode] of [[0o022, 0o755], [0o027, 0o750], [0o077, 0o700]] as const) {
      const dir = t.testdir({ docs: { 'a.md': 'alpha' } });
      process.umask(mask);
      const r = await run(['build', '--engine', engine, '--sources', 'docs', '--cache', 'c'], { cwd: dir });
      process.umask(before);
      t.equal(r.code, 0);
      t.equal(lstatSync(join(dir, 'c')).mode & 0o777, mode, `${engine}, umask ${mask.toString(8)}: ${mode.toString(8)}`);
      t.notOk(existsSync(join(dir, 'c', '.umask-probe')), 'no probe left');
    }
  }
});

// Issue 44 item 5(b): "A cache may be built inside the sources folder: refuse it (with a
// clear error naming both paths)". A cache under a hidden folder of the sources (the
// `.context/caches` an indexing set-up keeps in its project) stays allowed: no walk takes a
// document from there.
for (const engine of ['v0', 'v1'] as const) {
  t.test(`${engine}: a cache inside its sources folder is refused, naming both; under a hidden folder there it is built`, async (t) => {
    const dir = t.testdir({ docs: { 'a.md': '# A\nalpha\n', guide: { 'b.md': '# B\nbeta\n' } } });
    const before = tree(dir);
    for (const [cache, sources] of [['docs/cache', 'docs'], ['docs/guide/cache', 'docs'], ['./docs/cache/', './docs']]) {
      const r = await run(['build', '--engine', engine, '--sources', sources as string, '--cache', cache as string], { cwd: dir, env: { SOURCE_DATE_EPOCH: '1767225600' } });
      t.equal(r.code, 6, `${cache}: exit 6 (io_error)`);
      t.equal(r.out, '');
      const shown = (cache as string).replace(/\/$/, '');
      t.equal(
        r.err,
        `error: io_error: I/O error occurred (the cache ${shown} would lie inside the sources folder ${sources}, where every build of them walks through it; choose a cache outside ${sources} (or under a hidden folder in it, such as ${sources}/.context/NAME))\n`,
        `${cache}: both paths named, as given, and what to do`,
      );
    }
    t.same(tree(dir), before, 'nothing written');
    const ok = await run(['build', '--engine', engine, '--sources', 'docs', '--cache', 'docs/.context/cache'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '1767225600' } });
    t.equal(ok.code, 0, 'under a hidden folder of the sources: built');
    t.match(ok.out, /"document_count":2[,}]/, 'from the two documents only');
    const again = await run(['build', '--engine', engine, '--sources', 'docs', '--cache', 'docs/.context/cache', '--force'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '1767225600' } });
    t.equal(again.code, 0);
    t.match(again.out, /"document_count":2[,}]/, 'a rebuild does not take the cache in');
    const root = await run(['build', '--engine', engine, '--sources', '.', '--cache', '.context/caches/all'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '1767225600' } });
    t.equal(root.code, 0, 'the whole folder, the cache under .context/: built');
  });
}
