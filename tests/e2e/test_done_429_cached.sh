# The news crawler's "try to serve from cache" on a 429 (frontier-done(1),
# DESCRIPTION step 3): a revisit that gets a 429 while the URL has a stored
# copy (the content hash of its first, successful visit) ends "cached": the
# URL keeps that hash and is done, its revisit is scheduled after its stored
# interval, and its queue still backs off for the 429 (60 s without
# Retry-After). A 429 for a URL never fetched is retried, as before.
# tests/pg/run.sh runs it against PostgreSQL as well (E2E_FRONTIER).
set -euo pipefail
: "${ROOT:?}"
source "$ROOT/tests/server/common.sh"
start_server
fail() { echo "FAIL: $*"; exit 1; }
F=${E2E_FRONTIER:-c.db}
export FRONTIER_NOW=1800000000
frontier-config -f "$F" robots.enabled false
frontier-config -f "$F" politeness.min-delay 0 > /dev/null
printf '%s\n' "{\"url\":\"$BASE/ok-then-429/a\",\"recrawl\":true}" | frontier-add -q -f "$F"
frontier-lease -q -f "$F" | fetch -q | frontier-done -f "$F" > first.jsonl 2>/dev/null
[ "$(jq -r .result first.jsonl)" = done ] || fail "first visit: $(cat first.jsonl)"
row() { frontier-export -q -f "$F" | jq -c "select(.table == \"urls\" and (.url | endswith(\"/ok-then-429/$1\")))"; }
hash1=$(row a | jq -r .content_hash)
[ -n "$hash1" ] && [ "$hash1" != null ] || fail "no content hash after the first visit: $(row a)"

# The revisit, two days later, gets a 429.
export FRONTIER_NOW=$((FRONTIER_NOW + 2 * 86400))
frontier-lease -q -f "$F" | fetch -q > revisit.jsonl
[ "$(jq -r .status revisit.jsonl)" = 429 ] || fail "the server did not answer 429: $(cat revisit.jsonl)"
frontier-done -v -f "$F" < revisit.jsonl > done.jsonl 2> done.err
[ "$(jq -r .result done.jsonl)" = cached ] || fail "429 with a stored copy: $(cat done.jsonl)"
[ "$(jq -r .next_visit done.jsonl)" = $((FRONTIER_NOW + 86400)) ] || fail "revisit not after the stored interval: $(cat done.jsonl)"
grep -q '1 done (1 from cache)' done.err || fail "summary: $(cat done.err)"
r=$(row a)
[ "$(jq -r .content_hash <<< "$r")" = "$hash1" ] || fail "the stored copy was replaced: $r"
[ "$(jq -r .state <<< "$r")" = 2 ] || fail "not done: $r"
[ "$(jq -r .successes <<< "$r")" = 1 ] || fail "a 429 counted as a successful visit: $r"
[ "$(jq -r .due_at <<< "$r")" = $((FRONTIER_NOW + 86400)) ] || fail "revisit not scheduled: $r"
wake=$(frontier-export -q -f "$F" | jq -r 'select(.table == "queues") | .wake_at')
[ "$(jq -n "$wake >= $FRONTIER_NOW + 60")" = true ] || fail "the queue did not back off for the 429: wake_at $wake"

# A 429 for a URL without a stored copy: retried, as before.
export FRONTIER_NOW=$((FRONTIER_NOW + 120))
printf '%s\n' "{\"url\":\"$BASE/status/429\",\"recrawl\":true}" | frontier-add -q -f "$F"
frontier-lease -q -f "$F" | fetch -q | frontier-done -f "$F" > fresh.jsonl 2>/dev/null
[ "$(jq -r .result fresh.jsonl)" = retry ] || fail "429 without a stored copy: $(cat fresh.jsonl)"
frontier-report -f "$F" --check > /dev/null || fail "invariants after a cached result"
echo "ok: a 429 with a stored copy is served from cache; without one it is retried"
