// Custom heading ids (lib/core/analysis/markdown.ts, option headingIds, which engine v1
// turns on): "Answers that fit, by default", What to build item 5: "Heading ids as the sites
// render them. `{#id}`, `{ #id }` and MDX `{/*id*/}` after a heading set its slug and are
// removed from its text and trail." Rules as docs/sources.md "Units that fit" states them:
// ids are letters, digits, `_ - . :`; an escaped brace is text; ids stay unique in the
// document; without the option the reading is GitHub's, unchanged. Since format 16, the
// attribute lists of Pandoc, kramdown and Python-Markdown's attr_list too (docs/sources.md
// "Heading ids as sites render them").

import t from 'tap';
import fc from 'fast-check';
import { headingId, parseMarkdown } from '../../../lib/core/analysis/markdown.js';
import { splitSections } from '../../../lib/core/analysis/sections.js';

const read = (doc: string, headingIds = true): Array<[string, string]> =>
  parseMarkdown(doc, { headingIds }).headings.map((h) => [h.text, h.slug]);

t.test('{#id}, { #id } and {/*id*/} set the slug and leave the text', async (t) => {
  t.same(read('## Usage {#usage}\n'), [['Usage', 'usage']]);
  t.same(read('## Lifespan { #lifespan }\n'), [['Lifespan', 'lifespan']]);
  t.same(read('## Usage {/*usage*/}\n'), [['Usage', 'usage']]);
  t.same(read('## Usage {/* usage */}\n'), [['Usage', 'usage']], 'spaces inside the MDX comment');
  t.same(read('## Step `one`{#First.Step:1} ##\n'), [['Step one', 'First.Step:1']], 'kept as written, case included; closing #s still dropped');
  t.same(read('Setext title {#intro}\n===\n'), [['Setext title', 'intro']], 'setext headings too');
  t.same(read('### 日本語 {#日本}\n'), [['日本語', '日本']], 'Unicode letters');
});

t.test('not ids: escaped braces, other contents, text after the braces', async (t) => {
  t.same(read('## Literal \\{#x}\n'), [['Literal {#x}', 'literal-x']], 'an escaped brace is text');
  t.same(read('## Two words {#a b}\n'), [['Two words {#a b}', 'two-words-a-b']]);
  t.same(read('## Tilde {#a~b}\n'), [['Tilde {#a~b}', 'tilde-ab']], '~ is kept for section sub-parts');
  t.same(read('## Mid {#x} text\n'), [['Mid {#x} text', 'mid-x-text']], 'only at the end');
  t.same(read('## Comment {/* two words */}\n'), [['Comment {/* two words */}', 'comment--two-words-']], 'an MDX comment that is no id stays');
  t.same(read('```\n## In code {#x}\n```\n'), [], 'fenced code is no heading');
});

t.test('attribute lists (Pandoc, kramdown, Python-Markdown attr_list): not text; their id, if any, the slug', async (t) => {
  // Material for MkDocs' changelog writes its versions so.
  t.same(read('### 4.39.0 <small>August 3, 2023</small> { id="4.39.0" }\n'), [['4.39.0 August 3, 2023', '4.39.0']]);
  t.same(read('## Class {.red}\n'), [['Class', 'class']], 'a list naming no id: the slug from the text');
  t.same(read('## A {: #x .y data-toc-label="A b" }\n'), [['A', 'x']], "kramdown's and attr_list's `{:`, quoted values with spaces");
  t.same(read("## Q { lang='en' id='q.1' }\n"), [['Q', 'q.1']], 'single quotes, id= as well as #id');
  t.same(read('## H {id=a #b}\n'), [['H', 'b']], 'the last id named wins, as attr_list assigns them in order');
  t.same(read('## C {-}\n'), [['C', 'c']], "Pandoc's unnumbered mark");
  t.same(read('## G {.c}\n## G\n'), [['G', 'g'], ['G', 'g-1']], 'slugs made from the text are numbered as usual');
});

t.test('not attribute lists: bare words, bad ids, no space before, text after', async (t) => {
  t.same(read('## B { data-search-exclude }\n'), [['B { data-search-exclude }', 'b--data-search-exclude-']], 'a bare word: only Python-Markdown reads it');
  t.same(read('## F { id="x y" }\n'), [['F { id="x y" }', 'f--idx-y-']], 'an id that is no id');
  t.same(read('## `x`{.py}\n'), [['x{.py}', 'xpy']], "no space before: Pandoc's attributes of the code span, not the heading's");
  t.same(read('## K { #k } trailing\n'), [['K { #k } trailing', 'k--k--trailing']], 'only at the end');
  t.same(read('## L { key=va"l }\n'), [['L { key=va"l }', 'l--keyval-']], 'a stray quote');
  t.same(read('## Lit \\{.x}\n'), [['Lit {.x}', 'lit-x']], 'an escaped brace');
});

t.test('an attribute list is read in linear time', async (t) => {
  const long = `## Big { ${'.a '.repeat(200_000)}}\n## Bad { ${'.a '.repeat(200_000)}"}\n`;
  const started = process.hrtime.bigint();
  const got = read(long);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  t.same(got.map((h) => h[0].length), [3, 600_008], 'the list dropped from the first, the second (a stray quote) kept as text');
  t.ok(ms < 2_000, `600 kB of attributes read in ${ms.toFixed(0)} ms`);
});

t.test('any heading ending: what is dropped is a real list, ids are ids, slugs stay unique and the page is still tiled', async (t) => {
  const piece = fc.constantFrom(' ', '\t', '{', '}', '{:', '#id', '#a.b:c', '#', '.cls', '.', 'k=v', 'k="a b"', "k='x'", 'id=z', 'id="q r"', '-', '=', '"', "'", '\\', 'word', '~', 'é', '{/*x*/}', '`c`', '<small>s</small>');
  let runs = 0;
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 9 }), (pieces) => {
      const content = `T${pieces.join('')}`;
      const doc = `## ${content}\n\ntext\n\n## T\n`;
      const headings = parseMarkdown(doc, { headingIds: true }).headings;
      if (headings.length !== 2 || headings[0]!.slug === headings[1]!.slug || headings.some((h) => h.slug.includes('~'))) return false;
      const read = headingId(content);
      if (read !== null) {
        const dropped = content.slice(read.content.length);
        if (!/^[ \t]*\{[^]*\}[ \t]*$/.test(dropped) || !content.startsWith(read.content)) return false;
        if (read.id !== null && !/^[\p{L}\p{N}_.:-]+$/u.test(read.id)) return false;
      }
      runs++;
      return true;
    }),
    { seed: 20261128, numRuns: 2000 },
  );
  t.equal(runs, 2000, 'every generated ending held');
});

t.test('ids stay unique in the document', async (t) => {
  t.same(read('## A {#x}\n## B {#x}\n'), [['A', 'x'], ['B', 'x-1']], 'a repeated id is numbered like a repeated heading');
  t.same(read('## Usage {#usage}\n## Usage\n'), [['Usage', 'usage'], ['Usage', 'usage-1']], 'a slug made later meets the id');
  t.same(read('## Usage\n## Usage {#usage}\n## Usage\n'), [['Usage', 'usage'], ['Usage', 'usage-1'], ['Usage', 'usage-1-1']], 'every slug stays distinct');
  t.same(read('## X {#a}\n## Y {#a-1}\n## Z {#a}\n'), [['X', 'a'], ['Y', 'a-1'], ['Z', 'a-2']], 'the next free number');
  const doc = '> ## Quoted {#q}\n\n## Q {#q}\n';
  t.same(read(doc), [['Q', 'q-1']], 'a nested heading\'s id takes part in numbering');
});

t.test('without the option: GitHub\'s reading, unchanged', async (t) => {
  t.same(read('## Usage {/*usage*/}\n', false), [['Usage {/usage/}', 'usage-usage']], 'the stars read as emphasis, as GitHub shows it');
  t.same(read('## Lifespan { #lifespan }\n', false), [['Lifespan { #lifespan }', 'lifespan--lifespan-']]);
});

t.test('trails and section ids carry the clean text and the id', async (t) => {
  const doc = `# Guide {#top}\n\n${'intro text. '.repeat(50)}\n\n## Lifespan { #lifespan }\n\n${'body text. '.repeat(60)}\n`;
  const sections = splitSections(doc, parseMarkdown(doc, { headingIds: true }), { splitLevel: 2, minBytes: 512, maxBytes: 3072 });
  t.same(sections.map((s) => [s.slug, s.trail, s.headings]), [
    ['top', ['Guide'], ['Guide']],
    ['lifespan', ['Guide', 'Lifespan'], ['Lifespan']],
  ]);
});
