// Issue 46: build_config.sources.extensions records the extension set a cache was built
// with. Builds write today's set (Markdown, MDX, reStructuredText, AsciiDoc, plain text); a
// cache written before, recording Markdown's alone, is still read, and says so; any other set
// is a build_config this engine did not write.
import t from 'tap';
import { buildConfig, MARKDOWN_EXTENSIONS, parseBuildConfig, type V1Options } from '../../../../lib/core/engine/v1/config.js';

const OPTIONS: V1Options = { granularity: 'section', tokenizer: 'o200k_base', include: [], exclude: [] };

t.test('today\'s set, and the Markdown-only set of older caches', async (t) => {
  const today = buildConfig(OPTIONS) as { sources: { extensions: string[] } };
  t.same(today.sources.extensions, ['adoc', 'asciidoc', 'htm', 'html', 'markdown', 'md', 'mdx', 'rst', 'txt']);
  const parsed = parseBuildConfig(today);
  t.ok(typeof parsed !== 'string' && parsed.options.extensions === undefined, 'today\'s set: the default');
  const legacy = buildConfig({ ...OPTIONS, extensions: MARKDOWN_EXTENSIONS }) as { sources: { extensions: string[] } };
  t.same(legacy.sources.extensions, ['markdown', 'md', 'mdx']);
  const old = parseBuildConfig(legacy);
  t.ok(typeof old !== 'string', 'an older cache is still read');
  if (typeof old !== 'string') t.same(old.options.extensions, ['markdown', 'md', 'mdx'], 'and walks (status) what it recorded');
  const other = buildConfig(OPTIONS) as { sources: { extensions: string[] } };
  other.sources.extensions = ['md', 'rst'];
  t.type(parseBuildConfig(other), 'string', 'another set: not this engine\'s');
});
