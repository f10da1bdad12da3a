// Engine v1's build_config (lib/core/engine/v1/config.ts): "Answers that fit, by default",
// What to build item 2: the unit cap is chosen from measurements and recorded in
// build_config; caches written before it (format 3, sections cut at headings only; format 4,
// small sections merged up to the cap; format 5, front matter in the first unit and
// leading parts unnamed; format 6, HTML units offsets into the page's source, not its visible
// text; format 7, a published source copy such as Sphinx's `PAGE.rst.txt` read as plain text;
// format 8, a page's `P.txt` source read beside it, a closed element's id given to a heading,
// menus above an HTML page's first heading, a first heading naming the site, permalink marks kept;
// format 9, an HTML page's <aside> elements dropped inside its main region: footnotes, sidebars)
// cannot be answered from faithfully, so they are refused with the advice to rebuild.
import t from 'tap';
import { buildConfig, FORMAT_VERSION, parseBuildConfig, SECTION_RULES } from '../../../../lib/core/engine/v1/config.js';

const OPTIONS = { granularity: 'section' as const, tokenizer: 'o200k_base' as const, include: [], exclude: [] };

t.test('section rules with the cap are recorded, and read back', async (t) => {
  const config = buildConfig(OPTIONS) as Record<string, unknown>;
  t.same(config['sections'], { split_level: 2, min_bytes: 256, merge_max_bytes: 768, max_bytes: 1536 });
  t.ok(SECTION_RULES.max_bytes >= SECTION_RULES.merge_max_bytes, 'the cap is at or above the merge limit');
  t.ok(SECTION_RULES.merge_max_bytes >= SECTION_RULES.min_bytes, 'the merge limit is at or above the merge threshold');
  t.equal(typeof parseBuildConfig(config), 'object', 'a config this engine wrote parses');
  const other = { ...config, sections: { ...SECTION_RULES, max_bytes: SECTION_RULES.max_bytes + 1 } };
  t.type(parseBuildConfig(other), 'string', 'another cap is a rule this engine does not implement');
  const oldMerge = { ...config, sections: { split_level: 2, min_bytes: 512, max_bytes: SECTION_RULES.max_bytes } };
  t.type(parseBuildConfig(oldMerge), 'string', 'rules without the merge limit are not this engine\'s');
});

t.test('format 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 13 caches: refused, with the advice to rebuild', async (t) => {
  t.equal(FORMAT_VERSION, '20');
  for (const version of ['2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13']) {
    const reason = parseBuildConfig({ ...(buildConfig(OPTIONS) as Record<string, unknown>), version });
    t.type(reason, 'string');
    t.match(reason as string, new RegExp(`format ${version}.*rebuild it with build --force`), `format ${version}`);
  }
});
