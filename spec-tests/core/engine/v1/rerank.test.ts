// Checks the re-ranking features of issue 45 (docs/engine.md "Re-ranking the best candidates:
// measured, not shipped"): each feature of a candidate is what its definition says, on a
// corpus where each is known, kept as an integer number of 1/1024 in [0, 1024]; the bonus is
// an exact integer sum scaled once; the same query gives the same bytes twice.
import t from 'tap';
import { join } from 'node:path';
import { openV1 } from '../../../../lib/core/engine/v1/load.js';
import { rerankCandidates } from '../../../../lib/core/engine/v1/resolve.js';
import { bonusOf, FEATURE_ONE, FEATURES, WEIGHT_ONE } from '../../../../lib/core/engine/v1/rerank.js';
import { buildV1 } from './fixture.js';

// Each section is over the 256 bytes under which a section joins its neighbour.
const pad = (word: string): string => ` ${word} words to fill the section out.`.repeat(12);
const CORPUS = {
  guide: {
    'install.md': '# Install\n\nHow to set things up.' + pad('setup') + '\n\n## Upgrade kiwi\n\nTo upgrade the kiwi package, run the upgrade command.' + pad('more') + '\n',
  },
  blog: { 'kiwi-release.md': '# Kiwi 2.0 released\n\nWe are happy to announce kiwi 2.0 with a faster upgrade.' + pad('news') + '\n' },
  api: { 'kiwi.md': '# Kiwi API\n\nThe kiwi object.' + pad('object') + '\n\n## upgrade()\n\nCall upgrade() to upgrade kiwi in place.' + pad('call') + '\n' },
  errors: { 'upgrade-failed.md': '# Upgrade failed\n\nWhen an upgrade of kiwi fails, read the log.' + pad('log') + '\n' },
};

const feature = (c: { features: readonly number[] }, name: (typeof FEATURES)[number]): number => c.features[FEATURES.indexOf(name)] as number;

t.test('each feature, on a corpus where it is known', async (t) => {
  const dir = t.testdir({ src: CORPUS });
  const cache = join(dir, 'cache');
  await buildV1(join(dir, 'src'), cache, { granularity: 'section', tokenizer: 'o200k_base' });
  const c = openV1(cache);
  t.teardown(() => c.close());
  const { candidates, rest } = rerankCandidates(c, 'upgrade kiwi', 50, 10);
  t.same(rest, [], 'every matching unit is a candidate');
  t.ok(candidates.length >= 5, `${candidates.length} candidates`);
  for (const x of candidates) {
    t.equal(x.features.length, FEATURES.length);
    t.ok(x.features.every((q) => Number.isInteger(q) && q >= 0 && q <= FEATURE_ONE), `${x.id}: integers in [0, ${FEATURE_ONE}]`);
  }
  const byId = new Map(candidates.map((x) => [x.id, x]));
  const upgrade = byId.get('guide/install.md#upgrade-kiwi')!;
  t.ok(upgrade !== undefined, 'the section whose heading names both terms is a candidate');
  t.equal(feature(upgrade, 'heading_coverage'), FEATURE_ONE, 'its own heading holds every query term');
  t.equal(feature(upgrade, 'coverage'), FEATURE_ONE, 'and so does the unit');
  t.equal(feature(upgrade, 'not_intro'), FEATURE_ONE, 'it does not start its file');
  t.equal(feature(upgrade, 'shallow'), FEATURE_ONE / 2, 'a sub-heading of the page\'s heading');
  t.equal(feature(upgrade, 'guide'), FEATURE_ONE, 'its path says guide');
  const intro = byId.get('guide/install.md#install');
  if (intro !== undefined) t.equal(feature(intro, 'not_intro'), 0, 'the page\'s first unit is its intro');
  const news = byId.get('blog/kiwi-release.md#kiwi-2-0-released') ?? [...byId.values()].find((x) => x.path === 'blog/kiwi-release.md')!;
  t.equal(feature(news, 'not_news'), 0, 'a release post: its path says so');
  t.equal(feature(upgrade, 'not_news'), FEATURE_ONE);
  const failed = [...byId.values()].find((x) => x.path === 'errors/upgrade-failed.md')!;
  t.equal(feature(failed, 'not_errors'), 0, 'an error page: its path says so');
  const api = [...byId.values()].find((x) => x.path === 'api/kiwi.md')!;
  t.equal(feature(api, 'reference'), FEATURE_ONE, 'an api page');
  t.ok(feature(api, 'title_coverage') > 0, 'its title (or path) holds kiwi');
  t.equal(feature(candidates[0]!, 'page_best'), FEATURE_ONE, 'the best candidate\'s page holds the best score');
  t.same(rerankCandidates(c, 'upgrade kiwi', 50, 10), { candidates, rest }, 'the same query: the same candidates and features');
});

t.test('the bonus: an exact integer sum, scaled once by the best score; never negative', async (t) => {
  const weights = FEATURES.map((_, i) => (i + 1) * 10);
  const features = FEATURES.map((_, i) => (i * 97) % (FEATURE_ONE + 1));
  let sum = 0;
  for (let i = 0; i < FEATURES.length; i++) sum += (weights[i] as number) * (features[i] as number);
  t.equal(bonusOf({ candidates: 30, weights }, 2.5, features), (2.5 * sum) / (WEIGHT_ONE * FEATURE_ONE));
  t.equal(bonusOf({ candidates: 30, weights: FEATURES.map(() => 0) }, 2.5, features), 0);
  t.ok(bonusOf({ candidates: 30, weights }, 0, features) === 0);
});
