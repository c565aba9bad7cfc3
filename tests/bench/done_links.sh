#!/usr/bin/env bash
# frontier-done's CPU per result as the frontier grows (a micro-setup of
# B9's links, without a server): a base frontier of N URLs
# (gen-urls.py N 1000 through frontier-add, robots.txt off, no in-flight
# limit, then one more add with FRONTIER_FP_BUFFER=1 so that url_fps_new
# starts empty at every size), K URLs leased from a copy of it, and K
# results of status 200, each linking NEW child pages of its own and SEEN
# pages its host shares (B9: 20 and 20), applied by frontier-done
# --batch BATCH (B9's transactions are small) with FRONTIER_FP_BUFFER=10^8
# (no fingerprint move during the run, whose cost is measured apart).
# Not part of `make check` or `make bench`.
#
#   SIZES="100000 5000000"  K=30000 NEW=20 SEEN=20 BATCH=20 REPS=2
#   FRONTIER_BIN=bin   the tools measured (and the ones that build the bases)
#   OLD_BIN=DIR        another build, run before FRONTIER_BIN each round (A B A B)
#   TMPDIR             where the bases stay between runs (default /var/tmp)
# Prints one line a run: build, N, results, CPU s, ms per result, peak RSS.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${FRONTIER_BIN:-bin}"
case $bin in /*) ;; *) bin="$root/$bin" ;; esac
SIZES="${SIZES:-100000 5000000}" K="${K:-30000}" NEW="${NEW:-20}" SEEN="${SEEN:-20}"
BATCH="${BATCH:-20}" REPS="${REPS:-2}"
dir="${TMPDIR:-/var/tmp}/done_links"
mkdir -p "$dir"
export FRONTIER_NOW=1800000000

base() {  # N: the base frontier's path, built once
    local f="$dir/base$1.db"
    if [ ! -f "$f" ]; then
        "$bin/frontier-config" -f "$f.tmp" robots.enabled false > /dev/null
        "$bin/frontier-config" -f "$f.tmp" politeness.max-in-flight 1000000 > /dev/null
        python3 "$root/tests/bench/gen-urls.py" "$1" 1000 | "$bin/frontier-add" -f "$f.tmp" -q > /dev/null
        echo '{"url":"http://flush.example/"}' | FRONTIER_FP_BUFFER=1 "$bin/frontier-add" -f "$f.tmp" -q > /dev/null
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}

results() {  # leases on stdin -> results
    python3 -c '
import json, sys
new, seen = int(sys.argv[1]), int(sys.argv[2])
for line in sys.stdin:
    l = json.loads(line)
    u, host = l["url"], l["url"].split("/")[2]
    links = [u.rstrip("/") + "/c%d" % k for k in range(new)] + ["http://%s/nav%d" % (host, k) for k in range(seen)]
    print(json.dumps({"lease": l["lease"], "url": u, "status": 200, "duration_ms": 1, "links": links}))
' "$NEW" "$SEEN"
}

run() {  # BIN N
    local w="$dir/work.db"
    rm -f "$w" "$w-wal" "$w-shm"
    cp "$(base "$2")" "$w"
    FRONTIER_NOW=1800000100 "$1/frontier-lease" -f "$w" -n "$K" --per-queue "$K" --detached -q |
        results > "$dir/results.jsonl"
    local n
    n=$(wc -l < "$dir/results.jsonl")
    FRONTIER_NOW=1800000200 FRONTIER_FP_BUFFER=100000000 /usr/bin/time -f "%U %S %M" -o "$dir/time" \
        "$1/frontier-done" -f "$w" -q --batch "$BATCH" "$dir/results.jsonl"
    read -r u s m < "$dir/time"
    awk -v b="$1" -v N="$2" -v n="$n" -v u="$u" -v s="$s" -v m="$m" 'BEGIN {
        printf "%s N=%d results=%d cpu=%.2f s  %.3f ms/result  rss %d MiB\n", b, N, n, u + s, (u + s) * 1000 / n, m / 1024 }'
    rm -f "$w" "$w-wal" "$w-shm"
}

for n in $SIZES; do base "$n" > /dev/null; done
for _ in $(seq "$REPS"); do
    for n in $SIZES; do
        [ -z "${OLD_BIN:-}" ] || run "$OLD_BIN" "$n"
        run "$bin" "$n"
    done
done
