# frontier-crawl (frontier-crawl(1)): a whole crawl of a local site in one
# command — results with status and depth, seeds.jsonl, both reports; a
# per-site budget pauses it (exit 4); --warc writes WARC; run again it
# resumes (nothing left: finished, nothing fetched twice); the file is
# whole at the end (no -wal left); after a "crash"
# (leases out, no pipeline) --reclaim finishes the crawl at once; bad
# options exit 2 before anything is created.
set -euo pipefail
: "${ROOT:?}"
source "$ROOT/tests/server/common.sh"
fail() { echo "FAIL: $*"; exit 1; }

start_site S; P=$SITE_PORT
printf '<a href="/a.html">a</a> <a href="/b.html">b</a>\n' > S/files/index.html
echo '<a href="/c.html">c</a>' > S/files/a.html
echo b > S/files/b.html
echo c > S/files/c.html
fast=(--set politeness.min-delay=0 --set politeness.delay-factor=0)

frontier-crawl -o out "${fast[@]}" "http://127.0.0.1:$P/" 2> out.err || { cat out.err; fail "crawl exited $?"; }
grep -q "frontier-crawl: finished" out.err || fail "no 'finished': $(cat out.err)"
pages=$(jq -r 'select(.robots != true) | "\(.url | sub("^http://[^/]*"; "")) \(.status) \(.depth)"' out/results.jsonl | sort | tr '\n' ',')
[ "$pages" = "/ 200 0,/a.html 200 1,/b.html 200 1,/c.html 200 2," ] || fail "results: $pages"
[ "$(jq -r .status out/seeds.jsonl)" = added ] || fail "seeds.jsonl: $(cat out/seeds.jsonl)"
# The seeds are added as frontier-add adds them, with its summary.
grep -q "^frontier-add: 1 added, 0 duplicate" out.err || fail "no frontier-add summary: $(cat out.err)"
[ ! -e out/.seeds.txt ] || fail "the seed list was left in out/"
ls out/*.tmp 2> /dev/null && fail "a report's temporary file was left"
grep -q '^URLs: 0 queued; 0 leased; 4 done' out/report.txt || fail "report.txt: $(head -3 out/report.txt)"
grep -q '<html' out/report.html || fail "report.html"
echo "ok: one command crawls the site: 4 pages, reports"
# Its last connection writes the WAL back into the file and removes it.
[ ! -s out/crawl.db-wal ] || fail "crawl.db-wal left with $(stat -c %s out/crawl.db-wal) bytes"
echo "ok: the WAL is written back at the end"

# A bad seed is rejected in seeds.jsonl, said once, and the others are crawled.
frontier-crawl -o mixed "${fast[@]}" --depth 0 "http://127.0.0.1:$P/b.html" "not a url" 2> mixed.err ||
    fail "a crawl with a bad seed exited $?: $(cat mixed.err)"
[ "$(jq -r .status mixed/seeds.jsonl | tr '\n' ' ')" = "added rejected " ] || fail "seeds.jsonl: $(cat mixed/seeds.jsonl)"
grep -q "some seeds were rejected: see mixed/seeds.jsonl" mixed.err || fail "no rejection message: $(cat mixed.err)"
grep -q '^URLs: 0 queued; 0 leased; 1 done' mixed/report.txt || fail "mixed: $(head -3 mixed/report.txt)"
echo "ok: a bad seed is rejected in seeds.jsonl; the good one is crawled"

# Again: nothing left, nothing fetched twice.
before=$(wc -l < S/requests)
frontier-crawl -o out 2> again.err || fail "second run exited $?"
grep -q "finished" again.err || fail "second run: $(cat again.err)"
[ "$(wc -l < S/requests)" = "$before" ] || fail "second run fetched again"
echo "ok: a second run resumes (nothing left)"

# A per-site budget: paused at finish, exit 4.
set +e
frontier-crawl -o budget --per-site 2 "${fast[@]}" "http://127.0.0.1:$P/" 2> budget.err
rc=$?
set -e
[ $rc = 4 ] || { cat budget.err; fail "--per-site 2 exited $rc"; }
grep -q "paused at finish" budget.err || fail "no pause message: $(cat budget.err)"
[ "$(jq -s 'map(select(.robots != true and .result == "done")) | length' budget/results.jsonl)" = 2 ] ||
    fail "--per-site 2: $(cat budget/results.jsonl)"
echo "ok: --per-site pauses at finish (exit 4)"

# --warc and --depth.
frontier-crawl -q -o warc --warc --depth 1 "${fast[@]}" "http://127.0.0.1:$P/" || fail "--warc crawl exited $?"
ls warc/warc/*.warc.gz > /dev/null 2>&1 || fail "no WARC file in warc/warc/"
[ "$(jq -s 'map(select(.robots != true)) | length' warc/results.jsonl)" = 3 ] || fail "--depth 1: $(cat warc/results.jsonl)"
zcat warc/warc/*.warc.gz > warc.txt
grep -aq "WARC-Target-URI: http://127.0.0.1:$P/a.html" warc.txt || fail "a.html not in the WARC file"
echo "ok: --warc, --depth"

# A crawl that "crashed" with leases out: --reclaim ends them and finishes.
frontier-crawl -q -o crash "${fast[@]}" --set robots.enabled=false --per-site 1 "http://127.0.0.1:$P/" || true
frontier-budget -q -f crash/crawl.db --total-budget -1
frontier-budget -q -f crash/crawl.db --unretire --all
frontier-lease -q -f crash/crawl.db -n 10 > /dev/null   # leased, never fetched: the dead pipeline's
[ "$(frontier-report -f crash/crawl.db --json | jq .urls.leased)" -ge 1 ] || fail "no lease out before --reclaim"
# The dead crawl's claim: this host, a pid that is not that process.
echo "$(hostname) 999999 1" > crash/crawl.pid
timeout 60 frontier-crawl -o crash 2> crash.err || { cat crash.err; fail "crawl after a crash exited $?"; }
grep -q "stopped without finishing" crash.err || fail "the dead crawl was not noticed: $(cat crash.err)"
grep -q "reclaimed" crash.err || fail "no reclaim message: $(cat crash.err)"
grep -q '^URLs: 0 queued; 0 leased; 4 done' crash/report.txt || fail "after the reclaim: $(head -3 crash/report.txt)"
[ ! -e crash/crawl.pid ] || fail "the claim was left after a clean end"
echo "ok: a crawl that died is noticed and its leases reclaimed at the next start"
# A crawl running in the directory (this shell stands for it): refused.
echo "$(hostname) $$ $(awk '{print $22}' /proc/$$/stat)" > crash/crawl.pid
frontier-crawl -o crash 2> live.err && fail "a second crawl in a running crawl's directory started"
grep -q "a crawl is running in crash" live.err || fail "second crawl: $(cat live.err)"
rm crash/crawl.pid
echo "ok: one crawl per directory"

# Bad options: exit 2, nothing created.
set +e
frontier-crawl -o bad --set nonsense "http://127.0.0.1:$P/" 2> /dev/null && fail "--set nonsense accepted"
frontier-crawl -o bad --set no.such.key=1 "http://127.0.0.1:$P/" 2> /dev/null; [ $? = 2 ] || fail "unknown key: not exit 2"
frontier-crawl -o bad --depth -1 "http://127.0.0.1:$P/" 2> /dev/null; [ $? = 2 ] || fail "--depth -1: not exit 2"
[ ! -e bad ] || fail "bad options created bad/"
echo "ok: bad options"
