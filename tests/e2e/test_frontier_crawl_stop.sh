# How frontier-crawl (frontier-crawl(1)) ends short of finishing.
# Stopped by SIGINT, as a signal to the process alone and as a terminal's
# ^C sends it (to the whole foreground process group; here a group of its
# own made with setsid, so that this shell is not hit): it exits 0 with
# "stopped", writes both reports, leaves no claim; a second run finishes
# the crawl and, over both runs, every page is fetched exactly once
# (nginx's access log); a second SIGINT stops at once, the reports still
# written; ^Z stops the tools with it. With only a retry left that is due beyond
# --max-wait (the clock fixed by FRONTIER_NOW): exit 3, a message saying
# how many URLs wait until when, both reports; a new frontier's retry
# settings (10 s, 3 retries) give up on a page that keeps answering 503 at
# the fourth answer; --set and an existing frontier's settings win.
# e2e: long (tests/e2e/run.sh starts it first)
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
source "$ROOT/tests/tools/nginx.sh"
fail() { echo "FAIL: $*"; exit 1; }

# 40 pages, each answered after a quarter of a second (nginx's echo
# module): the crawl is under way when the signal comes.
N=40
nginx_slow_pages "$N" 0.25 \
    'location /s/ { default_type text/html; echo_sleep 2; echo "<html><body>$uri</body></html>"; }' \
    'location = /busy.html { return 503; }'
trap 'kill "$(cat ng/nginx.pid)" 2>/dev/null || true' EXIT
: > ng/access.log

fast=(--set politeness.min-delay=0 --set politeness.delay-factor=0 --set politeness.max-in-flight=2
      --set robots.enabled=false)

# stop_case DIR HOW: a crawl in DIR stopped by SIGINT once 5 pages are
# recorded, HOW = pid (the process alone) or group (its process group).
stop_case() {
    local dir=$1 how=$2
    setsid frontier-crawl -o "$dir" -c 2 "${fast[@]}" "http://127.0.0.1:$PORT/$dir.html" \
        "http://127.0.0.1:$PORT/index.html" 2> "$dir.err" &
    local pid=$!
    for _ in $(seq 300); do
        [ -s "$dir/results.jsonl" ] && [ "$(wc -l < "$dir/results.jsonl")" -ge 5 ] && break
        sleep 0.05
    done
    [ "$(wc -l < "$dir/results.jsonl")" -ge 5 ] || fail "$how: the crawl did not get going: $(cat "$dir.err")"
    if [ "$how" = group ]; then kill -INT -- -"$pid"; else kill -INT "$pid"; fi
    local rc=0
    wait "$pid" || rc=$?
    [ $rc = 0 ] || { cat "$dir.err"; fail "$how: SIGINT: exit $rc, not 0"; }
    grep -q "frontier-crawl: stopped; run frontier-crawl -o $dir again" "$dir.err" || fail "$how: $(cat "$dir.err")"
    grep -q "failed" "$dir.err" && fail "$how: a failure after SIGINT: $(cat "$dir.err")"
    grep -q '^URLs: ' "$dir/report.txt" || fail "$how: report.txt: $(cat "$dir/report.txt")"
    grep -q '<html' "$dir/report.html" || fail "$how: no report.html"
    [ ! -e "$dir/crawl.pid" ] || fail "$how: the claim was left"
    local fetched; fetched=$(jq -s 'map(select(.result == "done")) | length' "$dir/results.jsonl")
    [ "$fetched" -lt $((N + 1)) ] || fail "$how: the crawl finished before the signal"
    echo "ok: SIGINT to the $how: exit 0, stopped, both reports ($fetched pages recorded)"

    # The second run finishes: every page done, none fetched twice.
    frontier-crawl -o "$dir" 2> "$dir.again" || { cat "$dir.again"; fail "$how: second run exited $?"; }
    grep -q "finished: nothing is left" "$dir.again" || fail "$how: second run: $(cat "$dir.again")"
    grep -q "^URLs: 0 queued; 0 leased; $((N + 2)) done" "$dir/report.txt" ||
        fail "$how: after the second run: $(head -3 "$dir/report.txt")"
    local twice; twice=$(grep -E "^/(p/[0-9]+|index|$dir)\.html " ng/access.log | awk '{print $1}' | sort | uniq -d)
    [ -z "$twice" ] || fail "$how: fetched twice: $twice"
    [ "$(grep -cE '^/p/[0-9]+\.html 200' ng/access.log)" = $N ] || fail "$how: not every page fetched"
    : > ng/access.log
    echo "ok: after SIGINT to the $how a second run finishes the crawl, every page fetched once"
}
echo "<html><body>seed</body></html>" > site/alone.html
echo "<html><body>seed</body></html>" > site/group.html
stop_case alone pid
stop_case group group

# A second SIGINT stops at once: exit 0, both reports; a rerun finishes.
# Four seeds answered after 2 s each, and a quick one: once the quick one
# is recorded a slow transfer is under way, so the graceful stop the first
# signal starts is still waiting for it when the second comes.
slow=()
for i in 0 1 2 3; do slow+=("http://127.0.0.1:$PORT/s/$i.html"); done
setsid frontier-crawl -o twice -c 2 "${fast[@]}" "http://127.0.0.1:$PORT/alone.html" "${slow[@]}" 2> twice.err &
pid=$!
for _ in $(seq 300); do [ -s twice/results.jsonl ] && break; sleep 0.05; done
[ -s twice/results.jsonl ] || fail "two SIGINTs: the crawl did not get going: $(cat twice.err)"
kill -INT -- -"$pid"
for _ in $(seq 100); do grep -q "stopping:" twice.err && break; sleep 0.02; done
kill -INT -- -"$pid"
rc=0
wait "$pid" || rc=$?
[ $rc = 0 ] || { cat twice.err; fail "two SIGINTs: exit $rc, not 0"; }
grep -q "stopped at once; run frontier-crawl -o twice again" twice.err || fail "two SIGINTs: $(cat twice.err)"
grep -q '^URLs: ' twice/report.txt && grep -q '<html' twice/report.html || fail "two SIGINTs: no reports"
frontier-crawl -o twice 2> twice.again || { cat twice.again; fail "after two SIGINTs: exit $?"; }
grep -q "^URLs: 0 queued; 0 leased; 5 done" twice/report.txt || fail "after two SIGINTs: $(head -3 twice/report.txt)"
echo "ok: a second SIGINT stops at once, with the reports; a second run finishes"
: > ng/access.log

# ^Z (SIGTSTP) stops the tools too, and SIGCONT goes on: nothing is
# fetched while stopped, the crawl finishes.
frontier-crawl -o tstp -c 2 "${fast[@]}" "http://127.0.0.1:$PORT/index.html" 2> tstp.err &
pid=$!
for _ in $(seq 300); do [ -s tstp/results.jsonl ] && break; sleep 0.05; done
kill -TSTP "$pid"
sleep 0.5
states=$(ps -o stat= -p "$pid" $(pgrep -P "$pid" | tr '\n' ' ') | cut -c1 | sort -u | tr -d '\n')
[ "$states" = T ] || fail "^Z: process states $states, not all stopped"
n=$(wc -l < ng/access.log)
sleep 0.6
[ "$(wc -l < ng/access.log)" = "$n" ] || fail "^Z: fetched while stopped"
kill -CONT "$pid"
rc=0
wait "$pid" || rc=$?
[ $rc = 0 ] && grep -q "finished: nothing is left" tstp.err || { cat tstp.err; fail "after ^Z and SIGCONT: exit $rc"; }
echo "ok: ^Z stops the tools with frontier-crawl, SIGCONT goes on"
: > ng/access.log

# Only a retry left, due beyond --max-wait: exit 3, said, reports.
T=1800000000
until_crawl() {  # until_crawl SECONDS-AFTER-T ARGS...: frontier-crawl -o wait at T + SECONDS; sets rc
    local at=$1; shift
    rc=0
    FRONTIER_NOW=$((T + at)) timeout 60 frontier-crawl -o wait --max-wait 5 "$@" 2> wait.err || rc=$?
}
until_crawl 0 "${fast[@]}" "http://127.0.0.1:$PORT/busy.html" "http://127.0.0.1:$PORT/alone.html"
[ $rc = 3 ] || { cat wait.err; fail "only a retry left: exit $rc, not 3"; }
grep -q "frontier-crawl: 1 URL waits, the first due at 2027-01-15 08:00:10Z (in 10 s, beyond --max-wait 5 s): stopped; run frontier-crawl -o wait again then to go on" wait.err ||
    fail "the waiting message: $(cat wait.err)"
grep -q '^URLs: 1 queued; 0 leased; 1 done' wait/report.txt || fail "report.txt: $(head -3 wait/report.txt)"
grep -q '<html' wait/report.html || fail "no report.html"
echo "ok: only a retry due beyond --max-wait left: exit 3, the message, both reports"
for at in 11 22; do
    until_crawl $at
    [ $rc = 3 ] || { cat wait.err; fail "retry at +$at s: exit $rc, not 3"; }
done
until_crawl 33
[ $rc = 0 ] || { cat wait.err; fail "the last retry: exit $rc, not 0"; }
grep -q "finished: nothing is left" wait.err || fail "the last retry: $(cat wait.err)"
[ "$(jq -s 'map(select(.url | endswith("/busy.html")) | .result) | join(",")' wait/results.jsonl)" = '"retry,retry,retry,failed"' ] ||
    fail "busy.html: $(grep busy wait/results.jsonl)"
[ "$(grep -c '^/busy.html 503' ng/access.log)" = 4 ] || fail "busy.html fetched $(grep -c '^/busy.html' ng/access.log) times"
echo "ok: a new frontier retries a 503 after 10 s, 3 times, then fails it"
FRONTIER_NOW=$T frontier-crawl -q -o setr "${fast[@]}" --set retry.max=0 "http://127.0.0.1:$PORT/busy.html" ||
    fail "--set retry.max=0: exit $?"
[ "$(jq -r .result setr/results.jsonl)" = failed ] || fail "--set retry.max=0: $(cat setr/results.jsonl)"
mkdir old
frontier-config -f old/crawl.db retry.max 5
FRONTIER_NOW=$T frontier-crawl -q -o old --max-wait 5 "${fast[@]}" "http://127.0.0.1:$PORT/alone.html" || fail "old: exit $?"
[ "$(frontier-config -f old/crawl.db retry.max)" = 5 ] && [ "$(frontier-config -f old/crawl.db retry.delay)" = 3600 ] ||
    fail "an existing frontier's retry settings changed"
echo "ok: --set and an existing frontier's settings win over the new frontier's"
