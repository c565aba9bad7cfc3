# One crawler identity (frontier(7), ROBOTS.TXT; fetch(1), --user-agent): the
# name robots.txt is matched with is the name the site sees. A site whose
# robots.txt shuts out "mybot" and lets everyone else in: with
# robots.user-agent mybot nothing but robots.txt is fetched, and that with
# "User-Agent: mybot/..."; with the default name the pages are fetched as
# "frontier/...", and a "User-agent: frontier" group is obeyed.
set -euo pipefail
: "${ROOT:?}"
source "$ROOT/tests/server/common.sh"
export FRONTIER_NOW=1800000000
fail() { echo "FAIL: $*"; exit 1; }

start_site S; P=$SITE_PORT
printf '<a href="/a.html">a</a> <a href="/private/b.html">b</a>\n' > S/files/index.html
echo a > S/files/a.html
mkdir -p S/files/private && echo b > S/files/private/b.html
printf 'User-agent: mybot\nDisallow: /\n\nUser-agent: frontier\nDisallow: /private\n\nUser-agent: *\nAllow: /\n' > S/files/robots.txt

crawl() {  # F: lease, fetch, done until nothing is left
    local now=$FRONTIER_NOW
    for _ in $(seq 20); do
        now=$((now + 60))
        FRONTIER_NOW=$now frontier-lease -q -f "$1" -n 50 > leased.jsonl || true
        [ -s leased.jsonl ] || break
        cat leased.jsonl >> "leases_$1.jsonl"
        fetch -q --links < leased.jsonl | FRONTIER_NOW=$now frontier-done -q -f "$1"
    done
}

# ---- robots.user-agent mybot: shut out, and seen as mybot
frontier-config -f m.db robots.user-agent mybot
frontier-config -f m.db politeness.min-delay 0 > /dev/null
echo "http://127.0.0.1:$P/" | frontier-add -q -f m.db
crawl m.db
[ "$(cut -f1 S/requests)" = /robots.txt ] || fail "mybot fetched more than robots.txt: $(cat S/requests)"
cut -f2 S/requests | grep -c >/dev/null '^mybot/0.1.0 (+crawl-frontier; libcurl/' || fail "robots.txt not fetched as mybot: $(cat S/requests)"
jq -e -s 'all(.user_agent == "mybot")' leases_m.db.jsonl > /dev/null || fail "leases without user_agent mybot"
[ "$(frontier-report -f m.db --json | jq .urls.blocked)" = 1 ] || fail "the seed was not blocked by robots.txt"
echo "ok: robots.user-agent mybot: only robots.txt fetched, as mybot"

# ---- the default name: frontier, its group obeyed
: > S/requests
frontier-config -f d.db politeness.min-delay 0 > /dev/null
echo "http://127.0.0.1:$P/" | frontier-add -q -f d.db
crawl d.db
[ "$(cut -f1 S/requests | sort | tr '\n' ' ')" = "/ /a.html /robots.txt " ] || fail "default: requests $(cat S/requests)"
[ "$(cut -f2 S/requests | grep -vc '^frontier/0.1.0 (+crawl-frontier; libcurl/')" = 0 ] || fail "default: user agents $(cat S/requests)"
echo "ok: the default name frontier: its group obeyed, sent as frontier/"

# ---- fetch --user-agent names another crawler: it wins, with a warning
: > S/requests
echo "{\"url\":\"http://127.0.0.1:$P/a.html\",\"user_agent\":\"mybot\"}" | fetch --user-agent 'otherbot/2.0' > o.jsonl 2> o.err
[ "$(cut -f2 S/requests)" = "otherbot/2.0" ] || fail "--user-agent not sent: $(cat S/requests)"
grep -q "names another crawler than the records' 'mybot'" o.err || fail "no warning: $(cat o.err)"
# A bad name is refused.
frontier-config -f d.db robots.user-agent 'my bot/1.0' 2> bad.err && fail "robots.user-agent 'my bot/1.0' accepted"
grep -q "crawler name" bad.err || fail "robots.user-agent error: $(cat bad.err)"
echo '{"url":"http://127.0.0.1:1/","user_agent":"a b"}' | fetch -q > bad.jsonl || true
[ "$(jq -r .error_class bad.jsonl)" = bad-input ] || fail "fetch user_agent 'a b': $(cat bad.jsonl)"
echo "ok: fetch --user-agent, bad names"
