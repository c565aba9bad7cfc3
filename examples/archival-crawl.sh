#!/usr/bin/env bash
# Site-first archival crawl (Heritrix's hold-queues with zero cost): every
# site is archived whole, one after the other, into WARC files.
#
#   examples/archival-crawl.sh SEEDS OUT
#
# SEEDS  a file of URLs, one per line (or JSON lines with "url"); - = stdin
# OUT    a directory: OUT/crawl.db (the frontier), OUT/warc/site-NNNNN.warc.gz
#        (WARC/1.1, request and response records, gzip per record),
#        OUT/fetched.jsonl (fetch's record of each URL: status, content hash,
#        WARC file, offset and length), OUT/results.jsonl (frontier-done's)
#
# With budget.hold-queues on, a site's queue waits (inactive) until the sites
# already open cannot fill the fetch slots; with cost policy zero an open
# queue never runs out of session budget, so it stays open until the site is
# done. The fewer fetch slots, the fewer sites are open at once: IN_FLIGHT=1
# archives strictly one site after the other when politeness lets it; with
# the default politeness a site sleeps between fetches and the next one opens
# meanwhile, still in seed order.
#
# Environment (all optional):
#   IN_FLIGHT=4      fetches at once over all sites (frontier-lease --max-in-flight)
#   SETTINGS=        more frontier settings, "KEY=VALUE ...", for example
#                    SETTINGS="politeness.min-delay=1 scope.max-depth=20"
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,/^set /p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }
command -v frontier-lease >/dev/null || PATH="$(cd "$(dirname "$0")/.." && pwd)/bin:$PATH"
SEEDS=$1 OUT=$2
F="$OUT/crawl.db"
say() { printf 'archival-crawl: %s\n' "$*" >&2; }
mkdir -p "$OUT/warc"

# Before the seeds: hold-queues applies to queues created afterwards, the cost
# policy to URLs added afterwards.
frontier-budget -f "$F" --hold-queues on --cost-policy zero > /dev/null
set -f; for kv in ${SETTINGS:-}; do frontier-config -f "$F" "${kv%%=*}" "${kv#*=}"; done; set +f
frontier-add -f "$F" -q "$SEEDS"
say "archiving site by site from $SEEDS into $OUT/warc/ (${IN_FLIGHT:-4} fetches at once)"

set +e
frontier-lease -f "$F" --follow --max-in-flight "${IN_FLIGHT:-4}" \
    | fetch -c "${IN_FLIGHT:-4}" --links --warc "$OUT/warc/site" \
    | tee -a "$OUT/fetched.jsonl" \
    | frontier-done -f "$F" >> "$OUT/results.jsonl"
status=("${PIPESTATUS[@]}")
set -e
status=("${status[0]}" "${status[1]}" "${status[3]}")  # lease, fetch, done (not tee)
case ${status[0]} in
    0) say "finished: every site is archived" ;;
    4) say "paused at finish: queues retired by a budget still hold URLs (frontier-report -f $F --queues --state retired)" ;;
    *) say "frontier-lease exited ${status[0]}"; exit 1 ;;
esac
[ "${status[1]}" -le 1 ] && [ "${status[2]}" -le 1 ] || { say "fetch or frontier-done failed (exit ${status[1]}, ${status[2]})"; exit 1; }

records=0
for w in "$OUT"/warc/*.warc.gz; do
    [ -e "$w" ] || continue
    records=$((records + $(gzip -dc "$w" | grep -ac '^WARC-Type: response')))
done
frontier-report -f "$F" | sed -n '2,3p' >&2
say "$records response records in $(ls "$OUT"/warc/*.warc.gz 2>/dev/null | wc -l) WARC file(s) under $OUT/warc/"
