# The whole stream of a small frontier: header, one line per row of every
# table (NULL columns left out), end line with the row counts.
printf '%s\n' 'http://a.example/1' \
  '{"url":"http://a.example/2","type":"article","recrawl":true,"meta":{"k":["v",1.5]},"last_modified":"2026-01-01T00:00:00Z"}' |
  frontier-add -q -f f.db
frontier-config -f f.db politeness.min-delay 0.5
frontier-config -f f.db --domain a.example robots.enabled false
frontier-budget -q -f f.db --queue a.example --total-budget 9
frontier-lease -f f.db -n 1 | cut -c1-60
frontier-export -f f.db; echo "exit=$?"
# -o writes the same stream to a file (beside it, then renamed).
frontier-export -q -f f.db -o out.jsonl; echo "exit=$?"; ls out.jsonl*
cmp out.jsonl <(frontier-export -q -f f.db) && echo "same stream"
# A read-only tool: a missing file is an error.
frontier-export -f missing.db; echo "exit=$?"
