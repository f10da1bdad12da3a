// Issue 46 end to end: a folder with one document of each format is built (the build's line
// counts them per format, build_config records the extension set) and a question only the
// reStructuredText page (AWS CLI's S3 settings) answers is resolved to its section.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestOf } from '../core/engine/v1/fixture.js';
import { run } from './harness.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'formats');

t.test('one file of each format: built, counted, and the rST section answers', async (t) => {
  const dir = t.testdir({
    docs: {
      'guide.md': '# Guide\n\nInstall the tool with the package manager.\n',
      's3.rst': readFileSync(join(FIXTURES, 'rst', 'awscli-s3-config.rst'), 'utf8'),
      'jetty.adoc': readFileSync(join(FIXTURES, 'asciidoc', 'jetty-home-README.adoc'), 'utf8'),
      'notes.txt': 'Meeting notes.\n\nThe release is on Friday.\n',
      'page.html': '<html><head><style>h1 { color: teal }</style></head><body>\n<h1 id="welcome">Welcome</h1>\n<p>The harbour ferry leaves at noon.</p>\n<script>var teal = 1;</script>\n</body></html>\n',
      'data.json': '{"not": "a document"}',
    },
  });
  const built = await run(['build', '--sources', 'docs', '--cache', 'cache'], { cwd: dir });
  t.equal(built.code, 0, built.err);
  t.match(built.out, /"document_count":5,/);
  t.match(built.out, /"formats":\{"adoc":1,"html":1,"md":1,"rst":1,"txt":1\},/, 'documents per format, keys sorted');
  const config = manifestOf(join(dir, 'cache')).build_config as { sources: { extensions: string[] } };
  t.same(config.sources.extensions, ['adoc', 'asciidoc', 'htm', 'html', 'markdown', 'md', 'mdx', 'rst', 'txt']);
  const r = await run(['resolve', '--cache', 'cache', '--query', 'producer consumer task queue size', '--budget', '600'], { cwd: dir });
  t.equal(r.code, 0, r.err);
  const answer = JSON.parse(r.out) as { documents: Array<{ id: string; under?: string; content: string }> };
  const first = answer.documents[0];
  t.equal(first?.id, 's3.rst#max-queue-size', 'the rST section, by its docutils id');
  t.equal(first?.under, 'Configuration Values', 'under: the heading above (the content opens with its own title line)');
  t.match(first?.content ?? '', /^max_queue_size\n--------------\n\n\*\*Default\*\* - ``1000``\n/, 'content is the source text');
  const txt = await run(['resolve', '--cache', 'cache', '--query', 'release friday', '--budget', '300'], { cwd: dir });
  const txtAnswer = JSON.parse(txt.out) as { documents: Array<{ id: string; under?: string }> };
  t.same(txtAnswer.documents.map((d) => [d.id, d.under]), [['notes.txt', 'notes.txt']], 'a text file is one section named by its file name');
  const html = await run(['resolve', '--cache', 'cache', '--query', 'harbour ferry', '--budget', '300'], { cwd: dir });
  const htmlAnswer = JSON.parse(html.out) as { documents: Array<{ id: string; content: string }> };
  t.equal(htmlAnswer.documents[0]?.id, 'page.html#welcome', 'a small page is one unit: its h1 section (the head is no text)');
  t.equal(htmlAnswer.documents[0]?.content, '# Welcome\n\nThe harbour ferry leaves at noon.\n', 'printed as its visible text: no tags, style or script');
  const hidden = await run(['resolve', '--cache', 'cache', '--query', 'teal', '--budget', '300'], { cwd: dir });
  t.same((JSON.parse(hidden.out) as { documents: unknown[] }).documents, [], 'words in a style or script are not indexed');
  const narrowed = await run(['build', '--sources', 'docs', '--cache', 'md-only', '--include', '**/*.md'], { cwd: dir });
  t.match(narrowed.out, /"formats":\{"md":1\},/, '--include still narrows');
});

t.test('a Sphinx page as shipped: its body is one unit printed as visible text, its navigation none', async (t) => {
  const dir = t.testdir({ docs: { reference: { 'exit-codes.html': readFileSync(join(FIXTURES, 'html', 'pytest-exit-codes.html'), 'utf8') } } });
  const built = await run(['build', '--sources', 'docs', '--cache', 'cache'], { cwd: dir });
  t.equal(built.code, 0, built.err);
  t.match(built.out, /"units":1,/, 'one unit: no Navigation, Contents, About the project, Related Topics or Useful Links unit');
  const nav = await run(['resolve', '--cache', 'cache', '--query', 'PyPI GitHub Tracker related topics', '--budget', '500'], { cwd: dir });
  t.same((JSON.parse(nav.out) as { documents: unknown[] }).documents, [], "the sidebar's words are not indexed");
  const r = await run(['resolve', '--cache', 'cache', '--query', 'import exit codes public API', '--budget', '500'], { cwd: dir });
  const entry = (JSON.parse(r.out) as { documents: Array<{ id: string; content: string }> }).documents[0];
  t.equal(entry?.id, 'reference/exit-codes.html#exit-codes', "the section's id is Sphinx's");
  t.ok(entry?.content.startsWith('# Exit codes\n\nRunning `pytest` can result in six different exit codes:\n'), 'the heading line, then the text, inline code in backticks');
  t.match(entry?.content ?? '', /\n```\nfrom pytest import ExitCode\n```\n/, 'the code block as fenced code');
  t.notMatch(entry?.content ?? '', /[<>]|&#/, 'no tag, no character reference');
  const verified = await run(['verify', '--cache', 'cache'], { cwd: dir });
  t.equal(verified.code, 0, 'verify rebuilds the index from the stored page and finds it equal');
});

t.test("a Sphinx build's source copy (_sources/PAGE.rst.txt) is read as reStructuredText, not as plain text", async (t) => {
  // Each section long enough to be a unit of its own (small neighbours are merged, docs/sources.md "Units that fit").
  const filler = (word: string): string => `${Array.from({ length: 60 }, (_, i) => `${word}${i}`).join(' ')}\n`;
  const rst = `Deploying\n=========\n\nHow the service is shipped.\n\n${filler('ship')}\nRolling back\n------------\n\nRun \`\`deploy --undo\`\` to restore the previous release.\n\n${filler('undo')}`;
  const dir = t.testdir({ docs: { _sources: { 'deploy.rst.txt': rst }, 'notes.txt': 'Deploying\n=========\n\nMeeting notes.\n' } });
  const built = await run(['build', '--sources', 'docs', '--cache', 'cache'], { cwd: dir });
  t.equal(built.code, 0, built.err);
  t.match(built.out, /"formats":\{"rst":1,"txt":1\},/, 'counted as rST; a plain .txt stays text');
  const r = await run(['resolve', '--cache', 'cache', '--query', 'restore the previous release', '--budget', '300'], { cwd: dir });
  t.equal(r.code, 0, r.err);
  const entry = (JSON.parse(r.out) as { documents: Array<{ id: string; under?: string; content: string }> }).documents[0];
  t.equal(entry?.id, '_sources/deploy.rst.txt#rolling-back', 'the section, by its docutils id');
  t.equal(entry?.under, 'Deploying', 'under the page title');
  t.equal(entry?.content, `Rolling back\n------------\n\nRun \`\`deploy --undo\`\` to restore the previous release.\n\n${filler('undo')}`, 'the section alone');
  const verified = await run(['verify', '--cache', 'cache'], { cwd: dir });
  t.equal(verified.code, 0, 'verify rebuilds its index the same way');
});
