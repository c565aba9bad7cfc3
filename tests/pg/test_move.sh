# Moving a crawl SQLite file -> PostgreSQL -> SQLite file, run by
# tests/pg/run.sh with MOVE_FRONTIER, a fresh PostgreSQL database:
#  - a SQLite frontier with a partly done crawl (URLs done, failed, retried,
#    leased and queued; a budget override; a retired queue; a domain setting)
#    is exported and imported into PostgreSQL: the import's check passes and
#    PostgreSQL's own export is the same stream (every row, every value);
#  - on PostgreSQL, leases taken on SQLite are answered (applied, not
#    stale), more URLs are leased and answered with links (new URLs, new ids
#    from the identity sequences, after the imported ones), --check passes;
#  - PostgreSQL is exported and imported into a new SQLite file, whose own
#    export is the same stream again and whose --check passes;
#  - row by row, the first and the last SQLite files hold the same values of
#    the same storage classes (INTEGER, REAL, TEXT, NULL) in every table,
#    except the rows the PostgreSQL work changed: the URLs leased or answered
#    there, their queues, the counters and sequences; leases still out are
#    still out under the same ids (without their holder: urls.holder and
#    hosts.robots_holder are not exported, frontier(7), LEASES).
set -euo pipefail
PG=${MOVE_FRONTIER:?MOVE_FRONTIER: a PostgreSQL database URL}
T=1800000000
export FRONTIER_NOW=$T
A=a.db
for kv in "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" \
          "politeness.max-in-flight 100" "retry.delay 3600"; do
    # shellcheck disable=SC2086
    frontier-config -f $A $kv
done
frontier-config -f $A --domain d.example politeness.min-delay 2
python3 - > seeds.jsonl <<'PY'
import json
for h in "abcde":
    for i in range(30):
        r = {"url": "http://%s.example/p%d?q=%d" % (h, i, i % 4)}
        if i % 5 == 0: r.update(recrawl=True, type="article", last_modified="2026-01-01T00:00:00Z")
        if i % 7 == 0: r["meta"] = {"k": [i, 1.5, None], "s": "t\u00e9\tx"}
        print(json.dumps(r))
PY
frontier-add -q -f $A seeds.jsonl
frontier-budget -q -f $A --queue a.example --total-budget 40 --replenish 7
frontier-budget -q -f $A --retire e.example

# Answer leases as fetch would: 200 with links, 404 (failed), 503 (retried).
answer() {  # leases.jsonl -> results.jsonl; $1: a tag for the links' paths
    python3 -c '
import json, sys
tag = sys.argv[1]
for n, l in enumerate(open("/dev/stdin")):
    r = json.loads(l)
    out = {"lease": r["lease"], "url": r["url"], "duration_ms": 10 + n}
    if n % 6 == 4: out["status"] = 404
    elif n % 6 == 5: out["status"] = 503
    else:
        out.update(status=200, content_hash="h%d" % n, etag="\"e%d\"" % n,
                   links=["/%s/%d" % (tag, n), "/%s/%d?x" % (tag, n)])
    print(json.dumps(out))' "$1"
}
frontier-lease -f $A -n 40 --per-queue 10 > lease1.jsonl
test "$(wc -l < lease1.jsonl)" -ge 30
head -n -10 lease1.jsonl | answer s > done1.jsonl
FRONTIER_NOW=$((T + 5)) frontier-done -q -f $A done1.jsonl
tail -10 lease1.jsonl > held.jsonl            # ten leases stay out
FRONTIER_NOW=$((T + 10)) frontier-report -f $A --check > /dev/null
echo "SQLite: $(sqlite3 $A "select group_concat(state || ':' || n) from (select state, count(*) n from urls group by state)")"

# SQLite -> PostgreSQL.
FRONTIER_NOW=$((T + 10)) frontier-export -q -f $A -o a.jsonl
FRONTIER_NOW=$((T + 20)) frontier-import -f "$PG" a.jsonl > import1.json
jq -e '.complete and .check.ok and .rejected == 0' import1.json > /dev/null
FRONTIER_NOW=$((T + 20)) frontier-export -q -f "$PG" > p0.jsonl
cmp <(tail -n +2 a.jsonl) <(tail -n +2 p0.jsonl)
echo "PostgreSQL: $(jq -c .imported import1.json), its export is the same stream"

# More crawling on PostgreSQL: half the held leases answered, 20 more leased
# and answered, 5 more leased and left out.
export FRONTIER_NOW=$((T + 30))
head -5 held.jsonl | answer h > done2.jsonl
frontier-done -f "$PG" done2.jsonl > done2.out
test "$(jq -r .result done2.out | grep -c stale)" = 0
frontier-lease -f "$PG" -n 25 --per-queue 10 > lease2.jsonl
head -20 lease2.jsonl | answer p > done3.jsonl
frontier-done -q -f "$PG" done3.jsonl
frontier-report -f "$PG" --check > check-pg.txt || { cat check-pg.txt; exit 1; }
test "$(jq -s 'map(.links_added) | add' done2.out)" -gt 0

# PostgreSQL -> a new SQLite file.
frontier-export -q -f "$PG" -o p.jsonl
frontier-import -f b.db p.jsonl > import2.json
jq -e '.complete and .check.ok and .rejected == 0' import2.json > /dev/null
frontier-export -q -f b.db > b.jsonl
cmp <(tail -n +2 p.jsonl) <(tail -n +2 b.jsonl)
frontier-report -f b.db --check > /dev/null
echo "back in SQLite: $(jq -c .imported import2.json), its export is PostgreSQL's stream"

# Row by row, a.db against b.db, with storage classes.
cat lease2.jsonl done2.jsonl | jq -r .url > touched.txt
python3 - "$A" b.db touched.txt held.jsonl lease2.jsonl <<'PY'
import json, sqlite3, sys
a, b = (sqlite3.connect(p) for p in sys.argv[1:3])
touched = set(l.strip() for l in open(sys.argv[3]))
held = [json.loads(l) for l in open(sys.argv[4])][5:] + [json.loads(l) for l in open(sys.argv[5])][20:]
keys = {"meta": "key", "settings": "key", "domain_settings": "domain, key", "queue_budgets": "scope, name",
        "seed_domains": "domain", "counters": "name", "queues": "id", "hosts": "id", "urls": "id"}
def rows(db, t):
    cols = [r[1] for r in db.execute("SELECT * FROM pragma_table_info(?)", (t,))
            if r[1] not in ("holder", "robots_holder")]  # not exported
    sel = ", ".join('typeof("%s"), "%s"' % (c, c) for c in cols)
    out = {}
    for r in db.execute("SELECT %s FROM %s" % (sel, t)):
        row = dict(zip(cols, zip(r[0::2], r[1::2])))
        if t == "meta" and row["key"][1] == "fps_new":
            continue  # the count of url_fps_new: not exported (frontier(7), FILE FORMAT)
        out[tuple(row[k.strip()][1] for k in keys[t].split(","))] = row
    return out
problems = []
ra = {t: rows(a, t) for t in keys}
rb = {t: rows(b, t) for t in keys}
touched_ids = {k for k, r in ra["urls"].items() if r["url"][1] in touched}
touched_queues = {r["queue_id"][1] for k, r in ra["urls"].items() if k in touched_ids}
max_id = max(k[0] for k in ra["urls"])
for t in keys:
    for k, r in ra[t].items():
        if k not in rb[t]:
            problems.append("%s %s lost" % (t, k))
        elif r != rb[t][k]:
            changed = t == "urls" and k in touched_ids or t == "queues" and k[0] in touched_queues \
                or t in ("counters", "meta")
            if not changed:
                diff = {c: (v, rb[t][k].get(c)) for c, v in r.items() if v != rb[t][k].get(c)}
                problems.append("%s %s changed: %s" % (t, k, diff))
    new = set(rb[t]) - set(ra[t])
    if t == "urls" and (not new or min(new)[0] <= max_id):
        problems.append("new URL ids %s should follow %d" % (sorted(new)[:3], max_id))
    if t in ("settings", "domain_settings", "queue_budgets", "seed_domains", "hosts") and new:
        problems.append("%s rows added: %s" % (t, sorted(new)))
done = lambda rs: sum(1 for r in rs.values() if r["state"][1] == 2)
if done(rb["urls"]) - done(ra["urls"]) < 15:
    problems.append("done went from %d to %d" % (done(ra["urls"]), done(rb["urls"])))
retired = [r for r in rb["queues"].values() if r["key"][1] == "e.example"]
if not retired or retired[0]["state"][1] < 2:
    problems.append("e.example is no longer retired")
by_url = {r["url"][1]: r for r in rb["urls"].values()}
for h in held:  # leases still out: still leased, same lease number
    r = by_url[h["url"]]
    if r["state"][1] != 1 or h["lease"] != "%x-%d" % (r["id"][1], r["lease_seq"][1]):
        problems.append("lease %s of %s is not out in b.db" % (h["lease"], h["url"]))
for p in problems[:20]:
    print(p)
print("compared %d rows of a.db with b.db: %d URLs touched on PostgreSQL, %d new; %d problems"
      % (sum(map(len, ra.values())), len(touched_ids), len(rb["urls"]) - len(ra["urls"]), len(problems)))
sys.exit(1 if problems else 0)
PY
