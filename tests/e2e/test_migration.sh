# Schema migration: a frontier file from every earlier released schema
# version opens with the current tools and keeps its data.
#  - tests/fixtures/schema-v1.sql: a v1 file made by the v1 tools (URLs in
#    every state, robots.txt rules, settings, per-domain settings, budget
#    overrides, a queue retired by hand, outstanding leases), with what the v1
#    tools reported about it (schema-v1.*.json*).
#  - A reading tool does not write: it asks for a migration (when one is
#    needed) and leaves the file as it is. A writing tool migrates it, once.
#  - After migration: user_version is the current one; the tables, columns and
#    indexes are those of a fresh file; every v1 row and column is unchanged;
#    frontier-report, --queues, frontier-config and frontier-budget say what
#    the v1 tools said; frontier-report --check passes; the crawl goes on to
#    its end with the current tools.
#  - A file from a newer version is refused by every tool with a clear
#    message, and not changed.
#  - tests/fixtures/schema-v3.sql: a v3 file made by the v3 tools (results
#    at three minutes, a failed seed, a redirect, a timeout), for the
#    migration to 4, which back-fills the crawl's aggregates (frontier-report(1),
#    AGGREGATES) from the URL rows: what the report then says is checked.
#    Rows the back-fill adds to counters (crawl:*, visit:*, status:*,
#    heatd:*) are new rows; every old row is unchanged.
#  - tests/fixtures/schema-v4.sql: a v4 file made by the v4 tools with
#    leases out (URLs and a robots.txt), for the migration to 5, which adds
#    the lease holders: those leases have none (NULL), no holder row exists,
#    and they expire as before.
#  - tests/fixtures/schema-v5.sql: a v5 file made by the v5 tools with URLs
#    marked for revisiting (queued, leased, done with a revisit time, failed
#    with a retry time), for the migration to 6, which rebuilds urls_next
#    with recrawl as its last column: the report's revisit counts (read from
#    that index since) are those the v5 tools gave.
#  - tests/fixtures/schema-v6.sql: a v6 file made by the v6 tools (the v5
#    fixture migrated by them, two URLs added), for the migration to 7, which
#    moves every URL's fingerprint from the index urls_fp to the table
#    url_fps: each URL added again is a duplicate, and a new one is added.
#  - tests/fixtures/schema-v7.sql: a v7 file made by the v7 tools (the v6
#    fixture migrated by them, three URLs added), for the migration to 8,
#    which moves the queued URLs' lease order from the index urls_next to
#    the tables url_next and url_next_new, kept by triggers: the leases in
#    order after the migration are those of the v7 tools.
#  - tests/fixtures/schema-v8.sql: a v8 file made by the v8 tools (the v7
#    fixture migrated by them, two URLs added, one given a new priority, two
#    leases out), for the migration to 9, which drops the trigger that
#    moved lease order entries on every update (the tools move them): the
#    entries are unchanged, and the first lease (which takes the two leases
#    back) is the v8 tools'.
# When a schema version 10 is released, add tests/fixtures/schema-v9.sql (made
# by the v9 tools) and list it in VERSIONS.
set -euo pipefail
FIX=$ROOT/tests/fixtures
VERSIONS="1 3 4 5 6 7 8"
export FRONTIER_NOW=1800000210
frontier-config -f fresh.db lease.ttl 600
CUR=$(sqlite3 fresh.db "pragma user_version")
echo "current schema version: $CUR"

schema_of() {  # table -> sorted "name type" of its columns; indexes with their definitions
    sqlite3 "$1" "select m.name || '.' || p.name || ' ' || p.type || ' notnull=' || p.\"notnull\" || ' default=' || coalesce(p.dflt_value, '-') || ' pk=' || p.pk from sqlite_master m, pragma_table_info(m.name) p
                  where m.type = 'table' order by 1; select type || ' ' || name || ' ' || coalesce(sql, '-') from sqlite_master where type IN ('index', 'trigger') order by 1"
}

for V in $VERSIONS; do
    db=v$V.db
    sqlite3 $db < "$FIX/schema-v$V.sql"
    test "$(sqlite3 $db "pragma user_version")" = "$V"
    # Every row of every table, as the old version stored it.
    python3 - $db rows-before.json <<'PY'
import json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
out = {}
for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
    cols = [r[1] for r in con.execute(f"PRAGMA table_info({t})")]
    out[t] = {"cols": cols, "rows": sorted(map(list, con.execute(f"SELECT {', '.join(cols)} FROM {t}")), key=repr)}
json.dump(out, open(sys.argv[2], "w"))
PY
    sum=$(sha256sum < $db)
    if [ "$V" -lt "$CUR" ]; then
        # A reading tool neither migrates nor changes anything.
        set +e; frontier-report -f $db > out.txt 2> err.txt; rc=$?; set -e
        [ $rc = 1 ] && grep -q "needs migrating" err.txt || { echo "v$V: frontier-report exit $rc: $(cat err.txt)"; exit 1; }
        test "$(sha256sum < $db)" = "$sum"
        echo "v$V: frontier-report refuses to read before migration: $(cat err.txt)"
    fi
    # A writing tool migrates (an empty add changes nothing else).
    frontier-add -f $db < /dev/null 2> /dev/null
    test "$(sqlite3 $db "pragma user_version")" = "$CUR"
    [ "$(schema_of fresh.db | grep -c " pk=")" -ge 80 ] || { echo "schema_of read no columns"; exit 1; }
    diff <(schema_of fresh.db) <(schema_of $db) > schema.diff || { echo "v$V: schema differs from a fresh file"; cat schema.diff; exit 1; }
    python3 - $db rows-before.json "$FIX" "$V" <<'PY'
import json, sqlite3, subprocess, sys
db, before, fix, v = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
con = sqlite3.connect(db)
errors = []
for t, b in before.items():
    rows = sorted(map(list, con.execute(f"SELECT {', '.join(b['cols'])} FROM {t}")), key=repr)
    if t == "counters":  # the version 4 back-fill adds rows of its own
        new = ("crawl:", "visit:", "status:", "heatd:")
        rows = [r for r in rows if not r[0].startswith(new) or any(o[0] == r[0] for o in b["rows"])]
    if rows != b["rows"]:
        errors.append(f"table {t}: {len(b['rows'])} rows before, {len(rows)} after, or values changed")
# What the old tools reported, the current ones report (keys added since are
# ignored, and so are values whose definition frontier-report(1) changed since:
# the recent rate is per second the crawl covered, no longer / 600).
redefined = {"report.crawl.recent_pages_per_s"}
def subset(old, new, where):
    if where in redefined: return
    if isinstance(old, dict):
        if not isinstance(new, dict): errors.append(f"{where}: {new!r} is not an object"); return
        for k, val in old.items():
            if k not in new: errors.append(f"{where}.{k} missing")
            else: subset(val, new[k], f"{where}.{k}")
    elif old != new:
        errors.append(f"{where}: {new!r}, was {old!r}")
def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout
subset(json.load(open(f"{fix}/schema-v{v}.report.json")), json.loads(run("frontier-report", "-f", db, "--json")), "report")
old_rows = [json.loads(l) for l in open(f"{fix}/schema-v{v}.queues.jsonl")]
new_rows = [json.loads(l) for l in run("frontier-report", "-f", db, "--queues", "--json").splitlines()]
if len(old_rows) != len(new_rows): errors.append(f"{len(new_rows)} queue rows, were {len(old_rows)}")
for o, n in zip(old_rows, new_rows): subset(o, n, f"queue {o['queue']}")
subset(json.load(open(f"{fix}/schema-v{v}.config.json")), json.loads(run("frontier-config", "-f", db)), "config")
subset(json.load(open(f"{fix}/schema-v{v}.budget.json")), json.loads(run("frontier-budget", "-f", db)), "budget")
print(f"v{v}: {sum(len(b['rows']) for b in before.values())} rows in {len(before)} tables unchanged; reports match the v{v} tools'")
if errors: print("\n".join(errors[:30])); sys.exit(1)
PY
    frontier-report -f $db --check > check.txt || { cat check.txt; exit 1; }
    if [ "$V" = 3 ]; then
        # The back-fill: results per minute (each URL's last result; no bytes),
        # status counts, novel visits, discovery x depth; failed URLs and seeds
        # from their indexes.
        got=$(frontier-report -f $db --json | jq -c '[.crawl.start, .crawl.last, .crawl.results, .crawl.errors, .crawl.novel,
              .statuses, [.timeline.buckets[] | [.start, .pages, .errors]], .heatmap_depth.seed]')
        want='[1800000000,1800000240,5,2,2,{"200":2,"301":1,"410":1},[[1800000000,1,0],[1800000060,3,1],[1800000180,1,1]],{"0":7}]'
        [ "$got" = "$want" ] || { echo "v3: back-filled report $got, want $want"; exit 1; }
        got=$(frontier-report -f $db --failed --json | jq -r 'select(.kind == "url") | .url + " " + .reason' | tr '\n' ';')
        [ "$got" = "http://a.example/ timeout;http://c.example/gone http-410;http://d.example/ robots-unreachable;" ] ||
            { echo "v3: failed URLs after migration: $got"; exit 1; }
        [ "$(frontier-report -f $db --seeds --json | jq -s 'map(select(.redirect)) | length')" = 1 ] ||
            { echo "v3: the redirecting seed is not reported"; exit 1; }
        echo "v3: back-filled aggregates: $(frontier-report -f $db | grep '^Crawl:')"
    fi
    if [ "$V" = 4 ]; then
        # Leases of the v4 tools have no holder; no holder is recorded yet.
        got=$(sqlite3 $db "SELECT (SELECT count(*) FROM urls WHERE state = 1 AND holder IS NULL),
              (SELECT count(*) FROM hosts WHERE robots_lease_expires IS NOT NULL AND robots_holder IS NULL),
              (SELECT count(*) FROM lease_holders)")
        [ "$got" = "2|1|0" ] || { echo "v4: leases and holders after migration: $got, want 2|1|0"; exit 1; }
        echo "v4: 2 URL leases and 1 robots.txt lease out, without holder"
    fi
    if [ "$V" = 5 ]; then
        # urls_next ended with recrawl (version 6); since version 8 the lease
        # order tables hold it: the revisit counts read from them are the v5
        # tools' (the report subset above checks them too).
        got=$(frontier-report -f $db --json | jq -c '.revisits | [.urls, .due_now, .next_due]')
        want=$(jq -c '.revisits | [.urls, .due_now, .next_due]' "$FIX/schema-v5.report.json")
        [ "$got" = "$want" ] && [ "$want" != "[null,null,null]" ] || { echo "v5: revisits $got, want $want"; exit 1; }
        echo "v5: revisits $got as before"
    fi
    if [ "$V" = 6 ]; then
        # Every URL's fingerprint in url_fps, none waiting, urls_fp gone; the
        # v6 URLs added again are duplicates, a new one is added.
        got=$(sqlite3 $db "SELECT (SELECT count(*) FROM url_fps) = (SELECT count(*) FROM urls),
              (SELECT count(*) FROM url_fps_new), (SELECT count(*) FROM sqlite_master WHERE name = 'urls_fp')")
        [ "$got" = "1|0|0" ] || { echo "v6: fingerprints after migration: $got, want 1|0|0"; exit 1; }
        sqlite3 $db "SELECT url FROM urls" > v6-urls.txt
        echo http://f.example/new >> v6-urls.txt
        cp $db v6-again.db
        got=$(frontier-add -f v6-again.db v6-urls.txt 2>&1 >/dev/null)
        [ "$got" = "frontier-add: 1 added, $(($(wc -l < v6-urls.txt) - 1)) duplicate, 0 updated, 0 rejected" ] ||
            { echo "v6: adding the v6 URLs again: $got"; exit 1; }
        echo "v6: every fingerprint in url_fps; $got"
    fi
    if [ "$V" = 7 ]; then
        # Every queued URL that is due has its entry in url_next, none waits
        # in url_next_new, urls_next is gone; the first lease is the v7
        # tools' (their lease of this fixture at this time, run by hand).
        got=$(sqlite3 $db "SELECT (SELECT count(*) FROM url_next), (SELECT count(*) FROM urls WHERE state = 0
              AND due_at IS NULL), (SELECT count(*) FROM url_next_new), (SELECT count(*) FROM sqlite_master
              WHERE name = 'urls_next')")
        [ "$got" = "6|6|0|0" ] || { echo "v7: lease order after migration: $got, want 6|6|0|0"; exit 1; }
        cp $db v7-lease.db
        got=$(FRONTIER_NOW=1800003811 frontier-lease -f v7-lease.db -n 100 --per-queue 10 | jq -r .url | tr '\n' ' ')
        [ "$got" = "http://a.example/7 http://b.example/x http://e.example/new1 " ] ||
            { echo "v7: first lease after migration: $got"; exit 1; }
        echo "v7: the lease order in url_next; the first lease is the v7 tools': $got"
    fi
    if [ "$V" = 8 ]; then
        # The entries as they were (5 moved, 3 waiting), no update trigger
        # (schema_of above); the first lease, which puts the two leases out
        # back first, is the v8 tools' (their lease of this fixture at this
        # time, run by hand), and --check passes after it.
        got=$(sqlite3 $db "SELECT (SELECT count(*) FROM url_next), (SELECT count(*) FROM url_next_new),
              (SELECT count(*) FROM sqlite_master WHERE name = 'url_next_update')")
        [ "$got" = "5|3|0" ] || { echo "v8: lease order after migration: $got, want 5|3|0"; exit 1; }
        cp $db v8-lease.db
        got=$(FRONTIER_NOW=1800003811 frontier-lease -f v8-lease.db -n 100 --per-queue 10 2>/dev/null | jq -r .url | tr '\n' ' ')
        [ "$got" = "http://a.example/7 http://b.example/x http://e.example/new1 http://g.example/1 " ] ||
            { echo "v8: first lease after migration: $got"; exit 1; }
        FRONTIER_NOW=1800003811 frontier-report -f v8-lease.db --check > check.txt || { cat check.txt; exit 1; }
        echo "v8: the lease order kept; the first lease is the v8 tools': $got"
    fi
    # A second writer finds nothing to migrate.
    frontier-add -f $db < /dev/null 2> /dev/null
    test "$(sqlite3 $db "pragma user_version")" = "$CUR"

    # The crawl goes on with the current tools: answer everything with 200
    # (robots.txt allows all) until frontier-lease says it is finished.
    now=$FRONTIER_NOW
    end=""
    for pass in $(seq 20); do
        now=$((now + 3601))  # past lease.ttl, retry.delay and politeness; robots.txt stays fresh (24 h)
        set +e; FRONTIER_NOW=$now frontier-lease -f $db -n 100 --per-queue 10 > lease.out 2> /dev/null; rc=$?; set -e
        case $rc in 0) ;; 3) continue ;; 4|5) end=$rc; break ;; *) echo "v$V: frontier-lease exit $rc"; exit 1 ;; esac
        python3 -c '
import json, sys
for l in open("lease.out"):
    r = json.loads(l)
    out = {"lease": r["lease"], "status": 200, "duration_ms": 1}
    if r.get("robots"): out["body"] = "User-agent: *\nAllow: /\n"
    print(json.dumps(out))' > results.jsonl
        FRONTIER_NOW=$((now + 1)) frontier-done -f $db results.jsonl > done.out
        grep -q '"result":"rejected"' done.out && { echo "v$V: results rejected"; cat done.out; exit 1; }
    done
    [ -n "$end" ] || { echo "v$V: the crawl did not finish"; exit 1; }
    FRONTIER_NOW=$((now + 2)) frontier-report -f $db --check > check.txt || { cat check.txt; exit 1; }
    # The results of the current tools add to the aggregates.
    [ "$(FRONTIER_NOW=$((now + 2)) frontier-report -f $db --json | jq '.crawl.results > 0 and (.timeline.buckets | length) > 0')" = true ] ||
        { echo "v$V: no crawl aggregates after the crawl"; exit 1; }
    echo "v$V: migrated to v$CUR; the crawl went on to its end (frontier-lease exit $end); check ok"
done

# A newer version than this build knows: refused by every tool, file unchanged.
db=newer.db
cp fresh.db $db
echo "http://a.example/" | frontier-add -q -f $db
sqlite3 $db "pragma user_version = $((CUR + 1))"
sum=$(sha256sum < $db)
for cmd in "frontier-add -f $db" "frontier-lease -f $db" "frontier-done -f $db" "frontier-config -f $db" \
           "frontier-config -f $db lease.ttl 5" "frontier-budget -f $db" "frontier-report -f $db" "frontier-report -f $db --check"; do
    set +e; $cmd < /dev/null > out.txt 2> err.txt; rc=$?; set -e
    [ $rc = 1 ] && grep -q "schema version $((CUR + 1)), newer than this tool knows ($CUR)" err.txt || {
        echo "'$cmd' on a v$((CUR + 1)) file: exit $rc: $(cat err.txt)"; exit 1; }
done
test "$(sha256sum < $db)" = "$sum"
echo "v$((CUR + 1)) file: refused by every tool ($(head -1 err.txt)); unchanged"
