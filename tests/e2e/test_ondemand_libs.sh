#!/usr/bin/env bash
# libcurl and libpq are opened on first use (lib/core/ondemand.hpp): only fetch
# links libcurl and no tool links libpq, so starting frontier-lease or
# frontier-report loads neither. The tools that use libcurl's URL API still
# do: frontier-add canonicalises with it and frontier-done resolves links
# with it; --version names both libraries.
set -euo pipefail
for t in frontier-add frontier-lease frontier-done frontier-config frontier-budget frontier-report \
         frontier-export frontier-import; do
    if ldd "$(command -v "$t")" | grep -E 'libcurl|libpq' >&2; then
        echo "$t links libcurl or libpq at start" >&2
        exit 1
    fi
done
ldd "$(command -v fetch)" | grep libcurl >/dev/null || { echo "fetch does not link libcurl" >&2; exit 1; }
frontier-lease --version | grep -Eq 'libcurl [0-9]+\.[0-9]+.*libpq [0-9]+\.[0-9]+' ||
    { echo "--version does not name libcurl and libpq: $(frontier-lease --version)" >&2; exit 1; }

export FRONTIER_NOW=1800000000
F=$PWD/f.db
source "$ROOT/tests/tools/throughput.bash"
throughput_config "$F"
# Canonicalised by libcurl: case, default port, dot segments.
echo '{"url":"HTTP://Example.COM:80/a/../b"}' | frontier-add -f "$F" > add.jsonl
grep -q '"url":"http://example.com/b"' add.jsonl || { cat add.jsonl >&2; exit 1; }
lease=$(frontier-lease -f "$F" -n 1 | python3 -c 'import json, sys; print(json.load(sys.stdin)["lease"])')
# A relative link resolved against the page by libcurl.
printf '{"lease":"%s","url":"http://example.com/b","status":200,"links":["c/../d?x=1#frag"]}\n' "$lease" |
    frontier-done -f "$F" > done.jsonl
grep -q '"links_added":1' done.jsonl || { cat done.jsonl >&2; exit 1; }
frontier-lease -f "$F" -n 1 | grep >/dev/null '"url":"http://example.com/d?x=1"' ||
    { echo "the link was not resolved to http://example.com/d?x=1" >&2; exit 1; }
