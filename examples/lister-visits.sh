#!/usr/bin/env bash
# Recurring lister visits (the Software Heritage policy): run once a day with
# that day's list from a lister; URLs are visited when new or changed, and
# the unchanged ones less and less often.
#
#   lister | examples/lister-visits.sh visits.db > visits-today.jsonl
#   examples/lister-visits.sh visits.db list.jsonl > visits-today.jsonl
#   # crontab: 0 3 * * *  my-lister | /path/to/lister-visits.sh /srv/visits.db >> /srv/visits.jsonl
#
# The list is JSON lines, one per origin, with "url" and "last_modified" (the
# date the lister saw it change: RFC 3339 or epoch seconds; may be missing).
# Every URL is added with recrawl:true. Visits due now are made, in the
# policy's order: never visited first (oldest last_modified first), then
# those whose last_modified is newer than their last visit (largest lag
# first), then the rest by their revisit date. After each visit the next one
# is scheduled: 1 day at first, halved when the content changed, doubled when
# it did not, between recrawl.min-interval (1 day) and recrawl.max-interval
# (64 days). URLs that are not due yet are left alone; a URL that was
# disabled after failing visits is enabled again when it is listed again.
#
# Output: frontier-done's records of today's visits on stdout (with
# "next_visit"); a summary on stderr. Needs jq.
#
# Environment (all optional):
#   IN_FLIGHT=8      visits at once (frontier-lease --max-in-flight)
#   SETTINGS=        more frontier settings, "KEY=VALUE ...", for example
#                    SETTINGS="recrawl.max-interval=2592000 politeness.min-delay=1"
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,/^set /p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }
command -v frontier-lease >/dev/null || PATH="$(cd "$(dirname "$0")/.." && pwd)/bin:$PATH"
command -v jq >/dev/null || { echo "lister-visits: needs jq (apt-get install jq)" >&2; exit 1; }
F=$1 LIST=${2:--}
say() { printf 'lister-visits: %s\n' "$*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

set -f; for kv in ${SETTINGS:-}; do frontier-config -f "$F" "${kv%%=*}" "${kv#*=}"; done; set +f
# Today's list: new URLs are added, known ones whose last_modified moved are
# updated (and so come first), unchanged ones are duplicates.
# (frontier-add's summary on stderr counts them.)
jq -c '{url, last_modified, recrawl: true}' "$LIST" | frontier-add -f "$F" > /dev/null

set +e
frontier-lease -f "$F" --follow --max-in-flight "${IN_FLIGHT:-8}" \
    | fetch -c "${IN_FLIGHT:-8}" \
    | frontier-done -f "$F" | tee "$tmp/done.jsonl"
status=("${PIPESTATUS[@]}")
set -e
[ "${status[0]}" -eq 0 ] || [ "${status[0]}" -eq 4 ] || { say "frontier-lease exited ${status[0]}"; exit 1; }
[ "${status[1]}" -le 1 ] && [ "${status[2]}" -le 1 ] || { say "fetch or frontier-done failed (exit ${status[1]}, ${status[2]})"; exit 1; }

jq -rs '[.[] | select(.robots | not)] as $v
    | if ($v | length) == 0 then "nothing is due now" else
      "\($v | length) visits: \([$v[] | select(.result == "done")] | length) done, \([$v[] | select(.result == "retry")] | length) to retry, \([$v[] | select(.result == "failed" or .result == "disabled")] | length) failed"
      + (if ([$v[] | .next_visit // empty] | length) > 0
         then "; next visit due \([$v[] | .next_visit // empty] | min | todate)" else "" end) end' "$tmp/done.jsonl" |
    sed 's/^/lister-visits: /' >&2
