# frontier-budget --apply: JSON-lines edits on stdin, each its own short
# transaction. Keys that are not edits are ignored, so whole report rows can
# be fed back; a bad line is rejected with a reason, the others are applied,
# and the exit code is 1 at the end.
. "$CASES/budget_lib.bash"
setup
{ urls a.example 3; urls b.example 3; urls c.example 3; } | frontier-add -q -f f.db
frontier-budget -f f.db --total-budget 1
lease_n 4
cat lease.err
queues
frontier-budget -f f.db --apply --create <<'IN'
{"queue":"b.example","unretire":true}
{"queue":"a.example","state":"retired","size":2,"session_balance":2999,"total_spend":1,"total_budget":3,"last_peek_url":"http://a.example/1"}
{"domain":"Example.ORG","replenish":7}
{"queue":"c.example","retire":true,"note":"hold for review"}
{"replenish":500,"hold_queues":"on","cost_policy":"wag","error_penalty":10}
{"queue":"b.example","size":2}
{"queue":"a.example",
{"queue":"a.example","total_budget":"lots"}
{"queue":"a.example","domain":"example.org","replenish":1}
{"total_budget":5,"retire":true}
{"queue":"nosuch.example","retire":true}
{"queue":"a.example","cost_policy":"zero"}
{"queue":"a.example","retire":true,"unretire":true}
{"cost_policy":"free"}
{"queue":"","replenish":1}
{"queue":"a.example","total_budget":null}
IN
echo "exit=$?"
frontier-budget -f f.db
queues
echo "-- b was unretired but is still over the global total of 1: retired again at its turn"
lease_n 3
queues
echo "-- -q prints only rejections; files as arguments"
printf '%s\n' '{"queue":"b.example","total_budget":9}' '{"queue":7}' > edits.jsonl
frontier-budget -f f.db -q --apply edits.jsonl; echo "exit=$?"
frontier-budget -f f.db --apply --queue a.example < /dev/null; echo "exit=$?"
frontier-budget -f f.db edits.jsonl; echo "exit=$?"
