# Crash safety: a crawl of a local two-host site while frontier-add,
# frontier-lease, frontier-done and frontier-budget are SIGKILLed at random
# moments, again and again; then the crawl is finished without kills (the
# clock, FRONTIER_NOW, moves past lease.ttl so dead workers' leases expire)
# and the frontier must have lost nothing:
#  - every URL any tool ever reported as accepted (frontier-add "added",
#    "duplicate", "updated"; frontier-lease leases) is stored exactly once;
#  - the crawl finished: every reachable page is done, every robots.txt-
#    disallowed page blocked, every added URL that 404s failed; nothing is
#    queued or leased;
#  - frontier-report --check: integrity_check ok, counters equal a recount,
#    no lease past its TTL, every URL in a valid state, no duplicates.
# Knobs (for make stress): CRASH_ROUNDS (default 10), CRASH_SECONDS (default 15),
# CRASH_SEED (default: random; printed so a failure can be replayed).
set -euo pipefail
source "$ROOT/tests/tools/nginx.sh"
ROUNDS=${CRASH_ROUNDS:-10}
SECONDS_MAX=${CRASH_SECONDS:-15}
SEED=${CRASH_SEED:-$(( $(date +%s) % 100000 ))}
RANDOM=$SEED
echo "seed $SEED (replay with CRASH_SEED=$SEED)"

mkdir site
nginx_start "$PWD/site" 2
trap nginx_stop EXIT
read -r P1 P2 <<<"$NGINX_PORTS"
P3=$(nginx_free_port)   # nothing listens there: its queue is retired by hand, its URLs are held
python3 "$ROOT/tests/tools/make-site.py" site 60 --private 3 --base "http://127.0.0.1:$P1" "http://127.0.0.1:$P2"

F=${E2E_FRONTIER:-crawl.db}   # tests/pg/run.sh: a postgresql:// database
export FRONTIER_NOW=1800000000
frontier-config -f $F politeness.min-delay 0
frontier-config -f $F politeness.delay-factor 0
frontier-config -f $F politeness.max-in-flight 8
frontier-config -f $F lease.ttl 30
# The second host is reached by links only; both are on 127.0.0.1, which
# the address guard keeps for seeds' hosts unless allowed.
frontier-config -f $F net.allow '["loopback"]'
printf '%s\n' "http://127.0.0.1:$P1/index.html" "http://127.0.0.1:$P3/held/seed" | frontier-add -q -f $F
frontier-budget -f $F --retire "127.0.0.1:$P3"

# A random kill delay of 1 to $1 (< 1000) milliseconds.
rand_ms() { printf '0.%03d' $((RANDOM % $1 + 1)); }

# Chunks of URLs to add (with --batch 1000, so a kill can fall between
# commits): 40 new ones that 404, 2000 new ones in the held queue, and 200
# repeats of the previous chunk.
python3 - "$P1" "$P2" "$P3" "$ROUNDS" <<'PY'
import sys
p1, p2, p3, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
prev = []
for r in range(rounds + 1):
    cur = [f"http://127.0.0.1:{(p1, p2)[j % 2]}/extra/{r}/{j}.html" for j in range(40)]
    cur += [f"http://127.0.0.1:{p3}/held/{r}/{j}-{'x' * 100}" for j in range(2000)]
    with open(f"chunk{r}.txt", "w") as f:
        for u in cur + prev[-200:]:
            f.write(u + "\n")
    prev = cur
PY
python3 - "$P1" "$P2" "$ROUNDS" <<'PY'
import json, sys
p1, p2, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open("budget.jsonl", "w") as f:
    for k in range(400):
        q = f"127.0.0.1:{(p1, p2)[k % 2]}"
        f.write(json.dumps({"queue": q, "total_budget": 1000000 + k}) + "\n")
        f.write(json.dumps({"domain": "127.0.0.1", "replenish": 50 + k % 7}) + "\n")
PY

start=$(date +%s)
kills=0
for round in $(seq "$ROUNDS"); do
    [ $(( $(date +%s) - start )) -ge "$SECONDS_MAX" ] && break
    # Past lease.ttl: leases of the previous round's killed workers expire.
    export FRONTIER_NOW=$((FRONTIER_NOW + 31))
    if [ $((round % 2)) = 1 ]; then
        timeout -s KILL "$(rand_ms 300)" frontier-add -f $F --batch 1000 "chunk$round.txt" > "add$round.out" 2>/dev/null &
        add_pid=$!
    else
        # Killed a few milliseconds after its first output: what it printed
        # must be in the file.
        frontier-add -f $F --batch 1000 "chunk$round.txt" > "add$round.out" 2>/dev/null &
        add_pid=$!
        ( for _ in $(seq 1000); do [ -s "add$round.out" ] && break; sleep 0.002; done
          sleep "$(rand_ms 4)"; kill -KILL $add_pid 2>/dev/null ) &
    fi
    timeout -s KILL "$(rand_ms 300)" frontier-budget -f $F --apply budget.jsonl > /dev/null 2>&1 &
    budget_pid=$!
    set +e
    timeout -s KILL "$(rand_ms 400)" frontier-lease -f $F --follow --max-in-flight 16 --poll-interval 0.01 -q 2>/dev/null \
        | tee "lease$round.out" | fetch --links -q 2>/dev/null \
        | timeout -s KILL "$(rand_ms 400)" frontier-done -f $F > "done$round.out" 2>/dev/null
    rcs="${PIPESTATUS[*]}"
    wait $add_pid; rc_add=$?
    wait $budget_pid; rc_budget=$?
    set -e
    for rc in $rcs $rc_add $rc_budget; do [ "$rc" = 137 ] && kills=$((kills + 1)); done
    echo "round $round: exit codes lease/tee/fetch/done $rcs, add $rc_add ($(wc -l < "add$round.out") lines), budget $rc_budget"
done
echo "$kills processes killed by SIGKILL in $(( $(date +%s) - start )) s"
test "$kills" -ge 3

# Finish the crawl without kills: the last chunk too, then batches with the
# clock moved past lease.ttl and retry.delay, until frontier-lease says the
# crawl is finished (exit 4: nothing left but the held queue's URLs).
export FRONTIER_NOW=$((FRONTIER_NOW + 31))
frontier-add -f $F chunk0.txt > add_final.out
frontier-config -f $F politeness.max-in-flight 1000
finished=no
for pass in $(seq 40); do
    export FRONTIER_NOW=$((FRONTIER_NOW + 3601))
    set +e
    frontier-lease -f $F -n 1000 --per-queue 1000 -q | tee "lease_final$pass.out" | fetch --links -q \
        | frontier-done -f $F > "done_final$pass.out"
    rcs="${PIPESTATUS[*]}"
    set -e
    case "$rcs" in "0 0 0 0") ;; 4\ *) finished=yes; break ;; *) echo "pass $pass: exit codes $rcs" ;; esac
done
test $finished = yes

frontier-report -f $F --check
frontier-report -f $F

python3 - "$F" "$P1" "$P2" <<'PY'
import glob, json, os, re, sys
sys.path.insert(0, os.environ["ROOT"] + "/tests/tools")
from fsql import query
db, p1, p2 = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for url, state, reason in query(db, "SELECT url, state, reason FROM urls"):
    rows.setdefault(url, []).append((state, reason))
errors = []
def lines(pattern):
    for name in sorted(glob.glob(pattern)):
        for line in open(name, errors="replace"):
            try:
                yield name, json.loads(line)
            except ValueError:
                pass  # a line cut by SIGKILL
accepted = set()
for name, r in lines("add*.out"):
    if r.get("status") in ("added", "duplicate", "updated"):
        accepted.add(r["url"])
leased = set()
for name, r in lines("lease*.out"):
    if not r.get("robots"):
        leased.add(r["url"])
print(f"{len(accepted)} URLs reported accepted by frontier-add, {len(leased)} leased, {len(rows)} stored")
for u in sorted(accepted | leased):
    if u not in rows: errors.append(f"lost: {u}")
for u, v in rows.items():
    if len(v) != 1: errors.append(f"stored {len(v)} times: {u}")
# The crawl finished: every site page reachable from index.html is done,
# private pages are blocked, extra (404) pages failed.
def links(path):
    text = open("site" + path).read()
    for m in re.finditer(r'<a href="([^"]+)"( rel="nofollow")?', text):
        if not m.group(2): yield m.group(1).split("#")[0]
def resolve(port, base, href):
    m = re.match(r"http://127\.0\.0\.1:(\d+)(/.*)", href)
    if m: return m.group(1), m.group(2)
    if href.startswith("/"): return port, href
    return port, os.path.normpath(os.path.join(os.path.dirname(base), href))
seen, todo = set(), [(p1, "/index.html")]
while todo:
    port, path = todo.pop()
    if (port, path) in seen: continue
    seen.add((port, path))
    if not path.startswith("/private/"):
        for h in links(path): todo.append(resolve(port, path, h))
for port, path in seen:
    u = f"http://127.0.0.1:{port}{path}"
    want = 4 if path.startswith("/private/") else 2
    got = rows.get(u, [(None, None)])[0][0]
    if got != want: errors.append(f"{u}: state {got}, expected {want}")
held = query(db, "SELECT count(*) FROM urls JOIN queues q ON q.id = queue_id WHERE q.state = 3 AND urls.state = 0")[0][0]
for u, v in rows.items():
    if "/held/" in u:
        continue  # checked by count below
    if "/extra/" in u and v[0] != (3, "http-404"): errors.append(f"{u}: {v[0]}, expected failed http-404")
    if v[0][0] in (0, 1): errors.append(f"{u}: still queued or leased after the crawl finished")
if held != sum(1 for u in rows if "/held/" in u): errors.append(f"{held} held URLs queued in the retired queue")
print(f"{held} URLs held in the retired queue, {len(seen)} site pages checked, {sum(1 for u in rows if '/extra/' in u)} extra URLs failed as 404")
if errors:
    print("\n".join(errors[:30])); sys.exit(1)
PY
