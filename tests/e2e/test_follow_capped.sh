# A follower at --max-in-flight whose leases out all expire (their
# pipeline gone, no holder to reclaim) runs a batch when the first of them
# expires, not at its poll interval nor when another process commits: the
# expired leases are put back and leased again (frontier-lease(1), Follow
# mode). On PostgreSQL (tests/pg/run.sh, E2E_FRONTIER) a batch that finds
# the cap reached reads that expiry with its first read. Real time: 2 s.
set -u
F=${E2E_FRONTIER:-$PWD/capped.db}
export FRONTIER=$F
fail() { echo "FAIL: $*"; exit 1; }

frontier-config -q robots.enabled false && frontier-config -q politeness.min-delay 0 &&
    frontier-config -q politeness.delay-factor 0 || fail "config"
printf '%s\n' http://a.example/1 http://b.example/1 http://c.example/1 | frontier-add -q || fail "add"
# Two leases that no one answers, out for 2 s.
frontier-lease -q --detached -n 2 --ttl 2 > first.jsonl || fail "first lease"
[ "$(wc -l < first.jsonl)" = 2 ] || fail "expected 2 leases: $(cat first.jsonl)"
# A follower allowed 2 leases out finds them out; with a 60 s poll
# interval only the expiry can wake it in time.
start=$(date +%s.%N)
frontier-lease -q --follow --max-in-flight 2 -n 5 --poll-interval 60 > follow.jsonl 2> follow.err &
pid=$!
for _ in $(seq 100); do
    [ "$(wc -l < follow.jsonl)" -ge 2 ] && break
    sleep 0.1
done
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ "$(wc -l < follow.jsonl)" = 2 ] || fail "expected the 2 expired URLs leased again within 10 s, got $(wc -l < follow.jsonl) ($(cat follow.err))"
# Not the third URL: the cap held while the expired leases were out.
cut -d'"' -f4 follow.jsonl | sort > again.txt
cut -d'"' -f4 first.jsonl | sort > was.txt
cmp -s again.txt was.txt || fail "expected the expired URLs again: $(cat again.txt)"
echo "ok: a follower at --max-in-flight woke at the first lease's expiry (${took} s) and leased its URL again"
