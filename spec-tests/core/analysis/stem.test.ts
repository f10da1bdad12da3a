// Checks docs/engine.md step 3 ("its Porter2 stem when it is ASCII letters"; "The stemmer is
// wink-porter2-stemmer ... its name and version ... are recorded in the cache's
// build_config") against lib/core/analysis/stem.ts.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { STEMMER, stemWord } from '../../../lib/core/analysis/stem.js';

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
