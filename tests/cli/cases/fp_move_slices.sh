# A move of the fingerprint buffer is spread over the tool's next commits,
# one transaction after each, sized by what that commit added: four times
# as many, at least 4,096 and at most 65,536 (or FRONTIER_FP_BUFFER, if
# smaller) (frontier(7), FILE FORMAT). Here commits of 1,000 URLs and a
# buffer of 8,192: the 9th commit leaves 9,000 and moves 4,096, the 10th
# moves 4,096 more, the 11th the rest (2,808); the 20th leaves 9,000 again
# and moves 4,096: 4,904 wait at the end. (Whole 8,192 slices would have
# left none.) Every URL is found again either way.
fps() { sqlite3 "$1" "SELECT (SELECT count(*) FROM url_fps) || ' in url_fps, ' || (SELECT count(*) FROM url_fps_new) || ' in url_fps_new'"; }
export FRONTIER_FP_BUFFER=8192
frontier-config -f f.db robots.enabled false
seq 20000 | sed 's|^|http://a.example/|' | frontier-add -q --batch 1000 -f f.db
fps f.db
seq 20000 | sed 's|^|http://a.example/|' | frontier-add -f f.db | jq -r .status | sort | uniq -c
frontier-report -f f.db --check | grep -E 'fingerprint|lease-order'
