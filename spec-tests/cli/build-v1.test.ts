// Checks issue 9 "Cache format 2, chosen at build time" (`context build --engine v1` with
// `--granularity file|section`, "keep these spellings"; the default engine stays v0) and
// docs/engine.md ("The build prints one JSON line"; --tokenizer; --include / --exclude
// repeatable) through `main` and the spawned bin: flags, usage errors (exit 1, nothing
// written), stdout's shape, SOURCE_DATE_EPOCH byte-identical builds and --force.
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { snapshot } from '../core/engine/v0/fixture.js';
import { expectedCacheVersion, manifestOf, versionOf } from '../core/engine/v1/fixture.js';
import { run, spawnContext } from './harness.js';

const USAGE = /\nusage: context build --sources DIR --cache OUT \[--force\] \[--engine v1\|v0\]\n[^]*docs\/engine\.md\)\n$/;

t.test('docs/sources.md "Formats and files": `build` (engine v1 by default) prints one JSON line, in this shape', async (t) => {
  const dir = t.testdir({ docs: { 'Guide.md': '# Guide\n\nalpha\n', 'b.mdx': 'beta', 'bad.md': Buffer.from([0xff]) } });
  const r = await run(['build', '--sources', 'docs', '--cache', 'out/cache'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '0' } });
  const m = manifestOf(join(dir, 'out', 'cache'));
  t.same(m.documents.map((d) => [d.path, d.version]), [['Guide.md', versionOf('# Guide\n\nalpha\n')], ['b.mdx', versionOf('beta')]]);
  const cv = expectedCacheVersion(m.build_config, m.files.packs);
  t.same(r, {
    code: 0,
    out: `{"cache_version":"${cv}","document_count":2,"engine":"v1","granularity":"section","tokenizer":"o200k_base","units":2,"reused":0,"analyzed":2,"unchanged":false,"formats":{"md":2},"skipped":[{"path":"bad.md","reason":"content is not UTF-8"}]}\n`,
    err: '',
  });
  t.equal(m.created_at, '1970-01-01T00:00:00Z', 'created_at from SOURCE_DATE_EPOCH');
  t.equal(m.source_root, '../../docs', 'relative paths from the working directory; source_root from the cache');
  t.same(readdirSync(join(dir, 'out')), ['cache'], 'no temp dir left');
});

t.test('issue 9: --granularity file|section, --tokenizer, --include/--exclude (repeatable, order kept)', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': '# A\n\nalpha\n', guide: { 'b.md': 'beta' }, drafts: { 'c.md': 'gamma' }, 'd.mdx': 'delta' } });
  const build = async (cache: string, ...flags: string[]): Promise<{ code: number; out: string }> =>
    run(['build', '--engine', 'v1', '--sources', 'docs', '--cache', cache, ...flags], { cwd: dir });
  const s = await build('s', '--granularity', 'section');
  t.equal(s.code, 0);
  t.match(s.out, /"granularity":"section","tokenizer":"o200k_base","units":4,/);
  t.equal(manifestOf(join(dir, 's')).build_config['granularity'], 'section');
  const f = await build('f', '--granularity=file');
  t.match(f.out, /"granularity":"file"/, '--flag=value works too');
  for (const tok of ['o200k_base', 'cl100k_base', 'bytes4']) {
    const r = await build(`t-${tok}`, '--tokenizer', tok);
    t.match(r.out, new RegExp(`"tokenizer":"${tok}"`), tok);
    t.equal(manifestOf(join(dir, `t-${tok}`)).build_config['tokenizer'], tok);
  }
  const g = await build('g', '--include', 'guide/**', '--include', '*.md', '--exclude', 'drafts/', '--exclude', '**/*.mdx');
  t.match(g.out, /"document_count":2,/);
  t.same(manifestOf(join(dir, 'g')).documents.map((d) => d.path), ['a.md', 'guide/b.md']);
  t.same(manifestOf(join(dir, 'g')).build_config['sources'], { extensions: ['adoc', 'asciidoc', 'htm', 'html', 'markdown', 'md', 'mdx', 'rst', 'txt'], include: ['guide/**', '*.md'], exclude: ['drafts/', '**/*.mdx'], gitignore: true, hidden: false });
  const v0 = await run(['build', '--engine', 'v0', '--sources', 'docs', '--cache', 'v0'], { cwd: dir });
  t.match(v0.out, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":3\}\n$/, '--engine v0 is the v0 build (every *.md, v0 stdout)');
  const dflt = await run(['build', '--sources', 'docs', '--cache', 'default'], { cwd: dir });
  // "Answers that fit, by default", What to build item 1: "A build without `--engine` writes
  // engine v1 with sections and the `o200k_base` tokenizer".
  t.match(dflt.out, /"engine":"v1","granularity":"section","tokenizer":"o200k_base",/, 'the default engine is v1, sections, o200k_base');
  t.equal(manifestOf(join(dir, 'default')).build_config['engine'], 'v1');
});

t.test('cli_spec.md "Exit Codes" 1: v1 usage errors, nothing written, stdout empty', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' } });
  const base = ['build', '--sources', 'docs', '--cache', 'c'];
  const cases: [string[], RegExp][] = [
    [['--engine', 'v0', '--granularity', 'file'], /--granularity needs --engine v1/],
    [['--engine', 'v0', '--granularity', 'section'], /--granularity needs --engine v1/],
    [['--engine', 'v0', '--tokenizer', 'o200k_base'], /--tokenizer needs --engine v1/],
    [['--engine', 'v0', '--tokenizer', 'bytes4'], /--tokenizer needs --engine v1/],
    [['--engine', 'v0', '--include', '*.md'], /--include needs --engine v1/],
    [['--engine', 'v0', '--exclude', 'drafts/'], /--exclude needs --engine v1/],
    [['--engine', 'v0', '--granularity', 'section', '--include', 'x'], /--granularity, --include need --engine v1/],
    [['--engine', 'v0', '--label', 'x'], /--label needs --engine v1/],
    [['--label', 'a b'], /--label: a label is 1 to 64 characters/],
    [['--label', ''], /--label: a label is 1 to 64 characters/],
    [['--engine', 'v2'], /--engine must be v0 or v1, not "v2"/],
    [['--engine', 'V1'], /--engine must be v0 or v1/],
    [['--engine', 'v1', '--granularity', 'paragraph'], /--granularity must be file or section, not "paragraph"/],
    [['--engine', 'v1', '--granularity', 'sections'], /--granularity must be file or section/],
    [['--engine', 'v1', '--tokenizer', 'gpt2'], /--tokenizer must be bytes4, o200k_base, cl100k_base, not "gpt2"/],
    [['--engine', 'v1', '--granularity', 'file', '--granularity', 'section'], /--granularity given more than once/],
    [['--engine', 'v1', '--include'], /--include needs a value/],
    [['--engine', 'v1', '--include', ''], /--include needs a non-empty glob/],
    [['--engine', 'v1', '--exclude', ''], /--exclude needs a non-empty glob/],
    [['--engine'], /--engine needs a value/],
  ];
  for (const [flags, message] of cases) {
    const r = await run([...base, ...flags], { cwd: dir });
    const what = flags.join(' ') || '(none)';
    t.equal(r.code, 1, `${what}: exit 1`);
    t.equal(r.out, '', `${what}: nothing on stdout`);
    t.match(r.err, message, `${what}: says why`);
    t.match(r.err, USAGE, `${what}: usage line`);
  }
  t.same(readdirSync(dir), ['docs'], 'nothing was built');
});

t.test('issue 9 "determinism": two CLI builds with the same SOURCE_DATE_EPOCH are byte-identical (every file)', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': '# A\n\nalpha useState\n', sub: { 'b.md': 'beta\r\n', 'c.md': 'beta\r\n' } } });
  const env = { SOURCE_DATE_EPOCH: '1700000000' };
  for (const g of ['file', 'section']) {
    const one = await run(['build', '--engine', 'v1', '--granularity', g, '--sources', 'docs', '--cache', `${g}1`], { cwd: dir, env });
    const two = await run(['build', '--engine', 'v1', '--granularity', g, '--sources', 'docs', '--cache', `${g}2`], { cwd: dir, env });
    t.equal(one.out, two.out, `${g}: same stdout`);
    const a = snapshot(join(dir, `${g}1`));
    // The cache's files (one pack and its segment's term file here), and the build state
    // (stamps of the same, untouched sources).
    t.same(Object.keys(a).map((k) => k.replace(/^packs\/[0-9a-f]{64}\.(pack|terms)$/, 'packs/<sha256>.$1')).sort(), ['build-state.json', 'manifest.json', 'packs', 'packs/<sha256>.pack', 'packs/<sha256>.terms']);
    t.same(a, snapshot(join(dir, `${g}2`)), `${g}: every file byte-identical`);
    t.match(a['manifest.json'] ?? '', /"created_at": "2023-11-14T22:13:20Z"/);
  }
});

t.test('context_cache.md "Rebuild" for v1: refused without --force; --force replaces it; a failed --force keeps it', async (t) => {
  const dir = t.testdir({ docs: { 'a.md': 'alpha' }, docs2: { 'b.md': 'beta' } });
  const v1 = ['build', '--engine', 'v1', '--cache', 'c'];
  t.equal((await run([...v1, '--sources', 'docs'], { cwd: dir })).code, 0);
  const before = snapshot(join(dir, 'c'));
  const refused = await run([...v1, '--sources', 'docs2'], { cwd: dir });
  t.same([refused.code, refused.out], [6, ''], 'an existing cache is refused: io_error');
  t.same(snapshot(join(dir, 'c')), before);
  const missing = await run([...v1, '--sources', 'nope', '--force'], { cwd: dir });
  t.same([missing.code, missing.out], [6, ''], 'a missing --sources fails before anything is touched');
  t.same(snapshot(join(dir, 'c')), before, 'the old cache is intact');
  const forced = await run([...v1, '--sources', 'docs2', '--force'], { cwd: dir });
  t.equal(forced.code, 0);
  t.same(manifestOf(join(dir, 'c')).documents.map((d) => d.path), ['b.md']);
  t.same(readdirSync(dir).sort(), ['c', 'docs', 'docs2'], 'no temp or old dir left');
});

t.test('the spawned bin: `build --engine v1`, then resolve, verify and inspect on the cache it wrote', async (t) => {
  const dir = t.testdir({ docs: { 'install.md': '# Install\n\nRun the installer.\n', 'other.md': 'Nothing relevant.' } });
  const built = spawnContext(['build', '--engine', 'v1', '--granularity', 'section', '--sources', 'docs', '--cache', 'c'], { cwd: dir, env: { SOURCE_DATE_EPOCH: '0' } });
  t.equal(built.code, 0, built.err);
  t.match(built.out, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":2,"engine":"v1","granularity":"section","tokenizer":"o200k_base","units":2,"reused":0,"analyzed":2,"unchanged":false,"formats":\{"md":2\},"skipped":\[\]\}\n$/);
  const resolved = spawnContext(['resolve', '--cache', 'c', '--query', 'installing', '--budget', '100', '--budget-scope', 'content', '--explain'], { cwd: dir });
  t.equal(resolved.code, 0, resolved.err);
  t.match(resolved.out, /^\{"documents":\[\{"id":"install\.md#install",/, 'the section, stemmed query term');
  t.match(resolved.out, /"documents_matched":1,"engine":"v1","granularity":"section","tokenizer":"o200k_base","terms":\["instal"\]\}\}\n$/);
  // Without --explain the answer is lean: id, short version, matched terms, content (the
  // section's heading is its first line, so no "under").
  const lean = spawnContext(['resolve', '--cache', 'c', '--query', 'installing', '--budget', '100', '--budget-scope', 'content'], { cwd: dir });
  t.equal(lean.code, 0, lean.err);
  t.equal((JSON.parse(lean.out) as { documents: { version: string }[] }).documents[0]?.version, versionOf('# Install\n\nRun the installer.\n').slice('sha256:'.length, 'sha256:'.length + 8), 'the version: the first 8 hex digits of the document\'s sha256');
  t.match(lean.out, /^\{"documents":\[\{"id":"install\.md#install","version":"[0-9a-f]{8}","matched":"installing","tokens":\d+,"content":"# Install\\n\\nRun the installer\.\\n"\}\],"selection":\{"budget":100,"budget_scope":"content","tokens_used":\d+,"matched":1\}\}\n$/);
  const verified = spawnContext(['verify', '--cache', 'c', '--format', 'json'], { cwd: dir });
  t.equal(verified.code, 0);
  t.match(verified.out, /^\{"cache_version":"sha256:[0-9a-f]{64}","valid":true,"checks":\[\{"name":"manifest","ok":true,"problems":\[\]\},/);
  const inspected = spawnContext(['inspect', '--cache', 'c', '--format', 'json'], { cwd: dir });
  t.equal(inspected.code, 0);
  // The seed's four fields, then what a v1 cache holds (issue 46 item 4).
  t.match(inspected.out, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":2,"total_bytes":\d+,"valid":true,"engine":"v1","label":null,"granularity":"section","tokenizer":"o200k_base","formats":\{"md":2\}\}\n$/);
});

// "Answers that fit, by default", What to build item 1: "A build that finds no source file
// says so (stderr warning, exit 0 with `document_count: 0` is not silent any more) and names
// the extensions it looked for."
t.test('a build that finds no document warns on stderr, naming the extensions; exit 0', async (t) => {
  const dir = t.testdir({ txt: { 'notes.json': 'alpha', '.hidden.md': 'x' }, mdx: { 'a.mdx': '# A\n\nalpha\n' }, docs: { 'a.md': 'alpha' } });
  const v1 = await run(['build', '--sources', 'txt', '--cache', 'c1'], { cwd: dir });
  t.equal(v1.code, 0);
  t.match(v1.out, /^\{"cache_version":"sha256:[0-9a-f]{64}","document_count":0,/);
  t.equal(
    v1.err,
    'context build: warning: No source file found: engine v1 reads .adoc, .asciidoc, .htm, .html, .markdown, .md, .mdx, .rst and .txt files (less what include/exclude globs, .gitignore files and hidden folders leave out), so the cache holds 0 documents.\n',
  );
  const v0 = await run(['build', '--engine', 'v0', '--sources', 'mdx', '--cache', 'c0'], { cwd: dir });
  t.equal(v0.code, 0);
  t.equal(v0.out.includes('"document_count":0'), true, 'v0 takes no .mdx');
  t.equal(v0.err, 'context build: warning: No source file found: engine v0 reads .md files, so the cache holds 0 documents.\n');
  const ok = await run(['build', '--sources', 'docs', '--cache', 'c2'], { cwd: dir });
  t.equal(ok.err, '', 'no warning when a document was found');
  const filtered = await run(['build', '--sources', 'docs', '--cache', 'c3', '--exclude', '*.md'], { cwd: dir });
  t.match(filtered.err, /warning: No source file found/, 'nor when the globs leave nothing: then it warns');
});
