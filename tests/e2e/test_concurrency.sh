# Concurrency: several frontier-lease --follow workers, frontier-add
# processes, frontier-budget and frontier-config edits and frontier-report
# --check readers on one frontier file at the same time. No fetching: a
# small responder turns each lease into a result (status 200 and one new
# link, or 404 for robots.txt), so the test measures the frontier alone.
# Checks:
#  - no URL is ever leased twice (the clock is fixed and every lease is
#    answered, so a second lease of a URL would mean two holders at once);
#  - every result is applied ("done"; none "stale" or "rejected");
#  - no "database is locked" / "busy" error and exit code 0 from every process;
#  - frontier-report --check passes while the writers run (a consistent
#    snapshot) and at the end; every URL ends done;
#  - throughput (leases + results per second, wall clock) is printed.
# Knobs (for make stress): CONC_WORKERS (4), CONC_HOSTS (100), CONC_SEEDS (6 per host);
# CONC_FRONTIER (a postgresql:// URL of an empty database: tests/pg/run.sh).
set -euo pipefail
WORKERS=${CONC_WORKERS:-4}
HOSTS=${CONC_HOSTS:-100}
SEEDS=${CONC_SEEDS:-6}
F=${CONC_FRONTIER:-conc.db}
export FRONTIER_NOW=1800000000
frontier-config -f $F politeness.min-delay 0
frontier-config -f $F politeness.delay-factor 0
frontier-config -f $F politeness.max-in-flight 2
frontier-config -f $F scope.max-depth 2
python3 - "$HOSTS" "$SEEDS" <<'PY'
import sys
hosts, seeds = int(sys.argv[1]), int(sys.argv[2])
with open("seeds.txt", "w") as f:
    for h in range(hosts):
        for k in range(seeds):
            f.write(f"http://h{h}.example.com/seed/{k}\n")
for a in range(2):
    for b in range(10):
        with open(f"more{a}-{b}.txt", "w") as f:
            for k in range(50):
                f.write(f"http://h{(a * 500 + b * 50 + k) % hosts}.example.com/more/{a}/{b}/{k}\n")
PY
frontier-add -q -f $F seeds.txt

# Turns leases into results: robots.txt 404 (allow all), pages 200 with one
# new link (a chain per seed, bounded by scope.max-depth).
cat > respond.py <<'PY'
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r.get("robots"):
        out = {"lease": r["lease"], "status": 404, "duration_ms": 1}
    else:
        out = {"lease": r["lease"], "url": r["url"], "status": 200, "duration_ms": 1,
               "links": [r["url"].rstrip("/") + "/n"]}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
PY

t0=$(date +%s.%N)
pids=()
for w in $(seq "$WORKERS"); do
    ( frontier-lease -f $F --follow --max-in-flight 64 -n 16 --per-queue 1 --poll-interval 0.02 2>"lease$w.err" \
        | tee "lease$w.out" | python3 respond.py | frontier-done -f $F > "done$w.out" 2>"done$w.err"
      echo "${PIPESTATUS[*]}" > "rc$w" ) &
    pids+=($!)
done
# Adders: two processes, each 10 runs of 50 new URLs.
for a in 0 1; do
    ( for b in $(seq 0 9); do frontier-add -f $F "more$a-$b.txt" >> "add$a.out" 2>>"add$a.err" || echo "add exit $?" >> "add$a.err"; done ) &
    pids+=($!)
done
# Budget and config edits while the workers run.
( for k in $(seq 20); do
      frontier-budget -f $F --domain example.com --replenish $((5 + k % 4)) 2>>budget.err || echo "budget exit $?" >> budget.err
      frontier-budget -f $F --queue "h$((k % 7)).example.com" --total-budget 100000 2>>budget.err || echo "budget exit $?" >> budget.err
      frontier-config -f $F politeness.max-in-flight $((1 + k % 2)) 2>>budget.err || echo "config exit $?" >> budget.err
  done ) &
pids+=($!)
# Readers: the invariant check on live snapshots.
( for k in $(seq 5); do
      frontier-report -f $F --check > "check$k.out" 2>&1 || echo "check $k failed" >> check.err
  done ) &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
t1=$(date +%s.%N)

# The adders may have added URLs after the workers saw the crawl finished: drain.
frontier-lease -f $F --follow --max-in-flight 64 2>lease_drain.err | tee lease_drain.out | python3 respond.py \
    | frontier-done -f $F > done_drain.out 2>done_drain.err
frontier-report -f $F --check
cat check.err 2>/dev/null && { cat check*.out; exit 1; } || true

python3 - "$F" "$WORKERS" "$t0" "$t1" <<'PY'
import collections, glob, json, sqlite3, sys
db, workers, t0, t1 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
errors = []
for w in range(1, workers + 1):
    rc = open(f"rc{w}").read().split()
    if rc != ["0", "0", "0", "0"]: errors.append(f"worker {w} exit codes {rc}")
for name in glob.glob("*.err"):
    text = open(name).read()
    for bad in ("locked", "busy", "exit ", "error"):
        if bad in text.lower(): errors.append(f"{name}: {text.strip()[:300]}")
leases = collections.Counter()
n_leases = 0
for name in glob.glob("lease*.out"):
    for line in open(name):
        r = json.loads(line)
        leases[r["url"]] += 1
        n_leases += 1
for u, n in leases.items():
    if n > 1: errors.append(f"{u} leased {n} times")
results = collections.Counter()
n_results = 0
for name in glob.glob("done*.out"):
    for line in open(name):
        r = json.loads(line)
        results[r["result"]] += 1
        n_results += 1
if set(results) != {"done"}: errors.append(f"results: {dict(results)}")
if n_results != n_leases: errors.append(f"{n_leases} leases but {n_results} results")
if db.startswith(("postgres://", "postgresql://")):
    import subprocess
    rows = subprocess.run(["psql", "-qXAt", "-F", " ", db, "-c", "SELECT state, count(*) FROM urls GROUP BY state"],
                          check=True, capture_output=True, text=True).stdout.split("\n")
    states = {int(a): int(b) for a, b in (r.split() for r in rows if r.strip())}
else:
    con = sqlite3.connect(db)
    states = dict(con.execute("SELECT state, count(*) FROM urls GROUP BY state").fetchall())
if set(states) != {2}: errors.append(f"URL states at the end: {states}")
added = sum(1 for name in glob.glob("add*.out") for line in open(name) if '"added"' in line)
secs = t1 - t0
print(f"{workers} lease/done workers + 2 adders ({added} URLs added) + budget/config edits + 5 checks: "
      f"{n_leases} leases and {n_results} results in {secs:.1f} s = {(n_leases + n_results) / secs:.0f} operations/s "
      f"({n_leases / secs:.0f} URLs/s through lease+done); final states {states}")
if errors:
    print("\n".join(errors[:30])); sys.exit(1)
PY
