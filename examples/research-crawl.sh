#!/usr/bin/env bash
# One-off research crawl: seeds in, crawl until nothing is left, results and
# a report out.
#
#   examples/research-crawl.sh SEEDS OUT
#
# SEEDS  a file of URLs, one per line (or JSON lines with "url"); - = stdin
# OUT    a directory: OUT/crawl.db (the frontier), OUT/results.jsonl (one
#        fetch result per URL, as frontier-done annotated it), OUT/report.txt
#        and OUT/report.html
#
# Environment (all optional):
#   DEPTH=3          follow links this many hops from the seeds (scope.max-depth)
#   PER_SITE=1000    fetch at most this many URLs per site (budget.total); a
#                    site that reaches it is retired and the crawl pauses at
#                    finish (raise it with examples/budget-bump.sh, run again)
#   CONCURRENCY=16   fetches at once over all sites
#   SETTINGS=        more frontier settings, "KEY=VALUE ...", for example
#                    SETTINGS="politeness.min-delay=1 robots.user-agent=mybot"
#
# Politeness is the frontier's default unless SETTINGS changes it: one fetch
# at a time per site, then a pause of 5 x the fetch time, 3 to 30 s, and the
# site's robots.txt. Running it again with the same OUT resumes the crawl
# (URLs leased by an interrupted run come back when their lease expires).
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,/^set /p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }
command -v frontier-lease >/dev/null || PATH="$(cd "$(dirname "$0")/.." && pwd)/bin:$PATH"
SEEDS=$1 OUT=$2
F="$OUT/crawl.db"
say() { printf 'research-crawl: %s\n' "$*" >&2; }
mkdir -p "$OUT"

frontier-config -f "$F" scope.max-depth "${DEPTH:-3}"
frontier-budget -f "$F" --total-budget "${PER_SITE:-1000}" > /dev/null
set -f; for kv in ${SETTINGS:-}; do frontier-config -f "$F" "${kv%%=*}" "${kv#*=}"; done; set +f
frontier-add -f "$F" -q "$SEEDS"
say "crawling from $SEEDS: depth ${DEPTH:-3}, at most ${PER_SITE:-1000} URLs per site, ${CONCURRENCY:-16} fetches at once"

set +e
frontier-lease -f "$F" --follow --max-in-flight "${CONCURRENCY:-16}" \
    | fetch -c "${CONCURRENCY:-16}" --links \
    | frontier-done -f "$F" >> "$OUT/results.jsonl"
status=("${PIPESTATUS[@]}")
set -e
case ${status[0]} in
    0) say "finished: nothing is left to crawl" ;;
    4) say "paused at finish: some sites reached their budget (PER_SITE=${PER_SITE:-1000}): see frontier-report -f $F --queues --state retired, raise it with examples/budget-bump.sh $F, run again" ;;
    *) say "frontier-lease exited ${status[0]}"; exit 1 ;;
esac
[ "${status[1]}" -le 1 ] && [ "${status[2]}" -le 1 ] || { say "fetch or frontier-done failed (exit ${status[1]}, ${status[2]})"; exit 1; }

frontier-report -f "$F" > "$OUT/report.txt"
frontier-report -f "$F" --html "$OUT/report.html"
sed -n '2,3p' "$OUT/report.txt" >&2
say "results: $OUT/results.jsonl ($(grep -v '"robots":true' "$OUT/results.jsonl" | grep -c '"result":"done"' || true) pages done); report: $OUT/report.txt, $OUT/report.html"
