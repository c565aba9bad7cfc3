#!/usr/bin/env bash
# A running frontier-done applies settings changed by another process from
# its next transaction (frontier-config(1); on PostgreSQL it reads the
# settings version with the transaction's first reads, frontier(7),
# POSTGRESQL): the politeness delay a result sets follows a
# politeness.min-delay changed between two results.
# Run by tests/pg/run.sh with SETTINGS_FRONTIER (a database URL).
set -u
: "${SETTINGS_FRONTIER:?}" "${ROOT:?}"
export FRONTIER=$SETTINGS_FRONTIER FRONTIER_NOW=1800000000
source "$ROOT/tests/pg/script.bash"

configure "$FRONTIER" "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" "budget.hold-queues false"
printf '%s\n' http://a.example/1 http://b.example/1 | frontier-add -q || fail "add"
frontier-lease -q -n 2 > leases.jsonl || fail "lease"
[ "$(wc -l < leases.jsonl)" = 2 ] || fail "expected 2 leases: $(cat leases.jsonl)"
sed 's/}$/,"status":200}/' leases.jsonl > results.jsonl

mkfifo in
frontier-done -f "$FRONTIER" < in > out.jsonl 2> done.err &
pid=$!
exec 3> in
lines() { wc -l < out.jsonl; }
wait_lines() {  # a result is printed once its transaction committed
    for _ in $(seq 100); do [ "$(lines)" -ge "$1" ] && return 0; sleep 0.05; done
    fail "frontier-done printed $(lines) lines, expected $1: $(cat done.err)"
}
sed -n 1p results.jsonl >&3
wait_lines 1
frontier-config politeness.min-delay 100 >/dev/null || fail "config min-delay 100"
sed -n 2p results.jsonl >&3
wait_lines 2
exec 3>&-
wait $pid || fail "frontier-done exit $?: $(cat done.err)"

first=$(sed -n 1p leases.jsonl | sed 's/.*"queue":"\([^"]*\)".*/\1/')
second=$(sed -n 2p leases.jsonl | sed 's/.*"queue":"\([^"]*\)".*/\1/')
w1=$(sql "SELECT wake_at - $FRONTIER_NOW FROM queues WHERE key = '$first'")
w2=$(sql "SELECT wake_at - $FRONTIER_NOW FROM queues WHERE key = '$second'")
[ "${w1%.*}" = 0 ] || fail "the first result, at min-delay 0, set its queue's wake time $w1 s ahead"
[ "${w2%.*}" = 100 ] || fail "the second result, after min-delay 100, set its queue's wake time $w2 s ahead"
echo "ok: the same frontier-done set wake times 0 and 100 s ahead, the setting changed between"
