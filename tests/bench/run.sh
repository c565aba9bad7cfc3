#!/usr/bin/env bash
# make bench: frontier throughput side by side with a raw sqlite3 import, in
# one run on this machine. Not part of `make check`.
#   N=1000000 H=10000 tests/bench/run.sh      (defaults)
# Cases (the benchmark issue's numbering):
#   B1 frontier-add of N records over H hosts into a new frontier, vs the
#      sqlite3 CLI importing the same URLs into a table with a unique key and
#      a (queue, state, priority) index
#   B2 frontier-lease of all N in batches of 1000, politeness off
#   B3 one frontier-lease -n 100 on the full frontier (before B2)
#   B4 frontier-done of N results in one process
#   B7 frontier-report summary and --json on the full frontier
#   B5 fetch vs curl --parallel (tests/bench/fetch_vs_curl.sh)
# Peak RSS of every tool is printed with its case.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
export PATH="$root/bin:$PATH"
unset FRONTIER_NOW
N="${N:-1000000}"
H="${H:-10000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
F="$dir/bench.db"
now() { date +%s.%N; }
rss() { sed -n 's/.*maxrss=\([0-9]*\).*/\1/p' "$1" | sort -n | tail -1; }
line() { printf '%-58s %14s %12s %10s\n' "$@"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); $(sqlite3 --version | cut -d' ' -f1-2)"
echo "input: tests/bench/gen-urls.py $N $H"
python3 "$root/tests/bench/gen-urls.py" "$N" "$H" > "$dir/urls.jsonl"
line "case" "ours" "peer" "peak RSS"

# B1 peer: sqlite3 importing the same URLs (host = queue), unique key + index.
python3 - "$dir/urls.jsonl" > "$dir/urls.csv" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    u = json.loads(l)["url"]
    print('"%s",%s' % (u, u.split("/")[2]))
PY
t0=$(now)
sqlite3 "$dir/peer.db" > /dev/null <<SQL
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
CREATE TABLE urls(url TEXT PRIMARY KEY, queue TEXT, state INTEGER DEFAULT 0, priority REAL DEFAULT 0);
CREATE INDEX urls_q ON urls(queue, state, priority);
CREATE TEMP TABLE raw(url TEXT, queue TEXT);
.mode csv
.import $dir/urls.csv raw
INSERT OR IGNORE INTO urls(url, queue) SELECT url, queue FROM raw;
SQL
t1=$(now)
peer_rate=$(python3 -c "print('%.0f' % ($N / ($t1 - $t0)))")

# Politeness off for the throughput cases.
for kv in "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" \
          "politeness.max-in-flight 100000000" "budget.hold-queues false"; do
    frontier-config -f "$F" $kv
done
t0=$(now)
/usr/bin/time -f "maxrss=%M" -o "$dir/t.add" frontier-add -q -f "$F" "$dir/urls.jsonl"
t1=$(now)
add_rate=$(python3 -c "print('%.0f' % ($N / ($t1 - $t0)))")
line "B1 add $N records over $H hosts (records/s)" "$add_rate" "$peer_rate" "$(( $(rss "$dir/t.add") / 1024 )) MiB"

# B3: one lease of 100 on the full frontier (median of 5 consecutive calls,
# after the freshly written file has reached the disk).
sync
: > "$dir/leases.jsonl"
for i in 1 2 3 4 5; do
    t0=$(now)
    /usr/bin/time -f "maxrss=%M" -o "$dir/t.b3" frontier-lease -f "$F" -n 100 >> "$dir/leases.jsonl"
    t1=$(now)
    python3 -c "print(($t1 - $t0) * 1000)"
done | sort -n | sed -n 3p > "$dir/b3.ms"
line "B3 frontier-lease -n 100 on $N URLs, $H queues (ms/call)" "$(printf '%.1f' "$(cat "$dir/b3.ms")")" "-" "$(( $(rss "$dir/t.b3") / 1024 )) MiB"

# B2: lease everything in batches of 1000.
before=$(wc -l < "$dir/leases.jsonl")
t0=$(now)
while /usr/bin/time -a -f "maxrss=%M" -o "$dir/t.lease" frontier-lease -q -f "$F" -n 1000 --per-queue 1000 >> "$dir/leases.jsonl"; do :; done
t1=$(now)
leased=$(wc -l < "$dir/leases.jsonl")
line "B2 lease all $((leased - before)) in batches of 1000 (URLs/s)" "$(python3 -c "print('%.0f' % (($leased - $before) / ($t1 - $t0)))")" "-" "$(( $(rss "$dir/t.lease") / 1024 )) MiB"

# B4: all results back through one frontier-done.
python3 - "$dir/leases.jsonl" > "$dir/results.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(json.dumps({"url": r["url"], "lease": r["lease"], "status": 200, "duration_ms": 12,
                      "content_hash": "0123456789abcdef"}, separators=(",", ":")))
PY
t0=$(now)
/usr/bin/time -f "maxrss=%M" -o "$dir/t.done" frontier-done -q -f "$F" "$dir/results.jsonl"
t1=$(now)
line "B4 done $leased results (results/s)" "$(python3 -c "print('%.0f' % ($leased / ($t1 - $t0)))")" "-" "$(( $(rss "$dir/t.done") / 1024 )) MiB"

# B7: the report summary and --json on the full frontier.
t0=$(now)
/usr/bin/time -f "maxrss=%M" -o "$dir/t.report" frontier-report -f "$F" > /dev/null
t1=$(now)
frontier-report -f "$F" --json > /dev/null
t2=$(now)
line "B7 report summary / --json on $N URLs (s)" "$(python3 -c "print('%.2f / %.2f' % ($t1 - $t0, $t2 - $t1))")" "-" "$(( $(rss "$dir/t.report") / 1024 )) MiB"

if [ "${SKIP_FETCH:-}" = "" ]; then
    echo
    echo "B5 fetch vs curl --parallel:"
    N="${FETCH_N:-20000}" "$root/tests/bench/fetch_vs_curl.sh"
fi
