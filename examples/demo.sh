#!/usr/bin/env bash
# make demo: a real, polite crawl of a local multi-host site, a budget change
# in the middle of the crawl, then the report (text, and an HTML page).
#
# The site is Debian's python3-doc HTML (530 pages, 67 MB) served by nginx on
# 127.0.0.1 on three ports: three hosts, three queues. Politeness is on but
# scaled to a local server, and a total budget caps every queue; the budget of
# the first host is raised while the crawl runs. Nothing leaves 127.0.0.1.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
OUT="${DEMO_OUT:-$ROOT/out/demo}"
DOCS="${DEMO_SITE:-/usr/share/doc/python3/html}"
[ -f "$DOCS/index.html" ] || { echo "demo: $DOCS/index.html missing (apt-get install python3-doc)" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
F="$OUT/crawl.db"
say() { printf 'demo: %s\n' "$*" >&2; }

source "$ROOT/tests/tools/nginx.sh"
nginx_start "$DOCS" 3
trap nginx_stop EXIT
read -r P1 P2 P3 <<<"$NGINX_PORTS"

# One command for the crawl (frontier-crawl: frontier-lease --follow | fetch
# --links --warc | frontier-done, then the reports), with politeness on but
# scaled to a local server: at most 2 fetches in flight per host, then a
# pause of 2 x the fetch time, at least 20 ms, at most 1 s; every queue may
# spend 150 URLs in total (unit cost), then it retires.
say "crawling python3-doc on 3 local hosts (127.0.0.1:$P1, :$P2, :$P3) with frontier-crawl"
say "politeness on, scaled to a local server: min-delay 0.02 s, delay-factor 2, max-delay 1 s, 2 in flight per host;"
say "robots.txt checked; every queue capped at a total budget of 150 URLs"
start=$(date +%s.%N)
set +e
for p in $P1 $P2 $P3; do echo "http://127.0.0.1:$p/index.html"; done |
    frontier-crawl -o "$OUT" -i - --warc -c 16 --depth 20 --per-site 150 --progress \
        --set politeness.min-delay=0.02 --set politeness.delay-factor=2 --set politeness.max-delay=1 \
        --set politeness.max-in-flight=2 &
crawl=$!
sleep 2
say "mid-crawl: raising the total budget of 127.0.0.1:$P1 to 400 while the crawl runs"
frontier-budget -f "$F" --queue "127.0.0.1:$P1" --total-budget 400 >/dev/null
wait $crawl
crawl_exit=$?
set -e
end=$(date +%s.%N)
case $crawl_exit in
    0) say "the crawl finished" ;;
    4) say "paused at finish (exit 4): the crawl is done except for queues retired by their budget" ;;
    *) say "frontier-crawl exited $crawl_exit"; exit 1 ;;
esac
pages=$(grep -c '"result":"done"' "$OUT/results.jsonl" || true)
say "$pages results recorded in $(awk "BEGIN{printf \"%.1f\", $end - $start}") s"
echo
cat "$OUT/report.txt"
echo
say "files: $F (frontier), $OUT/report.html (report page), $OUT/warc/ (WARC files), $OUT/results.jsonl (results)"
