# Recrawl simulation (frontier(7), RECRAWL): 97 pages on a local server whose content
# changes on a fixed schedule (Poisson processes with mean change intervals
# from 12 hours to never, tests/server/recrawl_sim.py), crawled for 5
# simulated weeks through the real tools -- frontier-lease | fetch |
# frontier-done every 8 simulated hours, FRONTIER_NOW and the server's clock
# moving together -- once per recrawl.policy. A daily lister gives
# last_modified dates for one group. Checks: intervals shrink for changing
# pages and grow for static ones; every lease batch is in tier order; a page
# that dies is disabled after recrawl.max-failures failures, not fetched
# again until listed again, then revisited; the lister group is fresher
# than the same change rate without dates. Prints freshness per policy.
# e2e: long (tests/e2e/run.sh starts it first)
set -euo pipefail
: "${ROOT:?}"
SIM="$ROOT/tests/server/recrawl_sim.py"
source "$ROOT/tests/tools/wait_port.bash"
T0=1800000000
D=86400
DAYS=${SIM_DAYS:-35}
STEP=${SIM_STEP:-28800}
WARMUP=7   # freshness is measured from day 7 on

python3 "$SIM" schedule $T0 "$DAYS" > schedule.json

# pages GROUP-REGEX: page names of the schedule whose group matches.
pages() { jq -r --arg g "$1" '.pages | to_entries[] | select(.value.group | test($g)) | .key' schedule.json; }

# lister NOW: the daily lister's list of the listed group, with each page's
# last change up to NOW (the start if none yet) as last_modified.
lister() {
    jq -c --argjson now "$1" --arg base "$BASE" '.start as $s | .pages | to_entries[] | select(.value.listed)
        | {url: ($base + "/" + .key), recrawl: true,
           last_modified: ([$s] + [.value.changes[] | select(. <= $now)] | max | floor)}' ../schedule.json
}

# run_policy POLICY: the whole simulation in directory POLICY with its own
# server (its clock is POLICY/now.txt).
run_policy() {
    local policy=$1 F=f.db now round=0 rc
    mkdir "$policy" && cd "$policy"
    echo $T0 > now.txt
    python3 "$SIM" serve port.txt now.txt ../schedule.json server.log 2>server.err &
    local pid=$!
    trap "kill $pid 2>/dev/null || true" EXIT  # run_policy runs in a subshell
    wait_for_port port.txt "$pid" "simulation server" server.err
    BASE="http://127.0.0.1:$(cat port.txt)/p"
    frontier-config -f $F robots.enabled false
    frontier-config -f $F budget.hold-queues false
    frontier-config -f $F politeness.min-delay 0
    frontier-config -f $F politeness.delay-factor 0
    frontier-config -f $F politeness.max-in-flight 1000
    frontier-config -f $F recrawl.policy "$policy"
    { (cd .. && pages '^(?!weekly-listed)') | sed "s|^|$BASE/|" | jq -Rc '{url: ., recrawl: true}'; lister $T0; } |
        FRONTIER_NOW=$T0 frontier-add -q -f $F
    for ((now = T0; now < T0 + DAYS * D; now += STEP)); do
        echo "$now" > now.txt
        if (( (now - T0) % D == 0 && now > T0 )); then
            lister "$now" | FRONTIER_NOW=$now frontier-add -q -f $F
        fi
        # The dead page is back on day 15 and listed again on day 20.
        if (( now == T0 + 20 * D )); then
            echo "{\"url\":\"$BASE/dying-0\",\"recrawl\":true}" | FRONTIER_NOW=$now frontier-add -q -f $F
        fi
        if (( now == T0 + 12 * D )); then
            sqlite3 $F "SELECT state, failures FROM urls WHERE url LIKE '%/dying-0'" > dying12
        fi
        if (( round % 3 == 0 )); then
            # Every third round: the batch order beside the tier columns of
            # the leased rows (they do not change until the result).
            rc=0
            FRONTIER_NOW=$now frontier-lease -f $F -n 1000 --per-queue 1000 > lease.jsonl 2>/dev/null || rc=$?
            [ $rc -eq 0 ] || [ $rc -eq 3 ] || [ $rc -eq 5 ] || { echo "lease exit $rc"; return 1; }
            if [ -s lease.jsonl ]; then
                { echo "#batch"; cat lease.jsonl; sqlite3 -separator ' ' $F "SELECT '@', id, rank, tier, tier_key, cost FROM urls WHERE state = 1"; } >> order.raw
                fetch -c 16 --per-host 16 < lease.jsonl 2>/dev/null | FRONTIER_NOW=$now frontier-done -f $F >> done.jsonl
            fi
        else
            FRONTIER_NOW=$now frontier-lease -f $F -n 1000 --per-queue 1000 2>/dev/null |
                fetch -c 16 --per-host 16 2>/dev/null | FRONTIER_NOW=$now frontier-done -f $F >> done.jsonl ||
                true  # frontier-lease exits 3 or 5 when nothing is due
        fi
        round=$((round + 1))
    done
    kill $pid 2>/dev/null || true
    python3 "$SIM" freshness ../schedule.json server.log $((T0 + WARMUP * D)) $((T0 + DAYS * D)) > fresh.json
    sqlite3 -json $F "SELECT url, interval, successes, changes, failures, state FROM urls" > urls.json
    FRONTIER_NOW=$((T0 + DAYS * D)) frontier-report -f $F --json | jq -c .revisits > report.json
    echo "$policy: $round rounds, $(wc -l < done.jsonl) results"
}

start=$SECONDS
# Both policies at once, each with its own server and clock.
(run_policy multiplicative) > multiplicative.log 2>&1 & p1=$!
(run_policy estimate) > estimate.log 2>&1 & p2=$!
rc1=0; rc2=0
wait $p1 || rc1=$?
wait $p2 || rc2=$?
cat multiplicative.log estimate.log
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || exit 1
echo "simulation: $((SECONDS - start)) s"

python3 - "$DAYS" <<'PY'
import json, statistics, sys
days = float(sys.argv[1])
DAY = 86400
fail = []
def check(ok, msg):
    print(("ok   " if ok else "FAIL ") + msg)
    if not ok: fail.append(msg)
sched = json.load(open("schedule.json"))
fresh = {}
for pol in ("multiplicative", "estimate"):
    rows = json.load(open(pol + "/urls.json"))
    by = {}
    for r in rows:
        name = r["url"].rsplit("/", 1)[1]
        grp = sched["pages"][name]["group"]
        by.setdefault(grp, []).append(r)
    med = {g: statistics.median(r["interval"] / DAY for r in rs) for g, rs in by.items() if g != "dying"}
    print(f"{pol}: median interval (days) " + ", ".join(f"{g} {med[g]:.2f}" for g in
          ("twice-daily", "daily", "3-days", "weekly", "monthly", "static", "weekly-listed")))
    # Intervals shrink for changing pages, grow for static ones.
    check(med["twice-daily"] <= 1.5 and med["daily"] <= 2, f"{pol}: pages changing daily or faster are revisited about daily")
    check(med["static"] >= 16, f"{pol}: static pages' intervals grew to >= 16 days")
    check(med["twice-daily"] <= med["3-days"] <= med["monthly"] <= med["static"],
          f"{pol}: intervals ordered by change rate")
    # The first visit sets recrawl.interval (1 day); every static page started there and grew.
    check(all(r["changes"] == 0 for r in by["static"]), f"{pol}: static pages never eventful")
    # Every lease batch in index order: rank, tier, tier key, cost, id.
    batches = []
    for line in open(pol + "/order.raw"):
        if line.startswith("#batch"):
            batches.append(([], {}))
        elif line.startswith("@ "):
            _, i, rank, tier, key, cost = line.split()
            batches[-1][1][int(i)] = (float(rank), int(tier), float(key), int(cost), int(i))
        else:
            batches[-1][0].append(int(json.loads(line)["lease"].split("-")[0], 16))
    bad = sum(1 for order, rows in batches if [rows[i] for i in order] != sorted(rows[i] for i in order)
              or set(order) != set(rows))
    check(len(batches) > 25 and bad == 0, f"{pol}: {len(batches)} lease batches checked, all in tier order ({bad} not)")
    tiers = {k[1] for _, rows in batches for k in rows.values()}
    check(tiers == {1, 2, 3}, f"{pol}: the batches held tiers {sorted(tiers)}")
    # The dying page: 3 failures (recrawl.max-failures), then disabled and
    # not fetched until listed again on day 20; then visited successfully.
    log = [json.loads(l) for l in open(pol + "/server.log")]
    dying = [r for r in log if r["page"] == "dying-0"]
    t0 = sched["start"]
    fails = [r for r in dying if r["status"] == 404]
    check(len(fails) == 3, f"{pol}: the dead page failed {len(fails)} times before it was disabled")
    st20 = open(pol + "/dying12").read().split("|")
    check(st20[0] == "5" and st20[1].strip() == "3", f"{pol}: the dead page is disabled on day 12 (state|failures {'|'.join(st20).strip()})")
    gap = [r for r in dying if fails and fails[-1]["t"] < r["t"] < t0 + 20 * DAY]
    check(not gap, f"{pol}: no request for the disabled page before it was listed again ({len(gap)})")
    back = [r for r in dying if r["t"] >= t0 + 20 * DAY and r["status"] in (200, 304)]
    d = next(r for r in rows if r["url"].endswith("/dying-0"))
    check(bool(back) and back[0]["t"] == t0 + 20 * DAY and d["state"] == 2 and d["failures"] == 0,
          f"{pol}: listed again on day 20, visited at once, failures reset")
    # 304s happen (ETag) and count as visits without change.
    check(sum(1 for r in log if r["status"] == 304) > 50, f"{pol}: conditional revisits answered 304")
    f = json.load(open(pol + "/fresh.json"))
    fresh[pol] = f
    check(f["weekly-listed"]["freshness"] > f["weekly"]["freshness"],
          f"{pol}: lister dates make the weekly group fresher ({f['weekly-listed']['freshness']:.3f} vs {f['weekly']['freshness']:.3f})")
    rep = json.load(open(pol + "/report.json"))
    check(rep["urls"] == len(sched["pages"]) and rep["disabled"] == 0 and rep["eventful"] > 0
          and sum(rep["intervals"].values()) == len(sched["pages"]),
          f"{pol}: report revisits {json.dumps(rep)}")

def overall(f, groups):
    n = {g: sum(1 for p in sched["pages"].values() if p["group"] == g) for g in groups}
    tot = sum(n.values())
    return (sum(f[g]["freshness"] * n[g] for g in groups) / tot,
            sum(f[g]["mean_age_h"] * n[g] for g in groups) / tot,
            sum(f[g]["visits"] for g in groups), tot)
unlisted = ["twice-daily", "daily", "3-days", "weekly", "monthly", "static"]
print(f"freshness from day 7 to day {days:.0f}, per group (freshness / mean age h / visits):")
print(f"  {'group':14} {'multiplicative':>24} {'estimate':>24}")
for g in unlisted + ["weekly-listed"]:
    m, e = fresh["multiplicative"][g], fresh["estimate"][g]
    print(f"  {g:14} {m['freshness']:8.3f} {m['mean_age_h']:7.1f} {m['visits']:6d}   {e['freshness']:8.3f} {e['mean_age_h']:7.1f} {e['visits']:6d}")
fm, am, vm, n = overall(fresh["multiplicative"], unlisted)
fe, ae, ve, _ = overall(fresh["estimate"], unlisted)
span = days - 7
print(f"FRESHNESS (the {n} pages without lister dates): multiplicative {fm:.3f} (mean age {am:.1f} h, "
      f"{vm / n / span:.2f} visits per page-day); estimate {fe:.3f} (mean age {ae:.1f} h, "
      f"{ve / n / span:.2f} visits per page-day); estimate - multiplicative = {fe - fm:+.3f}")
check(fm > 0.5 and fe > 0.5, "both policies keep more than half of the pages fresh")
sys.exit(1 if fail else 0)
PY
