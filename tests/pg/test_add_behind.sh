#!/usr/bin/env bash
# On PostgreSQL frontier-add sends a chunk's new URL rows behind the next
# chunk's fingerprint probe (the server inserts them while that chunk is
# added), unless the probe looks for one of them (frontier(7), POSTGRESQL).
# Records in chunks of 512: chunk 2 all new (chunk 1's rows go behind its
# probe), chunk 3 repeating chunk 1's URLs (inserted behind chunk 2's probe:
# found) and chunk 2's (not yet inserted: the rows go first), chunk 4
# adding each of its URLs twice, chunk 5 repeating chunk 2's. The same
# records added to a SQLite file give the same result lines, URL rows (ids
# too: on PostgreSQL the tool gives them) and counters, and so does a
# second run, whose ids follow the first's.
# Run by tests/pg/run.sh with BEHIND_FRONTIER (a database URL).
set -u
: "${BEHIND_FRONTIER:?}" "${ROOT:?}"
export FRONTIER=$BEHIND_FRONTIER FRONTIER_NOW=1800000000
source "$ROOT/tests/pg/script.bash"

python3 - > records.jsonl <<'PY'
import json
def url(i):
    return f"http://h{i % 37}.example/p{i}"
out = [url(i) for i in range(512)]                     # chunk 1: new
out += [url(1000 + i) for i in range(512)]             # chunk 2: new
out += [url(i * 2) for i in range(256)]                # chunk 3: chunk 1's URLs
out += [url(1000 + i * 2) for i in range(256)]         #          chunk 2's URLs
out += [url(5000 + i // 2) for i in range(512)]        # chunk 4: each new URL twice
out += [url(1000 + i) for i in range(0, 512, 7)]       # chunk 5: chunk 2's again
for u in out:
    print(json.dumps({"url": u}))
PY
python3 -c 'import json
for i in range(600): print(json.dumps({"url": f"http://h{i % 5}.example/again{i}"}))
for i in range(0, 40): print(json.dumps({"url": f"http://h{i % 37}.example/p{i}"}))' > again.jsonl
for f in "$FRONTIER" "$PWD/behind.db"; do
    configure "$f" "politeness.min-delay 0"
    for r in records again; do
        frontier-add -f "$f" $r.jsonl >> "add.$(basename "$f").out" 2>> "add.$(basename "$f").err" \
            || fail "add of $r to $f: $(cat "add.$(basename "$f").err")"
    done
done
diff "add.$(basename "$FRONTIER").out" add.behind.db.out > add.diff \
    || fail "PostgreSQL and SQLite answered differently: $(head -10 add.diff)"
diff "add.$(basename "$FRONTIER").err" add.behind.db.err > err.diff \
    || fail "PostgreSQL and SQLite summed up differently: $(cat err.diff)"
for s in "SELECT id, url, state, queue_id FROM urls ORDER BY id" "SELECT name, n FROM counters WHERE n != 0 ORDER BY name"; do
    diff <(sql "$s" | tr '|' ' ') <(sqlite3 behind.db "$s" | tr '|' ' ') > rows.diff \
        || fail "PostgreSQL and SQLite differ on $s: $(head -10 rows.diff)"
done
added=$(grep -c '"status":"added"' add.behind.db.out)
dups=$(grep -c '"status":"duplicate"' add.behind.db.out)
[ "$added" = 1880 ] && [ "$dups" = 882 ] || fail "expected 1880 added and 882 duplicates, got $added and $dups"
frontier-report --check > check.txt 2>&1 || fail "frontier-report --check: $(grep -v '^ok' check.txt)"
echo "ok: $added added, $dups duplicates over 5 chunks and a second run: the same lines, rows and ids on PostgreSQL and SQLite"
