// Checks lib/core/analysis/slugger.ts against github-slugger, the package it stands for
// (docs/sources.md "Markdown structure and sections": slugs come from github-slugger, one
// slugger per document, duplicates numbered -1, -2): the same slug for every text, ASCII
// or not, and the same numbering of repeats.
import t from 'tap';
import fc from 'fast-check';
import GithubSlugger, { slug as githubSlug } from 'github-slugger';
import { Slugger, slugOf } from '../../../lib/core/analysis/slugger.js';

t.test('every ASCII character alone, and each pair, slugs as the package slugs it', async (t) => {
  let wrong = 0;
  for (let a = 0; a < 128; a++) {
    const one = String.fromCharCode(a);
    if (slugOf(one) !== githubSlug(one)) wrong++;
    for (let b = 0; b < 128; b++) {
      const two = one + String.fromCharCode(b);
      if (slugOf(two) !== githubSlug(two)) wrong++;
    }
  }
  t.equal(wrong, 0);
});

t.test('headings as written slug as the package slugs them', async (t) => {
  for (const text of ['Getting Started', 'getting-started', 'API_v2', 'Why? (And how!)', '  spaced  out  ', 'C++ & C#', '', 'naïve café', 'Größe', '日本語の見出し', 'emoji 🚀 launch', 'tab\there', 'x'.repeat(300)]) {
    t.equal(slugOf(text), githubSlug(text), JSON.stringify(text));
  }
});

const pieces = ['a', 'B', 'z', '0', '9', '-', '_', ' ', '.', '?', '!', '(', ')', '`', '*', '#', '/', '\t', 'é', 'Ä', 'ß', 'ς', '日', '🚀', '\u0301', '\u00a0', '-1', '-2', 'intro', 'Intro'];
const heading = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join(''));

t.test('any text slugs as the package slugs it (property)', async (t) => {
  t.doesNotThrow(() => fc.assert(fc.property(heading, (text) => slugOf(text) === githubSlug(text)), { numRuns: 5000, seed: 2411 }));
});

t.test('repeats are numbered as the package numbers them (property)', async (t) => {
  const ours = (texts: readonly string[]): string[] => {
    const s = new Slugger();
    return texts.map((x) => s.slug(x));
  };
  const theirs = (texts: readonly string[]): string[] => {
    const s = new GithubSlugger();
    return texts.map((x) => s.slug(x));
  };
  t.same(ours(['Intro', 'intro', 'Intro', 'intro-1', 'intro-2', 'Intro']), theirs(['Intro', 'intro', 'Intro', 'intro-1', 'intro-2', 'Intro']));
  t.same(ours(['Intro', 'intro', 'Intro', 'intro-1', 'intro-2', 'Intro']), ['intro', 'intro-1', 'intro-2', 'intro-1-1', 'intro-2-1', 'intro-3']);
  t.same(ours(['__proto__', '__proto__', 'constructor', 'hasOwnProperty']), theirs(['__proto__', '__proto__', 'constructor', 'hasOwnProperty']));
  const small = fc.array(fc.constantFrom('Intro', 'intro', 'intro-1', 'Intro 1', 'a', 'a-1', 'a-1-1', 'A 1', '', '?', '-', 'é', 'É'), { maxLength: 20 });
  t.doesNotThrow(() => fc.assert(fc.property(small, (texts) => JSON.stringify(ours(texts)) === JSON.stringify(theirs(texts))), { numRuns: 5000, seed: 2412 }));
  t.doesNotThrow(() => fc.assert(fc.property(fc.array(heading, { maxLength: 20 }), (texts) => JSON.stringify(ours(texts)) === JSON.stringify(theirs(texts))), { numRuns: 2000, seed: 2413 }));
});
