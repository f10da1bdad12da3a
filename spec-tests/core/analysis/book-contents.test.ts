// A book's table of contents — mdBook's and GitBook's SUMMARY.md — is navigation, not a page
// (cache format 15; docs/sources.md "Formats and files"): mdBook reads it for the chapters and their
// order and shows it as the sidebar. Checked on the rule (lib/core/analysis/book-contents.ts)
// and through a real build: the document stays in the cache, holds no body, and no answer
// prints it, while a SUMMARY.md with prose is read as any page.
import t from 'tap';
import { join } from 'node:path';
import { isBookContents } from '../../../lib/core/analysis/book-contents.js';
import { resolveText } from '../../../lib/core/operations/api.js';
import { buildV1, manifestOf, unitsOf } from '../engine/v1/fixture.js';

const MDBOOK = `# Summary

[Introduction](README.md)

# User guide

- [Installation](guide/installation.md)
- [Reading books](guide/reading.md)
    - [Kiwi search](guide/search.md)
        - [Draft chapter]()

---

[Contributors](misc/contributors.md)
<!-- generated -->
`;
const GITBOOK = '# Table of contents\n\n* [Kiwi growing](README.md)\n\n## Basics\n\n* [Soil](basics/soil.md)\n  * [Lime](basics/lime.md)\n1. [Numbered](n.md)\n';

t.test('isBookContents: headings, links alone or in lists, separators and comments', async (t) => {
  t.ok(isBookContents('SUMMARY.md', MDBOOK, 0), 'mdBook: prefix, parts, nested and draft chapters, separator, suffix');
  t.ok(isBookContents('src/SUMMARY.md', GITBOOK, 0), 'GitBook, in a folder');
  t.ok(isBookContents('SUMMARY.md', MDBOOK.replace(/\n/g, '\r\n'), 0), 'CRLF');
  const front = '---\ntitle: Contents\n---\n';
  t.ok(isBookContents('SUMMARY.md', front + MDBOOK, front.length), 'from the body on, past front matter');
});

t.test('isBookContents: anything else is a page', async (t) => {
  t.notOk(isBookContents('summary.md', MDBOOK, 0), 'the name is SUMMARY.md exactly');
  t.notOk(isBookContents('docs/BOOK-SUMMARY.md', MDBOOK, 0), 'not a file that ends in SUMMARY.md');
  t.notOk(isBookContents('SUMMARY.md', MDBOOK + 'This book explains kiwis.\n', 0), 'one line of prose');
  t.notOk(isBookContents('SUMMARY.md', '- [Install](install.md) and then read on\n', 0), 'a list item with more than its link');
  t.notOk(isBookContents('SUMMARY.md', '# Summary\n\n---\n', 0), 'no link at all');
  t.notOk(isBookContents('SUMMARY.md', '', 0), 'empty');
});

t.test('through a build: the contents stay a document with no body; answers never print them', async (t) => {
  const dir = t.testdir({
    src: {
      'SUMMARY.md': MDBOOK,
      guide: { 'search.md': '# Kiwi search\n\nSearch the kiwi book with the search bar.\n', 'installation.md': '# Installation\n\nInstall the kiwi tool.\n' },
      notes: { 'SUMMARY.md': '# Summary\n\nA summary of the kiwi meeting, in prose.\n' },
    },
  });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  t.equal(manifestOf(cache).document_count, 4, 'the contents are a document of the cache');
  const units = unitsOf(cache).filter((u) => u.path === 'SUMMARY.md');
  t.equal(units.length, 1, 'one unit');
  t.equal(units[0]?.start, MDBOOK.length, 'and it is empty: past the body');
  const answer = JSON.parse(resolveText(cache, 'kiwi search installation reading', 4000, 'json')) as { documents: { id: string }[] };
  t.ok(answer.documents.some((d) => d.id.startsWith('guide/search.md')), 'the chapter answers');
  t.notOk(answer.documents.some((d) => d.id.startsWith('SUMMARY.md')), 'the contents do not');
  t.ok(answer.documents.some((d) => d.id.startsWith('notes/SUMMARY.md')), 'a SUMMARY.md in prose is a page');
});

t.test('linear: a 1 MB table of contents, and 1 MB lines, are read in one pass', async (t) => {
  const item = '    - [A chapter about kiwis](chapters/kiwi.md)\n';
  for (const [name, doc, want] of [
    ['1 MB of items', item.repeat(Math.ceil((1 << 20) / item.length)), true],
    ['one 1 MB link text', `- [${'a'.repeat(1 << 20)}`, false],
    ['one 1 MB comment', `<!--${'-'.repeat(1 << 20)}`, false],
  ] as const) {
    const start = process.hrtime.bigint();
    const got = isBookContents('SUMMARY.md', doc, 0);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    t.equal(got, want, name);
    t.ok(ms < 2000, `${name}: ${ms.toFixed(0)} ms`);
  }
});
