#!/usr/bin/env bash
# Where the PostgreSQL server's statement time goes under pipelines:
#
#   tests/pg/statements.sh [N] [W]      (default 40000 URLs, 4 pipelines)
#
# starts a private cluster on 127.0.0.1 (tests/tools/pg.sh) with
# pg_stat_statements, adds N URLs over N/100 hosts (tests/bench/gen-urls.py;
# INPUT=FILE: those records instead), drains them with W `frontier-lease
# --follow | sed | frontier-done` pipelines as the scaling rows of
# tests/pg/bench.sh run them (throughput_lease_opts: politeness off, 16 URLs
# of a queue a batch, 64 leases out a pipeline), then prints the URL/s and
# the statements by total time: calls, execution ms (waits for locks
# included), planning ms, rows, and the statement's start (TOP of them,
# default 15).
# EXPLAIN_MS=M also logs the plan (auto_explain, with ANALYZE) of every
# statement slower than M ms; PLANS=FILE keeps that log. FRONTIER_BIN picks
# the tools; LEASE_OPTS replaces frontier-lease's options (as tests/pg/bench.sh's
# one-shot pipelines: "--follow --max-in-flight 64 -n 16 --poll-interval 0.02").
# Not part of make check or make bench.
set -euo pipefail
source "$(dirname "$0")/../tools/bench_env.bash"
N=${1:-40000} W=${2:-4}
cluster="$work/cluster"
trap '[ -n "${PLANS:-}" ] && cp "$cluster/server.log" "$PLANS"; "$root/tests/tools/pg.sh" stop "$cluster"; rm -rf "$work"' EXIT
base=$("$root/tests/tools/pg.sh" start "$cluster")
# The libraries load at server start: written into its configuration, then
# started again (same port).
{
    echo "shared_preload_libraries = 'pg_stat_statements'"
    echo "pg_stat_statements.track_planning = on"
    if [ -n "${EXPLAIN_MS:-}" ]; then
        echo "session_preload_libraries = 'auto_explain'"
        echo "auto_explain.log_min_duration = '${EXPLAIN_MS}ms'"
        echo "auto_explain.log_analyze = on"
    fi
} >> "$cluster/data/postgresql.conf"
"$root/tests/tools/pg.sh" stop "$cluster"
"$root/tests/tools/pg.sh" start "$cluster" > /dev/null
psql -qX "$base/postgres" -c "CREATE EXTENSION pg_stat_statements" -c "CREATE DATABASE s" > /dev/null
F="$base/s"
source "$root/tests/tools/throughput.bash"
throughput_config "$F" > /dev/null
input=${INPUT:-$work/urls.jsonl}
[ -n "${INPUT:-}" ] || python3 "$root/tests/bench/gen-urls.py" "$N" "$((N / 100 > 0 ? N / 100 : 1))" > "$input"
frontier-add -q -f "$F" "$input"
psql -qX "$base/postgres" -c "SELECT pg_stat_statements_reset()" > /dev/null
t0=$(date +%s.%N)
pids=()
for _ in $(seq "$W"); do
    # shellcheck disable=SC2046
    ( timeout "${BENCH_PG_TIMEOUT:-300}" frontier-lease -f "$F" ${LEASE_OPTS:-$(throughput_lease_opts "$W")} 2>/dev/null |
        stdbuf -oL sed -E "$throughput_answer" | frontier-done -q -f "$F" ) &
    pids+=($!)
done
wait "${pids[@]}" || true
t1=$(date +%s.%N)
done_=$(frontier-report -f "$F" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["urls"]["done"])')
awk -v n="$done_" -v w="$W" -v a="$t0" -v b="$t1" 'BEGIN { printf "W=%s: %d URLs done, %.0f URL/s\n", w, n, n / (b - a) }'
stats="FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = 's'"
psql -qX "$base/postgres" \
    -c "SELECT sum(calls) AS calls, round(sum(total_exec_time)::numeric) AS exec_ms,
               round(sum(total_plan_time)::numeric) AS plan_ms $stats" \
    -c "SELECT calls, round(total_exec_time::numeric) AS exec_ms, round(total_plan_time::numeric) AS plan_ms, rows,
               left(regexp_replace(query, '\s+', ' ', 'g'), ${WIDTH:-100}) AS statement $stats
        ORDER BY total_exec_time + total_plan_time DESC LIMIT ${TOP:-15}"
