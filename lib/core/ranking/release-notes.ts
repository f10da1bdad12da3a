// Release notes rank below the pages that explain (engine v1).
//
// A changelog's entries name every feature the project has (`Add support for Pydantic
// models in Form parameters`), each in a few short lines: BM25 finds them dense in the
// question's words, and at a small budget they take the room of the guide that says how to
// use the feature. A unit under a heading that names a release (`0.115.0`, `v4.4.0 -
// 2026-05-30`, `[2.3.0] - 2019-09-24`, `Version 3.1.0`, `Django 3.2 release notes`,
// `Unreleased`: RELEASE_HEADING below), or under a release-notes title (`Changelog`) on a
// page that has such a unit, is release notes, whatever the file is called; its score is
// multiplied by RELEASE_NOTES_WEIGHT, unless the question asks about releases (a version
// number, `what's new`, or one of RELEASE_WORDS). The weight is a power of two, so the scaled
// score is exact on every machine. The engine applies it as it draws units in score order
// (../engine/v1/resolve.ts ReleaseNotesLast). docs/engine.md "Release notes".

/** What a release-notes unit's score is multiplied by. */
export const RELEASE_NOTES_WEIGHT = 0.25;

// A version: at least two numeric parts, an optional `v` and pre-release or build suffix
// (`5.0.0-alpha.0`, `1.2.0rc1`, `2.0.0+build.5`). A release heading, once a section number
// ending in a dot is set aside (`E.20. Release 15.1`), is one of:
// - a version, optionally in brackets (Keep a Changelog), then nothing, or a separator and
//   anything (`v4.4.0 - 2026-05-30`, `[2.3.0] - 2019-09-24`, `0.115.0`); `1.2 Installation`,
//   a numbered section, is not one;
// - `version` or `release` and a version, then anything (`Release 3.40.1 On 2022-12-28`);
// - one word (a product's name) and a version, then a separator and a date (`Cargo 1.80
//   (2024-07-25)`, Cargo's changelog): without the date, `Python 3.12` may title a guide;
// - a date (YYYY-MM-DD), then nothing or a separator and anything (`2022-12-28 (3.40.1)`);
// - `Unreleased`, optionally in brackets;
// - any heading holding a version and the words `release notes`, `changelog` or `what's new`
//   (`Django 3.2 release notes`, `What's New In Python 3.12`, `Changelog for 2.0`).
const VERSION = String.raw`v?\d+(?:\.\d+)+(?:[-.+]?[0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*)?`;
const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
const AFTER = String.raw`(?:\s*[-–—(:,/].*)?`;
const RELEASE_HEADING = new RegExp(
  String.raw`^(?:(?:\[${VERSION}\]|${VERSION})${AFTER}|(?:version|release)\s+${VERSION}(?:\s.*)?|\p{L}[\p{L}\p{N}._-]*\s+${VERSION}\s*(?:[-–—(:,/]\s*)+${DATE}.*|${DATE}${AFTER}|\[?unreleased\]?)$`,
  'iu',
);
const SECTION_NUMBER = /^[A-Z0-9]+(?:\.[0-9]+)*\.\s+/u;
const NAMED_RELEASE = new RegExp(String.raw`(?:^|[^0-9A-Za-z.])${VERSION}(?![0-9A-Za-z])`, 'u');
const RELEASE_WORDING = /\b(?:release notes?|changelog|what['’]?s new)\b/iu;

/**
 * Release headings are short (`v5.0.0-alpha.0 - 2026-05-30`: 27 characters); a longer heading
 * is not tested, which also bounds the pattern's backtracking on a hostile heading.
 */
export const RELEASE_HEADING_MAX = 100;

/** Whether heading text `heading` names a release (the forms listed above RELEASE_HEADING). */
export function isReleaseHeading(heading: string): boolean {
  const text = heading.trim();
  if (text.length > RELEASE_HEADING_MAX) return false;
  return RELEASE_HEADING.test(text.replace(SECTION_NUMBER, '')) || (RELEASE_WORDING.test(text) && NAMED_RELEASE.test(text));
}

/**
 * Titles of a page of release notes (`Changelog`, `Release Notes`, `History`, …). A unit
 * under such a title and under no release heading — the page's introduction, into which its
 * first entries may have merged ("Units that fit"), or `Latest Changes` — is release notes
 * when its page holds a unit under a release heading (so a `History` section of a REPL's page
 * is not).
 */
const RELEASE_TITLE = /^(?:change ?log|changes|change history|history|release history|release notes|releases|news|what['’]?s new)$/iu;

/** Whether heading text `heading` titles a page of release notes (see RELEASE_TITLE). */
export function isReleaseTitle(heading: string): boolean {
  return RELEASE_TITLE.test(heading.trim());
}

/** Whether a unit whose headings (outermost first) are `trail` is release notes. */
export function isReleaseNotes(trail: readonly string[]): boolean {
  return trail.some(isReleaseHeading);
}

/** Words that ask about releases: a question holding one ranks release notes as any other unit. */
export const RELEASE_WORDS: ReadonlySet<string> = new Set([
  'added',
  'breaking',
  'changed',
  'changelog',
  'changelogs',
  'changes',
  'deprecated',
  'deprecation',
  'history',
  'introduced',
  'migrate',
  'migrating',
  'migration',
  'release',
  'released',
  'releases',
  'removed',
  'upgrade',
  'upgraded',
  'upgrading',
  'version',
  'versions',
]);

// A version in a question: a digit, a dot, a digit (`2.3`), or `v` and a number (`v8`).
const QUERY_VERSION = /\d\.\d|\bv\d+\b/iu;
const WHATS_NEW = /\bwhat['’]?s new\b/iu;

/**
 * Whether the question `query` (as the user wrote it) asks about releases: it holds a version
 * (a digit, a dot, a digit, or `v` and a number), `what's new`, or one of RELEASE_WORDS.
 */
export function asksAboutReleases(query: string): boolean {
  if (QUERY_VERSION.test(query) || WHATS_NEW.test(query)) return true;
  for (const word of query.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (RELEASE_WORDS.has(word)) return true;
  return false;
}
