#!/usr/bin/env bash
# The cost of the crawl aggregates of schema 4, old build vs new,
# on the same input (not part of `make bench`; minutes at N=1000000):
#   - one frontier of N generated URLs (tests/bench/gen-urls.py N N/100),
#     added and leased whole with OLD's tools (politeness off, as B2);
#   - a copy migrated by NEW (an empty frontier-add), timed: the back-fill;
#   - frontier-done of the same N results (status 200, bytes, content type,
#     duration) by OLD on one copy and NEW on the other: results/s and the
#     ratio new/old;
#   - frontier-report summary, --json, --html, --hosts --limit 20,
#     --mimetypes, --codes, --seeds --limit 20, --failed, on each: wall
#     seconds and peak RSS (/usr/bin/time).
#   OLD=/tmp/old/bin NEW=bin N=1000000 tests/bench/report_aggregates.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
OLD="$(cd "${OLD:?OLD=old build bin dir}" && pwd)"
NEW="$(cd "${NEW:-$root/bin}" && pwd)"
N="${N:-1000000}"
d=$(mktemp -d "${TMPDIR:-/var/tmp}/aggr.XXXXXX")
trap 'rm -rf "$d"' EXIT
export FRONTIER_NOW=1800000000
now() { date +%s.%N; }
source "$root/tests/tools/throughput.bash"
python3 "$root/tests/bench/gen-urls.py" "$N" $((N / 100)) > "$d/urls.jsonl"
PATH="$OLD:$PATH"
throughput_config "$d/old.db" >/dev/null
frontier-add -q -f "$d/old.db" "$d/urls.jsonl"
while frontier-lease -q -f "$d/old.db" -n 1000 --per-queue 1000 >> "$d/leases.jsonl"; do :; done
python3 - "$d/leases.jsonl" > "$d/results.jsonl" <<'PY'
import json, sys
types = ["text/html; charset=utf-8", "text/html", "application/pdf", "image/png", "text/css"]
for i, l in enumerate(open(sys.argv[1])):
    r = json.loads(l)
    st = 404 if i % 50 == 0 else 200
    print(json.dumps({"url": r["url"], "lease": r["lease"], "status": st, "duration_ms": 12,
                      "bytes": 1000 + i % 5000, "content_type": types[i % len(types)],
                      "content_hash": "0123456789abcdef"}, separators=(",", ":")))
PY
echo "results: $(wc -l < "$d/results.jsonl")"
cp "$d/old.db" "$d/new.db"
t0=$(now); /usr/bin/time -f "%M" -o "$d/t" "$NEW/frontier-add" -q -f "$d/new.db" < /dev/null; t1=$(now)
echo "migration 3 -> 4 (back-fill) of $N URLs by NEW: $(echo "$t1 - $t0" | bc) s, peak RSS $(( $(cat "$d/t") / 1024 )) MiB"
# REPEAT rounds, old and new alternating on fresh copies (the machine's load moves).
REPEAT="${REPEAT:-2}"
cp "$d/old.db" "$d/old.base"; cp "$d/new.db" "$d/new.base"
for r in $(seq "$REPEAT"); do
    for v in old new; do
        b=$OLD; [ $v = new ] && b=$NEW
        [ "$r" = 1 ] || cp "$d/$v.base" "$d/$v.db"
        rm -f "$d/$v.db-wal" "$d/$v.db-shm"
        t0=$(now); /usr/bin/time -f "%M %U %S" -o "$d/t" "$b/frontier-done" -q -f "$d/$v.db" "$d/results.jsonl"; t1=$(now)
        rate=$(echo "$(wc -l < "$d/results.jsonl") / ($t1 - $t0)" | bc)
        read -r rss usr sys < "$d/t"
        echo "frontier-done $v (round $r): $(echo "$t1 - $t0" | bc) s wall, $(echo "$usr + $sys" | bc) s CPU, $rate results/s, peak RSS $((rss / 1024)) MiB"
        echo "$rate" >> "$d/rate.$v"
        echo "$usr + $sys" | bc >> "$d/cpu.$v"
    done
done
best() { sort -n "$1" | tail -1; }
least() { sort -n "$1" | head -1; }
echo "done throughput new/old (best of $REPEAT): $(echo "scale=3; $(best "$d/rate.new") / $(best "$d/rate.old")" | bc); CPU new/old (least): $(echo "scale=3; $(least "$d/cpu.new") / $(least "$d/cpu.old")" | bc)"
for v in old new; do
    b=$OLD; [ $v = new ] && b=$NEW
    for args in "" "--json" "--html ${d}/r.html" "--hosts --limit 20" "--mimetypes" "--codes" "--seeds --limit 20" "--failed"; do
        # shellcheck disable=SC2086
        if ! "$b/frontier-report" -f "$d/$v.db" $args > /dev/null 2>&1; then echo "report $v ${args:-summary}: not in this build"; continue; fi
        t0=$(now)
        # shellcheck disable=SC2086
        /usr/bin/time -f "%M" -o "$d/t" "$b/frontier-report" -f "$d/$v.db" $args > /dev/null
        t1=$(now)
        echo "report $v ${args:-summary}: $(echo "$t1 - $t0" | bc) s, peak RSS $(( $(cat "$d/t") / 1024 )) MiB"
    done
done
