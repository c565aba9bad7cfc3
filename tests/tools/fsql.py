"""query(db, sql): rows of SQL on a frontier, a SQLite file or a
postgresql:// database (through psql; integers come back as int, NULL as
None), for the e2e tests that inspect the frontier's tables."""
import sqlite3
import subprocess


def query(db, sql):
    if not db.startswith(("postgres://", "postgresql://")):
        return sqlite3.connect(db).execute(sql).fetchall()
    out = subprocess.run(["psql", "-qXAt", "-F", "\t", "-v", "ON_ERROR_STOP=1", db, "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    conv = lambda s: None if s == "" else int(s) if s.lstrip("-").isdigit() else s
    return [tuple(conv(v) for v in line.split("\t")) for line in out.splitlines()]
