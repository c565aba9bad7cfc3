#!/usr/bin/env bash
# Round trips and wall time of one-URL PostgreSQL tool runs: K
# pairs of `frontier-lease -q --detached -n 1` and a `frontier-done` of its
# result, behind tests/tools/latency_proxy.cpp (bin/latency-proxy) at RTT_MS (default 1) added
# per round trip, which counts the round trips each connection waited for.
# Two builds side by side, alternated over two rounds:
#
#   tests/pg/round_trips.sh OLD_BIN NEW_BIN [K]      (K default 10)
#
# Prints "<old|new> round R: K pairs, M ms per pair, T round trips per pair".
# Then, per build and round, a `frontier-lease --follow | sed | frontier-done`
# pipeline that drains 200 URLs of one host (one URL per lease transaction,
# politeness.max-in-flight 1): "<old|new> follow R: U URLs, M ms per URL,
# T round trips per URL" (both tools' connections). RT_DEBUG=1 also prints
# the proxy's line of each connection ("turns T ...") to standard error.
# A private cluster on 127.0.0.1 (tests/tools/pg.sh); not part of make check.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OLD_BIN NEW_BIN [K]" >&2; exit 2; }
old=$1 new=$2 K=${3:-10}
work=$(mktemp -d)
chmod 755 "$work"
[ -x "$root/bin/latency-proxy" ] || make -C "$root" --no-print-directory bin/latency-proxy >&2
base=$("$root/tests/tools/pg.sh" start "$work/cluster") || exit 1
LATENCY_PROXY_LOG="$work/proxy.log" "$root/bin/latency-proxy" "${base##*:}" "${RTT_MS:-1}" "$work/port" &
proxy=$!
trap 'kill $proxy 2>/dev/null; "$root/tests/tools/pg.sh" stop "$work/cluster"; rm -rf "$work"' EXIT
source "$root/tests/tools/wait_port.bash"
wait_for_port "$work/port" "$proxy" "the latency proxy" /dev/null
via="${base%:*}:$(cat "$work/port")"
export FRONTIER_NOW=1800000000
new_db() {  # BIN NAME HOSTS: a fresh database of 200 URLs over HOSTS hosts, politeness off
    psql "$base/postgres" -qc "CREATE DATABASE $2" >/dev/null
    for i in $(seq 200); do echo "{\"url\":\"http://h$((i % $3)).example/p$i\"}"; done | "$1/frontier-add" -q -f "$base/$2"
    for kv in "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0"; do
        # shellcheck disable=SC2086
        "$1/frontier-config" -f "$base/$2" $kv >/dev/null
    done
}
proxy_turns() {  # the round trips of the connections the proxy logged
    sleep 0.5  # the proxy logs a connection once it is closed
    [ -n "${RT_DEBUG:-}" ] && cat "$work/proxy.log" >&2
    awk '{s += $2} END {print s + 0}' "$work/proxy.log"
}
new_db "$old" old 20
new_db "$new" new 20
for round in 1 2; do
    for which in old new; do
        b=$old; [ $which = new ] && b=$new
        : > "$work/proxy.log"
        t0=$(date +%s%N)
        for _ in $(seq "$K"); do
            "$b/frontier-lease" -q --detached -f "$via/$which" -n 1 > "$work/lease.jsonl"
            sed 's/}$/,"status":200}/' "$work/lease.jsonl" | "$b/frontier-done" -q -f "$via/$which"
        done
        t1=$(date +%s%N)
        turns=$(proxy_turns)
        echo "$which round $round: $K pairs, $(( (t1 - t0) / 1000000 / K )) ms per pair, $((turns / K)) round trips per pair"
    done
done
for round in 1 2; do
    for which in old new; do
        b=$old; [ $which = new ] && b=$new
        new_db "$b" "follow_${which}_$round" 1
        : > "$work/proxy.log"
        t0=$(date +%s%N)
        "$b/frontier-lease" -q --follow -f "$via/follow_${which}_$round" |
            sed -u 's/}$/,"status":200}/' | "$b/frontier-done" -q -f "$via/follow_${which}_$round"
        t1=$(date +%s%N)
        turns=$(proxy_turns)
        echo "$which follow $round: 200 URLs, $(( (t1 - t0) / 1000000 / 200 )) ms per URL, $(( turns / 200 )).$(( turns % 200 * 10 / 200 )) round trips per URL"
    done
done
