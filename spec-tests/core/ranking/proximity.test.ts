// Proximity (docs/engine.md "Proximity"; issue "Answers that fit, by default": the
// answering passage inside a small answer). The best BM25 units are read again and each
// gains weight × the summed idf of the query terms in its best window of `window` words.
import t from 'tap';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { analyzeText, forEachRawTokenAt, forEachTermAt, isCodeTerm, rawTokenTerms, termStarts } from '../../../lib/core/analysis/analyzer.js';
import { bestWindow, NO_WINDOW } from '../../../lib/core/ranking/proximity.js';
import { buildCacheV1 } from '../../../lib/core/engine/v1/build.js';
import { buildConfig, DEFAULT_PROXIMITY, parseBuildConfig } from '../../../lib/core/engine/v1/config.js';
import { openEngine } from '../../../lib/core/engine/engine.js';
import { selectionText } from '../../../lib/core/operations/selection-text.js';
import { compact, type Json } from '../../../lib/json.js';

const termsAt = (text: string, code: boolean): [string, number][] => {
  const out: [string, number][] = [];
  if (code) forEachTermAt(text, (term, at) => out.push([term, at]));
  else forEachRawTokenAt(text, (raw, at) => rawTokenTerms(raw).forEach((term) => out.push([term, at])));
  return out;
};

t.test('forEachTermAt: a position per raw token, its terms at it; code terms at the chunk\'s first raw token', async (t) => {
  t.same(termsAt('Read the file', false), [['read', 0], ['the', 1], ['file', 2]]);
  // `Buffer.allocUnsafe()` is one chunk: its code term, then its raw token's terms (whole, then parts).
  t.same(termsAt('use Buffer.allocUnsafe() now', true), [
    ['use', 0],
    ['buffer.allocunsafe()', 1],
    ['buffer.allocunsafe', 1],
    ['buffer', 1],
    ['alloc', 1],
    ['unsaf', 1],
    ['now', 2],
  ]);
  t.same(termsAt('use Buffer.allocUnsafe() now', false), termsAt('use Buffer.allocUnsafe() now', true).filter(([term]) => term !== 'buffer.allocunsafe()'), 'without code: the same, less the code terms');
  t.same(termsAt('a ? b', true), [['a', 0], ['?', 1], ['b', 1]], 'a chunk without a raw token stands where the next one does');
  const sample = 'Call `fs.readFile(path)` — or `Rc<T>`; then --fix-dry-run, naïve café, x.y.z and import.meta.glob.';
  t.same(termsAt(sample, true).map(([term]) => term), analyzeText(sample), 'with code: exactly the terms analyzeText gives, in order');
  t.ok(isCodeTerm('rc<t>') && isCodeTerm('foo()') && !isCodeTerm('next.js') && !isCodeTerm('read'), 'code terms are those that are not one raw token');
});

t.test('forEachRawTokenAt: exactly the raw tokens of the analyzer\'s regular expression, in order', async (t) => {
  const RAW_TOKEN = /[\p{L}\p{M}\p{N}]+(?:[._-][\p{L}\p{M}\p{N}]+)*/gu;
  const scanned = (s: string): string[] => {
    const out: string[] = [];
    forEachRawTokenAt(s, (raw, at) => {
      if (at !== out.length) t.fail(`position ${at} after ${out.length} tokens`);
      out.push(raw);
    });
    return out;
  };
  for (const s of ['', 'a', 'a.b', 'a..b', '.a.', 'x86_64 v1.2-rc', 'naïve café', 'e\u0301t\u00e9', '𝒳𝒴.z', '日本語テキスト', 'a\ud800b', 'mid-', '-mid', 'a_b_c_']) {
    t.same(scanned(s), s.match(RAW_TOKEN) ?? [], JSON.stringify(s));
  }
  // Any string of joiners, punctuation, spaces, ASCII, accents, combining marks, CJK, astral and lone surrogates.
  const pieces = ['a', 'Z', '9', '.', '_', '-', ' ', '(', 'é', '\u0301', '日', '𝒳', '\ud800', '\udc00', '٣', 'ß'];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const s = parts.join('');
      return JSON.stringify(scanned(s)) === JSON.stringify(s.match(RAW_TOKEN) ?? []);
    }),
    { numRuns: 2000 },
  );
  t.pass('2,000 random strings: the same tokens');
});

t.test('forEachRawTokenAt with termStarts: every token that gives one of the terms is passed, at its position', async (t) => {
  // What a scan of `s` finds of `terms`: with the filter and without.
  const found = (s: string, terms: readonly string[], filtered: boolean): string => {
    const out: string[] = [];
    const keep = (raw: string, at: number): void => {
      for (const term of rawTokenTerms(raw)) if (terms.includes(term)) out.push(`${term}@${at}`);
    };
    if (filtered) forEachRawTokenAt(s, keep, termStarts(terms));
    else forEachRawTokenAt(s, keep);
    return out.join(' ');
  };
  t.equal(found('Read the allocUnsafe docs', ['unsaf'], true), 'unsaf@2', 'a camelCase part found by its uppercase letter');
  t.equal(found('see x86_64 and next.js-config', ['config', '64'], true), '64@1 config@3', 'parts after joiners');
  t.equal(found('Ünïcode ﬁle naïve', ['unicod', 'file'], true), found('Ünïcode ﬁle naïve', ['unicod', 'file'], false), 'tokens with other characters always passed (NFKC: ﬁ is fi)');
  t.equal(found('dying oing lying skies', ['die', 'oe', 'lie', 'sky'], true), 'die@0 oe@1 lie@2 sky@3', 'stems whose second letter is not the word\'s');
  const passed: string[] = [];
  forEachRawTokenAt('alpha beta gamma gorge', (raw, at) => passed.push(`${raw}@${at}`), termStarts(['gamma']));
  t.same(passed, ['gamma@2'], 'the others are not cut out at all (gorge: the first letter alone no longer passes); positions count every token');
  const pieces = ['a', 'b', 'e', 's', 'y', 'Z', 'B', 'S', 'ing', 'ies', 'ly', 'ed', 'dy', 'o', 'HTTP', 'Server', '9', '.', '_', '-', ' ', 'é', '\u0301', 'ß', 'ﬁ', '日', '𝒳'];
  const others = ['ab', 'be', 'bi', 'sy', 'ye', 'y9', 'a-b', 'b.s', 'http', 'server', 'ie', 'oe', 'z', '9', 'fi', 'é'];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }), fc.subarray(others), (parts, pick, extra) => {
      const s = parts.join('');
      // Some of the text's own terms, and some that may or may not be there.
      const own = [...new Set(analyzeText(s))].filter((_, k) => pick[k % 32]);
      const terms = [...own, ...extra];
      return found(s, terms, true) === found(s, terms, false);
    }),
    { numRuns: 4000 },
  );
  // On real docs (both dev sets' six corpora) and random words: every distinct token, each of
  // its terms asked alone (Porter2 keeps a word's first letter, and its second unless the
  // stem's is e or i).
  const relevance = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bench', 'relevance');
  const tokens = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.md')) forEachRawTokenAt(readFileSync(join(dir, e.name), 'utf8'), (raw) => tokens.add(raw));
    }
  };
  walk(join(relevance, 'devset', 'corpus'));
  walk(join(relevance, 'devset2', 'corpus'));
  const docTokens = tokens.size;
  const words = fc.string({ unit: fc.constantFrom(...'abcdeilnorstuyzAEIY'), minLength: 1, maxLength: 14 });
  for (const w of fc.sample(words, { numRuns: 20000, seed: 7 })) tokens.add(w);
  // Step 1b's ing/ed after one vowel, the exceptional forms, and Porter2's suffixes after short stems.
  const suffixes = ['ing', 'ingly', 'ed', 'edly', 'eed', 'ies', 'ied', 's', 'sses', 'y', 'ly', 'li', 'ational', 'biliti', 'ogi', 'ement', 'fulness'];
  for (const stem of ['a', 'e', 'i', 'o', 'u', 'y', 'd', 'l', 't', 'sk', 'id', 'ug', 'ear', 'on', 'ab', 'ge']) for (const suffix of suffixes) tokens.add(stem + suffix);
  for (const w of ['dying', 'lying', 'tying', 'skis', 'skies', 'idly', 'gently', 'ugly', 'early', 'only', 'singly', 'news', 'howe', 'atlas', 'cosmos', 'bias', 'andes']) tokens.add(w);
  let checked = 0;
  const missed: string[] = [];
  for (const raw of tokens) {
    for (const term of rawTokenTerms(raw)) {
      let seen = false;
      forEachRawTokenAt(raw, () => (seen = true), termStarts([term]));
      if (!seen) missed.push(`${raw} -> ${term}`);
      checked++;
    }
  }
  t.ok(docTokens > 20000 && tokens.size > docTokens + 10000, `${docTokens} distinct tokens of docs, ${tokens.size - docTokens} random words`);
  t.same(missed.slice(0, 10), [], `each of ${checked} terms: its token passes the filter of the term's beginning`);
});

t.test('bestWindow: the window of `window` positions whose distinct query terms sum the most idf', async (t) => {
  const idfs = [1, 2, 4];
  t.same(bestWindow([], [], idfs, 20), NO_WINDOW, 'no occurrence: nothing');
  t.same(bestWindow([5], [1], idfs, 20), { score: 2, terms: [1] }, 'one term: its idf');
  t.same(bestWindow([0, 19], [0, 2], idfs, 20), { score: 5, terms: [0, 2] }, '19 apart: one window of 20 holds both');
  t.same(bestWindow([0, 20], [0, 2], idfs, 20), { score: 4, terms: [2] }, '20 apart: no window holds both');
  t.same(bestWindow([0, 1, 2, 3], [1, 1, 1, 1], idfs, 20), { score: 2, terms: [1] }, 'a term counts once however often it occurs');
  t.same(bestWindow([0, 1, 50, 51], [0, 1, 1, 0], idfs, 20), { score: 3, terms: [0, 1] }, 'the earliest of equal windows');
  t.same(bestWindow([7, 7, 7], [0, 1, 2], idfs, 1), { score: 7, terms: [0, 1, 2] }, 'the terms of one token share its position');
  // The sum runs over the window's terms in query order: the same bits as that sum written out.
  const odd = [0.1, 0.2, 0.3];
  t.equal(bestWindow([0, 1, 2], [2, 0, 1], odd, 20).score, 0.1 + 0.2 + 0.3);
});

t.test('build_config: section builds record proximity, file builds and older caches none', async (t) => {
  const options = { granularity: 'section' as const, tokenizer: 'bytes4' as const, include: [], exclude: [] };
  const section = buildConfig(options) as { ranking: Record<string, Json> };
  t.same(section.ranking['proximity'], { window: 20, weight: 1.5, candidates: 20 });
  t.same(DEFAULT_PROXIMITY, { window: 20, weight: 1.5, candidates: 20 });
  const file = buildConfig({ ...options, granularity: 'file' }) as { ranking: Record<string, Json> };
  t.equal(file.ranking['proximity'], undefined, 'file builds: BM25 alone');
  const parsed = parseBuildConfig(section);
  t.same(typeof parsed === 'string' ? parsed : parsed.ranking.proximity, DEFAULT_PROXIMITY);
  const { proximity: _dropped, ...older } = section.ranking;
  const old = parseBuildConfig({ ...section, ranking: older });
  t.equal(typeof old === 'string' ? old : old.ranking.proximity, null, 'a cache built before proximity ranks by BM25 alone');
  for (const bad of [{ window: 0, weight: 1, candidates: 20 }, { window: 20, weight: -1, candidates: 20 }, { window: 20, weight: 1, candidates: 1.5 }, { window: 20, weight: 1 }, 'near']) {
    t.equal(parseBuildConfig({ ...section, ranking: { ...section.ranking, proximity: bad as Json } }), 'bad ranking proximity', JSON.stringify(bad));
  }
});

interface Entry {
  id: string;
  score: number;
  why: { matches: { score: number }[]; proximity?: { terms: string[]; score: number } };
}

t.test('resolve: of two sections BM25 scores alike, the one with the words together ranks first, and says why', async (t) => {
  const filler = (n: number): string => Array.from({ length: n }, (_, i) => `filler${i % 7}`).join(' ');
  const dir = t.testdir({
    src: {
      // The same words, the same counts, the same length: only their distance differs.
      'apart.md': `# Apart\n\ncache ${filler(40)} eviction ${filler(40)} policy\n`,
      'together.md': `# Together\n\n${filler(40)} cache eviction policy ${filler(40)}\n`,
    },
  });
  const build = async (granularity: 'section' | 'file', name: string): Promise<string> => {
    const cache = join(dir, name);
    await buildCacheV1({ sources: join(dir, 'src'), cache, force: false, createdAt: '2026-01-01T00:00:00Z', options: { granularity, tokenizer: 'bytes4', include: [], exclude: [] } });
    return cache;
  };
  const engine = openEngine(await build('section', 'sections'));
  t.teardown(() => engine.close());
  const value = engine.resolve('cache eviction policy', 10_000);
  // As printed (scores are binary32 values until then).
  const answer = JSON.parse(compact(value)) as { documents: Entry[] };
  t.same(answer.documents.map((d) => d.id), ['together.md#together', 'apart.md#apart']);
  const [together, apart] = answer.documents as [Entry, Entry];
  t.same(together.why.proximity?.terms, ['cach', 'evict', 'polici'], 'all three in one window');
  t.equal(apart.why.proximity?.terms.length, 1, 'apart: one at a time');
  for (const d of answer.documents) {
    const bm25 = d.why.matches.reduce((s, m) => s + m.score, 0);
    t.ok(Math.abs(d.score - (bm25 + (d.why.proximity?.score ?? 0))) < 1e-4, `${d.id}: score = its matches + proximity`);
  }
  t.ok(together.why.proximity !== undefined && apart.why.proximity !== undefined && together.why.proximity.score > apart.why.proximity.score);
  t.match(selectionText(value), /\n {5}in one passage: cach, evict, polici \(\+[0-9.]+\)\n/, 'the text format names the terms');
  // Files: no proximity recorded, BM25 alone; the two files tie and come in id order.
  const files = openEngine(await build('file', 'files'));
  t.teardown(() => files.close());
  const plain = JSON.parse(compact(files.resolve('cache eviction policy', 10_000))) as { documents: Entry[] };
  t.same(plain.documents.map((d) => d.id), ['apart.md', 'together.md'], 'equal scores: id order');
  t.ok(plain.documents.every((d) => d.why.proximity === undefined), 'no proximity in why');
});
