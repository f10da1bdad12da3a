#!/usr/bin/env python3
"""The SQLite FTS5 baseline of bench/relevance/run.mjs: sections of documents ranked by bm25.

  fts5_sections.py CORPUS < queries.json > ranked.json

CORPUS is a folder of Markdown (.md/.mdx/.markdown), reStructuredText (.rst), AsciiDoc
(.adoc/.asciidoc) and HTML (.html/.htm) files; other files are not read. Every file is split into sections, a section
being a title and what follows it up to the next title; the text before the first title is
a section too (when it holds more than whitespace):

- Markdown: at its ATX headings (`#`..`######` lines, up to 3 spaces of indent, outside
  fenced code blocks). The section's text is the source's lines.
- reStructuredText: at its section titles, as simply as it goes: a line of text at column 0
  (after a blank line or the file's start) whose next line is a run of one punctuation
  character at least as long as the title (trailing spaces allowed), with the same run
  above it when it is overlined. Literal blocks and directive bodies are indented, so their
  lines are not titles; adornment levels are not told apart (every title splits). The
  section's text is the source's lines, markup and all, as our units print them.
- AsciiDoc: at its section titles, as simply as it goes: a line of 1 to 6 `=` (or `#`), a
  space and text; or a line of text after a blank line (or the file's start) whose next
  line is a run of one of `=`, `-`, `~`, `^`, `+` as long as the text within one character
  (a two-line title). Delimited blocks are not tracked. The section's text is the source's
  lines.
- HTML: the page less its `<script>`, `<style>`, `<title>`, `<template>`, `<textarea>`
  elements and comments, split before every `<h1>`..`<h6>` tag; a section's text is its
  visible text: tags made spaces, character references decoded, each line's runs of
  spaces made one, blank lines dropped. So navigation and sidebars stay in (as the
  engine's reader keeps them), but no markup is indexed or printed.

Sections go into one in-memory table fts5(body, tokenize='porter unicode61') in byte order
of paths, then position. stdin is a JSON list of queries; stdout is one JSON object:

  {"sections": [{"path": "dir/page.md", "text": "..."}, ...],
   "rankings": [[section index, ...] per query, best first]}

A query is the OR of its words (runs of letters and digits), each quoted so that nothing
in it is read as FTS5 syntax, as a search box would send it (FTS5's default is AND, which
answers few natural questions). Every matching section is listed, by bm25() and then by
section order. Packing into a token budget is the caller's (it owns the o200k counter).

Python's own sqlite3 module (FTS5 is compiled into the SQLite Debian ships); nothing to
install.
"""
import html
import json
import os
import re
import sqlite3
import sys

MARKDOWN = ('.md', '.mdx', '.markdown')
RST = ('.rst',)
ASCIIDOC = ('.adoc', '.asciidoc')
HTML = ('.html', '.htm')
EXTENSIONS = MARKDOWN + RST + ASCIIDOC + HTML
HEADING = re.compile(r'^ {0,3}#{1,6}(?:[ \t]|$)')
FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})(.*)$')


def files_of(root):
    out = []
    for d, _dirs, names in os.walk(root):
        for n in names:
            if n.lower().endswith(EXTENSIONS):
                out.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(out, key=lambda p: p.replace(os.sep, '/').encode('utf-8'))


def split_sections(text):
    """The file's sections, in order: split before every ATX heading outside a fence."""
    sections = []
    current = []
    fence = None  # (char, length) of the open fence, if any
    for line in text.splitlines(keepends=True):
        bare = line.rstrip('\r\n')
        m = FENCE.match(bare)
        if fence is None:
            if m and not (m.group(1)[0] == '`' and '`' in m.group(2)):
                fence = (m.group(1)[0], len(m.group(1)))
            elif HEADING.match(bare):
                sections.append(''.join(current))
                current = []
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= fence[1] and m.group(2).strip() == '':
            fence = None
        current.append(line)
    sections.append(''.join(current))
    return [s for s in sections if s.strip() != '']


ADORNMENT = re.compile(r'^([!-/:-@\[-`{-~])\1* *$')


def cut_at(lines, starts):
    """The lines cut before each of `starts` (line numbers, ascending), blank sections left out."""
    cuts = [0] + [s for s in starts if s > 0] + [len(lines)]
    sections = [''.join(lines[a:b]) for a, b in zip(cuts, cuts[1:])]
    return [s for s in sections if s.strip() != '']


def rst_sections(text):
    """reStructuredText sections: split before every (simply found) section title."""
    lines = text.splitlines(keepends=True)
    bare = [l.rstrip('\r\n') for l in lines]
    starts = []
    i = 0
    while i + 1 < len(bare):
        title = bare[i]
        under = bare[i + 1]
        if title.strip() != '' and not title[0].isspace() and not ADORNMENT.match(title) and ADORNMENT.match(under) \
                and len(under.rstrip()) >= len(title.rstrip()):
            over = i >= 1 and bare[i - 1].rstrip() == under.rstrip()
            start = i - 1 if over else i
            if start == 0 or bare[start - 1].strip() == '':
                starts.append(start)
                i += 2
                continue
        i += 1
    return cut_at(lines, starts)


ADOC_TITLE = re.compile(r'^(?:={1,6}|#{1,6})[ \t]+\S')
UNDERLINE = re.compile(r'^([=~^+-])\1*$')


def asciidoc_sections(text):
    """AsciiDoc sections: split before every (simply found) one- or two-line title."""
    lines = text.splitlines(keepends=True)
    bare = [l.rstrip('\r\n').rstrip(' \t') for l in lines]
    starts = []
    i = 0
    while i < len(bare):
        if ADOC_TITLE.match(bare[i]):
            starts.append(i)
        elif i + 1 < len(bare) and (i == 0 or bare[i - 1] == '') and bare[i] != '' and not bare[i].startswith('.') \
                and any(c.isalnum() for c in bare[i]) and UNDERLINE.match(bare[i + 1]) and abs(len(bare[i]) - len(bare[i + 1])) < 2:
            starts.append(i)
            i += 2
            continue
        i += 1
    return cut_at(lines, starts)


RAW_ELEMENTS = re.compile(r'<(script|style|title|template|textarea)\b.*?</\1\s*>', re.I | re.S)
COMMENT = re.compile(r'<!--.*?-->', re.S)
HEADING_TAG = re.compile(r'<h[1-6](?=[\s>/])', re.I)
TAG = re.compile(r'<[^>]*>')


def visible_text(fragment):
    text = html.unescape(TAG.sub(' ', fragment))
    lines = (' '.join(l.split()) for l in text.splitlines())
    return '\n'.join(l for l in lines if l != '')


def html_sections(text):
    """HTML sections: split before every <h1>..<h6> tag; each section as visible text."""
    page = COMMENT.sub(' ', RAW_ELEMENTS.sub(' ', text))
    cuts = [0] + [m.start() for m in HEADING_TAG.finditer(page) if m.start() > 0] + [len(page)]
    sections = [visible_text(page[a:b]) for a, b in zip(cuts, cuts[1:])]
    return [s for s in sections if s.strip() != '']


def sections_of(path, text):
    name = path.lower()
    if name.endswith(RST):
        return rst_sections(text)
    if name.endswith(ASCIIDOC):
        return asciidoc_sections(text)
    if name.endswith(HTML):
        return html_sections(text)
    return split_sections(text)


def match_expr(query):
    words = [w for w in ''.join(c if c.isalnum() else ' ' for c in query).split() if w]
    return ' OR '.join('"' + w + '"' for w in words) or '""'


def main():
    root = sys.argv[1]
    queries = json.load(sys.stdin)
    sections = []
    for rel in files_of(root):
        with open(os.path.join(root, rel), 'rb') as f:
            text = f.read().decode('utf-8', 'replace')
        path = rel.replace(os.sep, '/')
        for s in sections_of(path, text):
            sections.append({'path': path, 'text': s})
    con = sqlite3.connect(':memory:')
    con.execute("create virtual table docs using fts5(body, tokenize='porter unicode61')")
    with con:
        con.executemany('insert into docs(rowid, body) values (?, ?)', ((i, s['text']) for i, s in enumerate(sections)))
    rankings = []
    for q in queries:
        rows = con.execute('select rowid from docs where docs match ? order by bm25(docs), rowid', (match_expr(q),)).fetchall()
        rankings.append([r[0] for r in rows])
    con.close()
    json.dump({'sections': sections, 'rankings': rankings}, sys.stdout, ensure_ascii=False)


if __name__ == '__main__':
    main()
