#!/usr/bin/env python3
"""The side-by-side baseline of bench/real.mjs: SQLite FTS5 over the same Markdown files.

  fts5.py build DB CORPUS      one table fts5(path, body, tokenize='porter unicode61'), every
                               *.md/*.mdx inserted in one transaction, in byte order of paths
  fts5.py query DB QUERY       one query (a cold process): bm25 order, top 10 paths
  fts5.py warm DB              queries from stdin, one per line, in one process: prints
                               {"p50_ms": ..., "n": ...} (each query timed alone)

Python's own sqlite3 module (the FTS5 extension is compiled into the SQLite it ships with
on Debian); nothing to install. A query is the OR of its words, each quoted, as a search
box would send it (FTS5's default is AND, which answers few natural questions).
"""
import json
import os
import sqlite3
import sys
import time


def files_of(root):
    out = []
    for d, dirs, names in os.walk(root):
        for n in names:
            if n.endswith('.md') or n.endswith('.mdx'):
                out.append(os.path.join(d, n))
    return sorted(out, key=lambda p: os.path.relpath(p, root).encode('utf-8'))


def build(db, root):
    if os.path.exists(db):
        os.remove(db)
    con = sqlite3.connect(db)
    con.execute("create virtual table docs using fts5(path, body, tokenize='porter unicode61')")
    with con:
        for p in files_of(root):
            with open(p, 'rb') as f:
                body = f.read().decode('utf-8', 'replace')
            con.execute('insert into docs(path, body) values (?, ?)', (os.path.relpath(p, root), body))
    con.close()


def match_expr(query):
    words = [w for w in ''.join(c if c.isalnum() else ' ' for c in query).split() if w]
    return ' OR '.join('"' + w.replace('"', '') + '"' for w in words) or '""'


def run_query(con, query):
    return con.execute('select path from docs where docs match ? order by bm25(docs) limit 10', (match_expr(query),)).fetchall()


def main():
    cmd, db = sys.argv[1], sys.argv[2]
    if cmd == 'build':
        build(db, sys.argv[3])
    elif cmd == 'query':
        con = sqlite3.connect(db)
        print(len(run_query(con, sys.argv[3])))
    elif cmd == 'warm':
        con = sqlite3.connect(db)
        run_query(con, 'warm up the page cache')
        times = []
        for line in sys.stdin.read().splitlines():
            if line.strip():
                t0 = time.perf_counter()
                run_query(con, line)
                times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(json.dumps({'p50_ms': times[len(times) // 2], 'n': len(times)}))
    else:
        sys.exit('usage: fts5.py build|query|warm DB ...')


if __name__ == '__main__':
    main()
