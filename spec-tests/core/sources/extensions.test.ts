// docs/sources.md "Formats and files": which reader reads a file, by its extension (any case), and a
// published copy of a source (`NAME.EXT.txt`, how Sphinx ships each page's source under
// `_sources/`) read in the format its inner extension names.
import t from 'tap';
import { formatCounts, formatOfPath } from '../../../lib/core/sources/extensions.js';

t.test('sources.md "Formats and files": each extension names its reader, any case', async (t) => {
  const cases: Array<[string, string]> = [
    ['a.md', 'markdown'], ['a.MDX', 'markdown'], ['a.markdown', 'markdown'], ['a.rst', 'rst'],
    ['a.adoc', 'asciidoc'], ['a.asciidoc', 'asciidoc'], ['a.txt', 'text'], ['a.HTML', 'html'], ['a.htm', 'html'],
    ['README', 'markdown'], ['.md', 'markdown'], ['dir.v2/README', 'markdown'],
  ];
  for (const [path, format] of cases) t.equal(formatOfPath(path), format, path);
});

t.test('sources.md "Formats and files": NAME.EXT.txt is read as EXT when EXT is Markdown, reStructuredText or AsciiDoc', async (t) => {
  const cases: Array<[string, string]> = [
    ['_sources/library/os.rst.txt', 'rst'], ['_sources/guide.md.txt', 'markdown'], ['_sources/a.RST.TXT', 'rst'],
    ['notes/intro.adoc.txt', 'asciidoc'], ['x.mdx.txt', 'markdown'],
    // Anything else stays plain text: HTML saved as text, a text copy of text, a version number, a dotfile-like name.
    ['page.html.txt', 'text'], ['a.txt.txt', 'text'], ['release-1.2.txt', 'text'], ['_sources/.rst.txt', 'text'], ['dir.rst/notes.txt', 'text'],
  ];
  for (const [path, format] of cases) t.equal(formatOfPath(path), format, path);
  t.same(formatCounts(['_sources/a.rst.txt', 'a.html', 'notes.txt']), { html: 1, rst: 1, txt: 1 }, 'counted under the format they are read in');
});
