# A revisit lease piped into fetch sends If-Modified-Since (frontier-lease(1),
# http_last_modified; fetch(1), INPUT): the first visit records the page's
# Last-Modified, the revisit's lease carries it (a number), and fetch sends it
# whatever form it takes (a number, its text, an HTTP date): the test server
# answers 304 only to a conditional request. The ETag is removed from the
# revisit record, so the 304 comes from If-Modified-Since alone.
set -euo pipefail
: "${ROOT:?}"
source "$ROOT/tests/server/common.sh"
start_server
fail() { echo "FAIL: $*"; exit 1; }
export FRONTIER_NOW=1800000000
frontier-config -f r.db robots.enabled false
frontier-config -f r.db politeness.min-delay 0 > /dev/null
echo "{\"url\":\"$BASE/etag\",\"recrawl\":true}" | frontier-add -q -f r.db
frontier-lease -q -f r.db | fetch -q | frontier-done -q -f r.db
# After the revisit interval (recrawl.interval, one day, +-10%).
export FRONTIER_NOW=$((FRONTIER_NOW + 2 * 86400))
frontier-lease -q -f r.db > revisit.jsonl
[ "$(jq -r '.http_last_modified | type' revisit.jsonl)" = number ] || fail "lease: http_last_modified $(cat revisit.jsonl)"
jq -c 'del(.etag)' revisit.jsonl | fetch -q > out.jsonl
[ "$(jq -r .status out.jsonl)" = 304 ] || fail "revisit not conditional: $(cat out.jsonl)"
# Every form of the date is sent.
lm=$(jq -r .http_last_modified revisit.jsonl)
for v in "$lm" "\"$lm\"" '"Tue, 14 Nov 2023 22:13:20 GMT"' '"2023-11-14T22:13:20Z"'; do
    echo "{\"url\":\"$BASE/etag\",\"http_last_modified\":$v}" | fetch -q > one.jsonl
    [ "$(jq -r .status one.jsonl)" = 304 ] || fail "http_last_modified $v: $(cat one.jsonl)"
done
frontier-done -q -f r.db < out.jsonl
echo "ok: revisit leases are conditional (If-Modified-Since), in every date form"
