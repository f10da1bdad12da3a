// Engine v1's build_config: every parameter that shapes an answer, written into the
// manifest so that cache_version covers it and resolve is a pure function of the cache's
// bytes. `parseBuildConfig` accepts exactly the shape `buildConfig` writes, for values this
// engine implements; anything else is a cache this engine cannot answer from faithfully.

import { canonical, type Json } from '../../../json.js';
import { ANALYZER_CONFIG } from '../../analysis/analyzer.js';
import { FIELDS } from '../../analysis/term-counter.js';
import { INDEX_FORMAT } from '../../index/index-format.js';
import type { RankingParams } from '../../ranking/bm25.js';
import type { ProximityParams } from '../../ranking/proximity.js';
import { DEFAULT_EXTENSIONS } from '../../sources/extensions.js';
import { isTokenizerName, type TokenizerName } from '../../tokens/count.js';

export const FORMAT_VERSION = '20';
/** The earlier formats engine v1 wrote, refused with the advice to rebuild (docs/cache-format.md). */
export const EARLIER_FORMATS: readonly unknown[] = ['2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19'];
export const GRANULARITIES = ['file', 'section'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Chosen once on the relevance dev set (docs/engine.md "How the parameters were chosen"). */
export const DEFAULT_RANKING = {
  model: 'bm25-fields',
  k1: 1.2,
  b: 0.75,
  fields: { body: 1, headings: 0.75, title: 1.5, path: 2.5 },
} as const;

/**
 * Section builds: the best 20 units by BM25 each gain 1.5 × the summed idf of the query
 * terms in their best window of 20 words (../../ranking/proximity.ts; chosen on both dev
 * sets at once, docs/engine.md "Proximity"). File builds record none (whole files read
 * again cost more and ranked worse), nor does a cache built before it: those rank by BM25
 * alone, as they always did.
 */
export const DEFAULT_PROXIMITY: ProximityParams = { window: 20, weight: 1.5, candidates: 20 };
/** The largest window or candidate count a build_config may record (a unit is read again per candidate). */
export const MAX_PROXIMITY_COUNT = 1024;

/**
 * Sections split at h1-h2, then any over 1,536 UTF-8 bytes at deeper headings, blocks,
 * lines; a section under 256 bytes joins a neighbour while the joined unit stays within
 * 768 bytes (docs/sources.md "Units that fit": chosen on the answers of the four dev sets at
 * 1,000 and 2,000 tokens, once the lean answer made an entry cost little beside its text).
 */
export const SECTION_RULES = { split_level: 2, min_bytes: 256, merge_max_bytes: 768, max_bytes: 1536 } as const;

/**
 * A section's heading texts (its trail) and the text its slug is made from keep at most
 * this many UTF-8 bytes (analysis/markdown.ts `headingBytes`; docs/engine.md "Counting
 * pieces once"): a heading that is one long word would otherwise be stored, counted and
 * printed whole with every section cut from it, 2,048 bytes at a time. Longer than any
 * heading met in real documentation (the longest of the 17,288 headings in this repository's
 * dev sets, docs and node_modules is 716 bytes of Markdown, less as text), so no ordinary cache changes.
 */
export const HEADING_MAX_BYTES = 1024;

export interface V1Options {
  readonly granularity: Granularity;
  readonly tokenizer: TokenizerName;
  /** --include globs, as given (order kept). */
  readonly include: readonly string[];
  /** --exclude globs, as given (order kept). */
  readonly exclude: readonly string[];
  /**
   * The file extensions taken (absent: DEFAULT_EXTENSIONS, what a build writes today). A cache
   * built before other formats were read records Markdown's alone, and is still read.
   */
  readonly extensions?: readonly string[];
}

/** The extension set caches recorded before reStructuredText, AsciiDoc and plain text were read (issue 46). */
export const MARKDOWN_EXTENSIONS: readonly string[] = ['markdown', 'md', 'mdx'];

export interface V1Config {
  readonly options: V1Options;
  readonly ranking: RankingParams;
}

export function buildConfig(options: V1Options): Json {
  return {
    version: FORMAT_VERSION,
    hash_algorithm: 'sha256',
    engine: 'v1',
    granularity: options.granularity,
    sources: {
      extensions: [...(options.extensions ?? DEFAULT_EXTENSIONS)],
      include: [...options.include],
      exclude: [...options.exclude],
      gitignore: true,
      hidden: false,
    },
    analyzer: { ...ANALYZER_CONFIG },
    sections: options.granularity === 'section' ? { ...SECTION_RULES } : null,
    ranking: {
      model: DEFAULT_RANKING.model,
      k1: DEFAULT_RANKING.k1,
      b: DEFAULT_RANKING.b,
      fields: { ...DEFAULT_RANKING.fields },
      ...(options.granularity === 'section' ? { proximity: { ...DEFAULT_PROXIMITY } } : {}),
    },
    tokenizer: options.tokenizer,
    index: { format: INDEX_FORMAT },
  };
}

/**
 * The largest k1 or field weight a build_config may record. Scores are printed as binary32;
 * with every constant at most 1000 a unit's score stays below ~1e13 (at most 64 Ki query
 * terms × 4 fields × 1000 × idf < 23 × (k1 + 1)), far inside binary32's range, where a weight
 * of 1e39 would print as infinity, which JSON cannot carry.
 */
export const MAX_RANKING_CONSTANT = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** The options and ranking a v1 build_config records, or a reason it is not one. */
export function parseBuildConfig(value: unknown): V1Config | string {
  if (!isObject(value)) return 'build_config is not an object';
  if (value['engine'] === 'v1' && EARLIER_FORMATS.includes(value['version'])) {
    return `build_config is engine v1 format ${value['version']}, which this version no longer reads (rebuild it with build --force)`;
  }
  if (value['version'] !== FORMAT_VERSION || value['engine'] !== 'v1') return `build_config is not engine v1 format ${FORMAT_VERSION}`;
  const granularity = GRANULARITIES.find((g) => g === value['granularity']);
  if (granularity === undefined) return 'unknown granularity';
  const tokenizer = value['tokenizer'];
  if (typeof tokenizer !== 'string' || !isTokenizerName(tokenizer)) return 'unknown tokenizer';
  const sources = value['sources'];
  if (!isObject(sources) || !isStringList(sources['include']) || !isStringList(sources['exclude'])) return 'bad sources';
  const recordedExtensions = sources['extensions'];
  const legacy = isStringList(recordedExtensions) && canonical(recordedExtensions) === canonical([...MARKDOWN_EXTENSIONS]);
  const options: V1Options = { granularity, tokenizer, include: sources['include'], exclude: sources['exclude'], ...(legacy ? { extensions: MARKDOWN_EXTENSIONS } : {}) };
  const ranking = value['ranking'];
  if (!isObject(ranking) || !isObject(ranking['fields'])) return 'bad ranking';
  const fields = ranking['fields'];
  const numbers = [ranking['k1'], ranking['b'], ...FIELDS.map((f) => fields[f])];
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_RANKING_CONSTANT)) return 'bad ranking constants';
  const [k1, b, ...weights] = numbers as number[];
  if ((b as number) > 1) return 'bad ranking constants';
  // Everything else must be exactly what this engine writes for those values.
  const proximity = parseProximity(ranking['proximity']);
  if (typeof proximity === 'string') return proximity;
  const expected = buildConfig(options) as Record<string, Json>;
  const fieldWeights = Object.fromEntries(FIELDS.map((f, i) => [f, weights[i] as number]));
  const recorded: Record<string, Json> = { model: DEFAULT_RANKING.model, k1: k1 as number, b: b as number, fields: fieldWeights };
  if (proximity !== null) recorded['proximity'] = { window: proximity.window, weight: proximity.weight, candidates: proximity.candidates };
  const withRanking = { ...expected, ranking: recorded };
  if (canonical(withRanking) !== canonical(value)) return 'build_config names an analyzer, index or rule this engine does not implement';
  return { options, ranking: { k1: k1 as number, b: b as number, weights, proximity } };
}

/** A recorded ranking.proximity: absent (null: BM25 alone), or whole numbers of terms and candidates and a weight. */
function parseProximity(value: unknown): ProximityParams | null | string {
  if (value === undefined) return null;
  if (!isObject(value)) return 'bad ranking proximity';
  const { window, weight, candidates } = value;
  const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 1 && (n as number) <= MAX_PROXIMITY_COUNT;
  if (!count(window) || !count(candidates)) return 'bad ranking proximity';
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0 || weight > MAX_RANKING_CONSTANT) return 'bad ranking proximity';
  return { window, weight, candidates };
}
