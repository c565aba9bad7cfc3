# A new URL's fingerprint waits in url_fps_new and moves to url_fps, in key
# order, with the others once a transaction leaves FRONTIER_FP_BUFFER of
# them there (frontier(7), FILE FORMAT): a URL is known in either table, so
# a duplicate (added again, or a link found again) stays a duplicate before
# and after the move, which is spread over the tool's next commits; --check
# finds each URL's fingerprint once (and fails
# when one is missing or one is too many); an export
# leaves both tables out and the import builds url_fps. A bad value is a
# usage error before the file is touched.
fps() { sqlite3 "$1" "SELECT (SELECT count(*) FROM url_fps) || ' in url_fps, ' || (SELECT count(*) FROM url_fps_new) || ' in url_fps_new'"; }
export FRONTIER_FP_BUFFER=3
frontier-config -f f.db robots.enabled false
printf 'http://a.example/%s\n' 1 2 | frontier-add -q -f f.db
fps f.db
printf 'http://a.example/%s\n' 1 2 3 | frontier-add -f f.db | jq -r '.url + " " + .status'
fps f.db
printf 'http://a.example/%s\n' 3 4 | frontier-add -f f.db | jq -r '.url + " " + .status'
fps f.db
# Links of a result: one in url_fps_new (4), one in url_fps (2), one new (5).
frontier-lease -q -f f.db -n 1 | jq -r .url
echo '{"lease":"1-1","status":200,"links":["http://a.example/4","http://a.example/2","http://a.example/5"]}' |
    frontier-done -f f.db | jq -c '{url, result, links_added}'
frontier-report -f f.db --json | jq -c .urls
fps f.db
frontier-report -f f.db --check | grep fingerprint
frontier-export -q -f f.db | frontier-import -q -f g.db
fps g.db
# A URL whose fingerprint is in neither table, and one pair too many: --check fails.
sqlite3 f.db "DELETE FROM url_fps WHERE id = 2" "INSERT INTO url_fps_new(fp, id) VALUES (1, 99)"
frontier-report -f f.db --check | grep -A2 fingerprint; echo "exit=${PIPESTATUS[0]}"
printf 'http://a.example/%s\n' 5 6 | frontier-add -f g.db | jq -r '.url + " " + .status'
# Four new fingerprints in one transaction, three at a time: moved in two
# transactions (the three smallest, then the last).
printf 'http://b.example/%s\n' 1 2 3 4 | frontier-add -q -f g.db
fps g.db
printf 'http://b.example/%s\n' 1 2 3 4 | frontier-add -f g.db | jq -r '.url + " " + .status'
frontier-report -f g.db --check | grep fingerprint
# A move is spread over the commits that follow: one chunk after each (or
# as many as that commit added), each going on from where the last one
# stopped. Four at a time, three a commit: the second commit leaves six and
# moves the four smallest; the third leaves five and moves on from there:
# the few above where the last move stopped (fewer than four: up to the
# largest key, not counted as a chunk), then, from the smallest key again,
# the rest (fewer than four: all). All are found again.
printf 'http://c.example/%s\n' 1 2 3 4 5 6 7 8 9 | FRONTIER_FP_BUFFER=4 frontier-add -q --batch 3 -f s.db
fps s.db
printf 'http://c.example/%s\n' 1 2 3 4 5 6 7 8 9 | FRONTIER_FP_BUFFER=4 frontier-add -f s.db | jq -r .status | sort | uniq -c
frontier-report -f s.db --check | grep -E 'fingerprint|lease-order'
# The transaction after each commit is sized by what that commit added:
# four times as many, at least 4,096 and at most 65,536 (or
# FRONTIER_FP_BUFFER, if smaller). Commits of 1,000 URLs and a buffer of
# 8,192: the 9th commit leaves 9,000 and moves 4,096, the 10th moves 4,096
# more, the 11th the rest (2,808); the 20th leaves 9,000 again and moves
# 4,096: 4,904 wait at the end (whole 8,192 slices would leave none). All
# are found again.
seq 20000 | sed 's|^|http://a.example/|' | FRONTIER_FP_BUFFER=8192 frontier-add -q --batch 1000 -f m.db
fps m.db
seq 20000 | sed 's|^|http://a.example/|' | FRONTIER_FP_BUFFER=8192 frontier-add -f m.db | jq -r .status | sort | uniq -c
frontier-report -f m.db --check | grep -E 'fingerprint|lease-order'
echo http://a.example/7 | FRONTIER_FP_BUFFER=0 frontier-add -f h.db; echo "exit=$?"
test -e h.db && echo "h.db made" || echo "no h.db"
