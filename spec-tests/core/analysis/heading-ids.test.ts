// Custom heading ids (lib/core/analysis/markdown.ts, option headingIds, which engine v1
// turns on): "Answers that fit, by default", What to build item 5: "Heading ids as the sites
// render them. `{#id}`, `{ #id }` and MDX `{/*id*/}` after a heading set its slug and are
// removed from its text and trail." Rules as docs/engine.md "Units that fit" states them:
// ids are letters, digits, `_ - . :`; an escaped brace is text; ids stay unique in the
// document; without the option the reading is GitHub's, unchanged.

import t from 'tap';
import { parseMarkdown } from '../../../lib/core/analysis/markdown.js';
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
  t.same(read('## Class {.red}\n'), [['Class {.red}', 'class-red']]);
  t.same(read('## Mid {#x} text\n'), [['Mid {#x} text', 'mid-x-text']], 'only at the end');
  t.same(read('## Comment {/* two words */}\n'), [['Comment {/* two words */}', 'comment--two-words-']], 'an MDX comment that is no id stays');
  t.same(read('```\n## In code {#x}\n```\n'), [], 'fenced code is no heading');
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
