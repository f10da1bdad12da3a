#!/usr/bin/env python3
"""The SQLite FTS5 baseline of bench/relevance/run.mjs: sections of Markdown ranked by bm25.

  fts5_sections.py CORPUS < queries.json > ranked.json

CORPUS is a folder of .md/.mdx/.markdown files. Every file is split at its ATX headings
(`#`..`######` lines, up to 3 spaces of indent, outside fenced code blocks) into sections:
a section is a heading line and the lines up to the next heading; the text before the
first heading is a section too (when it holds more than whitespace). Sections go into one
in-memory table fts5(body, tokenize='porter unicode61') in byte order of paths, then
position. stdin is a JSON list of queries; stdout is one JSON object:

  {"sections": [{"path": "dir/page.md", "text": "..."}, ...],
   "rankings": [[section index, ...] per query, best first]}

A query is the OR of its words (runs of letters and digits), each quoted so that nothing
in it is read as FTS5 syntax, as a search box would send it (FTS5's default is AND, which
answers few natural questions). Every matching section is listed, by bm25() and then by
section order. Packing into a token budget is the caller's (it owns the o200k counter).

Python's own sqlite3 module (FTS5 is compiled into the SQLite Debian ships); nothing to
install.
"""
import json
import os
import re
import sqlite3
import sys

EXTENSIONS = ('.md', '.mdx', '.markdown')
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
        for s in split_sections(text):
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
