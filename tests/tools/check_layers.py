#!/usr/bin/env python3
"""The lib/ layering rule (README, Layout): a folder includes only itself and
the folders listed before it; tools/ and lib/ outside lib/store include no
storage internals (the connection, a backend, Store's private pieces).
Prints each include that breaks this; exit 1 if any."""
import glob, os, re, sys

ORDER = ['core', 'json', 'web', 'net', 'policy', 'report', 'store', 'frontier', 'fetch']
root = sys.argv[1] if len(sys.argv) > 1 else '.'
bad = 0
files = glob.glob(os.path.join(root, 'lib/**/*.[ch]pp'), recursive=True)
for f in sorted(files):
    top = os.path.relpath(f, os.path.join(root, 'lib')).split(os.sep)[0]
    if top not in ORDER:
        print(f'{f}: folder lib/{top}/ is not in the layer order'); bad += 1; continue
    for n, line in enumerate(open(f, encoding='utf-8'), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        dep = m.group(1).split('/')[0]
        if '/' not in m.group(1):
            print(f'{f}:{n}: include "{m.group(1)}" names no folder'); bad += 1
        elif dep in ORDER and ORDER.index(dep) > ORDER.index(top):
            print(f'{f}:{n}: lib/{top}/ includes lib/{dep}/ (a later layer)'); bad += 1
# Tools and the rest of lib/ use the store's public headers (store.hpp,
# store_check.hpp, store_export.hpp, export_format.hpp), never the
# connection, a backend or the pieces Store's methods are made of. Unit
# tests may include them.
PRIVATE = ('store/db.hpp', 'store/store_impl.hpp', 'store/sqlite/', 'store/pg/',
           'store/store_backend.hpp', 'store/fetch_update_sql.hpp', 'store/check_tally.hpp', 'store/export_index.hpp',
           'store/insert_sql.hpp', 'store/lease_heads_sql.hpp', 'store/lease_run.hpp',
           'store/leases.hpp', 'store/queue_rows.hpp',
           'store/schema.hpp', 'store/settings_cache.hpp', 'store/sql_columns.hpp',
           'store/statements.hpp', 'store/store_connection.hpp', 'store/totals.hpp',
           'store/url_rows.hpp', 'store/url_update_columns.hpp')
users = glob.glob(os.path.join(root, 'tools/*.cpp')) + \
    [f for f in files if os.path.relpath(f, os.path.join(root, 'lib')).split(os.sep)[0] != 'store']
for f in sorted(users):
    for n, line in enumerate(open(f, encoding='utf-8'), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m and m.group(1).startswith(PRIVATE):
            print(f'{f}:{n}: includes the storage internals "{m.group(1)}"'); bad += 1
# PostgreSQL's tuning lives in lib/store/pg/: elsewhere in lib/store no
# array parameter, unnest, LATERAL join, `= ANY`, capability branch
# (round_trips(), lease_order_tables) or include of a lib/store/pg/ header.
# What differs between the backends is asked of them through an interface
# (lib/store/store_backend.hpp, lib/store/lease_order_storage.hpp).
PG_TOKENS = re.compile(r'round_trips\(\)|lease_order_tables|unnest\(|LATERAL|= ANY|PgArray')
for f in sorted(files):
    rel = os.path.relpath(f, root).replace(os.sep, '/')
    if not rel.startswith('lib/store/') or rel.startswith('lib/store/pg/'):
        continue
    for n, line in enumerate(open(f, encoding='utf-8'), 1):
        if re.match(r'\s*#\s*include\s+"store/pg/', line):
            print(f'{f}:{n}: includes a PostgreSQL header outside lib/store/pg/'); bad += 1
        elif PG_TOKENS.search(line):
            print(f'{f}:{n}: PostgreSQL tuning outside lib/store/pg/'); bad += 1
if not files:
    print('no sources found'); bad += 1
sys.exit(1 if bad else 0)
