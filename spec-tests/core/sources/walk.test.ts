// Checks docs/sources.md "Formats and files" and issue 9 "Builds every real tree" (".gitignore ... and
// skip .git/, node_modules/ by default for v1, with --include / --exclude globs; Markdown and
// MDX at least") against lib/core/sources/walk.ts: which files become sources, which are
// reported as skipped and why, and that special files are never opened.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_EXTENSIONS, listSources, type SourceOptions } from '../../../lib/core/sources/walk.js';

const OPTIONS: SourceOptions = { extensions: DEFAULT_EXTENSIONS, include: [], exclude: [], gitignore: true };
const list = (root: string, o: Partial<SourceOptions> = {}): readonly string[] => listSources(root, { ...OPTIONS, ...o }).files;

t.test('sources.md "Formats and files": Markdown, MDX, reStructuredText, AsciiDoc, plain text and HTML (any case) and nothing else', async (t) => {
  const root = t.testdir({
    'a.md': 'x', 'B.MD': 'x', 'c.Mdx': 'x', 'd.markdown': 'x', 'e.MARKDOWN': 'x',
    'f.txt': 'x', 'g.md.txt': 'x', README: 'x', 'h.mkd': 'x', 'i.rst': 'x', 'j.ADOC': 'x', 'k.asciidoc': 'x', 'l.html': 'x', 'm.rest': 'x', 'n.xhtml': 'x', 'md': 'x', 'x.md.bak': 'x',
    'dir.md': { 'inner.md': 'x' },
  });
  t.same(list(root), ['B.MD', 'a.md', 'c.Mdx', 'd.markdown', 'dir.md/inner.md', 'e.MARKDOWN', 'f.txt', 'g.md.txt', 'i.rst', 'j.ADOC', 'k.asciidoc', 'l.html'], 'a directory named *.md is walked, not read');
  t.same(list(root, { extensions: ['markdown', 'md', 'mdx'] }), ['B.MD', 'a.md', 'c.Mdx', 'd.markdown', 'dir.md/inner.md', 'e.MARKDOWN'], 'the set a cache records is the set walked');
  t.same(listSources(root, OPTIONS).skipped, [], 'files of other types are not sources, and not "skipped" either');
});

t.test('sources.md "Formats and files": paths are /-separated from the root, case kept, sorted by UTF-8 bytes', async (t) => {
  const root = t.testdir({ 'é.md': 'x', 'z.md': 'x', 'Z.md': 'x', '\u{1F600}.md': 'x', '\uFFFD.md': 'x', a: { b: { 'C.md': 'x' } }, 'a.md': 'x', 'a-b.md': 'x' });
  const expected = ['é.md', 'z.md', 'Z.md', '\u{1F600}.md', '\uFFFD.md', 'a/b/C.md', 'a.md', 'a-b.md'].sort((x, y) =>
    Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8')),
  );
  t.same(list(root), expected);
  t.ok(expected.indexOf('\uFFFD.md') < expected.indexOf('\u{1F600}.md'), 'U+FFFD before U+1F600: byte order, not UTF-16 order');
});

t.test('sources.md "Formats and files": .git/, node_modules/ and every hidden file or directory are skipped', async (t) => {
  const root = t.testdir({
    '.git': { 'HEAD.md': 'x' },
    node_modules: { pkg: { 'README.md': 'x' } },
    sub: { node_modules: { 'x.md': 'x' }, '.vitepress': { 'config.md': 'x' }, 'kept.md': 'x' },
    '.github': { 'PULL_REQUEST_TEMPLATE.md': 'x' },
    '.hidden.md': 'x',
    'visible.md': 'x',
  });
  t.same(list(root), ['sub/kept.md', 'visible.md']);
  t.same(listSources(root, OPTIONS).skipped, [], 'skipped by rule, not reported');
  t.same(list(root, { gitignore: false }), ['sub/kept.md', 'visible.md'], 'with or without gitignore');
});

t.test('sources.md "Formats and files": .gitignore honoured per directory with git semantics (nested, negation)', async (t) => {
  const root = t.testdir({
    '.gitignore': '# generated\n*.draft.md\n/build/\nnotes.md\n*.md.orig\ntmp\n!important.draft.md\n',
    'a.md': 'x',
    'x.draft.md': 'x',
    'important.draft.md': 'x',
    'notes.md': 'x',
    build: { 'out.md': 'x' },
    docs: {
      build: { 'kept.md': 'x' }, // "/build/" is anchored to the root: docs/build stays
      'notes.md': 'x', // "notes.md" has no slash: matches at any depth
      tmp: { 'y.md': 'x' }, // "tmp" matches the directory
      '.gitignore': '!keep.draft.md\nlocal.md\n',
      'keep.draft.md': 'x', // re-included by the deeper file
      'other.draft.md': 'x',
      'local.md': 'x',
    },
    other: { 'local.md': 'x' }, // docs/.gitignore does not apply here
  });
  t.same(list(root), ['a.md', 'docs/build/kept.md', 'docs/keep.draft.md', 'important.draft.md', 'other/local.md']);
  t.equal(list(root, { gitignore: false }).length, 12, 'without gitignore every Markdown file is listed');
});

t.test('gitignore: a file under an excluded directory cannot be re-included (git: "not possible to re-include")', async (t) => {
  const root = t.testdir({ '.gitignore': 'generated/\n!generated/keep.md\n', generated: { 'keep.md': 'x', 'drop.md': 'x' }, 'a.md': 'x' });
  t.same(list(root), ['a.md']);
});

t.test('sources.md "Formats and files": a .gitignore above --sources is not read', async (t) => {
  const dir = t.testdir({ '.gitignore': '*.md\n', docs: { 'a.md': 'x', sub: { 'b.md': 'x' } } });
  t.same(list(join(dir, 'docs')), ['a.md', 'sub/b.md']);
});

t.test('sources.md "Formats and files": --include keeps only matching files; --exclude drops files and directories', async (t) => {
  const root = t.testdir({
    guide: { 'install.md': 'x', 'api.mdx': 'x', drafts: { 'wip.md': 'x' } },
    drafts: { 'old.md': 'x' },
    'top.md': 'x',
    blog: { 'post.mdx': 'x' },
  });
  t.same(list(root, { include: ['guide/**'] }), ['guide/api.mdx', 'guide/drafts/wip.md', 'guide/install.md']);
  t.same(list(root, { include: ['**/*.mdx'] }), ['blog/post.mdx', 'guide/api.mdx']);
  t.same(list(root, { include: ['*.md'] }), ['top.md'], 'a glob without ** matches at the root only');
  t.same(list(root, { include: ['guide/**', 'blog/**'] }), ['blog/post.mdx', 'guide/api.mdx', 'guide/drafts/wip.md', 'guide/install.md'], 'repeatable: any include keeps a file');
  t.same(list(root, { exclude: ['drafts/'] }), ['blog/post.mdx', 'guide/api.mdx', 'guide/drafts/wip.md', 'guide/install.md', 'top.md'], 'drafts/ is the root directory');
  t.same(list(root, { exclude: ['**/drafts/'] }), ['blog/post.mdx', 'guide/api.mdx', 'guide/install.md', 'top.md'], 'at any depth');
  // A directory is matched as written with or without its trailing slash: `--exclude drafts`
  // drops the directory drafts/ (as in .gitignore), it is not a no-op.
  t.same(list(root, { exclude: ['drafts'] }), ['blog/post.mdx', 'guide/api.mdx', 'guide/drafts/wip.md', 'guide/install.md', 'top.md'], 'drafts without a slash');
  t.same(list(root, { exclude: ['guide/drafts', 'blog'] }), ['drafts/old.md', 'guide/api.mdx', 'guide/install.md', 'top.md'], 'a nested directory by its path');
  t.same(list(root, { exclude: ['drafts/**'] }), ['blog/post.mdx', 'guide/api.mdx', 'guide/drafts/wip.md', 'guide/install.md', 'top.md']);
  t.same(list(root, { exclude: ['**/*.mdx', 'top.md'] }), ['drafts/old.md', 'guide/drafts/wip.md', 'guide/install.md'], 'repeatable: any exclude drops');
  t.same(list(root, { include: ['guide/**'], exclude: ['**/drafts/'] }), ['guide/api.mdx', 'guide/install.md'], 'exclude wins over include');
  t.same(list(root, { include: ['.hidden/**'] }), [], 'include cannot bring back hidden entries');
});

t.test('sources.md "Formats and files": symlinks to files are read; symlinked directories are not descended', async (t) => {
  const dir = t.testdir({
    outside: { 'far.md': 'far', 'target.txt': 'linked' },
    src: {
      'link.md': t.fixture('symlink', '../outside/target.txt'),
      'linkdir': t.fixture('symlink', '../outside'),
      'dirlink.md': t.fixture('symlink', '../outside'),
      'broken.md': t.fixture('symlink', 'nowhere.md'),
      'loop.md': t.fixture('symlink', 'loop.md'),
      'real.md': 'real',
    },
  });
  const listing = listSources(join(dir, 'src'), OPTIONS);
  t.same(listing.files, ['link.md', 'real.md'], 'no far.md: linkdir is not walked');
  t.same(listing.skipped, [
    { path: 'broken.md', reason: 'symlink does not lead to a regular file' },
    { path: 'dirlink.md', reason: 'symlink does not lead to a regular file' },
    { path: 'loop.md', reason: 'symlink does not lead to a regular file' },
  ]);
});

t.test('sources.md "Formats and files": names that are not UTF-8 are reported as skipped', async (t) => {
  const root = t.testdir({ 'ok.md': 'x' });
  writeFileSync(Buffer.concat([Buffer.from(root + '/caf'), Buffer.from([0xe9]), Buffer.from('.md')]), 'latin-1 name');
  const badDir = Buffer.concat([Buffer.from(root + '/d'), Buffer.from([0xff])]);
  mkdirSync(badDir);
  writeFileSync(Buffer.concat([badDir, Buffer.from('/inner.md')]), 'inside');
  const listing = listSources(root, OPTIONS);
  t.same(listing.files, ['ok.md']);
  t.same(listing.skipped, [
    { path: 'caf\uFFFD.md', reason: 'file name is not UTF-8' },
    { path: 'd\uFFFD', reason: 'directory name is not UTF-8' },
  ]);
});

t.test('sources.md "Formats and files": a FIFO named *.md is reported and never opened', async (t) => {
  const root = t.testdir({ 'a.md': 'x' });
  const made = spawnSync('mkfifo', [join(root, 'pipe.md')]);
  if (made.status !== 0) {
    t.plan(0, 'mkfifo is not available here');
    return;
  }
  // listSources is synchronous: opening the FIFO would block this test until tap's timeout.
  const listing = listSources(root, OPTIONS);
  t.same(listing.files, ['a.md']);
  t.same(listing.skipped, [{ path: 'pipe.md', reason: 'not a regular file' }]);
});

t.test('a missing root is io_error', async (t) => {
  const dir = t.testdir({});
  t.throws(() => listSources(join(dir, 'nope'), OPTIONS), { code: 'io_error' });
});

t.test('sources.md "Formats and files": a P.txt beside the page P.html is left out (git\'s AsciiDoc sources)', async (t) => {
  const dir = t.testdir({
    'git-commit.html': '<h1>git-commit(1)</h1>',
    'git-commit.txt': 'git-commit(1)\n=============\n',
    'NOTES.TXT': 'upper case\n',
    'NOTES.html': '<h1>Notes</h1>',
    'alone.txt': 'no page\n',
    'guide.md': '# Guide\n',
    'guide.html': '<h1>Guide</h1>',
    sub: { 'git-commit.txt': 'another directory\n', 'page.htm': '<h1>x</h1>', 'page.txt': 'beside .htm\n' },
  });
  const listing = listSources(dir, OPTIONS);
  t.same(listing.files, ['NOTES.html', 'alone.txt', 'git-commit.html', 'guide.html', 'guide.md', 'sub/git-commit.txt', 'sub/page.htm'],
    'the .txt beside its .html or .htm is left out (its extension in any case); a .txt alone or in another directory, and a .md beside a page, stay');
  t.same(listing.skipped, [], 'a rule, not reported per file');
  t.same(listSources(dir, { ...OPTIONS, include: ['**/*.txt'] }).files, ['alone.txt', 'git-commit.txt', 'sub/git-commit.txt', 'sub/page.txt'], 'with no page kept by --include, every text file is read');
});

t.test('sources.md "Formats and files": a Sphinx build\'s _sources/P.EXT.txt is left out when its page P.html is read', async (t) => {
  const dir = t.testdir({
    html: {
      'index.html': '<h1>Home</h1>',
      library: { 'os.html': '<h1>os</h1>' },
      _sources: { 'index.rst.txt': 'Home\n====\n', library: { 'os.rst.txt': 'os\n==\n', 'gone.rst.txt': 'Gone\n====\n' }, 'notes.txt': 'plain\n' },
    },
    book: { _sources: { 'intro.md.txt': '# Intro\n' } },
  });
  const listing = listSources(dir, OPTIONS);
  t.same(listing.files, ['book/_sources/intro.md.txt', 'html/_sources/library/gone.rst.txt', 'html/_sources/notes.txt', 'html/index.html', 'html/library/os.html'],
    "copies whose page is there are left out; a copy without its page, a plain .txt, and another tree's copies stay");
  t.same(listing.skipped, [], 'a rule like node_modules: not reported per file');
  const only = listSources(dir, { ...OPTIONS, include: ['**/*.txt'] });
  t.same(only.files, ['book/_sources/intro.md.txt', 'html/_sources/index.rst.txt', 'html/_sources/library/gone.rst.txt', 'html/_sources/library/os.rst.txt', 'html/_sources/notes.txt'], 'with no page kept by --include, every copy is read');
  t.same(listSources(join(dir, 'html', '_sources'), OPTIONS).files, ['index.rst.txt', 'library/gone.rst.txt', 'library/os.rst.txt', 'notes.txt'], 'pointed at _sources itself: read');
});
