# What a user sees on stderr during a crawl (a real pipeline against nginx on
# 127.0.0.1): with --progress, progress lines with rates from
# frontier-lease --follow, fetch and frontier-done, then each tool's final
# summary, whose counts agree with the data on stdout; the messages for a
# finished crawl (exit 0), a crawl paused at finish (exit 4) and a lease
# process stopped by a signal. Without --progress and off a terminal: no
# progress lines. On a terminal (script(1)): progress without --progress,
# and each message first erases fetch's live progress line.
set -u
: "${ROOT:?}"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
source "$ROOT/tests/tools/nginx.sh"
mkdir site
nginx_start "$PWD/site" 1
trap nginx_stop EXIT
P=$NGINX_PORTS
python3 "$ROOT/tests/tools/make-site.py" site 10 --private 1
NUM='[0-9]+'
RATE='[0-9]+/s'

# A crawl of ~12 fetches, 0.25 s apart (politeness): over 2 s, so every tool
# prints at least one progress line.
F=crawl.db
frontier-config -f $F politeness.min-delay 0.25
frontier-config -f $F politeness.delay-factor 0
echo "http://127.0.0.1:$P/index.html" | frontier-add -q -f $F
frontier-lease -f $F --follow --progress 2> lease.err | tee leased.jsonl |
    fetch --links --progress 2> fetch.err |
    frontier-done -f $F --progress > done.jsonl 2> done.err
codes=("${PIPESTATUS[@]}")
[ "${codes[*]}" = "0 0 0 0" ] || bad "pipeline exit codes: ${codes[*]}"
leased=$(wc -l < leased.jsonl)
done_n=$(grep -c '"result":"done"' done.jsonl)
results=$(wc -l < done.jsonl)
[ "$leased" -ge 10 ] || bad "only $leased URLs leased"

grep -qE "^frontier-lease: leased $NUM \($RATE\), $NUM in flight, $NUM queued$" lease.err ||
    bad "no frontier-lease progress line with a rate: $(cat lease.err)"
grep -qE "^frontier-lease: leased $leased URLs in [0-9.]+ s \($RATE\)$" lease.err ||
    bad "frontier-lease summary does not say $leased URLs: $(cat lease.err)"
[ "$(tail -1 lease.err)" = "frontier-lease: finished: nothing remains to lease" ] ||
    bad "frontier-lease does not end with the finished message: $(tail -1 lease.err)"

grep -qE "^fetch: $NUM results, $NUM pages/s, [0-9.]+ [kMG]?B/s, $NUM active, $NUM waiting: 2xx $NUM" fetch.err ||
    bad "no fetch progress line with rates: $(cat fetch.err)"
grep -qxE "fetch: $leased results in [0-9.]+ s \($NUM pages/s, [0-9.]+ [kMG]?B/s\): 2xx $leased" fetch.err ||
    bad "fetch summary does not say $leased results: $(cat fetch.err)"
tail -1 fetch.err | grep -q ' results in ' || bad "fetch's last line is not its summary: $(tail -1 fetch.err)"

grep -qE "^frontier-done: $NUM results \($RATE\): $NUM done, $NUM retry, $NUM failed, $NUM blocked, $NUM stale, $NUM rejected; links: $NUM added, $NUM rejected$" done.err ||
    bad "no frontier-done progress line with a rate: $(cat done.err)"
grep -qE "^frontier-done: $results results in [0-9.]+ s \($RATE\): $done_n done, 0 retry, 0 failed, 0 blocked, 0 stale, 0 rejected; links: $NUM added, $NUM rejected$" done.err ||
    bad "frontier-done summary does not say $results results, $done_n done: $(cat done.err)"
added=$(sed -n 's/.*"links_added":\([0-9]*\).*/\1/p' done.jsonl | awk '{n += $1} END {print n + 0}')
tail -1 done.err | grep -q "links: $added added" || bad "frontier-done summary: links added is not $added: $(tail -1 done.err)"

# Off a terminal, without --progress: no progress lines and no summaries of
# lease or done (logs stay quiet); fetch keeps its one summary line.
frontier-config -f q.db politeness.min-delay 0
echo "http://127.0.0.1:$P/index.html" | frontier-add -q -f q.db
frontier-lease -f q.db --follow 2> lease2.err | fetch --links 2> fetch2.err | frontier-done -f q.db > /dev/null 2> done2.err
[ "$(cat lease2.err)" = "frontier-lease: finished: nothing remains to lease" ] || bad "quiet lease stderr: $(cat lease2.err)"
[ ! -s done2.err ] || bad "frontier-done wrote to stderr without --progress: $(cat done2.err)"
[ "$(wc -l < fetch2.err)" -eq 1 ] && grep -q ' results in ' fetch2.err || bad "fetch stderr without --progress: $(cat fetch2.err)"

# Pause at finish: a budget retires the queue; exit 4 and the message says
# how many URLs are held and what to do.
frontier-config -f p.db politeness.min-delay 0
frontier-budget -f p.db --total-budget 3 > /dev/null
echo "http://127.0.0.1:$P/index.html" | frontier-add -q -f p.db
frontier-lease -f p.db --follow 2> lease3.err | fetch --links 2> /dev/null | frontier-done -f p.db > /dev/null
code=${PIPESTATUS[0]}
[ "$code" = 4 ] || bad "paused crawl: frontier-lease exit $code, want 4"
held=$(frontier-report -f p.db --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["urls"]["retired"])')
grep -qx "frontier-lease: finished, but $held URLs are held in retired queues (pause at finish): inspect them with frontier-report --queues --state retired, raise budgets with frontier-budget, then lease again" lease3.err ||
    bad "pause-at-finish message (held $held): $(cat lease3.err)"
# Once a lease round has nothing left at all: exit 5, said so.
frontier-config -f e.db robots.enabled false
frontier-lease -f e.db -n 1 2> lease4.err; code=$?
[ "$code" = 5 ] && [ "$(cat lease4.err)" = "frontier-lease: finished: nothing remains to lease" ] ||
    bad "empty frontier: exit $code, $(cat lease4.err)"

# Stopped by a signal: --follow waits on a lease that is out, SIGTERM ends it
# cleanly (exit 0) with a summary that says leases will expire.
echo "http://127.0.0.1:$P/index.html" | frontier-add -q -f s.db
frontier-lease -f s.db --follow --progress > s.out 2> s.err &
pid=$!
for _ in $(seq 100); do [ -s s.out ] && break; sleep 0.05; done
kill -TERM $pid; wait $pid; code=$?
[ "$code" = 0 ] || bad "frontier-lease --follow after SIGTERM: exit $code"
grep -qE "^frontier-lease: stopped by a signal after leasing 1 URLs in [0-9.]+ s \($RATE\); leases not answered expire and are handed out again$" s.err ||
    bad "SIGTERM message: $(cat s.err)"

# On a terminal (script(1) gives the pipeline a pty): progress and summaries
# without --progress, and every message starts by erasing the current line.
if command -v script > /dev/null; then
    echo "http://127.0.0.1:$P/index.html" | frontier-add -q -f t.db
    frontier-config -f t.db politeness.min-delay 0
    script -qec "frontier-lease -f t.db --follow | fetch --links | frontier-done -f t.db > t.jsonl" /dev/null > tty.out 2>&1
    grep -q $'\r\033\[Kfrontier-done: [0-9]* results in ' tty.out || bad "no frontier-done summary on a terminal: $(cat -v tty.out | tail -3)"
    grep -q $'\r\033\[Kfetch: [0-9]* results in ' tty.out || bad "no fetch summary on a terminal"
    grep -q $'\r\033\[Kfrontier-lease: leased [0-9]* URLs in ' tty.out || bad "no frontier-lease summary on a terminal"
    grep -q $'\r\033\[Kfrontier-lease: finished: nothing remains to lease' tty.out || bad "no finished message on a terminal"
else
    echo "script(1) is not installed: terminal output not checked"
fi

[ $fails -eq 0 ] && echo "PASS progress"
exit $((fails > 0))
