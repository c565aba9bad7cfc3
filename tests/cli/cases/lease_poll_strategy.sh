# frontier-lease --follow polls like Iudex's GenericWorkPollStrategy
# (frontier-lease(1), Follow mode): --min-poll-interval spaces the batches;
# --host-ratio tops up when the hosts being fetched fall under that ratio of
# those after the last batch, though the orders out are above --refill-ratio.
frontier-config -f f.db robots.enabled false
frontier-config -f f.db politeness.min-delay 0 > /dev/null
frontier-config -f f.db politeness.delay-factor 0 > /dev/null
for h in a b c; do printf 'http://%s.example/1\nhttp://%s.example/2\n' $h $h; done | frontier-add -q -f f.db
# -n 1 every 2 s: 2 batches in 3 s (without it, 3 at once).
timeout 3 frontier-lease -q -f f.db --follow --forever -n 1 --min-poll-interval 2 > spaced.jsonl
echo "min-poll-interval 2, 3 s: $(wc -l < spaced.jsonl) leases"
frontier-lease -q -f f.db --reclaim
# 3 hosts leased; one result back: 2 hosts of 3 still out.
follow() {  # RATIO
    frontier-lease -q -f f.db --follow --forever --max-in-flight 10 --refill-ratio 0.1 --host-ratio "$1" \
        --poll-interval 0.05 > follow.jsonl &
    pid=$!
    sleep 1
    lease=$(jq -r "select(.url | endswith(\"/1\")) | .lease" follow.jsonl | head -1)  # its queue has a /2
    echo "{\"lease\":\"$lease\",\"status\":200}" | frontier-done -q -f f.db
    sleep 1
    kill $pid; wait $pid
    echo "host-ratio $1: $(wc -l < follow.jsonl) leases"
    frontier-lease -q -f f.db --reclaim
}
follow 0
follow 1
frontier-lease -f f.db --follow --host-ratio 2; echo "exit=$?"
frontier-lease -f f.db --follow --min-poll-interval -1; echo "exit=$?"
