#!/usr/bin/env bash
# SQLite vs PostgreSQL throughput on this machine (make bench-pg).
#   tests/pg/bench.sh [N]   N URLs (default 100000) over N/100 hosts
# For each backend (a SQLite file in a temp dir; a database in a private
# cluster started by tests/tools/pg.sh and stopped at the end):
#   add     frontier-add of N generated records (records/s)
#   lease   frontier-lease of all of them by 1000 (URLs/s)
#   done    frontier-done of every result in one process (results/s)
#   W=1, W=4, W=16  W concurrent `frontier-lease --follow | responder |
#           frontier-done` pipelines draining N/10 URLs, politeness off (URLs/s
#           through lease+done; each a lease transaction and a done
#           transaction); each run is cut off after BENCH_PG_TIMEOUT seconds
#           (default 300), which is then printed as "timeout"
# The responder is a Python script per pipeline (~0.1 s of CPU to start
# each: at W=16 with few URLs that start-up is much of the phase);
# BENCH_RESPONDER=sed answers with `sed` instead (the frontier's share), its
# output line-buffered by stdbuf: `sed -u` reads its input a byte per
# read(2), which costs more than the pipeline it answers.
# FRONTIER_PG_PARTITIONS=0 in the environment runs the rows above the
# scaling rows with every writer under the writer lock (frontier(7),
# POSTGRESQL; the default: leases and result batches in partitions).
# BENCH_ROBOTS=1 keeps robots.txt on in the pipelines (the default of a
# crawl: each host's robots.txt is leased first, answered 200 and empty).
# BENCH_LINKS=K has every answer carry K links, the same on all pages of a
# host (/nav0 .. /nav<K-1>, as a site's navigation): a result batch then
# adds URLs, most of them seen before, as a crawl's do. The pipelines'
# URL/s then count every page answered (the N/10 and the hosts' nav pages),
# and each scaling line ends with links=K.
# FRONTIER_BIN picks the tools (default bin); BACKENDS="sqlite" (or
# "postgresql") measures one. PG_RTT_MS=1 puts the server behind
# tests/tools/latency_proxy.cpp (bin/latency-proxy), which adds that round-trip time to every
# exchange (as a server on another machine; `tc netem` on loopback would
# delay every other test's traffic too; 1 ms measures 1.4 ms with pgbench,
# Python's thread wake-ups). Nothing leaves 127.0.0.1.
# PG_ONESHOT=0 leaves out the rows above (the scaling rows alone).
# Then the scaling rows (PG_SCALING=0 leaves them out): the server in a
# network namespace of its own and each pipeline's two tools in another, a
# "machine" joined to it by a veth pair (tests/tools/netns.bash; as root),
# through tests/tools/latency_proxy.cpp (bin/latency-proxy) in the server's namespace, which
# holds each chunk for half the RTT each way and counts round trips. For
# each RTT of PG_SCALING_RTTS (default "0 1 5" ms) and each writer mode of
# PG_SCALING_MODES (default "partitions lock"), W = 1, 4, 16 pipelines drain
# N/10 URLs over N/100 hosts of a fresh database, each pipeline with up to
# 16 URLs of a queue per batch and 64 leases out (throughput_lease_opts,
# tests/tools/throughput.bash; PG_SCALING_EQUAL=1: every host N/1000 URLs
# instead of gen-urls.py's skew, whose three busiest hosts hold a quarter
# of them), and it prints, for scripts:
#   pg-scaling rtt=1ms W1=URL/s W4=URL/s W16=URL/s       (partitions, the default)
#   pg-scaling-lock rtt=1ms W1=URL/s W4=URL/s W16=URL/s  (FRONTIER_PG_PARTITIONS=0)
# and per W a pg-scaling-detail line: rt/url (round trips the tools waited
# for, per URL), lockwait (share of pg_stat_activity samples, ~10 ms apart,
# with a session waiting for an advisory lock: the writers' lock or a
# partition's), waiting (sessions waiting then, on average), rowwait
# (samples with a session waiting for a row lock), holder-client (share of
# samples where a lock holder sat idle in its transaction, waiting for its
# client), proxy (the proxy's CPU over the run's wall time), idle (the
# machine's idle CPU share over the run: near 0, the row measures the
# cores, not the round trips). Then, for
# comparison, "sqlite-scaling rtt=0ms W1=... W4=... W16=..." with the same
# input and options on a SQLite file.
# Without namespaces (not root, no `ip netns`) it says so and skips them;
# the namespaces, the proxy and that server go at exit, failure included.
# The server takes huge pages when the kernel has them reserved (as root:
# sysctl -w vm.nr_hugepages=80); PG_HUGE_PAGES=on insists on them. Each
# tool run is a new server process, which maps the shared buffers it
# touches page by page, so the one-shot figures depend on it (frontier(7),
# POSTGRESQL). The first line to standard error says which.
set -euo pipefail
source "$(dirname "$0")/../tools/bench_env.bash"
N=${1:-100000}
source "$root/tests/tools/netns.bash"
# The proxy is an instrument, not a tool under test: this tree's, whatever
# FRONTIER_BIN says (LATENCY_PROXY=PROGRAM: another, same arguments).
latency_proxy=${LATENCY_PROXY:-$root/bin/latency-proxy}
[ -x "$latency_proxy" ] || make -C "$root" --no-print-directory bin/latency-proxy >&2
cleanup() {
    set +e  # one step failing (a process already gone) must not skip the rest
    [ -n "${proxy:-}" ] && kill "$proxy" 2>/dev/null
    [ -n "${sproxy:-}" ] && kill "$sproxy" 2>/dev/null
    [ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null
    "$root/tests/tools/pg.sh" stop "$work/cluster"
    "$root/tests/tools/pg.sh" stop "$work/scluster"
    netns_down
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
BACKENDS=${BACKENDS:-sqlite postgresql}
[[ " $BACKENDS " == *" postgresql "* ]] && base=$("$root/tests/tools/pg.sh" start "$work/cluster")
tools_base=${base:-}
[ -n "${base:-}" ] && echo "PostgreSQL shared memory on huge pages: $("$root/tests/tools/pg.sh" hugepages "$work/cluster")" \
    "(PG_HUGE_PAGES; frontier(7), POSTGRESQL)" >&2
if [ -n "${PG_RTT_MS:-}" ] && [ -n "${base:-}" ]; then
    "$latency_proxy" "${base##*:}" "$PG_RTT_MS" "$work/proxy.port" &
    proxy=$!
    for _ in $(seq 50); do [ -s "$work/proxy.port" ] && break; sleep 0.1; done
    tools_base="${base%:*}:$(cat "$work/proxy.port")"
    echo "PostgreSQL behind a proxy adding ${PG_RTT_MS} ms per round trip" >&2
fi
now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN {printf "%.0f", n / (b - a)}'; }
python3 "$root/tests/bench/gen-urls.py" "$N" "$((N / 100))" > "$work/urls.jsonl"
python3 "$root/tests/bench/gen-urls.py" "$((N / 10))" "$((N / 1000 > 0 ? N / 1000 : 1))" > "$work/small.jsonl"
links=${BENCH_LINKS:-0}
nav=""  # the sed replacement's links: \1 is the page's scheme and host
for ((i = 0; i < links; i++)); do nav+="${nav:+,}\"\\1/nav$i\""; done
source "$root/tests/tools/throughput.bash"
source "$root/tests/tools/wait_port.bash"
respond() {  # lease lines -> results (status 200), one per line as they come
    if [ "$links" -gt 0 ]; then
        # robots.txt answered so; a page's answer with the host's links.
        stdbuf -oL sed -E -e "/\"robots\":true/ $throughput_answer" \
            -e '/"robots":true/! s#^\{"url":"(https?://[^/"]*)([^"]*)",("lease":"[^"]*").*#{"url":"\1\2",\3,"status":200,"duration_ms":1,"links":['"$nav"']}#'
    elif [ "${BENCH_RESPONDER:-}" = sed ]; then
        stdbuf -oL sed -E "$throughput_answer"
    else python3 "$root/tests/tools/respond.py"; fi
}
# answered F EXPECTED [CMD...]: the pages the pipelines answered: EXPECTED,
# or with BENCH_LINKS the URLs done in F (the nav pages too).
answered() {
    local f=$1 n=$2; shift 2
    if [ "$links" -gt 0 ]; then
        "$@" frontier-report -f "$f" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["urls"]["done"])'
    else echo "$n"; fi
}
results='import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(json.dumps({"url": r["url"], "lease": r["lease"], "status": 200, "duration_ms": 12}))'

setup() { throughput_config "$1"; }  # politeness, robots.txt and queue holding off
new_frontier() {  # backend name -> a fresh frontier
    if [ "$1" = sqlite ]; then echo "$work/$2.db"
    else psql -qX "$base/postgres" -c "CREATE DATABASE $2" >/dev/null; echo "$tools_base/$2"; fi
}
# left F [CMD...]: URLs queued or leased in F (frontier-report run under CMD).
left() {
    local f=$1; shift
    "$@" frontier-report -f "$f" --json |
        python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["urls"]["queued"] + r["urls"]["leased"])'
}
# drain F W LEASE_OPTIONS...: W local pipelines lease | respond | done on F
# until they end; prints their URL/s over N/10 URLs, or "timeout".
drain() {
    local f=$1 w=$2 t0 t1 pids=()
    shift 2
    t0=$(now)
    for _ in $(seq "$w"); do
        ( timeout "${BENCH_PG_TIMEOUT:-300}" frontier-lease -f "$f" "$@" 2>/dev/null | respond |
            frontier-done -q -f "$f" ) &
        pids+=($!)
    done
    wait "${pids[@]}" || true  # not the latency proxy
    t1=$(now)
    if [ "$(left "$f")" = 0 ]; then rate "$(answered "$f" "$((N / 10))")" "$t0" "$t1"; else echo timeout; fi
}

oneshot=$BACKENDS
[ "${PG_ONESHOT:-1}" = 0 ] && oneshot=""
[ -n "$oneshot" ] &&
    printf '%-10s %10s %10s %10s %10s %10s %10s\n' backend "add/s" "lease/s" "done/s" "W=1 URL/s" "W=4 URL/s" "W=16 URL/s"
for backend in $oneshot; do
    F=$(new_frontier $backend bulk)
    setup "$F"
    t0=$(now); frontier-add -q -f "$F" "$work/urls.jsonl"; t1=$(now)
    add=$(rate "$N" "$t0" "$t1")
    : > "$work/leases.jsonl"
    t0=$(now)
    while frontier-lease -q -f "$F" -n 1000 --per-queue 1000 >> "$work/leases.jsonl"; do :; done
    t1=$(now)
    lease=$(rate "$(wc -l < "$work/leases.jsonl")" "$t0" "$t1")
    python3 -c "$results" "$work/leases.jsonl" > "$work/results.jsonl"
    t0=$(now); frontier-done -q -f "$F" "$work/results.jsonl"; t1=$(now)
    done_=$(rate "$(wc -l < "$work/results.jsonl")" "$t0" "$t1")
    conc=()
    for W in 1 4 16; do
        F=$(new_frontier $backend "w$W")
        setup "$F"
        [ "${BENCH_ROBOTS:-0}" = 1 ] && frontier-config -f "$F" robots.enabled true >/dev/null
        frontier-add -q -f "$F" "$work/small.jsonl"
        conc+=("$(drain "$F" "$W" --follow --max-in-flight 64 -n 16 --poll-interval 0.02)")
    done
    printf '%-10s %10s %10s %10s %10s %10s %10s\n' $backend "$add" "$lease" "$done_" "${conc[0]}" "${conc[1]}" "${conc[2]}"
done

[ -n "${base:-}" ] && [ "${PG_SCALING:-1}" != 0 ] || exit 0
"$root/tests/tools/pg.sh" stop "$work/cluster"  # its shared memory (huge pages) to the next
if [ -n "${proxy:-}" ]; then kill "$proxy"; proxy=; fi
if ! netns_up 16; then
    echo "pg-scaling: skipped: no network namespaces ($netns_why)" >&2
    exit 0
fi
S=$(netns_server)
in_s() { ip netns exec "$S" "$@"; }
sbase=$(in_s "$root/tests/tools/pg.sh" start "$work/scluster")
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # clock ticks
machine() { awk '/^cpu / {print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }  # idle, all ticks
tick=$(getconf CLK_TCK)
echo
if [ "${PG_SCALING_EQUAL:-0}" = 1 ]; then
    # Every host the same size: no host's queue (and partition) holds a
    # larger share of the work than the others.
    awk -v n="$((N / 10))" -v h="$((N / 100 > 0 ? N / 100 : 1))" \
        'BEGIN { for (i = 0; i < n; i++) printf "{\"url\":\"http://h%d.example/p%d\"}\n", i % h, i }' > "$work/scale.jsonl"
else
    python3 "$root/tests/bench/gen-urls.py" "$((N / 10))" "$((N / 100 > 0 ? N / 100 : 1))" > "$work/scale.jsonl"
fi
for rtt in ${PG_SCALING_RTTS:-0 1 5}; do
    : > "$work/rt.log"; rm -f "$work/sproxy.port"
    # ip netns exec execs its command: $! is the proxy's pid (and below the sampler's).
    LATENCY_PROXY_LOG="$work/rt.log" ip netns exec "$S" "$latency_proxy" --listen 0.0.0.0 \
        "${sbase##*:}" "$rtt" "$work/sproxy.port" &
    sproxy=$!
    wait_for_port "$work/sproxy.port" "$sproxy" "the latency proxy" /dev/null
    for mode in ${PG_SCALING_MODES:-partitions lock}; do
    # Partitions are the tools' default (pg-scaling); the writer lock is
    # FRONTIER_PG_PARTITIONS=0 (pg-scaling-lock).
    parts=1 line="pg-scaling rtt=${rtt}ms" details=()
    [ "$mode" = lock ] && parts=0 line="pg-scaling-lock rtt=${rtt}ms"
    for W in 1 4 16; do
        db="r${rtt}w${W}p$parts"
        in_s psql -qX "$sbase/postgres" -c "CREATE DATABASE $db" >/dev/null
        in_s bash -c "source '$root/tests/tools/throughput.bash'; throughput_config '$sbase/$db'" >/dev/null
        in_s frontier-add -q -f "$sbase/$db" "$work/scale.jsonl"
        # Samples from inside the server, past the proxy.
        echo "SELECT count(*) FILTER (WHERE wait_event = 'advisory'),
                count(*) FILTER (WHERE wait_event_type = 'Lock' AND wait_event <> 'advisory'), coalesce(max(CASE WHEN l.pid IS NULL THEN NULL
                WHEN a.state = 'active' THEN 'server' ELSE 'client' END), '-')
              FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted
              WHERE datname = '$db' \watch 0.01" | ip netns exec "$S" psql -qAtX "$sbase/postgres" > "$work/samples" 2>/dev/null &
        sampler=$!
        : > "$work/rt.log"
        c0=$(cpu "$sproxy")
        m0=$(machine)
        t0=$(now)
        pids=()
        for w in $(seq "$W"); do
            M=$(netns_machine "$w")
            F="${sbase%@*}@$(netns_addr "$w"):$(cat "$work/sproxy.port")/$db"
            # shellcheck disable=SC2046
            ( export FRONTIER_PG_PARTITIONS=$parts
              timeout "${BENCH_PG_TIMEOUT:-300}" ip netns exec "$M" frontier-lease -f "$F" $(throughput_lease_opts "$W") 2>/dev/null |
                respond | ip netns exec "$M" frontier-done -q -f "$F" ) &
            pids+=($!)
        done
        wait "${pids[@]}" || true
        t1=$(now)
        c1=$(cpu "$sproxy")
        m1=$(machine)
        kill "$sampler"; wait "$sampler" 2>/dev/null || true; sampler=
        pages=$(answered "$sbase/$db" "$((N / 10))" in_s)
        if [ "$(left "$sbase/$db" in_s)" = 0 ]; then line+=" W$W=$(rate "$pages" "$t0" "$t1")"; else line+=" W$W=timeout"; fi
        sleep 0.3  # the proxy logs a connection once it is closed
        details+=("$(awk -v w="$W" -v rtt="$rtt" -v m="$mode" -v n="$pages" -v f="$work/samples" -v a="$t0" -v b="$t1" \
            -v c="$(( c1 - c0 ))" -v hz="$tick" -v cpus="$m0 $m1" '{ t += $2 } END {
                split(cpus, u, " "); idle = u[4] > u[2] ? 100 * (u[3] - u[1]) / (u[4] - u[2]) : 0
                while ((getline x < f) > 0) { split(x, v, "|"); s++; if (v[1] > 0) { k++; q += v[1] } if (v[2] > 0) r++; h[v[3]]++ }
                printf "pg-scaling-detail rtt=%sms %s W%s rt/url=%.1f lockwait=%.0f%% waiting=%.1f rowwait=%.0f%% holder-client=%.0f%% proxy=%.0f%% idle=%.0f%%",
                    rtt, m, w, t / n, s ? 100 * k / s : 0, k ? q / k : 0, s ? 100 * r / s : 0, s ? 100 * h["client"] / s : 0, 100 * c / hz / (b - a), idle }' \
            "$work/rt.log")")
    done
    [ "$links" -gt 0 ] && line+=" links=$links"
    echo "$line"
    printf '%s\n' "${details[@]}"
    done
    kill "$sproxy"; wait "$sproxy" 2>/dev/null || true; sproxy=
done
# SQLite's own scaling with the same input and options, for the 0 ms row.
line="sqlite-scaling rtt=0ms"
for W in 1 4 16; do
    F="$work/scale$W.db"
    setup "$F"
    frontier-add -q -f "$F" "$work/scale.jsonl"
    # shellcheck disable=SC2046
    line+=" W$W=$(drain "$F" "$W" $(throughput_lease_opts "$W"))"
done
[ "$links" -gt 0 ] && line+=" links=$links"
echo "$line"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
