// Release notes rank below the pages that explain (docs/engine.md "Release notes"):
// lib/core/ranking/release-notes.ts, which headings name a release and which questions ask
// about releases.
import t from 'tap';
import { asksAboutReleases, isReleaseHeading, isReleaseNotes, isReleaseTitle, RELEASE_HEADING_MAX, RELEASE_NOTES_WEIGHT } from '../../../lib/core/ranking/release-notes.js';

t.test('headings that name a release', async (t) => {
  for (const heading of [
    '0.115.0', // FastAPI-style: a bare version
    '16.3',
    'v4.4.0 - 2026-05-30',
    'v5.0.0-alpha.0 - 2026-05-30',
    '[2.3.0] - 2019-09-24', // Keep a Changelog
    '[1.0.0]',
    '2.0.0 (2024-01-02)',
    '1.2.0rc1',
    'Version 3.1.0', // Flask's changes.rst
    'Release 3.40.1 On 2022-12-28',
    'release 15.1',
    'E.20. Release 15.1', // PostgreSQL's numbered appendix
    '2022-12-28 (3.40.1)', // SQLite's release history
    '2016-01-14 - Release 3.10.1',
    '2000-06-02',
    'Cargo 1.80 (2024-07-25)', // Cargo's changelog: a name, a version and its date
    'Node.js 20.1.0 - 2023-05-03',
    'Unreleased',
    '[Unreleased]',
    '  v7.1.0  ',
  ]) {
    t.ok(isReleaseHeading(heading), heading);
  }
});

t.test('headings that do not', async (t) => {
  for (const heading of [
    '1.2 Installation', // a numbered section
    '3.1 Structural Overview (Task 2)',
    '1. Introduction',
    'E.20.2. Changes', // under a release, but not itself one
    'Release Notes', // the page's title
    'Changelog',
    'Python 3.12', // a product and its version: a guide may be named so
    'Node.js 20.x',
    'v8',
    '2.x',
    'Versioning',
    'Migrating from v7 to v8',
    'What is new in 2.0',
    'Cargo 1.80', // a name and a version without a date
    'Using Python 3.12 (2023-10-02)', // two words before the version
    '',
  ]) {
    t.notOk(isReleaseHeading(heading), JSON.stringify(heading));
  }
});

t.test('a heading longer than RELEASE_HEADING_MAX characters is not tested', async (t) => {
  const long = `v1.2.0 - 2024-01-01 ${'x'.repeat(RELEASE_HEADING_MAX)}`;
  t.ok(isReleaseHeading(long.slice(0, RELEASE_HEADING_MAX)), 'at the limit: tested (and a release)');
  t.notOk(isReleaseHeading(long.slice(0, RELEASE_HEADING_MAX + 1)), 'one past it: not');
  t.ok(isReleaseHeading(`   ${long.slice(0, RELEASE_HEADING_MAX)}   `), 'surrounding spaces do not count');
});

t.test('a unit is release notes when any heading of its trail names a release', async (t) => {
  t.ok(isReleaseNotes(['Release Notes', '0.115.0', 'Features']), 'under a version, below the page title');
  t.ok(isReleaseNotes(['E.1. Release 15.20', 'E.1.2. Changes']), 'under a numbered release');
  t.notOk(isReleaseNotes(['Changelog']), "the changelog's own intro is not under a release");
  t.notOk(isReleaseNotes([]), 'a headingless unit');
  t.notOk(isReleaseNotes(['Guide', 'Installation']));
});

t.test('questions about releases', async (t) => {
  for (const q of ['what changed in 2.3', 'breaking changes when I upgrade', 'changelog of the last release', 'is it deprecated?', 'migrate to the new router', 'which version added retries', "what's new in the router", 'whats new', 'when was the cache option introduced', 'was this flag removed', 'does undici v8 need Node 22', 'V7 data loaders']) {
    t.ok(asksAboutReleases(q), q);
  }
  for (const q of ['format a date in French', 'how do I exclude files from the output', 'change the port', 'where did middleware.ts go in Next.js 16?', 'Release the lock', 'add a route', 'remove a listener', 'new project', 'utf8 encoding', 'dev server on port 5173', 'v8 flags for node', '']) {
    // "Release the lock": a word of RELEASE_WORDS in any sense counts; the rule is about
    // words, not meaning, and a question that holds one simply ranks as before.
    // ("v8 flags": V8, the engine, reads as a version; such a question ranks as before.)
    if (q === 'Release the lock' || q === 'v8 flags for node') t.ok(asksAboutReleases(q), q);
    else t.notOk(asksAboutReleases(q), JSON.stringify(q));
  }
});

t.test('the weight is a power of two: scaling a binary64 or binary32 score by it is exact', async (t) => {
  t.equal(Math.log2(RELEASE_NOTES_WEIGHT) % 1, 0);
  t.ok(RELEASE_NOTES_WEIGHT > 0 && RELEASE_NOTES_WEIGHT < 1);
  for (const x of [0.1, 1 / 3, 12.345678, 29.5, 6.6]) {
    t.equal(Math.fround(x * RELEASE_NOTES_WEIGHT), Math.fround(x) * RELEASE_NOTES_WEIGHT, `${x}: scaling commutes with binary32 rounding`);
  }
});

t.test('a heading that holds a version and says it is release notes', async (t) => {
  for (const heading of ['Django 3.2 release notes', 'Django 1.4.15 release notes', "What's New In Python 3.12", 'What’s new in 2.0', 'Changelog for 2.0', 'Release note for v1.2.0']) {
    t.ok(isReleaseHeading(heading), heading);
  }
  for (const heading of ['Release notes', 'Writing release notes', 'Porting your apps from Django 0.96 to 1.0', "What's new", 'Changelog of 2024']) {
    t.notOk(isReleaseHeading(heading), heading);
  }
});

t.test('titles of a page of release notes', async (t) => {
  for (const title of ['Changelog', 'Change Log', 'CHANGELOG', 'Changes', 'History', 'Release History', 'Release Notes', 'Releases', 'News', "What's New", ' changelog ']) {
    t.ok(isReleaseTitle(title), title);
  }
  for (const title of ['Changelog format', 'REPL history', 'Making changes', 'Release notes for 2.0 and later', 'New']) {
    t.notOk(isReleaseTitle(title), title);
  }
});
