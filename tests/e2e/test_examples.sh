# The scripts in examples/ run as documented (short versions, against nginx
# on 127.0.0.1 over a generated two-host site, politeness scaled to zero):
#   research-crawl.sh  finishes or pauses at its per-site budget; results, reports
#   budget-bump.sh     raises exactly the retired queues' budgets; the resumed crawl uses them
#   archival-crawl.sh  site-first (one host's fetches all before the other's), cost zero, WARC
#   lister-visits.sh   visits in the recrawl tiers, schedules revisits, leaves undue URLs alone
# Also: every example is linked from the README, and every tool's --help ends
# with an Examples section whose commands use only options the tools have.
# e2e: long (tests/e2e/run.sh starts it first)
set -euo pipefail
: "${ROOT:?}"
EX="$ROOT/examples"
fail() { echo "FAIL: $*"; exit 1; }

if ! command -v jq >/dev/null; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends jq >/dev/null 2>&1 ||
        fail "jq is missing and could not be installed (apt-get install jq)"
fi

# --- documentation links and --help examples ----------------------------------
for f in "$EX"/*.sh; do
    name=$(basename "$f")
    [ -x "$f" ] || fail "examples/$name is not executable"
    grep -q "examples/$name" "$ROOT/README.md" || fail "README.md does not link examples/$name"
    [ "$name" = demo.sh ] && continue
    # Without arguments: the usage (the header comment) and exit 2.
    "$f" > /dev/null 2> usage.txt && fail "examples/$name without arguments exited 0"
    [ $? -eq 2 ] && grep -q "examples/$name" usage.txt || fail "examples/$name without arguments: no usage"
done
declare -A HELP
for src in "$ROOT"/tools/*.cpp; do
    tool=$(basename "$src" .cpp)
    HELP[$tool]=$("$tool" --help) || fail "$tool --help failed"
done
for tool in "${!HELP[@]}"; do
    help=${HELP[$tool]}
    # The Examples section is the last one, and every command in it uses only
    # long options that the tool it names has.
    awk '/^Examples:$/{s=1; next} s && !/^  /{bad=1} END{exit !(s && !bad)}' <<<"$help" ||
        fail "$tool --help does not end with an Examples: section"
    sed -n '/^Examples:$/,$p' <<<"$help" | grep -v '^ *#' | tr '|' '\n' |
        grep -oE '(frontier-[a-z]+|fetch)( [^ ]+)*' | while read -r cmd args; do
            [ -n "${HELP[$cmd]:-}" ] || fail "$tool --help example runs unknown tool $cmd"
            cmd_help=${HELP[$cmd]}
            for opt in $(printf '%s\n' "$args" | grep -oE -- '(^| )--?[a-z][a-z-]*' | tr -d ' '); do
                grep -qE -- "(^|[ ,])$opt( |,|\$)" <<<"$cmd_help" ||
                    fail "$tool --help example: $cmd has no option $opt"
            done
        done
done
echo "ok: README links every example; every --help ends with valid examples"

# --- a local two-host site -----------------------------------------------------
source "$ROOT/tests/tools/nginx.sh"
mkdir site
nginx_start "$PWD/site" 2
trap nginx_stop EXIT
read -r P1 P2 <<<"$NGINX_PORTS"
H1="127.0.0.1:$P1" H2="127.0.0.1:$P2"
python3 "$ROOT/tests/tools/make-site.py" site 15 --private 2 --base "http://$H1" "http://$H2"
LOG=$(nginx_log)
log_lines() { wc -l < "$LOG"; }
# Politeness scaled to nothing: a local server, and a fixed clock where needed.
export SETTINGS="politeness.min-delay=0 politeness.delay-factor=0"
queue_json() { frontier-report -f "$1" --queues --json | jq -c "select(.queue == \"$2\")"; }

# --- research crawl: pauses at its per-site budget -------------------------------
echo "http://$H1/index.html" > seeds.txt
# H2 is reached by a link from H1: both on 127.0.0.1, allowed as loopback.
DEPTH=3 PER_SITE=6 SETTINGS='net.allow=["loopback"]' "$EX/research-crawl.sh" seeds.txt research 2> research.err || { cat research.err; fail "research-crawl.sh failed"; }
grep -q 'research-crawl: paused at finish' research.err || { cat research.err; fail "research crawl did not pause at its budget"; }
for f in crawl.db results.jsonl report.txt report.html; do [ -s "research/$f" ] || fail "research/$f missing"; done
grep -q '^[0-9]* queues: ' research/report.txt || fail "research/report.txt is not a report"
pages=$(grep -v '"robots":true' research/results.jsonl | grep -c '"result":"done"')
[ "$pages" -eq 12 ] || fail "research crawl: $pages pages done, expected 6 per host x 2"
retired=$(frontier-report -f research/crawl.db --queues --json --state retired | jq -r .queue | sort | tr '\n' ' ')
[ "$retired" = "$(printf '%s\n' "$H1" "$H2" | sort | tr '\n' ' ')" ] || fail "retired queues: '$retired'"
echo "ok: research crawl: $pages pages, both hosts retired at PER_SITE=6"

# --- budget bump: +4 for every retired queue, then the crawl resumes ------------
DRY_RUN=1 "$EX/budget-bump.sh" research/crawl.db 4 > dry.jsonl 2> dry.err
[ "$(jq -s 'map(.total_budget) == [10, 10]' dry.jsonl)" = true ] || { cat dry.jsonl; fail "dry run edits"; }
[ "$(frontier-budget -f research/crawl.db | jq '.overrides | length')" = 0 ] || fail "DRY_RUN applied edits"
"$EX/budget-bump.sh" research/crawl.db 4 > bump.jsonl 2> bump.err || { cat bump.err; fail "budget-bump.sh failed"; }
[ "$(jq -s 'map(select(.status == "applied")) | length' bump.jsonl)" = 2 ] || { cat bump.jsonl; fail "budget-bump did not apply 2 edits"; }
grep -q 'raised the total budget of 2 queue' bump.err || fail "budget-bump summary: $(cat bump.err)"
overrides=$(frontier-budget -f research/crawl.db | jq -c '[.overrides[] | .total_budget] | sort')
[ "$overrides" = "[10,10]" ] || fail "budgets after the bump: $overrides"
"$EX/budget-bump.sh" research/crawl.db 4 > /dev/null 2> none.err  # nothing retired now: a no-op
grep -q 'no retired queue' none.err || fail "budget-bump with nothing retired: $(cat none.err)"
# H2 is reached by a link from H1: both on 127.0.0.1, allowed as loopback.
DEPTH=3 PER_SITE=6 SETTINGS='net.allow=["loopback"]' "$EX/research-crawl.sh" seeds.txt research 2> resume.err || { cat resume.err; fail "resumed crawl failed"; }
for h in "$H1" "$H2"; do
    row=$(queue_json research/crawl.db "$h")
    spend=$(jq .total_spend <<<"$row") size=$(jq .size <<<"$row")
    # Each queue spent up to its new budget, or ran out of URLs before it.
    { [ "$spend" -eq 10 ] || { [ "$spend" -gt 6 ] && [ "$size" -eq 0 ]; }; } || fail "$h after the bump: $row"
done
echo "ok: budget-bump raised both budgets to spend + 4; the resumed crawl spent them"

# --- archival crawl: site-first, zero cost, WARC ---------------------------------
printf '%s\n' "http://$H1/index.html" "http://$H2/p/3.html" > seeds2.txt
before=$(log_lines)
IN_FLIGHT=1 "$EX/archival-crawl.sh" seeds2.txt archive 2> archive.err || { cat archive.err; fail "archival-crawl.sh failed"; }
grep -q 'archival-crawl: finished: every site is archived' archive.err || { cat archive.err; fail "archival crawl did not finish"; }
sleep 0.2  # nginx writes its access log after the response
tail -n +$((before + 1)) "$LOG" | awk '{print $1}' | uniq > order.txt
[ "$(cat order.txt)" = "$(printf '%s\n' "$P1" "$P2")" ] || fail "not site-first: hosts in fetch order: $(tr '\n' ' ' < order.txt)"
frontier-report -f archive/crawl.db --queues --json > archive-queues.jsonl
[ "$(jq -s 'map(.total_spend) == [0, 0]' archive-queues.jsonl)" = true ] || fail "cost policy zero: $(cat archive-queues.jsonl)"
[ "$(jq -s 'map(.state) == ["exhausted", "exhausted"]' archive-queues.jsonl)" = true ] || fail "archive not complete: $(cat archive-queues.jsonl)"
ls archive/warc/site-*.warc.gz > /dev/null || fail "no WARC file"
done_urls=$(jq -r 'select(.result == "done") | .url' archive/results.jsonl | sort)
warc_urls=$(for w in archive/warc/site-*.warc.gz; do gzip -dc "$w"; done |
    awk '/^WARC-Type: /{t=$2} /^WARC-Target-URI: /{if (t ~ /^response/) print $2}' | tr -d '\r' | sort)
[ "$(echo "$done_urls" | wc -l)" -ge 30 ] || fail "archival crawl: only $(echo "$done_urls" | wc -l) URLs done"
[ "$done_urls" = "$warc_urls" ] || fail "WARC responses differ from the done URLs: $(diff <(echo "$done_urls") <(echo "$warc_urls") | head -5)"
# fetched.jsonl locates each response in its WARC file.
jq -c 'select(.status == 200) | [.url, .warc.file, .warc.offset, .warc.length]' archive/fetched.jsonl > locs.jsonl
[ "$(wc -l < locs.jsonl)" = "$(echo "$done_urls" | wc -l)" ] || fail "fetched.jsonl: $(wc -l < locs.jsonl) WARC locations"
read -r url file off len < <(jq -r 'select(.[0] | endswith("/p/3.html")) | "\(.[0]) \(.[1]) \(.[2]) \(.[3])"' locs.jsonl | head -1)
# (to a file first: grep -q stopping early would SIGPIPE gzip, and pipefail
# would call that a failure)
tail -c +$((off + 1)) "$file" | head -c "$len" | gzip -dc > record.warc 2>/dev/null || true
grep -aq "WARC-Target-URI: $url" record.warc ||
    fail "fetched.jsonl's WARC location of $url does not hold its record"
echo "ok: archival crawl: $(echo "$done_urls" | wc -l) responses in WARC, $P1 wholly before $P2, zero spend"

# --- lister visits: tiers, revisit schedule, nothing early ----------------------
T=1800000000 DAY=86400
# Listed out of order: the oldest last_modified (p/4) must be visited first.
for i in 0 1 2 3 4; do
    printf '{"url":"http://%s/p/%d.html","last_modified":"2026-0%d-01T00:00:00Z"}\n' "$H1" "$i" $((6 - i))
done > list1.jsonl
visit_order() { tail -n +$(($1 + 1)) "$LOG" | awk '{print $2}' | tr '\n' ' '; }
before=$(log_lines)
FRONTIER_NOW=$T IN_FLIGHT=1 "$EX/lister-visits.sh" visits.db list1.jsonl > day1.jsonl 2> day1.err ||
    { cat day1.err; fail "lister-visits.sh day 1 failed"; }
sleep 0.2
order=$(visit_order "$before")
[ "$order" = "/robots.txt /p/4.html /p/3.html /p/2.html /p/1.html /p/0.html " ] || fail "day 1 visit order: $order"
grep -q 'lister-visits: 5 visits: 5 done' day1.err || fail "day 1 summary: $(cat day1.err)"
jq -e -s --argjson t $T --argjson d $DAY \
    'map(select(.robots | not)) | length == 5 and all(.next_visit >= $t + 0.9 * $d and .next_visit <= $t + 1.1 * $d)' \
    day1.jsonl > /dev/null || fail "day 1 revisits not scheduled one day (+-10%) ahead: $(jq -c '[.url, .next_visit]' day1.jsonl)"
# Half a day later: nothing is due, nothing is fetched.
before=$(log_lines)
FRONTIER_NOW=$((T + DAY / 2)) "$EX/lister-visits.sh" visits.db list1.jsonl > half.jsonl 2> half.err ||
    { cat half.err; fail "lister-visits.sh half a day later failed"; }
sleep 0.2
[ ! -s half.jsonl ] && [ "$(log_lines)" -eq "$before" ] || fail "URLs visited before they were due: $(visit_order "$before")"
grep -q 'nothing is due now' half.err || fail "half-day summary: $(cat half.err)"
# Next day p/1 changed (last_modified after the first visit): it comes first;
# the others are conditional revisits (304).
T2=$((T + DAY + DAY / 5))
jq -c --argjson lm $((T + DAY / 2)) 'if .url | endswith("/p/1.html") then .last_modified = $lm else . end' list1.jsonl > list2.jsonl
before=$(log_lines)
FRONTIER_NOW=$T2 IN_FLIGHT=1 "$EX/lister-visits.sh" visits.db list2.jsonl > day2.jsonl 2> day2.err ||
    { cat day2.err; fail "lister-visits.sh day 2 failed"; }
sleep 0.2
order=$(visit_order "$before")
set -- $order
[ $# -eq 6 ] && [ "$1 $2" = "/robots.txt /p/1.html" ] || fail "day 2: the changed URL was not visited first: $order"
# Revisits are conditional (the same pages: 304 Not Modified).
[ "$(tail -n +$((before + 1)) "$LOG" | grep -c '/p/.* 304$')" = 5 ] || fail "day 2: revisits were not conditional"
grep -q 'frontier-add: 0 added, 4 duplicate, 1 updated' day2.err || fail "day 2 list: $(cat day2.err)"
# Uneventful second visits double the time since the last success (the
# seed's rule: 1.2 days): next visit 2.4 days (+-10%) ahead.
jq -e -s --argjson t $T2 --argjson d $DAY \
    'map(select(.robots | not)) | length == 5 and all(.next_visit >= $t + 2.16 * $d and .next_visit <= $t + 2.64 * $d)' \
    day2.jsonl > /dev/null || fail "day 2 revisits: $(jq -c '[.url, .next_visit]' day2.jsonl)"
echo "ok: lister visits: tier order, changed URL first, revisits at 1 then 2 days, nothing early"
