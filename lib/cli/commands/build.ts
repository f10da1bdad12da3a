// `context build --sources DIR --cache OUT [--force] [--engine v0|v1] [v1 options]`: compiles
// DIR's documents into a cache. v1 (the default: sections, o200k_base token counts) writes
// an index inside the cache; v0 is the Context Engine v0 cache byte for byte, every *.md.
// stdout gets one JSON line (a build that found no document also warns on stderr);
// created_at comes from SOURCE_DATE_EPOCH when set, else the clock.

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_ENGINE, DEFAULT_V1_OPTIONS, emptyBuildWarning, needEngineV1, runBuild, v1OptionsGiven, type BuildRequest } from '../../core/operations/build-request.js';
import { GRANULARITIES, type Granularity } from '../../core/engine/v1/config.js';
import { isTokenizerName, TOKENIZERS, type TokenizerName } from '../../core/tokens/count.js';
import { isWithinRoots } from '../../core/confine.js';
import { globListProblem, MAX_GLOB_BYTES, MAX_GLOBS } from '../../core/sources/limits.js';
import { isLabel, LABEL_FORM } from '../../core/engine/v1/label.js';
import { ContextError } from '../../errors.js';
import { compact } from '../../json.js';
import { parseFlags, required } from '../args.js';
import { UsageError, type Command } from '../command.js';
import { timestamp } from '../clock.js';
import { ProgressLine } from '../progress-line.js';

const ENGINES = ['v0', 'v1'] as const;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new UsageError(`--${flag} must be ${allowed.join(' or ')}, not "${value}"`);
  return found;
}

export const build: Command = {
  name: 'build',
  summary: 'Build a context cache from a directory of Markdown (engine v1 by default, or v0)',
  usage: [
    'context build --sources DIR --cache OUT [--force] [--engine v1|v0]',
    '              [--granularity section|file] [--tokenizer o200k_base|cl100k_base|bytes4]',
    '              [--include GLOB]... [--exclude GLOB]... [--label NAME] [--project-root DIR]',
    '  (the default, engine v1, ranks Markdown/MDX sections with an index and counts tokens',
    '   exactly in o200k_base; --engine v0 is the Context Engine v0 cache byte for byte with',
    '   its reference and takes none of the other options. docs/engine.md)',
  ].join('\n'),
  help: {
    about:
      'Compiles the Markdown under a directory into an immutable, content-addressed context cache that resolve, inspect, verify, status and the MCP server read. ' +
      'Everything is read and checked before the cache is written; it appears at once (written beside it, then renamed), so a failed build leaves nothing behind. ' +
      'Engine v1 (the default) writes an index inside the cache: Markdown and MDX, reStructuredText, AsciiDoc, plain text and HTML, .gitignore honoured, BM25 ranking with stemming, documents cut into sections no bigger than a fixed cap, token counts exact in o200k_base (docs/engine.md; how each format is read and cut: docs/sources.md); ' +
      'a --force rebuild of a v1 cache reuses what did not change. ' +
      'Engine v0 (--engine v0) is the Context Engine v0 cache, byte for byte with its reference: every *.md file, whole. ' +
      'A build that finds no document still writes its (empty) cache, exits 0 and warns on stderr, naming the extensions it looked for. ' +
      'When stderr is a terminal a progress line is shown there. SOURCE_DATE_EPOCH (seconds) sets the manifest\'s created_at, for byte-identical rebuilds.',
    options: [
      ['--sources DIR', 'The folder to compile, relative to the working directory. v0: every file whose name ends in ".md" (case-sensitive), at any depth; v1: .md, .mdx, .markdown, .rst, .adoc, .asciidoc, .txt, .html and .htm files (sections at their headings or section titles; a .txt file is one section named by its file name; HTML is indexed by its visible text, scripts and styles dropped, and printed as its source), skipping hidden ones, node_modules and what .gitignore files exclude. Symlinked files are read wherever they lead (unless --project-root confines them), symlinked folders are not entered.'],
      ['--cache OUT', 'Where to write the cache (a new directory; its parent is created). Refused if OUT exists, unless --force; never the sources folder, the working directory or a folder holding either.'],
      ['--force', 'Replace an existing cache at OUT: only a cache this program wrote (a folder holding a manifest either engine accepts and nothing else but that cache\'s own files) or an empty folder is replaced; a file, a symbolic link or any other folder (one with a file of yours beside a cache\'s files, too) is refused and left as it is. The old cache stays in place until the new one is complete, and is put back if the swap fails.'],
      ['--project-root DIR', 'Confine the build to DIR, as the MCP server confines its builds: the sources must lie inside it (else root_not_allowed, exit 8), a symlinked source whose real path leaves it is skipped and reported, and OUT may not be or hold it.'],
      ['--engine v1|v0', 'v1 (default): ranked retrieval with an index inside the cache; every option below is v1\'s. v0: the Context Engine v0 cache byte for byte with its reference, scored by the share of a document\'s words that equal a query word; it takes none of the options below.'],
      ['--granularity section|file', 'v1: what a selection holds: the sections between headings, addressed path#slug (default), or whole files.'],
      ['--tokenizer o200k_base|cl100k_base|bytes4', 'v1: how tokens are counted for budgets, once, at build time: o200k_base (default) and cl100k_base count OpenAI\'s encodings exactly; bytes4 = ceil(UTF-8 bytes / 4) is an estimate, faster to build.'],
      ['--include GLOB', `v1, repeatable: keep only files whose path under --sources matches (picomatch globs: guide/**, **/*.mdx). At most ${MAX_GLOBS} globs of --include and ${MAX_GLOBS} of --exclude, each at most ${MAX_GLOB_BYTES} bytes.`],
      ['--exclude GLOB', 'v1, repeatable: drop the files and folders that match (drafts/, **/CHANGELOG.md).'],
      ['--label NAME', 'v1: a name for what the cache holds (fastapi@0.115, acme/api+docs), 1 to 64 letters, digits and . _ @ / + -; recorded in the manifest (not in cache_version: the same content keeps its version whatever it is called) and shown by list-caches, inspect and the MCP server. A rebuild writes what its command says: --force without --label drops an old label, so pass it again to keep it.'],
    ],
    examples: [
      'context build --sources ./docs --cache ./caches/docs',
      'context build --sources ./docs --cache ./caches/docs --force',
      'SOURCE_DATE_EPOCH=0 context build --sources ./docs --cache /tmp/docs-cache',
      'context build --include "guide/**" --exclude drafts/ --sources ./docs --cache ./caches/guide',
      'context build --granularity file --tokenizer bytes4 --sources ./docs --cache ./caches/docs-files',
      'context build --engine v0 --sources ./docs --cache ./caches/docs-v0',
      'context build --label fastapi@0.115 --sources ./fastapi/docs --cache ~/.context/caches/fastapi',
      'context build --project-root . --sources ./docs --cache ./caches/docs   # symlinks leading out of . are skipped',
    ],
    output:
      'stdout: one JSON line, {"cache_version":"sha256:...","document_count":N,...} (v1 adds engine, label (when given), granularity, tokenizer, units, reused, analyzed, unchanged, formats (documents per format: {"md":N,"rst":N,...}) and the files it skipped, with why). ' +
      'Exit 0; 5 when a v0 source is not valid UTF-8 or two paths give the same id; 6 when the sources are missing, OUT exists without --force, OUT is not a cache (or is the sources, the working directory or holds them), or the disk fails; 8 when --project-root does not hold the sources; 1 usage (v1 options with --engine v0, a glob over the limits, a label that is not one).',
  },
  async run(argv, io) {
    const args = parseFlags(argv, {
      strings: ['sources', 'cache', 'engine', 'granularity', 'tokenizer', 'project-root', 'label'],
      booleans: ['force'],
      lists: ['include', 'exclude'],
    });
    const sources = resolve(io.cwd, required(args, 'sources'));
    const cache = resolve(io.cwd, required(args, 'cache'));
    const projectRootValue = args.values['project-root'];
    if (projectRootValue === '') throw new UsageError('--project-root needs a directory');
    const projectRoot = projectRootValue === undefined ? null : resolve(io.cwd, projectRootValue);
    const engine = oneOf('engine', args.values['engine'], ENGINES, DEFAULT_ENGINE);
    const granularity: Granularity = oneOf('granularity', args.values['granularity'], GRANULARITIES, DEFAULT_V1_OPTIONS.granularity);
    const tokenizerValue = args.values['tokenizer'];
    if (tokenizerValue !== undefined && !isTokenizerName(tokenizerValue)) {
      throw new UsageError(`--tokenizer must be ${TOKENIZERS.join(', ')}, not "${tokenizerValue}"`);
    }
    const tokenizer: TokenizerName = tokenizerValue ?? DEFAULT_V1_OPTIONS.tokenizer;
    const include = args.lists['include'] ?? [];
    const exclude = args.lists['exclude'] ?? [];
    for (const [flag, globs] of [['include', include], ['exclude', exclude]] as const) {
      const problem = globListProblem(globs);
      if (problem !== null) throw new UsageError(`--${flag} ${problem}`);
    }
    const label = args.values['label'];
    if (label !== undefined && !isLabel(label)) throw new UsageError(`--label: ${LABEL_FORM}, not ${compact(label)}`);
    const force = args.flags['force'] === true;
    const createdAt = timestamp(io.env);
    // Progress only on a terminal: pipes, CI logs and scripts get stderr as before.
    const progress =
      io.stderrIsTTY === true
        ? new ProgressLine({ write: io.stderr, now: io.clock ?? (() => performance.now()), columns: io.stderrColumns })
        : null;
    const request: BuildRequest = {
      sources,
      cache,
      force,
      createdAt,
      engine,
      options: { granularity, tokenizer, include, exclude },
      ...(label === undefined ? {} : { label }),
      threads: availableParallelism(),
      // Never the working directory (or a folder holding it), nor the project root.
      protect: projectRoot === null ? [io.cwd] : [io.cwd, projectRoot],
      ...(projectRoot === null ? {} : { confine: [projectRoot] }),
    };
    if (projectRoot !== null && !isWithinRoots(sources, [projectRoot])) {
      throw new ContextError('root_not_allowed', 'the sources folder lies outside --project-root');
    }
    if (engine === 'v0') {
      const given = v1OptionsGiven({ granularity: args.values['granularity'] !== undefined, tokenizer: tokenizerValue !== undefined, include, exclude, label: label !== undefined });
      if (given.length > 0) throw new UsageError(`${needEngineV1(given.map((f) => `--${f}`))} --engine v1 (v0's cache format has no options)`);
    }
    let text: string;
    try {
      text = await runBuild(request, progress?.report);
    } finally {
      progress?.finish(); // erased before the result (or the error) is printed
    }
    io.stdout(text);
    const warning = emptyBuildWarning(engine, text);
    if (warning !== null) io.stderr(`context build: warning: ${warning}\n`);
    return 0;
  },
};
