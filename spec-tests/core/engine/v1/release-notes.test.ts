// docs/engine.md "Release notes": in a section cache, a unit under a heading that names a
// release has its score multiplied by RELEASE_NOTES_WEIGHT, unless the question asks about
// releases; the order stays score (binary32, as printed) descending, then id; the explained
// answer says so (why.release_notes). lib/core/engine/v1/resolve.ts ReleaseNotesLast.
import t from 'tap';
import { join } from 'node:path';
import { resolveText } from '../../../../lib/core/operations/api.js';
import { RELEASE_NOTES_WEIGHT } from '../../../../lib/core/ranking/release-notes.js';
import { buildV1 } from './fixture.js';

interface Entry {
  id: string;
  score: number;
  why: { release_notes?: number };
}
interface Answer {
  documents: Entry[];
}

// The changelog says "format a date in another time zone" densely, in a short entry; the
// guide explains it at more length. By BM25 alone the changelog entry comes first.
const GUIDE = [
  '# Time zones',
  '',
  'Dates carry no zone of their own. To show a date as it reads elsewhere, wrap it in a zoned',
  'date first, then call format on it with the pattern you want; the zone is the second',
  'argument and accepts any IANA name, such as Asia/Singapore or America/New_York. The guide',
  'below walks through parsing strings, arithmetic across daylight saving changes, comparing',
  'instants and keeping a value in UTC while displaying it for each user in the place they',
  'live, with examples for each case and notes on what the browser supports.',
  '',
].join('\n');
const CHANGELOG = [
  '# Changelog',
  '',
  'Every release of the library, newest first. Each entry lists what was added, what changed',
  'and what was fixed, with the pull request that did it; versions follow semantic versioning,',
  'so a major version may break code written for the one before it, and the guides say how to',
  'move from one to the next.',
  '',
  '## v4.0.0 - 2024-09-16',
  '',
  '- Format a date in another time zone: format now takes a time zone option.',
  '- Time zone support in format, formatDistance and formatRelative: a date in another',
  '  time zone formats as that zone reads it.',
  '- Another time zone for parse as well.',
  '',
  '## v3.6.0 - 2024-03-18',
  '',
  '- Smaller bundles: every function is a module of its own, so that a bundler keeps only',
  '  what is imported, and the locales load on demand from their own entry points. The',
  '  package ships both CommonJS and ES modules, with types for each of them.',
  '',
].join('\n');
const QUERY = 'format a date in another time zone';
// The same words and one more that asks about releases and that the cache does not hold
// ("deprecated"): the same terms score, with the same postings, so the same BM25 scores.
const ASKS = `${QUERY} deprecated`;

async function cacheWith(test: { testdir: typeof t.testdir }, granularity: 'section' | 'file'): Promise<string> {
  const dir = test.testdir({ src: { docs: { 'timeZones.md': GUIDE }, 'CHANGELOG.md': CHANGELOG } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity, tokenizer: 'o200k_base' });
  return cache;
}

const explained = (cache: string, query: string): Answer => JSON.parse(resolveText(cache, query, 100_000, 'json', undefined, 'content', true)) as Answer;

t.test('release notes rank below the guide, their score scaled exactly by the weight', async (t) => {
  const cache = await cacheWith(t, 'section');
  const asked = explained(cache, ASKS);
  const plain = explained(cache, QUERY);
  const entry = 'CHANGELOG.md#v400---2024-09-16';
  const guide = 'docs/timeZones.md#time-zones';
  t.equal(asked.documents[0]?.id, entry, 'by BM25 and proximity alone (the question asks about releases) the changelog entry is first');
  t.equal(plain.documents[0]?.id, guide, 'otherwise the guide is first');
  const scoreIn = (a: Answer, id: string): Entry => a.documents.find((d) => d.id === id) as Entry;
  t.equal(scoreIn(plain, guide).score, scoreIn(asked, guide).score, "the guide's score is untouched");
  // Scores print as binary32 (shortest form that reads back as the same binary32 value).
  t.equal(Math.fround(scoreIn(plain, entry).score), Math.fround(scoreIn(asked, entry).score) * RELEASE_NOTES_WEIGHT, "the entry's whole score (proximity included) times the weight, to the bit");
  t.equal(scoreIn(plain, entry).why.release_notes, RELEASE_NOTES_WEIGHT, 'the explained answer names the weight');
  t.equal(scoreIn(asked, entry).why.release_notes, undefined, 'and only when it was applied');
  t.equal(scoreIn(plain, guide).why.release_notes, undefined);
  for (const a of [plain, asked]) {
    for (let i = 1; i < a.documents.length; i++) {
      t.ok((a.documents[i - 1] as Entry).score >= (a.documents[i] as Entry).score, `scores descend (${a === plain ? 'plain' : 'asked'}, entry ${i})`);
    }
  }
});

t.test('the text form says which entry was scaled', async (t) => {
  const cache = await cacheWith(t, 'section');
  const text = resolveText(cache, QUERY, 100_000, 'text');
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes('CHANGELOG.md#v400---2024-09-16'));
  t.ok(at > 0, 'the entry is listed');
  const below = lines.slice(at + 1).findIndex((l) => /^\s+\d+\s/.test(l));
  const own = lines.slice(at + 1, below < 0 ? undefined : at + 1 + below);
  t.ok(own.some((l) => l.trim() === 'release notes: score x 0.25 (the question does not ask about releases)'), 'under the entry');
  t.notOk(resolveText(cache, ASKS, 100_000, 'text').includes('release notes: score'), 'not when the question asks about releases');
});

t.test("the changelog's intro, under its title alone, is release notes too (its page has releases)", async (t) => {
  const cache = await cacheWith(t, 'section');
  const plain = explained(cache, 'pull request semantic versioning guides');
  const intro = plain.documents.find((d) => d.id === 'CHANGELOG.md#changelog');
  t.ok(intro !== undefined, 'the intro matches');
  t.equal(intro?.why.release_notes, RELEASE_NOTES_WEIGHT);
});

t.test('a whole-file cache has no headings per unit: nothing is scaled', async (t) => {
  const cache = await cacheWith(t, 'file');
  const plain = explained(cache, QUERY);
  const asked = explained(cache, ASKS);
  t.same(
    plain.documents.map((d) => [d.id, d.score]),
    asked.documents.map((d) => [d.id, d.score]),
  );
  t.ok(plain.documents.every((d) => d.why.release_notes === undefined));
});

t.test('the lean answer at a small budget holds the guide, not the changelog entry', async (t) => {
  const cache = await cacheWith(t, 'section');
  const lean = JSON.parse(resolveText(cache, QUERY, 400)) as { documents: { id: string }[] };
  t.equal(lean.documents[0]?.id, 'docs/timeZones.md#time-zones');
});

// A changelog whose introduction is short merges its first entry into it ("Units that fit"):
// that unit is headed by the page's title alone, and is release notes since the page holds
// units under release headings; a `History` section of a page with no release is not.
const SHORT_INTRO = [
  '# Changelog',
  '',
  'All notable changes.',
  '',
  '## v4.1.0 - 2024-10-01',
  '',
  '- Format a date in another time zone with a shorter call.',
  '',
  '## v4.0.0 - 2024-09-16',
  '',
  '- Every function is a module of its own, so that a bundler keeps only what is imported,',
  '  and the locales load on demand from their own entry points; the package ships both',
  '  CommonJS and ES modules, with types for each of them, and works in every runtime.',
  ...Array.from({ length: 8 }, (_, i) => `- Fix ${i + 1}: a parser edge case found by a user, with a test that keeps it fixed.`),
  '',
].join('\n');
const REPL = [
  '## History',
  '',
  'The REPL keeps a history of what you typed. Press the up arrow to format a date in another',
  'time zone again, or search the history for a line. The history file lives in your home.',
  '',
].join('\n');

t.test("a changelog's first unit, under its title alone, is release notes; a History section elsewhere is not", async (t) => {
  const dir = t.testdir({ src: { docs: { 'timeZones.md': GUIDE, 'repl.md': REPL }, 'CHANGELOG.md': SHORT_INTRO } });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section', tokenizer: 'o200k_base' });
  const plain = explained(cache, QUERY);
  const intro = plain.documents.find((d) => d.id === 'CHANGELOG.md#changelog');
  t.ok(intro !== undefined, 'the merged first unit matches');
  t.equal(intro?.why.release_notes, RELEASE_NOTES_WEIGHT, 'and is scaled');
  const repl = plain.documents.find((d) => d.id === 'docs/repl.md#history');
  t.ok(repl !== undefined, 'the History section matches');
  t.equal(repl?.why.release_notes, undefined, 'and is not scaled: its page has no release');
});
