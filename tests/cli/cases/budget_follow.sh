# A long-running frontier-lease --follow picks up a budget edit at once: a
# retired queue whose budget is raised is leased from without a restart.
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --queue a.example --total-budget 1 --create
{ urls a.example 3; urls b.example 1; } | frontier-add -q -f f.db
lease 2 -
echo '{"lease":"1-1","status":200}' | frontier-done -q -f f.db
queues
# b/1 stays out, so the crawl is not finished and --follow waits.
frontier-lease -f f.db --follow --poll-interval 0.05 > follow.out 2> follow.err &
pid=$!
wait_for() { for _ in $(seq 200); do grep -q "$1" follow.out && return 0; sleep 0.05; done; echo "timeout waiting for $1"; }
sleep 0.3
echo "-- while --follow runs: nothing leased yet"
wc -l < follow.out
frontier-budget -f f.db --queue a.example --total-budget 10
wait_for a.example/2
sed -n 's/.*"url":"\([^"]*\)","lease":"\([^"]*\)".*/\1 \2/p' follow.out
printf '%s\n' '{"lease":"2-1","status":200}' '{"lease":"4-1","status":200}' | frontier-done -q -f f.db
wait_for a.example/3
echo '{"lease":"3-1","status":200}' | frontier-done -q -f f.db
wait $pid; echo "follow exit=$?"
sed -n 's/.*"url":"\([^"]*\)","lease":"\([^"]*\)".*/\1 \2/p' follow.out
cat follow.err
queues
