// Checks issue 9 "Sections" and docs/engine.md "What is ranked" / "The answer" at the level
// the engine owns (lib/core/engine/v1/analyze.ts, through a real build): a section cache's
// units are addressed `path#slug` with GitHub's slugs made unique in the file, carry their
// heading trail, tile their document exactly (no gap, no overlap, nothing lost — tiny
// sections merge into a neighbour), cost their own tokens, and fenced code is no heading.
// The Markdown parsing itself is lib/core/analysis/markdown.ts's and has its own tests.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentText, resolveText } from '../../../../lib/core/operations/api.js';
import { buildV1, manifestOf, matchFields, type Match, unitsOf, type UnitRow } from './fixture.js';

const para = (words: string, n = 8): string => `${Array.from({ length: n }, () => words).join(' ')}\n`;

// Every section well over the 256-byte merge threshold and small enough (~670 bytes) that
// "Tiny" can join the one before it within the 768-byte merge limit.
const DOC = [
  para('An opening paragraph before any heading explains what this page covers in general.'),
  '# Guide\n\n',
  para('The guide starts with a broad overview of the whole installation procedure here.'),
  '## Usage\n\n',
  para('Usage notes describe the command line flags and their defaults in some detail.'),
  '```sh\n# not a heading, a shell comment\ncontext build --engine v1\n```\n\n',
  '## Usage\n\n',
  para('A second usage section repeats the heading text, so its slug gets a suffix.'),
  '## Tiny\n\nshort.\n\n',
  '## Ünïcode Heading & More!\n\n',
  para('Unicode headings keep their letters in the slug, punctuation is dropped there.'),
].join('');

/** Units of one document, in text order. */
const unitsIn = (units: readonly UnitRow[], path: string): UnitRow[] => units.filter((u) => u.path === path).sort((a, b) => a.start - b.start);

t.test('issue 9 "Sections": ids path#slug (GitHub slugs, unique in the file), trails, fences are no headings', async (t) => {
  const dir = t.testdir({ src: { 'docs': { 'Guide.md': DOC } } });
  const cache = join(dir, 'cache');
  const summary = await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  const units = unitsIn(unitsOf(cache), 'docs/Guide.md');
  t.equal(summary.unitCount, units.length);
  t.same(units.map((u) => u.slug), ['', 'guide', 'usage', 'usage-1', 'ünïcode-heading--more'], 'the opening text has no slug; a repeated heading gets -1');
  t.same(
    units.map((u) => u.trail),
    [['An opening paragraph before any heading explains what this page covers in…'], ['Guide'], ['Guide', 'Usage'], ['Guide', 'Usage'], ['Guide', 'Ünïcode Heading & More!']],
    'the headings above and at each section; the opening text is named by its first line (no front matter here), cut to 80 characters',
  );
  t.notOk(units.some((u) => u.slug.includes('not-a-heading')), 'a # line inside fenced code is not a heading');
  const answer = JSON.parse(resolveText(cache, 'usage', 100000, 'json', undefined, undefined, true)) as { documents: { id: string; path: string; trail: string[]; merged?: { id: string }[] }[] };
  // Adjacent selected sections come as one entry that lists them (docs/engine.md "merged entries").
  t.same(answer.documents.flatMap((d) => d.merged?.map((m) => m.id) ?? [d.id]).sort(), ['docs/Guide.md#usage', 'docs/Guide.md#usage-1'], 'ids are path#slug, path as on disk');
  t.ok(answer.documents.every((d) => d.path === 'docs/Guide.md' && Array.isArray(d.trail)), 'each carries its path and trail');
  // The lean answer (the default) of the same selection says the headings above each entry
  // ("under"): its trail, less the last heading when the content opens with that heading's line.
  const lean = JSON.parse(resolveText(cache, 'usage', 100000, 'json', undefined, 'content')) as { documents: { id: string; under?: string; content: string }[] };
  const full = JSON.parse(resolveText(cache, 'usage', 100000, 'json', undefined, 'content', true)) as { documents: { id: string; trail: string[]; content: string }[] };
  t.same(lean.documents.map((d) => d.id), full.documents.map((d) => d.id), 'the lean answer: the same entries');
  for (const [i, d] of full.documents.entries()) {
    const last = d.trail[d.trail.length - 1];
    const opens = last !== undefined && new RegExp(`^#+ ${last}\\s*\\n`).test(d.content);
    const under = (opens ? d.trail.slice(0, -1) : d.trail).join(' > ');
    t.equal(lean.documents[i]?.under, under === '' ? undefined : under, `${d.id}: under "${under}"`);
  }
  t.ok(lean.documents.some((d) => d.under === 'Guide'), 'a Usage section sits under Guide');
});

t.test('issue 9 "Sections": units tile the document exactly; a tiny section merges into a neighbour', async (t) => {
  const dir = t.testdir({ src: { 'a.md': DOC, 'plain.md': 'No headings at all.\n', 'b.md': '# Only\n\nshort\n\n## Small\n\nalso short\n' } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  const all = unitsOf(cache);
  for (const [path, text] of [['a.md', DOC], ['plain.md', 'No headings at all.\n'], ['b.md', '# Only\n\nshort\n\n## Small\n\nalso short\n']] as const) {
    const units = unitsIn(all, path);
    t.equal(units[0]?.start, 0, `${path}: the first unit starts at 0`);
    t.equal(units[units.length - 1]?.end, text.length, `${path}: the last ends at the end`);
    t.ok(units.every((u, i) => i === 0 || u.start === units[i - 1]?.end), `${path}: each starts where the previous ended`);
    t.ok(units.every((u) => u.end > u.start), `${path}: no empty unit`);
  }
  t.notOk(unitsIn(all, 'a.md').some((u) => u.slug === 'tiny'), 'the 20-byte "Tiny" section is not a unit of its own');
  t.ok(unitsIn(all, 'a.md').some((u) => DOC.slice(u.start, u.end).includes('## Tiny')), '...its text lies inside a neighbour');
  t.equal(unitsIn(all, 'b.md').length, 1, 'a file of tiny sections is one unit');
  t.same(unitsIn(all, 'plain.md').map((u) => u.slug), [''], 'a file without headings is one unit, id = path');
  // Identity and hashing stay per file: the manifest lists files, the index lists units.
  t.same(manifestOf(cache).documents.map((d) => d.path), ['a.md', 'b.md', 'plain.md']);
});

t.test('docs/engine.md: a unit costs its own tokens — its content, plus its trail when it has one', async (t) => {
  const dir = t.testdir({ src: { 'a.md': DOC } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  const bytes4 = (s: string): number => Math.ceil(Buffer.byteLength(s, 'utf8') / 4);
  for (const u of unitsIn(unitsOf(cache), 'a.md')) {
    const content = DOC.slice(u.start, u.end);
    const expected = bytes4(content) + (u.trail.length > 0 ? bytes4(u.trail.join(' > ')) : 0);
    t.equal(u.tokens, expected, `#${u.slug}: ${expected} tokens`);
  }
  const file = join(dir, 'file');
  await buildV1(join(dir, 'src'), file);
  t.same(unitsOf(file).map((u) => [u.start, u.end, u.tokens, u.slug, u.trail]), [[0, DOC.length, bytes4(DOC), '', []]], 'file granularity: one unit, v0\'s token rule');
});

t.test('docs/engine.md "The answer": a section\'s content is its slice of the file, and its fields count', async (t) => {
  const dir = t.testdir({ src: { 'a.md': DOC } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  const text = resolveText(cache, 'Ünïcode', 100000, 'json', undefined, undefined, true); // explained: why
  const answer = JSON.parse(text) as { documents: { id: string; content: string; trail: string[]; why: { matches: Match[] } }[] };
  const top = answer.documents[0];
  t.equal(top?.id, 'a.md#ünïcode-heading--more');
  t.ok(top !== undefined && DOC.endsWith(top.content), 'the last section: the end of the file, byte for byte');
  t.same(top?.why.matches.map((m) => [m.term, matchFields(m)]), [['ünïcode', { body: 1, headings: 1 }]], 'a heading word counts in headings, and (its line being text) in body');
  t.equal(readFileSync(join(dir, 'src', 'a.md'), 'utf8'), DOC);
});

t.test('docs/engine.md "What is ranked": fields of a unit — path without extension, front-matter title, headings, body', async (t) => {
  const page = '---\ntitle: Kiwi Handbook\n---\n# Growing\n\nlime text\n';
  const dir = t.testdir({ src: { guide: { 'Install-Docker.md': page } } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache);
  const why = (q: string): [string, Record<string, number>][] =>
    (JSON.parse(resolveText(cache, q, 1000, 'json', undefined, undefined, true)) as { documents: { why: { matches: Match[] } }[] }).documents.flatMap((d) =>
      d.why.matches.map((m): [string, Record<string, number>] => [m.term, matchFields(m)]),
    );
  t.same(why('kiwi'), [['kiwi', { title: 1 }]], 'the front-matter title is the title field, not body');
  t.same(why('title'), [], 'the front matter is not body text');
  t.same(why('docker'), [['docker', { path: 1 }]], 'path words: guide/Install-Docker');
  t.same(why('install-docker'), [['docker', { path: 1 }], ['instal', { path: 1 }], ['install-docker', { path: 1 }]], 'the whole identifier of the path, and its parts');
  t.same(why('md'), [], 'the extension is not a path word');
  t.same(why('growing'), [['grow', { body: 1, headings: 1 }]]);
  t.same(why('lime'), [['lime', { body: 1 }]]);
});

// Issue 43 item 4: "front matter is printed and counted as content" and "headingless pages
// get ids like page.md#~3 with an empty trail although their front matter has a title".
// Units tile the body (docs/sources.md "Sections"): no answer prints front matter or pays for
// it, and a headingless page's units are named by its title: trail [title], ids from it.
t.test('issue 43: front matter is neither printed nor counted; a headingless page is named by its title', async (t) => {
  const front = '---\ntitle: Kiwi Handbook\ndescription: Everything about kiwis and their care\n---\n';
  const intro = `${front}\n${para('Kiwis like lime soil and a sunny spot near the fence.')}\n## Growing\n\n${para('Growing kiwis needs patience.')}`;
  const long = front + Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: pruning kiwi vines in winter keeps them fruiting well.\n\n`).join('');
  const dir = t.testdir({ src: { 'intro.md': intro, 'long.md': long } });
  for (const granularity of ['section', 'file'] as const) {
    const cache = join(dir, granularity);
    await buildV1(join(dir, 'src'), cache, { granularity });
    const all = unitsOf(cache);
    // The explained answer carries trails; the lean one (the default) prints `under`.
    const answer = JSON.parse(resolveText(cache, 'kiwi lime pruning', 100000, 'json', undefined, undefined, true)) as { documents: { id: string; content: string; tokens: number; trail?: string[] }[] };
    const lean = JSON.parse(resolveText(cache, 'kiwi lime pruning', 100000)) as { documents: { id: string; content: string; under?: string }[] };
    t.ok(answer.documents.length > 0, `${granularity}: an answer`);
    if (granularity === 'file') {
      // A whole-file unit is the document, exactly as its resource context://CACHE/PATH reads it.
      t.ok(['intro.md', 'long.md'].every((p) => unitsIn(all, p).length === 1 && unitsIn(all, p)[0]?.start === 0), 'file units: whole documents');
      continue;
    }
    for (const [path, text] of [['intro.md', intro], ['long.md', long]] as const) {
      const units = unitsIn(all, path);
      t.equal(units[0]?.start, front.length, `${path}: the first unit starts where the front matter ends`);
      t.equal(units.map((u) => text.slice(u.start, u.end)).join(''), text.slice(front.length), `${path}: the units tile the body`);
    }
    t.ok(answer.documents.every((d) => !d.content.includes('description:') && !d.content.startsWith('---')), 'no entry prints the front matter');
    const units = unitsIn(all, 'long.md');
    t.ok(units.length >= 2, `long.md is cut in ${units.length} units`);
    t.same(units.map((u) => u.trail), units.map(() => ['Kiwi Handbook']), 'each piece of the headingless page has the trail [title]');
    t.same(units.map((u) => u.slug), ['', ...units.slice(1).map((_, i) => `kiwi-handbook~${i + 2}`)], 'ids long.md, long.md#kiwi-handbook~2, ...');
    t.equal(documentText(cache, 'long.md', 'kiwi-handbook~2'), long.slice(units[1]?.start, units[1]?.end), 'a piece is read by its id (MCP resources)');
    t.equal(documentText(cache, 'long.md', ''), long.slice(front.length, units[0]?.end), 'the first piece by the empty slug, without the front matter');
    const first = unitsIn(all, 'intro.md')[0];
    t.same([first?.slug, first?.trail], ['', ['Kiwi Handbook']], 'the text before the first heading is named by the title');
    const entry = answer.documents.find((d) => d.id === 'intro.md');
    t.same(entry?.trail, ['Kiwi Handbook'], 'and the explained answer prints that trail');
    t.equal(lean.documents.find((d) => d.id === 'intro.md')?.under, 'Kiwi Handbook', 'the lean answer too, as under');
    t.ok(lean.documents.every((d) => !d.content.includes('description:')), 'the lean answer prints no front matter either');
  }
});

// "Answers that fit, by default", What to build items 2 and 5: no unit over the cap recorded
// in build_config, sub-parts addressed path#slug~k with their trail; custom heading ids
// (`{/*id*/}`, `{ #id }`) set the slug and leave trails.
t.test('units that fit: capped units, slug~k sub-parts, custom heading ids', async (t) => {
  const code = Array.from({ length: 2000 }, (_, i) => `let value${i} = ${i};\n`).join('');
  const doc = `# Reference { #ref }\n\n${para('The reference page lists every option with examples and defaults.')}\n## Usage {/*usage*/}\n\n${para('How to call it.')}\n\`\`\`js\n${code}\`\`\`\n`;
  const dir = t.testdir({ src: { 'ref.mdx': doc } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section' });
  const cap = (manifestOf(cache).build_config['sections'] as { max_bytes: number }).max_bytes;
  const units = unitsIn(unitsOf(cache), 'ref.mdx');
  t.ok(units.every((u) => Buffer.byteLength(doc.slice(u.start, u.end)) <= cap), `every unit at most ${cap} bytes`);
  t.equal(new Set(units.map((u) => u.slug)).size, units.length, 'ids unique');
  t.same(units.slice(0, 3).map((u) => u.slug), ['ref', 'usage', 'usage~2'], 'custom ids; the usage section\'s second piece is usage~2');
  t.ok(units.slice(1).every((u) => JSON.stringify(u.trail) === '["Reference","Usage"]'), 'every piece keeps the clean trail');
  t.equal(units[units.length - 1]?.end, doc.length, 'the units tile the document');
  const answer = JSON.parse(resolveText(cache, 'usage', 1000000, 'json', undefined, undefined, true)) as { documents: { id: string; merged?: { id: string }[] }[] };
  const ids = answer.documents.flatMap((d) => [d.id, ...(d.merged ?? []).map((m) => m.id)]); // a merged entry joins adjacent units
  t.ok(ids.includes('ref.mdx#usage') && ids.includes('ref.mdx#usage~2'), 'a later piece ranks with its heading (its text never says "usage")');
});
