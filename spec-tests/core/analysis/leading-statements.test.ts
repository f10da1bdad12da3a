// The import / export statements that open an MDX page are not its body (cache format 15;
// docs/sources.md "What is a heading" and "Sections" rule 0): MDX compiles them away
// (micromark-extension-mdxjs-esm: a block from a line starting `import` or `export` at
// column 0 up to a blank line), and Docusaurus reads `.md` pages as MDX, so a page's opening
// `import Tabs from '@theme/Tabs';` is neither printed, counted nor indexed, as its front
// matter is not. So is a `<script>` or `<style>` block opening a page (VitePress hoists a
// page's `<script setup>`; no renderer shows either: CommonMark's HTML block of type 1). Checked on the reader (lib/core/analysis/markdown.ts leadingStatementsEnd,
// parseMarkdown's bodyStart) and through a real build's units and answers.
import t from 'tap';
import { join } from 'node:path';
import { bodyStartOf, leadingStatementsEnd, parseMarkdown } from '../../../lib/core/analysis/markdown.js';
import { resolveText } from '../../../lib/core/operations/api.js';
import { buildV1, unitsOf } from '../engine/v1/fixture.js';

const FRONT = '---\ntitle: Install\n---\n';
const IMPORTS = "import Tabs from '@theme/Tabs';\nimport { Steps, TabItem } from \"@astrojs/starlight/components\";\n";

t.test('leadingStatementsEnd: past each import / export block that opens the page', async (t) => {
  const doc = `${FRONT}\n${IMPORTS}\nexport const meta = {\n  sidebar: 1,\n};\n\nInstall it.\n`;
  const end = leadingStatementsEnd(doc, FRONT.length);
  t.equal(doc.slice(end), '\nInstall it.\n', 'both blocks, and the blank line between them; the blank line after stays body');
  t.equal(bodyStartOf(parseMarkdown(doc)), end, 'parseMarkdown: bodyStart');
  t.equal(parseMarkdown(doc).frontMatter?.title, 'Install', 'the front matter is read as before');
  const multi = "import {\n  A,\n  B,\n} from './parts';\n\n# Title\n";
  t.equal(multi.slice(leadingStatementsEnd(multi, 0)), '\n# Title\n', 'an import over several lines: its block');
  t.equal(leadingStatementsEnd("import './styles.css';\nText\n", 0), 28, 'a block runs to a blank line, as MDX reads it');
  const crlf = "import a from 'b'\r\n\r\nText\r\n";
  t.equal(crlf.slice(leadingStatementsEnd(crlf, 0)), '\r\nText\r\n', 'CRLF line endings');
  t.equal(leadingStatementsEnd("export default function Layout() {}\n", 0), 36, 'export default');
  t.equal(leadingStatementsEnd("export { a } from './a';\n", 0), 25, 'export { … }');
});

t.test('leadingStatementsEnd: prose, indented or later statements are body', async (t) => {
  for (const doc of [
    'import the data before you start.\n',
    'Import Tabs from the theme.\n',
    'export your settings first, then restart.\n',
    "  import a from 'b'\n",
    "import('a')\n",
    "import.meta.url\n",
    "# Title\n\nimport a from 'b'\n",
    "Text first.\n\nimport a from 'b'\n",
    "```js\nimport a from 'b'\n```\n",
  ]) {
    t.equal(leadingStatementsEnd(doc, 0), 0, JSON.stringify(doc));
    t.equal(parseMarkdown(doc).bodyStart, undefined, `no bodyStart: ${JSON.stringify(doc)}`);
  }
  t.equal(bodyStartOf(parseMarkdown(`${FRONT}Text\n`)), FRONT.length, 'without statements: the front matter end');
  t.equal(bodyStartOf(parseMarkdown('Text\n')), 0, 'neither: 0');
});

t.test('leadingStatementsEnd: <script> and <style> blocks opening a page, to the line that closes them', async (t) => {
  const vitepress = `${FRONT}\n<script setup>\nimport Box from './Box.vue'\n\nconst dark = true\n</script>\n\n# Usage\n`;
  t.equal(vitepress.slice(leadingStatementsEnd(vitepress, FRONT.length)), '\n# Usage\n', 'script setup, a blank line inside it');
  t.equal(bodyStartOf(parseMarkdown(vitepress)), vitepress.indexOf('\n# Usage'), 'parseMarkdown agrees');
  t.same(parseMarkdown(vitepress).headings.map((h) => h.text), ['Usage']);
  const both = "<style scoped>\n.a { color: red }\n</style>\nimport a from 'b'\n\nText\n";
  t.equal(both.slice(leadingStatementsEnd(both, 0)), '\nText\n', 'a style block, then a statement');
  t.equal(leadingStatementsEnd('<SCRIPT type="module">go()</SCRIPT>\nText\n', 0), 36, 'case-insensitive, closed on its own line');
  t.equal(leadingStatementsEnd('   <script>\nx\n</pre>\nText\n', 0), 21, 'CommonMark: indented up to 3 spaces, closed by any of its four end tags');
  for (const doc of ['<script>\nnever closed\n\n# T\n', '<scripts>\n</scripts>\n', '<pre>\nx\n</pre>\n', '    <script>\n</script>\n', 'Text\n\n<style>\n</style>\n']) {
    t.equal(leadingStatementsEnd(doc, 0), 0, `body: ${JSON.stringify(doc)}`);
  }
});

t.test('a heading after the statements is a heading; none is read inside them', async (t) => {
  const doc = `${IMPORTS}export const x = 1\n---\n\n# Usage\n\ntext\n`;
  t.same(parseMarkdown(doc).headings.map((h) => [h.level, h.text]), [[1, 'Usage']], 'the --- inside the block is no setext underline');
});

t.test('through a build: the statements are neither printed, counted nor indexed', async (t) => {
  const page = `${FRONT}\n${IMPORTS}\nInstall the kiwi widget with your package manager.\n\n## Proxy\n\nSet the kiwi proxy in the configuration file.\n`;
  const dir = t.testdir({ src: { 'install.mdx': page, 'plain.md': `${FRONT}\n${IMPORTS}\nKiwi notes in a Docusaurus page.\n` } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  const units = unitsOf(cache);
  const first = units.filter((u) => u.path === 'install.mdx').sort((a, b) => a.start - b.start)[0];
  t.equal(first?.start, page.indexOf('\nInstall the kiwi'), 'the first unit starts past the statements');
  const answer = JSON.parse(resolveText(cache, 'kiwi', 4000, 'json')) as { documents: { id: string; content: string }[] };
  t.ok(answer.documents.length >= 2);
  for (const d of answer.documents) t.notMatch(d.content, /import|@theme/, `${d.id}: no statement printed`);
  const matched = JSON.parse(resolveText(cache, 'theme starlight tabs', 4000, 'json')) as { documents: unknown[] };
  t.same(matched.documents, [], 'the statements\' words match nothing');
});

t.test('linear: 1 MB of statements, one block or many, is read in one pass', async (t) => {
  // Each line is read once for its block and each block once for its module name: a reader
  // that rescanned from every line would take ~10^10 steps here.
  const line = "import { Alpha, Beta } from '@scope/package';\n";
  const n = Math.ceil((1 << 20) / line.length);
  for (const [name, doc] of [
    ['one block', line.repeat(n) + '\nText\n'],
    ['a block per line', (line + '\n').repeat(n) + 'Text\n'],
    ['one block without a module', 'import {\n' + 'Alpha,\n'.repeat(n * 6) + '\nText\n'],
    ['a script block', '<script>\n' + line.repeat(n) + '</script>\n\nText\n'],
    ['a script never closed', '<script>\n' + '</scrip>\n'.repeat(n * 4) + '\nText\n'],
  ] as const) {
    const start = process.hrtime.bigint();
    const end = leadingStatementsEnd(doc, 0);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    t.ok(end === doc.lastIndexOf('\nText') || ((name === 'one block without a module' || name === 'a script never closed') && end === 0), `${name}: ends where the statements end`);
    t.ok(ms < 2000, `${name}: ${ms.toFixed(0)} ms`);
    t.equal(bodyStartOf(parseMarkdown(doc)), end, `${name}: parseMarkdown agrees`);
  }
});
