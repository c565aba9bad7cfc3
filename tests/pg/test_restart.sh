# A PostgreSQL server that restarts or goes away under running tools
# (frontier(7), POSTGRESQL): between transactions a tool reconnects and goes
# on (statements prepared again, LISTEN again); a connection lost inside a
# transaction, or not back within FRONTIER_PG_RECONNECT seconds, ends the
# tool with exit 75 and a message, and nothing it acknowledged is lost;
# frontier-lease --follow leases a batch lost that way again.
# Run by tests/pg/run.sh with RESTART_FRONTIER (a database URL) and
# PG_CLUSTER (the cluster directory, for tests/tools/pg.sh stop/start).
set -u
: "${RESTART_FRONTIER:?}" "${PG_CLUSTER:?}" "${ROOT:?}"
export FRONTIER=$RESTART_FRONTIER
# The server started with the fifos' write ends (fds 3, 4) closed: one it
# kept open would keep their readers from ever seeing the end of input.
pg() { "$ROOT/tests/tools/pg.sh" "$@" "$PG_CLUSTER" >/dev/null 3>&- 4>&-; }
pg_restart() { pg stop; sleep 1; pg start; }
# Ends every connection the tools hold to the test's database.
kill_connections() {
    psql -qXAt "${FRONTIER%/*}/postgres" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = '${FRONTIER##*/}' AND pid <> pg_backend_pid() AND application_name = 'frontier'" >/dev/null 2>&1
}
fail() { echo "FAIL: $*"; exit 1; }
lines() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
wait_lines() {  # FILE N SECONDS
    for _ in $(seq $((${3} * 10))); do [ "$(lines "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    return 1
}

frontier-config robots.enabled false >/dev/null || fail "config"
frontier-config politeness.min-delay 0 >/dev/null || fail "config"
echo http://a.test/1 | frontier-add -q || fail "add a.test"

# 1. frontier-lease --follow rides out a restart.
frontier-lease --follow --no-progress > lease.out 2> lease.err &
lease=$!
wait_lines lease.out 1 20 || fail "no first lease: $(cat lease.err)"
pg_restart
echo http://b.test/1 | frontier-add -q || fail "add b.test after the restart"
wait_lines lease.out 2 40 || { kill $lease; fail "no lease after the restart: $(cat lease.err)"; }
grep -q 'b.test' lease.out || fail "the lease after the restart is not b.test: $(cat lease.out)"
grep -q 'lost the connection to the frontier database' lease.err || fail "no message about the lost connection: $(cat lease.err)"
grep -q 'reconnected to the frontier database' lease.err || fail "no reconnection message: $(cat lease.err)"
! grep -q 'lost the connection.*lost the connection' lease.err || fail "the message says it twice: $(cat lease.err)"
echo "ok: lease --follow reconnected: $(grep -c . lease.out) leases"

# 1b. Its connection killed 40 times at random moments while it leases every
#     10 ms: a kill between batches is reconnected (a read of the leases out
#     included), one inside a batch's transaction leases that batch again;
#     it keeps running and leases what comes next. The kills start once it
#     has leased (a kill inside its start-up's transactions ends it with 75,
#     as any tool's).
kill -TERM $lease; wait $lease 2>/dev/null
echo http://d.test/1 | frontier-add -q || fail "add d.test"
frontier-lease --follow --no-progress --poll-interval 0.01 > lease2.out 2> lease2.err &
lease2=$!
wait_lines lease2.out 1 40 || { kill $lease2; fail "lease --follow did not start: $(tail -6 lease2.err)"; }
for _ in $(seq 40); do
    kill_connections
    sleep "0.0$((RANDOM % 10))"
done
kill -0 $lease2 2>/dev/null || fail "lease --follow ended under killed connections: $(tail -6 lease2.err)"
echo http://e.test/1 | frontier-add -q || fail "add e.test"
wait_lines lease2.out 2 40 || { kill $lease2; fail "no lease after the kills: $(tail -3 lease2.err)"; }
grep -q 'e.test' lease2.out || fail "the lease after the kills is not e.test: $(cat lease2.out)"
kill -TERM $lease2; wait $lease2 2>/dev/null
echo "ok: lease --follow under 40 killed connections: $(grep -c 'reconnected' lease2.err) reconnections, $(grep -c 'leases that batch again' lease2.err) batches leased again"

# rides_out_restart TOOL NAME FIRST SECOND ANSWER: TOOL reading a fifo
# answers FIRST, the server restarts while it waits for input, then SECOND;
# it must end 0 with both answered (ANSWER: a pattern of an answer line)
# and say it reconnected. Its output in NAME.out, NAME.err.
rides_out_restart() {
    local tool=$1 name=$2 rc pid
    mkfifo "$name.in"
    $tool < "$name.in" > "$name.out" 2> "$name.err" &
    pid=$!
    exec 4> "$name.in"
    echo "$3" >&4
    wait_lines "$name.out" 1 20 || fail "$tool did not answer the first record: $(cat "$name.err")"
    pg_restart
    echo "$4" >&4
    exec 4>&-
    wait $pid; rc=$?
    [ $rc -eq 0 ] || fail "$tool across a restart: exit $rc: $(cat "$name.err")"
    [ "$(grep -c "$5" "$name.out")" -eq 2 ] || fail "$tool across a restart: $(cat "$name.out") $(cat "$name.err")"
    grep -q 'reconnected to the frontier database' "$name.err" || fail "$tool: no reconnection message: $(cat "$name.err")"
}

# 1c. frontier-done waiting for input rides out a restart: the result
#     before it and the one after it are both applied.
result() { sed -n "${1}p" lease.out | python3 -c 'import json, sys; d = json.load(sys.stdin)
print(json.dumps({"lease": d["lease"], "url": d["url"], "status": 200}))'; }
rides_out_restart frontier-done done "$(result 1)" "$(result 2)" '"result":"done"'
echo "ok: frontier-done reconnected between two results"

# 1d. frontier-add waiting for input rides out a restart too.
rides_out_restart frontier-add add1 http://f.test/1 http://f.test/2 '"status":"added"'
[ "$(frontier-export --urls | grep -c 'f.test/')" -eq 2 ] || fail "f.test URLs not both stored"
echo "ok: frontier-add reconnected between two URLs"

# 2. A server that stays away longer than FRONTIER_PG_RECONNECT: exit 75;
#    the record acknowledged before is kept, the one after is not claimed.
mkfifo in
FRONTIER_PG_RECONNECT=2 frontier-add < in > add.out 2> add.err &
add=$!
exec 3> in
echo http://c.test/1 >&3
wait_lines add.out 1 20 || fail "frontier-add did not answer the first record: $(cat add.err)"
pg stop
echo http://c.test/2 >&3
exec 3>&-
wait $add; rc=$?
pg start
[ $rc -eq 75 ] || fail "frontier-add with the server away: exit $rc, want 75: $(cat add.err)"
grep -q 'could not connect again within 2 s' add.err || fail "message: $(cat add.err)"
[ "$(lines add.out)" -eq 1 ] || fail "a record was answered that was not stored: $(cat add.out)"
urls=$(frontier-export --urls | grep -c 'c.test/1')
[ "$urls" -eq 1 ] || fail "the acknowledged c.test/1 is missing"
echo "ok: exit 75 after the reconnect window: $(tail -1 add.err)"

# 2b. A tool waiting for its server to come back stops at SIGTERM at once
#     (exit 75, said), not at the end of the reconnect window.
frontier-lease --follow --no-progress > lease3.out 2> lease3.err &
lease3=$!
sleep 1
pg stop
for _ in $(seq 100); do grep -q 'reconnecting' lease3.err && break; sleep 0.1; done
grep -q 'reconnecting' lease3.err || { pg start; kill $lease3; fail "no reconnection attempt: $(cat lease3.err)"; }
t0=$(date +%s.%N)
kill -TERM $lease3
wait $lease3; rc=$?
t1=$(date +%s.%N)
pg start
[ $rc -eq 75 ] || fail "SIGTERM while reconnecting: exit $rc, want 75: $(cat lease3.err)"
grep -q 'stopped (a signal) while connecting again' lease3.err || fail "message: $(cat lease3.err)"
python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 3 else 1)" || fail "SIGTERM took $(python3 -c "print($t1 - $t0)") s"
echo "ok: SIGTERM while reconnecting ends the tool at once"

# 3. Connections killed again and again while frontier-add stores 100k
#    records: it ends 0 (every kill between transactions) or 75 (one inside
#    a transaction); either way every answered record is stored and the
#    frontier's invariants hold.
python3 -c 'for i in range(100000): print("http://d%d.test/%d" % (i % 50, i))' > many.txt
frontier-add --batch 2000 < many.txt > many.out 2> many.err &
add=$!
wait_lines many.out 1 30 || fail "frontier-add answered nothing: $(cat many.err)"
for _ in $(seq 30); do
    kill -0 $add 2>/dev/null || break
    kill_connections
    sleep 0.5
done
wait $add; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 75 ] || fail "frontier-add under killed connections: exit $rc: $(tail -3 many.err)"
answered=$(grep -c '"status":"added"' many.out)
stored=$(frontier-export --urls | grep -Ec '://d[0-9]+\.test/')  # not d.test (section 1)
# Exit 0: exactly what was answered is stored. Exit 75: at most one more
# transaction (--batch 2000) when the connection died between the server's
# commit and its answer (frontier(7), POSTGRESQL).
extra=0; [ $rc -eq 75 ] && extra=2000
[ "$stored" -ge "$answered" ] && [ "$stored" -le $((answered + extra)) ] ||
    fail "answered $answered added, stored $stored (exit $rc)"
frontier-report --check >/dev/null || fail "--check after killed connections"
echo "ok: killed connections: exit $rc, $answered answered = $stored stored, $(grep -c 'reconnected' many.err) reconnections"
