// `npm run bench:relevance`: twelve dev sets (eleven of answers, one of ranking), and a SQLite FTS5 baseline beside our figures.
//
// 1. Answers (bench/relevance/devset2: 69 questions over the Node.js manual, the undici API
//    reference and the Next.js guides; bench/relevance/devset3: 67 questions over the Fastify
//    reference and guides, the npm CLI manual and Bun's runtime docs; bench/relevance/devset4:
//    50 questions over Flask's reStructuredText sources and pytest's Sphinx HTML pages, to
//    show relevance on formats other than Markdown; bench/relevance/devset5: 31 questions
//    over the Markdown date-fns, markdownlint and pino ship on npm, small sets beside a
//    large changelog or generated page; bench/relevance/devset6: 22 questions over Sphinx's
//    own manual as Sphinx 5.3 built it, HTML pages whose configuration values, options and
//    API are definition terms; bench/relevance/devset7: 24 questions over git's manual pages
//    as AsciiDoc, written with two-line titles; bench/relevance/devset8: 24 questions over
//    Rust by Example, an mdBook with its table of contents (SUMMARY.md); bench/relevance/devset9:
//    48 questions over Vitest's VitePress docs and SQLModel's mkdocs docs (FastAPI's style);
//    bench/relevance/devset10: 48 questions over Pydantic's and Material for MkDocs' own docs
//    (MkDocs Material sites: admonitions, content tabs, attribute lists after headings);
//    bench/relevance/devset11: 48 questions in Chinese and Japanese over Hexo's docs in those
//    languages (text without spaces between words); bench/relevance/devset12: 24 questions over
//    Valgrind's HTML manual as DocBook XSL wrote it (options as definition terms with anchors);
//    each question with its answering page and a
//    verbatim passage). Each question is asked as a user asks it,
//    `context resolve --cache C --query Q --budget B` with no other flag (B = 1000 and 2000),
//    through the very CLI code `bin/context` runs (its bundle, in this process, so the bytes
//    are the CLI's stdout). Per set and overall: the passage inside the answer, the right
//    page inside it, the right page first, the share of the answer's tokens that come from
//    wrong pages, the content share (the entries' `content` tokens over the whole printed
//    answer's tokens) and what the printed answer costs in o200k_base tokens. For three
//    builds (and, with --markdown, the default build's answers printed `--format markdown`
//    too, the rows `default md`): the default (`context build` without flags, whatever engine that is today),
//    `--engine v0`, and `--engine v1 --granularity section --tokenizer o200k_base`; and for
//    a SQLite FTS5 baseline (below). An entry's page is its `id` up to the first '#' (no
//    other field of an entry is read but `content`). Metric definitions:
//    bench/relevance/devset2/README.md. (v0 reads `.md` files only: its devset4 answers are
//    empty for that reason.)
//
//    FTS5 (fts5_sections.py, python3's own sqlite3): every file of the set split into
//    sections at its titles (Markdown: ATX headings outside fenced code; reStructuredText:
//    underlined, or over- and underlined, titles at column 0; AsciiDoc: `=` titles and
//    two-line titles; HTML: `<h1>`..`<h6>` tags,
//    each section's text being its visible text, without markup), the sections in one
//    fts5(body, tokenize='porter unicode61') table, ranked by bm25() for the OR of the
//    question's words, each quoted. Its answer is packed greedily in rank order into the
//    same budget: the printed answer is, per section, a line with the file's path then the
//    section's text (trailing whitespace trimmed), joined by blank lines, and that whole
//    text must fit the budget in o200k_base tokens; a section that does not fit is skipped
//    and the next ones are tried.
// 2. Ranking (bench/relevance/devset: 197 labelled queries over the aider, serena and
//    repomix docs): nDCG@10, MRR and Recall@5 per repository and overall, and for small
//    budgets the share of queries whose selection holds (a section of) a relevant file,
//    for the same three builds and v1 files / v1 sections (bytes4). Queries go through the
//    same engine code `context resolve` runs.
//
// Caches are built by the real CLI code (`bin/context build`, its bundle, in this process) into a temporary directory.
//
//   node bench/relevance/run.mjs [--per-query] [--json FILE] [--budget N] [--only answers|ranking] [--markdown]
//                                [--devset DIR]...
//
// --budget N asks the answers at N only (instead of 1000 and 2000).
// --devset DIR (repeatable) answers the questions of DIR instead of devset2-4, beside FTS5,
// and skips the ranking part: your own docs and questions, laid out as devset2 is
// (DIR/questions.jsonl, one {"qid", "set", "query", "page", "passage", "also"?} per line;
// DIR/corpus/SET/ the files of each set; bench/relevance/devset2/README.md, "Format").
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const require = createRequire(import.meta.url);
const { openEngine } = await import(join(repo, 'dist', 'core', 'engine', 'engine.js'));
const { resolveText } = await import(join(repo, 'dist', 'core', 'operations', 'api.js'));
const { CacheMemo } = await import(join(repo, 'dist', 'core', 'operations', 'memo.js'));
const { loadBundle } = await import(join(repo, 'bin', 'load-bundle.mjs'));
const { main } = loadBundle().exports;
const o200k = require('gpt-tokenizer/cjs/encoding/o200k_base');
const ORDINARY = { disallowedSpecial: new Set() };
const countO200k = (text) => (text === '' ? 0 : o200k.countTokens(text, ORDINARY));

const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const perQuery = args.includes('--per-query');
/** Also answer as Markdown (the `default md` rows): opt-in, so the whole run stays under ~35 s. */
const withMarkdown = args.includes('--markdown');
const jsonOut = flag('--json');
const only = flag('--only');
const ANSWER_BUDGETS = flag('--budget') === undefined ? [1000, 2000] : [Number(flag('--budget'))];
/** Folders given with --devset, by the name the tables show (the folder's own name). */
const OWN_DEVSETS = new Map(args.flatMap((a, i) => (a === '--devset' && args[i + 1] !== undefined ? [[basename(resolve(args[i + 1])), resolve(args[i + 1])]] : [])));
const DEVSETS = OWN_DEVSETS.size > 0 ? [...OWN_DEVSETS.keys()] : ['devset2', 'devset3', 'devset4', 'devset5', 'devset6', 'devset7', 'devset8', 'devset9', 'devset10', 'devset11', 'devset12'];
/** The Markdown dev sets, added up in the side-by-side table's `md 2+3` rows (devset4's own `all` rows stand beside them). */
const MARKDOWN_DEVSETS = OWN_DEVSETS.size > 0 ? [] : ['devset2', 'devset3'];
/** A dev set's folder: bench/relevance/NAME, or the folder given with --devset. */
const devsetDir = (devset) => OWN_DEVSETS.get(devset) ?? join(here, devset);
const COMBINED = 'md 2+3';
/** The set column's width in the answers tables (devset4's set names are longer than 8). */
const SET_WIDTH = 11;
const BUDGETS = [2000, 4000];
const HUGE = Number.MAX_SAFE_INTEGER;

/** The builds compared. `default` passes no flag at all: it is whatever `context build` writes. */
const BUILDS = [
  { name: 'default', args: [] },
  { name: 'v0', args: ['--engine', 'v0'] },
  { name: 'v1 sec o200k', args: ['--engine', 'v1', '--granularity', 'section', '--tokenizer', 'o200k_base'] },
];
const RANKING_EXTRA = [
  { name: 'v1 file', args: ['--engine', 'v1', '--granularity', 'file', '--tokenizer', 'bytes4'] },
  { name: 'v1 section', args: ['--engine', 'v1', '--granularity', 'section', '--tokenizer', 'bytes4'] },
];

const work = mkdtempSync(join(tmpdir(), 'context-relevance-'));
/** Builds `corpus` with the real CLI code (the bundle `bin/context` runs, in this process: no process start per build). */
async function build(system, corpus, name) {
  const cache = join(work, `${system.name.replaceAll(' ', '-')}-${name}`);
  let err = '';
  const io = { stdout: () => {}, stderr: (s) => (err += s), env: { SOURCE_DATE_EPOCH: '0' }, cwd: repo };
  const code = await main(['build', '--sources', corpus, '--cache', cache, ...system.args], io);
  if (code !== 0) throw new Error(`build ${system.name} ${name} failed: ${err}`);
  return cache;
}

/** What the manifest says the build is (so "default" is named for what it was on this run). */
function describe(cache) {
  const m = JSON.parse(readFileSync(join(cache, 'manifest.json'), 'utf8'));
  const c = m.build_config ?? {};
  const engine = c.engine ?? (String(c.version ?? '') === '1' || c.version === undefined ? 'v0' : `format ${c.version}`);
  const sections = c.sections === undefined ? undefined : `sections ${JSON.stringify(c.sections)}`;
  return [engine, c.granularity, c.tokenizer, sections].filter((x) => x !== undefined).join(' ');
}

/** `context resolve` as a user types it: the CLI's own code, its stdout bytes. */
async function resolveMain(cache, query, budget, extra = []) {
  let out = '';
  let err = '';
  const io = { stdout: (s) => (out += s), stderr: (s) => (err += s), env: {}, cwd: repo };
  const code = await main(['resolve', '--cache', cache, '--query', query, '--budget', String(budget), ...extra], io);
  if (code !== 0) throw new Error(`resolve failed (${code}): ${err}`);
  return out;
}

// The same bytes from a cache loaded once (the MCP server's path: its text is the CLI's stdout,
// spec-tests/mcp), so that the bench does not reload a cache for each of its ~2,000 answers;
// the first answer of each cache and format is also asked of the CLI and must be identical.
const memo = new CacheMemo(2);
const checkedAgainstCli = new Set();
async function resolveCli(cache, query, budget, extra = []) {
  const format = extra[0] === '--format' ? extra[1] : 'json';
  const text = resolveText(cache, query, budget, format, memo);
  const key = `${cache}\0${format}`;
  if (!checkedAgainstCli.has(key)) {
    checkedAgainstCli.add(key);
    if ((await resolveMain(cache, query, budget, extra)) !== text) throw new Error(`${cache}: the loaded cache's answer differs from the CLI's for ${JSON.stringify(query)}`);
  }
  return text;
}

/**
 * The entries of a `--format markdown` answer (docs/engine.md "Three printed forms"): each a
 * header line `[RANK] ID @VERSION …` (ranks 1, 2, … in turn) and its content, up to the blank
 * line before the next header or the closing line.
 */
function markdownEntries(text) {
  const lines = text.split('\n');
  const entries = [];
  let current = null;
  for (const line of lines) {
    const m = /^\[(\d+)\] (\S+) @[0-9a-f]+(?: \| .*)?$/.exec(line);
    if (m !== null && Number(m[1]) === entries.length + 1) {
      current = { id: m[2], lines: [] };
      entries.push(current);
    } else if (current !== null) current.lines.push(line);
  }
  // Each entry's lines end with the blank line before the next header; the last one's with
  // the blank line and the closing line.
  return entries.map((e, k) => {
    const body = e.lines.slice(0, k === entries.length - 1 ? e.lines.length - 3 : e.lines.length - 1);
    return { id: e.id, content: body.length === 0 ? '' : `${body.join('\n')}\n` };
  });
}

const norm = (s) => s.replace(/\s+/gu, ' ').trim();
/**
 * A selected entry's page: its `id` up to the first '#', lowercased (v0 ids are lowercased
 * paths; v1 ids are `path#slug`). No other field of an entry is read but `content`.
 */
const fileOf = (doc) => String(doc.id).split('#')[0].toLowerCase();

// ---------------------------------------------------------------- 1. answers (devset2 … devset12)

const FTS5 = 'fts5';
/** The default build's answers printed with `--format markdown` (rows of the full table, not of the side by side). */
const MARKDOWN = 'default md';
const FTS5_SCRIPT = join(here, 'fts5_sections.py');

/**
 * The FTS5 baseline's ranking of sections for each question of one set, in one python3
 * process: `{ sections: [{ path, text }], rankings: [[index, ...] per question] }`.
 */
function fts5Rankings(corpus, queries) {
  // Started as the set's other work begins, on a process of its own (a second core works meanwhile).
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [FTS5_SCRIPT, corpus], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`fts5_sections.py ${corpus} failed: ${Buffer.concat(err).toString('utf8')}`));
      const parsed = JSON.parse(Buffer.concat(out).toString('utf8'));
      // The printed form's text: trailing whitespace trimmed so that the join is one blank line.
      for (const s of parsed.sections) s.text = s.text.replace(/\s+$/u, '');
      resolve(parsed);
    });
    child.stdin.end(JSON.stringify(queries));
  });
}

/** A join may merge or split a token or two at the seam; pieces further over are not recounted. */
const SEAM_SLACK = 4;

/**
 * FTS5's answer at `budget`: sections taken greedily in rank order while the whole printed
 * text (per section `path\ntext`, joined by blank lines) fits in `budget` o200k tokens.
 * `pieceTokens` caches each section's own printed count (a lower bound's stand-in: a piece
 * more than SEAM_SLACK tokens over the room left cannot fit, so it is skipped uncounted).
 */
function packFts5(sections, ranking, budget, pieceTokens) {
  const chosen = [];
  let printed = '';
  let used = 0;
  for (const i of ranking) {
    const piece = `${sections[i].path}\n${sections[i].text}`;
    if (!pieceTokens.has(i)) pieceTokens.set(i, countO200k(piece));
    if (used + pieceTokens.get(i) > budget + SEAM_SLACK) continue;
    const next = printed === '' ? piece : `${printed}\n\n${piece}`;
    const n = countO200k(next);
    if (n > budget) continue;
    chosen.push(i);
    printed = next;
    used = n;
  }
  return { chosen, printed };
}

/**
 * The metrics of one answer: `entries` in answer order ({ page (lowercased), content }),
 * `printed` the whole printed text, `full` the unbudgeted ranking's entries (for the
 * diagnostics), `lastRank` where the answer's last entry ranks in `full` (-1: unknown).
 */
function score(q, entries, printed, full, lastRank) {
  const right = new Set([q.page, ...(q.also ?? [])].map((p) => p.toLowerCase()));
  const passage = norm(q.passage);
  const onPage = entries.filter((d) => right.has(d.page));
  const inUnit = entries.some((d) => norm(d.content).includes(passage));
  // A passage cut across two selected units of its page still counts, read in the
  // answer's order.
  const inJoin = onPage.length > 1 && norm(onPage.map((d) => d.content).join('\n')).includes(passage);
  let total = 0;
  let wrong = 0;
  for (const d of entries) {
    const n = countO200k(d.content);
    total += n;
    if (!right.has(d.page)) wrong += n;
  }
  // Diagnostics from the unbudgeted ranking: where the entry holding the passage ranks, and
  // whether the budget cut it (it ranks above the answer's last entry, or the answer is
  // empty, and it is not in the answer).
  const passageRank = full.findIndex((d) => right.has(d.page) && norm(d.content).includes(passage));
  const found = inUnit || inJoin;
  const printedTokens = countO200k(printed);
  return {
    passage: found ? 1 : 0,
    top3: passageRank >= 0 && passageRank < 3 ? 1 : 0,
    cut: !found && passageRank >= 0 && (entries.length === 0 || passageRank < (lastRank < 0 ? entries.length : lastRank)) ? 1 : 0,
    page: onPage.length > 0 ? 1 : 0,
    first: entries.length > 0 && right.has(entries[0].page) ? 1 : 0,
    wrong: total > 0 ? wrong / total : null,
    empty: entries.length === 0 ? 1 : 0,
    printed: printedTokens,
    content: total,
    content_share: printedTokens > 0 ? total / printedTokens : null,
    passage_rank: passageRank,
  };
}

/** One dev set: every build and FTS5, at every answer budget. Rows per system, budget, set. */
async function answersOf(devset) {
  const dir = devsetDir(devset);
  const questions = readFileSync(join(dir, 'questions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const sets = [...new Set(questions.map((q) => q.set))];
  const scores = [];
  const described = {};
  const fts5 = new Map(sets.map((set) => [set, fts5Rankings(join(dir, 'corpus', set), questions.filter((x) => x.set === set).map((q) => q.query))]));
  // A failure is reported where the result is awaited, below, not as an unhandled rejection.
  for (const pending of fts5.values()) pending.catch(() => {});
  for (const system of BUILDS) {
    for (const set of sets) {
      let cache;
      try {
        cache = await build(system, join(dir, 'corpus', set), `ans-${devset}-${set}`);
      } catch (err) {
        // A comparison build that refuses a user's docs (v0 rejects two files of the same
        // content: its spec names documents by their hash) leaves its rows out; the default
        // build failing is the run failing.
        if (system === BUILDS[0]) throw err;
        console.error(`note: ${devset} ${set}: the ${system.name} build failed, its rows are left out (${String(err.message).trim()})`);
        continue;
      }
      described[system.name] = describe(cache);
      const engine = openEngine(cache);
      for (const q of questions.filter((x) => x.set === set)) {
        const full = engine.resolve(q.query, HUGE).documents.map((d) => ({ id: d.id, page: fileOf(d), content: String(d.content) }));
        for (const budget of ANSWER_BUDGETS) {
          const printed = await resolveCli(cache, q.query, budget);
          const docs = JSON.parse(printed).documents;
          const entries = docs.map((d) => ({ page: fileOf(d), content: String(d.content) }));
          const lastRank = docs.length === 0 ? -1 : full.findIndex((d) => d.id === docs[docs.length - 1].id);
          const s = score(q, entries, printed, full, lastRank);
          scores.push({ system: system.name, budget, set, qid: q.qid, ...s, query: q.query, expected_page: q.page, top: docs.slice(0, 3).map((d) => String(d.id)) });
          if (withMarkdown && system === BUILDS[0]) {
            // The same build and question, answered as Markdown (`--format markdown`).
            const text = await resolveCli(cache, q.query, budget, ['--format', 'markdown']);
            const md = markdownEntries(text);
            const mdEntries = md.map((d) => ({ page: fileOf(d), content: d.content }));
            const mdLast = md.length === 0 ? -1 : full.findIndex((d) => d.id === md[md.length - 1].id);
            scores.push({ system: MARKDOWN, budget, set, qid: q.qid, ...score(q, mdEntries, text, full, mdLast), query: q.query, expected_page: q.page, top: md.slice(0, 3).map((d) => d.id) });
          }
        }
      }
      engine.close();
    }
  }
  described[FTS5] = 'SQLite FTS5 sections (Markdown ATX headings, rST titles, AsciiDoc titles, HTML h1-h6 as visible text), bm25, OR of the words, greedy packing';
  for (const set of sets) {
    const qs = questions.filter((x) => x.set === set);
    const { sections, rankings } = await fts5.get(set);
    const pieceTokens = new Map();
    qs.forEach((q, k) => {
      const full = rankings[k].map((i) => ({ page: sections[i].path.toLowerCase(), content: sections[i].text }));
      for (const budget of ANSWER_BUDGETS) {
        const { chosen, printed } = packFts5(sections, rankings[k], budget, pieceTokens);
        const entries = chosen.map((i) => ({ page: sections[i].path.toLowerCase(), content: sections[i].text }));
        const lastRank = chosen.length === 0 ? -1 : rankings[k].indexOf(chosen[chosen.length - 1]);
        const s = score(q, entries, printed, full, lastRank);
        scores.push({ system: FTS5, budget, set, qid: q.qid, ...s, query: q.query, expected_page: q.page, top: chosen.slice(0, 3).map((i) => sections[i].path) });
      }
    });
  }
  return { devset, sets, questions: questions.length, described, scores };
}

/** Totals over `xs` (the scores of one system, budget and set, or of all sets). */
function summarize(xs) {
  const sum = (k) => xs.reduce((a, x) => a + x[k], 0);
  const mean = (k) => {
    const ys = xs.filter((x) => x[k] !== null);
    return ys.length === 0 ? null : ys.reduce((a, x) => a + x[k], 0) / ys.length;
  };
  return {
    questions: xs.length,
    passage: sum('passage'),
    page: sum('page'),
    first: sum('first'),
    wrong_share: mean('wrong'),
    content_share: mean('content_share'),
    empty: sum('empty'),
    passage_top3_unbudgeted: sum('top3'),
    passage_cut_by_budget: sum('cut'),
    printed_mean: sum('printed') / xs.length,
    printed_max: Math.max(...xs.map((x) => x.printed)),
  };
}

const SYSTEMS = [BUILDS[0].name, ...(withMarkdown ? [MARKDOWN] : []), ...BUILDS.slice(1).map((b) => b.name), FTS5];
const pct = (n, d) => `${String(n).padStart(3)}/${String(d).padEnd(3)} ${((100 * n) / d).toFixed(0).padStart(3)}%`;
const share = (x) => (x === null ? '  -  ' : x.toFixed(3));

async function answers() {
  const results = [];
  for (const devset of DEVSETS) results.push(await answersOf(devset));
  const rows = [];
  for (const { devset, sets, scores } of results) {
    for (const system of SYSTEMS) {
      for (const budget of ANSWER_BUDGETS) {
        for (const set of [...sets, 'all']) {
          const xs = scores.filter((s) => s.system === system && s.budget === budget && (set === 'all' || s.set === set));
          rows.push({ devset, system, budget, set, ...summarize(xs) });
        }
      }
    }
  }
  // The Markdown dev sets together, for the side-by-side table (as before devset4 came).
  const everything = results.flatMap((r) => r.scores);
  const markdown = results.filter((r) => MARKDOWN_DEVSETS.includes(r.devset)).flatMap((r) => r.scores);
  if (markdown.length > 0) {
    for (const system of SYSTEMS) {
      for (const budget of ANSWER_BUDGETS) {
        rows.push({ devset: COMBINED, system, budget, set: 'all', ...summarize(markdown.filter((s) => s.system === system && s.budget === budget)) });
      }
    }
  }
  if (perQuery) {
    for (const s of [...everything].sort((a, b) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0) || SYSTEMS.indexOf(a.system) - SYSTEMS.indexOf(b.system) || a.budget - b.budget)) {
      console.log(JSON.stringify(s));
    }
  }

  // The full table: every system, per dev set and budget.
  for (const { devset, sets, questions, described } of results) {
    console.log(`Answers: ${OWN_DEVSETS.get(devset) ?? `bench/relevance/${devset}`} (${questions} questions: ${sets.join(', ')}), \`context resolve --budget B\` (no other flag) and FTS5 at the same B`);
    for (const b of BUILDS) console.log(`  ${b.name.padEnd(13)} = context build ${b.args.join(' ') || '(no flags)'}: ${described[b.name]}`);
    if (withMarkdown) console.log(`  ${MARKDOWN.padEnd(13)} = the default build, answered with \`context resolve --budget B --format markdown\``);
    console.log(`  ${FTS5.padEnd(13)} = ${described[FTS5]}`);
    console.log('build         budget ' + 'set'.padEnd(SET_WIDTH) + ' passage in answer  right page in it   right page first   wrong-page tokens  content share  empty  printed o200k mean/max  | passage top-3 unbudgeted  cut by budget');
    for (const r of rows.filter((x) => x.devset === devset)) {
      console.log(
        `${r.system.padEnd(13)} ${String(r.budget).padStart(6)} ${r.set.padEnd(SET_WIDTH)} ${pct(r.passage, r.questions)}      ${pct(r.page, r.questions)}     ${pct(r.first, r.questions)}     ${share(r.wrong_share)}              ${share(r.content_share)}          ${String(r.empty).padStart(3)}    ${r.printed_mean.toFixed(0).padStart(5)} / ${String(r.printed_max).padStart(5)}      | ${pct(r.passage_top3_unbudgeted, r.questions)}              ${String(r.passage_cut_by_budget).padStart(3)}`,
      );
    }
    console.log('');
  }
  console.log('wrong-page tokens: mean over non-empty answers of the share of o200k tokens in selected entries from other pages.');
  console.log('content share: mean over answers of (o200k tokens of the entries\' contents) / (o200k tokens of the whole printed answer).');
  console.log('printed: o200k tokens of the whole stdout (FTS5: of its printed sections). Diagnostics (not user-facing): the entry holding');
  console.log('the passage in the top 3 of the unbudgeted ranking; cut by budget: that entry ranks above the answer\'s last entry (or the');
  console.log('answer is empty) and is not in it.');
  console.log('');

  // Side by side: ours (the default build) and FTS5, per dev set, set and budget.
  const ours = BUILDS[0].name;
  console.log(`Side by side: ours (\`context build\` default, \`context resolve --budget B\`) vs SQLite FTS5 sections packed into B`);
  console.log('devset   ' + 'set'.padEnd(SET_WIDTH) + ' budget | passage in answer          | right page in it           | right page first           | wrong-page tokens | content share  | printed o200k mean');
  console.log(' '.repeat(SET_WIDTH + 16) + ' | ours          fts5         | ours          fts5         | ours          fts5         | ours    fts5      | ours   fts5    | ours   fts5');
  const keyOf = (r) => `${r.devset}\n${r.set}\n${r.budget}`;
  const groups = [];
  for (const r of rows) if (r.system === ours && !groups.includes(keyOf(r))) groups.push(keyOf(r));
  const order = (k) => {
    const [devset, set, budget] = k.split('\n');
    const d = devset === COMBINED ? DEVSETS.indexOf(MARKDOWN_DEVSETS.at(-1)) + 0.5 : DEVSETS.indexOf(devset);
    const sets = devset === COMBINED ? ['all'] : [...results[d].sets, 'all'];
    return [d, sets.indexOf(set), Number(budget)];
  };
  groups.sort((a, b) => {
    const x = order(a);
    const y = order(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  const cell = (n, d) => `${String(n).padStart(3)}/${String(d).padEnd(3)} ${((100 * n) / d).toFixed(0).padStart(3)}%`;
  for (const k of groups) {
    const o = rows.find((r) => r.system === ours && keyOf(r) === k);
    const f = rows.find((r) => r.system === FTS5 && keyOf(r) === k);
    console.log(
      `${o.devset.padEnd(8)} ${o.set.padEnd(SET_WIDTH)} ${String(o.budget).padStart(6)} | ${cell(o.passage, o.questions)}  ${cell(f.passage, f.questions)} | ${cell(o.page, o.questions)}  ${cell(f.page, f.questions)} | ${cell(o.first, o.questions)}  ${cell(f.first, f.questions)} | ${share(o.wrong_share)}   ${share(f.wrong_share)}     | ${share(o.content_share)}  ${share(f.content_share)}   | ${o.printed_mean.toFixed(0).padStart(4)}   ${f.printed_mean.toFixed(0).padStart(4)}`,
    );
  }
  console.log('');
  return { budgets: ANSWER_BUDGETS, builds: Object.fromEntries(results.map((r) => [r.devset, r.described])), rows };
}

// ---------------------------------------------------------------- 2. ranking (devset)

function metrics(ranked, relevant) {
  const rel = new Set(relevant);
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (rel.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(10, rel.size); i++) idcg += 1 / Math.log2(i + 2);
  const first = ranked.findIndex((id) => rel.has(id));
  return {
    ndcg: dcg / idcg,
    mrr: first < 0 ? 0 : 1 / (first + 1),
    r5: ranked.slice(0, 5).filter((id) => rel.has(id)).length / rel.size,
  };
}

async function ranking() {
  const devset = join(here, 'devset');
  const queries = readFileSync(join(devset, 'queries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const repos = [...new Set(queries.map((q) => q.repo))];
  const rows = [];
  const perQueryRows = [];
  for (const system of [...BUILDS, ...RANKING_EXTRA]) {
    const scores = [];
    for (const name of repos) {
      const engine = openEngine(await build(system, join(devset, 'corpus', name), `rank-${name}`));
      for (const q of queries.filter((x) => x.repo === name)) {
        const full = engine.resolve(q.query, HUGE);
        const files = [];
        for (const d of full.documents) {
          const f = fileOf(d);
          if (!files.includes(f)) files.push(f);
        }
        const m = metrics(files, q.relevant);
        for (const b of BUDGETS) {
          const small = engine.resolve(q.query, b);
          m[`hit${b}`] = small.documents.some((d) => q.relevant.includes(fileOf(d))) ? 1 : 0;
        }
        scores.push({ repo: name, qid: q.qid, ...m });
        if (perQuery) perQueryRows.push({ system: system.name, qid: q.qid, query: q.query, top: files.slice(0, 3), relevant: q.relevant, ...m });
      }
      engine.close();
    }
    for (const set of [...repos, 'all']) {
      const xs = set === 'all' ? scores : scores.filter((s) => s.repo === set);
      const mean = (k) => xs.reduce((s, x) => s + x[k], 0) / xs.length;
      rows.push({ system: system.name, set, queries: xs.length, ndcg10: mean('ndcg'), mrr: mean('mrr'), recall5: mean('r5'), ...Object.fromEntries(BUDGETS.map((b) => [`hit@${b}`, mean(`hit${b}`)])) });
    }
  }
  if (perQuery) for (const r of perQueryRows) console.log(JSON.stringify(r));
  const f = (x) => x.toFixed(3);
  console.log('Ranking: bench/relevance/devset (197 queries, whole-file labels)');
  console.log('system        set      queries  nDCG@10  MRR    Recall@5  hit@2000  hit@4000');
  for (const r of rows) {
    console.log(
      `${r.system.padEnd(13)} ${r.set.padEnd(8)} ${String(r.queries).padStart(7)}  ${f(r.ndcg10)}    ${f(r.mrr)}  ${f(r.recall5)}     ${f(r['hit@2000'])}     ${f(r['hit@4000'])}`,
    );
  }
  console.log('hit@B: share of queries whose B-token selection holds a relevant file (sections: a section of one).');
  console.log('Baselines in the dev set README: v0 nDCG@10 0.416; BM25 (minisearch, content + path) 0.810.');
  return rows;
}

try {
  const out = {};
  if (only !== 'ranking') out.answers = await answers();
  if (only !== 'answers' && OWN_DEVSETS.size === 0) out.ranking = await ranking();
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(out, null, 2) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
