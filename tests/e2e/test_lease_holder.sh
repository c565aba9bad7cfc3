# Lease holders (frontier-lease(1), HOLDER): every lease records the process
# group that took it, on this host; the next frontier-lease reclaims the
# leases of a group that provably no longer exists, and only those.
#  (a) `setsid frontier-lease > file` in a group of its own that exits: the
#      next frontier-lease leases its URLs (and robots.txt leases) again at
#      once, no waiting for lease.ttl, and says so; the gone holder's row is
#      deleted.
#  (b) a group still alive (a background `setsid sh -c 'frontier-lease ...;
#      sleep 30'`) keeps its leases; once killed, they are reclaimed.
#  (c) --detached leases have no holder: never reclaimed.
#  (d) a holder recorded in another boot of this host is gone (even with
#      its group alive); one of another host is never judged here.
# The clock (FRONTIER_NOW) never moves: nothing expires.
set -euo pipefail
F=${E2E_FRONTIER:-$PWD/holder.db}
source "$ROOT/tests/tools/fsql.bash"
export FRONTIER_NOW=1800000000
frontier-config -f "$F" politeness.min-delay 0
frontier-config -f "$F" politeness.delay-factor 0
frontier-config -f "$F" politeness.max-in-flight 100
for h in a b c d; do for i in 1 2 3; do echo "http://$h.example/p$i"; done; done | frontier-add -q -f "$F"
leased() { fsql "SELECT count(*) FROM urls WHERE state = 1"; }
lease_all() { frontier-lease -f "$F" -n 100 --per-queue 100 "$@"; }
urls() { jq -r .url "$@" | sort; }

# (a) robots.txt first (robots.enabled): four robots.txt leases.
setsid -w frontier-lease -f "$F" -n 100 --per-queue 100 > a1.jsonl
[ "$(jq -s 'map(select(.robots)) | length' a1.jsonl)" = 4 ]
lease_all > a2.jsonl 2> a2.err
cat a2.err
grep -q "^frontier-lease: reclaimed 4 leases of a pipeline that is gone (host $(hostname), process group [0-9]*)" a2.err
[ "$(urls a1.jsonl)" = "$(urls a2.jsonl)" ] || { echo "(a) robots.txt not leased again"; exit 1; }
frontier-lease -q -f "$F" --reclaim
frontier-config -f "$F" robots.enabled false
# URLs now: 12 leased by a group that exits at once.
setsid -w frontier-lease -f "$F" -n 100 --per-queue 100 > a3.jsonl
[ "$(wc -l < a3.jsonl)" = 12 ] && [ "$(leased)" = 12 ]
[ "$(fsql "SELECT count(*) FROM lease_holders")" = 2 ]   # this script's group and the gone one
lease_all > a4.jsonl 2> a4.err
grep -q "reclaimed 12 leases of a pipeline that is gone" a4.err || { echo "(a) no reclaim: $(cat a4.err)"; exit 1; }
[ "$(urls a3.jsonl)" = "$(urls a4.jsonl)" ] || { echo "(a) not the same URLs leased again"; exit 1; }
[ "$(fsql "SELECT count(*) FROM lease_holders")" = 1 ] || { echo "(a) the gone holder's row was kept"; exit 1; }
me=$(fsql "SELECT id FROM lease_holders")
[ "$(fsql "SELECT count(*) FROM urls WHERE state = 1 AND holder = $me")" = 12 ]
echo "(a) $(cat a4.err)"
# This script's own group is alive: its leases stay out.
set +e; lease_all > a5.jsonl 2> a5.err; rc=$?; set -e
[ $rc = 3 ] && [ ! -s a5.jsonl ] && ! grep -q reclaimed a5.err || { echo "(a) own leases reclaimed: exit $rc $(cat a5.err)"; exit 1; }
frontier-lease -q -f "$F" --reclaim

# (b) A group that is still running keeps its leases, until it is gone.
setsid sh -c "frontier-lease -f '$F' -n 100 --per-queue 100 > b1.jsonl; exec sleep 30" &
pgid=$!
for _ in $(seq 500); do [ "$(leased)" = 12 ] && break; sleep 0.02; done
[ "$(leased)" = 12 ]
set +e; lease_all > b2.jsonl 2> b2.err; rc=$?; set -e
[ $rc = 3 ] && [ ! -s b2.jsonl ] && ! grep -q reclaimed b2.err || { echo "(b) a live group's leases were taken: exit $rc $(cat b2.err)"; exit 1; }
kill -KILL -- "-$pgid"
wait "$pgid" 2>/dev/null || true
lease_all > b3.jsonl 2> b3.err
grep -q "reclaimed 12 leases of a pipeline that is gone (host $(hostname), process group $pgid)" b3.err ||
    { echo "(b) not reclaimed after the group was killed: $(cat b3.err)"; exit 1; }
echo "(b) alive: kept (exit 3); killed: $(cat b3.err)"
frontier-lease -q -f "$F" --reclaim

# (c) --detached: no holder, not reclaimed when its group is gone.
setsid -w frontier-lease -f "$F" -n 100 --per-queue 100 --detached > c1.jsonl
[ "$(fsql "SELECT count(*) FROM urls WHERE state = 1 AND holder IS NULL")" = 12 ]
set +e; lease_all > c2.jsonl 2> c2.err; rc=$?; set -e
[ $rc = 3 ] && ! grep -q reclaimed c2.err || { echo "(c) detached leases reclaimed: exit $rc $(cat c2.err)"; exit 1; }
echo "(c) --detached: kept (exit 3)"
frontier-lease -q -f "$F" --reclaim

# (d) Another boot of this host: gone, though this script's group lives.
lease_all > d1.jsonl
me=$(fsql "SELECT id FROM lease_holders WHERE pgid = $(ps -o pgid= $$)")
fsql "UPDATE lease_holders SET boot_id = 'another-boot' WHERE id = $me"
lease_all > d2.jsonl 2> d2.err
grep -q "reclaimed 12 leases of a pipeline that is gone" d2.err || { echo "(d) other boot not reclaimed: $(cat d2.err)"; exit 1; }
# Another host's holder, whose group could not be here: never judged.
me=$(fsql "SELECT id FROM lease_holders")
fsql "UPDATE lease_holders SET host = 'elsewhere.example', boot_id = 'another-boot', pgid = 2147483646 WHERE id = $me"
set +e; lease_all > d3.jsonl 2> d3.err; rc=$?; set -e
[ $rc = 3 ] && ! grep -q reclaimed d3.err || { echo "(d) another host's leases reclaimed: exit $rc $(cat d3.err)"; exit 1; }
[ "$(leased)" = 12 ] && [ "$(fsql "SELECT count(*) FROM lease_holders WHERE host = 'elsewhere.example'")" = 1 ]
echo "(d) another boot: $(cat d2.err); another host: kept (exit 3)"
frontier-report -f "$F" --check > check.txt || { cat check.txt; exit 1; }
echo ok
