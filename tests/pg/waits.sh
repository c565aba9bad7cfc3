#!/usr/bin/env bash
# Where the PostgreSQL pipelines of tests/pg/bench.sh spend their
# transactions: tests/pg/waits.sh [N] runs W = 1, 4, 16
# `frontier-lease --follow | responder | frontier-done` pipelines over N/10
# URLs (as bench.sh) with every statement logged, and prints per W:
#   xacts/URL    writer transactions (those taking the advisory lock) per URL
#   lease        lease transactions, and how many of them leased nothing
#   done         frontier-done transactions
#   lockwait     share of pg_stat_activity samples (every ~10 ms) with a
#                session waiting for the advisory lock, and the mean number
#                of sessions waiting then (waiting)
#   server/client  share of samples where the lock holder was running a
#                statement (server) or idle in its transaction, waiting for
#                its client process (client)
# Logging every statement slows the run: its URL/s are not bench.sh's.
# WAITS_LOG=FILE keeps the server log.
# FRONTIER_BIN picks the tools (default bin). A private cluster on 127.0.0.1.
set -euo pipefail
source "$(dirname "$0")/../tools/bench_env.bash"
N=${1:-2000}
trap '[ -n "${WAITS_LOG:-}" ] && cp "$work/cluster/server.log" "$WAITS_LOG"; "$root/tests/tools/pg.sh" stop "$work/cluster"; rm -rf "$work"' EXIT
base=$("$root/tests/tools/pg.sh" start "$work/cluster")
log="$work/cluster/server.log"
psql -qX "$base/postgres" -c "ALTER SYSTEM SET log_line_prefix = '%p '" \
    -c "ALTER SYSTEM SET log_statement = 'all'" -c "SELECT pg_reload_conf()" >/dev/null
python3 "$root/tests/bench/gen-urls.py" "$((N / 10))" "$((N / 1000 > 0 ? N / 1000 : 1))" > "$work/small.jsonl"
cat > "$work/count.py" <<'PY'
import re, sys
# Writer transactions (advisory lock to COMMIT/ROLLBACK) of the lease and
# done sessions; a lease transaction is empty when it leased no URL.
rows = []
for l in open(sys.argv[1], errors="replace").read().split("\n")[int(sys.argv[2]):]:
    m = re.match(r"(\d+) LOG:  (?:statement|execute [^:]*): (.*)", l)
    if m:
        rows.append(m.groups())
kind = {}
for pid, sql in rows:
    if sql.startswith("UPDATE urls SET state = 1, lease_seq") or "FROM queues WHERE sched = 0 AND (best, served)" in sql:
        kind[pid] = "lease"
    elif sql.startswith("INSERT INTO timeline"):
        kind[pid] = "done"
open_tx, lease, lease_empty, done = {}, 0, 0, 0
for pid, sql in rows:
    if "advisory_xact_lock" in sql:
        open_tx[pid] = False
    elif pid in open_tx:
        if sql.startswith("UPDATE urls SET state = 1, lease_seq"):
            open_tx[pid] = True
        if sql.startswith("COMMIT") or sql.startswith("ROLLBACK"):
            leased = open_tx.pop(pid)
            if kind.get(pid) == "lease":
                lease += 1
                lease_empty += not leased
            elif kind.get(pid) == "done":
                done += 1
print(lease, lease_empty, done)
PY
printf '%-5s %10s %8s %12s %8s %10s %10s %7s %7s\n' W "URL/s" "xact/URL" "lease(empty)" done "lockwait" "waiting" "server" "client"
for W in 1 4 16; do
    F="$base/w$W"
    psql -qX "$base/postgres" -c "CREATE DATABASE w$W" >/dev/null
    source "$root/tests/tools/throughput.bash"
    throughput_config "$F"
    frontier-add -q -f "$F" "$work/small.jsonl"
    start_line=$(wc -l < "$log")
    : > "$work/samples"
    ( while :; do
        psql -qAtX "$base/postgres" -c "SELECT count(*) FILTER (WHERE wait_event = 'advisory'), coalesce(max(CASE WHEN l.pid IS NULL THEN NULL WHEN a.state = 'active' THEN 'server' ELSE 'client' END), '-') FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted WHERE datname = 'w$W'" >> "$work/samples" 2>/dev/null || true
        sleep 0.01
      done ) &
    sampler=$!
    t0=$(date +%s.%N)
    pids=()
    for _ in $(seq "$W"); do
        ( timeout "${BENCH_PG_TIMEOUT:-300}" frontier-lease -f "$F" --follow --max-in-flight 64 -n 16 \
            --poll-interval 0.02 2>/dev/null | python3 "$root/tests/tools/respond.py" | frontier-done -q -f "$F" ) &
        pids+=($!)
    done
    wait "${pids[@]}" || true
    t1=$(date +%s.%N)
    kill "$sampler"; wait "$sampler" 2>/dev/null || true
    sleep 0.2
    read -r lease empty done_ < <(python3 "$work/count.py" "$log" "$start_line")
    awk -v w="$W" -v n="$((N / 10))" -v a="$t0" -v b="$t1" -v l="$lease" -v e="$empty" -v d="$done_" \
        -v f="$work/samples" 'BEGIN {
            while ((getline x < f) > 0) { split(x, v, "|"); s++; if (v[1] > 0) { k++; t += v[1] } h[v[2]]++ }
            printf "%-5s %10.0f %8.1f %12s %8d %9.0f%% %10.1f %6.0f%% %6.0f%%\n", w, n / (b - a), (l + d) / n, l "(" e ")", d,
                   s ? 100 * k / s : 0, k ? t / k : 0, s ? 100 * h["server"] / s : 0, s ? 100 * h["client"] / s : 0 }'
done
