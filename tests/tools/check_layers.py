#!/usr/bin/env python3
"""The lib/ layering rule (README, Layout): a folder includes only itself and
the folders listed before it; tools/ include no storage internals (the
connection, a backend). Prints each include that breaks this; exit 1 if any."""
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
# Tools use the store's methods, never the connection or a backend.
PRIVATE = ('store/db.hpp', 'store/store_impl.hpp', 'store/sqlite/', 'store/pg/')
for f in sorted(glob.glob(os.path.join(root, 'tools/*.cpp'))):
    for n, line in enumerate(open(f, encoding='utf-8'), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m and m.group(1).startswith(PRIVATE):
            print(f'{f}:{n}: a tool includes the storage internals "{m.group(1)}"'); bad += 1
if not files:
    print('no sources found'); bad += 1
sys.exit(1 if bad else 0)
