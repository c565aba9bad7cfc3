# frontier-budget --apply refuses what the options refuse (the same checks):
# a total budget below -1, an empty domain or queue, or one that is not a host
# name (a NUL, a blank, non-ASCII); and a line that is neither an edit nor a
# scope (a bare word, a number, an array, {}, misspelt keys) is a rejection,
# not a skip. Each rejected line names its input line; exit 1.
. "$CASES/budget_lib.bash"
setup
{ urls a.example 1; } | frontier-add -q -f f.db
echo "-- the options"
frontier-budget -f f.db --total-budget -5; echo "exit=$?"
frontier-budget -f f.db --total-budget -2; echo "exit=$?"
frontier-budget -f f.db --domain '' --total-budget 5; echo "exit=$?"
frontier-budget -f f.db --queue '' --replenish 5; echo "exit=$?"
frontier-budget -f f.db --domain 'a b.example' --total-budget 5; echo "exit=$?"
frontier-budget -f f.db --queue "$(printf 'a\tb')" --total-budget 5; echo "exit=$?"
frontier-budget -f f.db --domain 'bücher.example' --total-budget 5; echo "exit=$?"
frontier-budget -f f.db --domain '' ; echo "exit=$?"
echo "-- nothing was changed"
frontier-budget -f f.db
echo "-- --apply"
frontier-budget -f f.db --apply --create <<'IN'
{"total_budget":-5}
{"queue":"a.example","total_budget":-2}
{"domain":"a\u0000b.example","replenish":1}
{"domain":"a b.example","replenish":1}
{"queue":"b\u00fccher.example","replenish":1}
{"domain":"","total_budget":1}
hello world
42
[1,2]
null
{}
{"totalbudget":5}

{"queue":"a.example","size":1}
{"queue":"A.Example","total_budget":-1}
{"domain":"xn--bcher-kva.example","total_budget":0}
{"queue":"[::1]:8080","replenish":2}
IN
echo "exit=$?"
frontier-budget -f f.db
