# Moving a crawl mid-way: a real crawl of a local two-host site runs on A;
# while it runs (and while two leases are held out by hand) A is exported and
# imported into B. Then:
#  - the import's check passes (a consistent snapshot of a busy file);
#  - every lease outstanding in the snapshot is outstanding in B under the
#    same id: its fetch result, delivered to B, is applied, never "stale";
#  - the crawl finishes on B, without refetching a page done in the snapshot,
#    and ends with the same URLs in the same states as A;
#  - frontier-report --check passes on A and B;
#  - round trip: export B, import into C, export C: identical streams but
#    for the header's time, identical frontier-report --json.
set -euo pipefail
trap 'echo "failed at line $LINENO: $BASH_COMMAND" >&2' ERR
source "$ROOT/tests/tools/nginx.sh"
mkdir site
nginx_start "$PWD/site" 2
pipeline=""
cleanup() {
    [ -n "$pipeline" ] && kill "$pipeline" 2>/dev/null || true
    nginx_stop
}
trap cleanup EXIT
read -r P1 P2 <<<"$NGINX_PORTS"
python3 "$ROOT/tests/tools/make-site.py" site 60 --private 3 --base "http://127.0.0.1:$P1" "http://127.0.0.1:$P2"
A=a.db B=b.db C=c.db
frontier-config -f $A politeness.min-delay 0.05
frontier-config -f $A politeness.delay-factor 0
frontier-config -f $A politeness.max-in-flight 3
frontier-config -f $A net.allow '["loopback"]'   # the second host (127.0.0.1) is reached by links only
echo "http://127.0.0.1:$P1/index.html" | frontier-add -q -f $A

# The crawl on A, in the background.
# At most two leases out in the whole file: with three allowed per queue,
# there is always room for the two held by hand below (the pipeline then
# waits until they are answered).
( timeout 120 frontier-lease -f $A --follow --poll-interval 0.05 -n 4 --per-queue 1 --max-in-flight 2 \
    | fetch --links | tee fetched-a.jsonl | frontier-done -f $A > done-a.jsonl; echo "${PIPESTATUS[*]}" > rc-a ) &
pipeline=$!
done_count() { sqlite3 "$1" "select coalesce((select n from counters where name = 'done'), 0)"; }
for _ in $(seq 600); do [ "$(done_count $A)" -ge 15 ] && break; sleep 0.05; done
echo "A: $(done_count $A) done before the export"

# Two leases held out by hand, fetched but not answered yet. Their clock is
# 2 s ahead: each queue is then awake for them (politeness.min-delay),
# where at the real time the follower took every queue the moment it woke
# and a hand lease under ASan could miss them all until the crawl ended.
: > held.jsonl
for try in $(seq 500); do
    FRONTIER_NOW=$(($(date +%s) + 2)) frontier-lease -f $A -n 2 --per-queue 1 >> held.jsonl 2>/dev/null || true
    [ "$(wc -l < held.jsonl)" -ge 2 ] && break
    sleep 0.02
done
test -s held.jsonl
echo "held by hand: $(wc -l < held.jsonl) leases, after $try calls"
fetch --links < held.jsonl > held-results.jsonl

frontier-export -f $A -o mid.jsonl
frontier-done -f $A < held-results.jsonl > held-done-a.jsonl
frontier-import -f $B mid.jsonl > import.json
jq -e '.complete and .check.ok and .rejected == 0' import.json >/dev/null
echo "B: $(jq -c .imported import.json)"

wait "$pipeline"; pipeline=""
echo "A pipeline exits: $(cat rc-a)"
test "$(cut -d' ' -f1 rc-a)" = 0
frontier-report -f $A --check > check-a.txt

# The snapshot's outstanding leases (URL leases: hex(id)-hex(lease_seq);
# robots.txt leases: r + hex(host id)-hex(robots_lease_seq)).
python3 - mid.jsonl > out-leases.txt <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("table") == "urls" and r["state"] == 1:
        print(f"{r['id']:x}-{r['lease_seq']:x}")
    elif r.get("table") == "hosts" and "robots_lease_expires" in r:
        print(f"r{r['id']:x}-{r['robots_lease_seq']:x}")
PY
sort -o out-leases.txt out-leases.txt
jq -r .lease held.jsonl | sort > held-leases.txt
echo "outstanding in the snapshot: $(wc -l < out-leases.txt) leases ($(tr '\n' ' ' < out-leases.txt))"
comm -23 held-leases.txt out-leases.txt | grep . && { echo "held leases missing from the snapshot"; exit 1; }
# Their results (from the crawl on A or the held ones) go to B: all applied.
jq -c --rawfile ids out-leases.txt 'select(.lease as $l | ($ids | split("\n") | index($l)))' \
    fetched-a.jsonl held-results.jsonl > for-b.jsonl
test "$(wc -l < for-b.jsonl)" = "$(wc -l < out-leases.txt)"
frontier-done -f $B < for-b.jsonl > done-b1.jsonl
if jq -e 'select(.result == "stale" or .result == "rejected")' done-b1.jsonl; then
    echo "a lease outstanding in the snapshot was not outstanding in B"; exit 1
fi

# The crawl finishes on B.
timeout 120 frontier-lease -f $B --follow --poll-interval 0.05 | fetch --links | tee fetched-b.jsonl \
    | frontier-done -f $B > done-b.jsonl
echo "B: $(wc -l < fetched-b.jsonl) fetched after the import"
jq -r 'select(.table == "urls" and .state == 2) | .url' mid.jsonl | sort > done-in-snapshot.txt
jq -r .url fetched-b.jsonl | sort > fetched-b.txt
if comm -12 done-in-snapshot.txt fetched-b.txt | grep .; then echo "B refetched pages done in the snapshot"; exit 1; fi
frontier-report -f $B --check > check-b.txt
states() { sqlite3 "$1" "select url, state, coalesce(reason, '') from urls order by url"; }
diff <(states $A) <(states $B)
echo "A and B: $(sqlite3 $B "select count(*) from urls") URLs in the same states"
test "$(sqlite3 $B "select count(*) from urls where state in (0, 1)")" = 0

# Round trip of the finished copy.
frontier-export -f $B -o b.jsonl
frontier-import -q -f $C b.jsonl
frontier-export -f $C > c.jsonl
cmp <(tail -n +2 b.jsonl) <(tail -n +2 c.jsonl)
now=$(date +%s)
cmp <(FRONTIER_NOW=$now frontier-report -f $B --json) <(FRONTIER_NOW=$now frontier-report -f $C --json)
echo "round trip exact: $(wc -l < b.jsonl) lines"
