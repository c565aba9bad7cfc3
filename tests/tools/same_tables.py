#!/usr/bin/env python3
"""same_tables.py A.db B.db: exits 1 (saying which table) unless the two
SQLite frontier files hold the same rows in every table. Used by the e2e
tests that compare two ways of doing the same work."""
import sqlite3
import sys


def dump(path):
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {t: db.execute("SELECT * FROM %s ORDER BY 1" % t).fetchall() for t in tables}


def main():
    a, b = dump(sys.argv[1]), dump(sys.argv[2])
    if a.keys() != b.keys():
        sys.exit("tables differ: %s against %s" % (sorted(a), sorted(b)))
    for t in a:
        if a[t] != b[t]:
            sys.exit("table %s differs (%d against %d rows)" % (t, len(a[t]), len(b[t])))


if __name__ == "__main__":
    main()
