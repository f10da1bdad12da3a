// A corpus that looks like real documentation, for `npm run bench` (bench/real.mjs): COUNT
// Markdown files (~9.5 KB each, ~95 MB for 10,000) composed from the blocks of the real docs
// this repository ships (the relevance dev set's aider, serena and repomix pages, the
// project's own README and docs): prose, lists, tables, code fences and headings as people
// write them, em dashes, curly quotes and emoji included. Real pages repeat a few thousand
// words; real doc trees hold 100k+ distinct terms (names, identifiers, other languages), so
// one word in eight of the prose is swapped for a word of a generated lexicon drawn with a
// Zipf-like (log-uniform) law: 4 in 5 of its words are ASCII, the rest carry accents,
// Cyrillic, Greek or CJK. One file in seven is kept pure ASCII, as in real trees (the
// measured trees had 86 % of their bytes in files holding a non-ASCII byte).
//
// Deterministic: the pool is read in byte order of its paths, and every choice comes from a
// seeded generator, so every machine benchmarks the same bytes for the same pool.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { rng } from './corpus.mjs';

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Every *.md under `dir`, in byte order of their relative paths. */
function markdownFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md') || e.name.endsWith('.mdx')) out.push(p);
    }
  };
  walk(dir);
  return out.sort((a, b) => cmp(relative(dir, a), relative(dir, b)));
}

/** The real pages the corpus is made of: the repository's own Markdown (no node_modules, no generated trees). */
export function poolFiles(repo) {
  const roots = ['bench/relevance', 'docs'].map((r) => join(repo, r)).filter(existsSync);
  return [join(repo, 'README.md'), ...roots.flatMap(markdownFiles)];
}

/** Splits a page into blocks: whole code fences, tables, lists and paragraphs, and headings alone. */
export function blocksOf(text) {
  const blocks = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let current = [];
  let kind = 'prose';
  const flush = () => {
    if (current.length > 0 && current.some((l) => l.trim() !== '')) blocks.push({ kind, text: current.join('\n') });
    current = [];
    kind = 'prose';
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```+|~~~+)/.exec(line);
    if (fence) {
      flush();
      const close = fence[1];
      const body = [line];
      for (i++; i < lines.length; i++) {
        body.push(lines[i]);
        if (lines[i].trim().startsWith(close)) break;
      }
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (/^#{1,6}\s/.test(line)) {
      flush();
      blocks.push({ kind: 'heading', text: line });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (current.length === 0 && line.trimStart().startsWith('|')) kind = 'table';
    current.push(line);
  }
  flush();
  return blocks;
}

const ASCII_SYLLABLES = 'ka ro mi ten sul var dex pon lin gra bel tor qui zen fa lo nu shi wex by cor ant mel dri vo pla sen tic ul ham'.split(' ');
const ACCENTED = 'é è ü ö ñ ç ß ø å ï ô'.split(' ');
const CYRILLIC = 'ка ро ми те су ва де по ли гра'.split(' ');
const GREEK = 'κα ρο μι τε συ βα δε πο λι γρα'.split(' ');
const CJK = '数据缓存查询文档索引版本服务配置错误日志'.split('');

/** Word k of the generated lexicon: deterministic, 4 in 5 ASCII. */
export function lexiconWord(k) {
  const syl = (n) => ASCII_SYLLABLES[n % ASCII_SYLLABLES.length];
  const base = syl(k) + syl(Math.floor(k / 31)) + (k >= 961 ? syl(Math.floor(k / 961)) : '') + (k >= 29791 ? syl(Math.floor(k / 29791)) : '');
  switch (k % 10) {
    case 3: return base + ACCENTED[k % ACCENTED.length] + syl(k >> 3);
    case 6: return CYRILLIC[k % CYRILLIC.length] + CYRILLIC[(k >> 2) % CYRILLIC.length] + CYRILLIC[(k >> 5) % CYRILLIC.length] + (k % 7);
    case 8: return k % 3 === 0 ? CJK[k % CJK.length] + CJK[(k >> 3) % CJK.length] + CJK[(k >> 7) % CJK.length] : GREEK[k % GREEK.length] + GREEK[(k >> 4) % GREEK.length] + GREEK[(k >> 6) % GREEK.length];
    default: return base;
  }
}

const LEXICON = 400_000;
const isAsciiText = (s) => !/[^\x00-\x7f]/.test(s);

/** Writes the corpus into `dir` (kept when already complete for the same parameters); returns `dir`. */
export function generateRealCorpus(dir, repo, count = 10_000) {
  const pool = poolFiles(repo);
  const blocks = pool.flatMap((f) => blocksOf(readFileSync(f, 'utf8')));
  const asciiBlocks = blocks.filter((b) => isAsciiText(b.text));
  const signature = `${count}:${blocks.length}:${blocks.reduce((n, b) => n + b.text.length, 0)}`;
  const stamp = join(dir, '.complete');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === signature) return dir;
  const r = rng(7);
  const next = () => r.next().value;
  const unit = () => next() / 2 ** 32;
  const word = (ascii) => {
    for (;;) {
      const k = Math.floor(Math.exp(unit() * Math.log(LEXICON))) - 1;
      const w = lexiconWord(k);
      if (!ascii || isAsciiText(w)) return w;
    }
  };
  const mutate = (text, ascii) =>
    text
      .split('\n')
      .map((line) => line.split(' ').map((w) => (/^[A-Za-z]{3,}[.,;:]?$/.test(w) && next() % 8 === 0 ? word(ascii) + w.replace(/^[A-Za-z]+/, '') : w)).join(' '))
      .join('\n');
  for (let i = 0; i < count; i++) {
    const ascii = i % 7 === 0;
    const from = ascii ? asciiBlocks : blocks;
    const folder = join(dir, `guide-${String(i % 40).padStart(2, '0')}`, `part-${String(Math.floor(i / 40) % 25).padStart(2, '0')}`);
    if (i < 1000) mkdirSync(folder, { recursive: true });
    const target = 1_500 + (next() % 12_500);
    const parts = [`# ${word(ascii)} ${word(ascii)} ${word(ascii)}\n`];
    let size = parts[0].length;
    while (size < target) {
      const b = from[next() % from.length];
      const text = b.kind === 'prose' || b.kind === 'heading' ? mutate(b.text, ascii) : b.text;
      parts.push(text);
      size += text.length + 2;
    }
    writeFileSync(join(folder, `${lexiconWord(i * 7 + 1).replace(/[^a-z]/g, 'x')}-${String(i).padStart(5, '0')}.md`), parts.join('\n\n') + '\n');
  }
  writeFileSync(stamp, signature);
  return dir;
}
