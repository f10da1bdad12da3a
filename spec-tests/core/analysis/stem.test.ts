// Checks docs/engine.md step 3 ("its Porter2 stem when it is ASCII letters"; "The stemmer is
// wink-porter2-stemmer ... its name and version ... are recorded in the cache's
// build_config") against lib/core/analysis/stem.ts.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { rememberedStems, STEM_MEMO_LIMIT, STEMMER, stemWord } from '../../../lib/core/analysis/stem.js';

t.test('engine.md step 3: only lowercase ASCII letter words are stemmed', async (t) => {
  t.equal(stemWord('installing'), 'instal');
  t.equal(stemWord('Installing'), 'Installing', 'callers lowercase first; anything else is its own stem');
  t.equal(stemWord('naïve'), 'naïve');
  t.equal(stemWord('utf8'), 'utf8');
  t.equal(stemWord('snake_case'), 'snake_case', 'a whole identifier is never stemmed');
  t.equal(stemWord(''), '');
});

t.test('engine.md: the recorded stemmer names the installed package version', async (t) => {
  const pkg = JSON.parse(readFileSync(new URL('../../../node_modules/wink-porter2-stemmer/package.json', import.meta.url), 'utf8')) as { version: string };
  t.equal(STEMMER, `porter2 (wink-porter2-stemmer ${pkg.version})`, 'a new stemmer version must change build_config (and so cache_version)');
});

t.test('a known difference from Snowball: wink maps "howe" to "how"', async (t) => {
  // Snowball's english.sbl lists "howe" among the invariant forms (with sky, news, atlas...);
  // wink-porter2-stemmer 2.0.1 omits it. Recorded so a stemmer change cannot pass unnoticed:
  // the build_config names this exact implementation, so caches stay reproducible.
  t.equal(stemWord('howe'), 'how');
  t.equal(stemWord('news'), 'news', 'the other invariant forms are kept');
});

t.test('stems are remembered per word, and a remembered stem is the stemmer\'s own', async (t) => {
  const { createRequire } = await import('node:module');
  const wink = createRequire(import.meta.url)('wink-porter2-stemmer') as (word: string) => string;
  const words = ['configuration', 'configured', 'running', 'runs', 'generously', 'howe', 'skies', 'yyyy'];
  for (const round of [1, 2]) for (const w of words) t.equal(stemWord(w), wink(w), `${w}, round ${round}`);
});

t.test('the stem memo starts over when full, and stems stay the same', async (t) => {
  const { createRequire } = await import('node:module');
  const wink = createRequire(import.meta.url)('wink-porter2-stemmer') as (word: string) => string;
  const first = 'relational';
  t.equal(stemWord(first), wink(first));
  // Distinct lowercase words, more than the memo holds: base-26 numerals in letters.
  const word = (n: number): string => {
    let s = 'q';
    for (let k = n; k > 0; k = Math.floor(k / 26)) s += String.fromCharCode(97 + (k % 26));
    return `${s}ing`;
  };
  let wrong = 0;
  for (let n = 1; n <= STEM_MEMO_LIMIT + 10; n++) {
    const w = word(n);
    if (stemWord(w) !== wink(w)) wrong++;
  }
  t.equal(wrong, 0, 'every stem is the stemmer\'s, across the start-over');
  t.ok(rememberedStems() <= STEM_MEMO_LIMIT, 'the memo never holds more than its limit');
  t.ok(rememberedStems() < 100, 'it started over once full: only the words since are held');
  t.equal(stemWord(first), wink(first), 'a word forgotten is stemmed again, the same');
  t.equal(stemWord(word(STEM_MEMO_LIMIT + 10)), wink(word(STEM_MEMO_LIMIT + 10)), 'a word remembered after it is found again');
});
