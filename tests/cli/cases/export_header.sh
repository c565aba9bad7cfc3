# The first line must be a frontier-export header this tool can read; when
# it is not, nothing is imported and the target file is not even created.
echo http://a.example/1 | frontier-add -q -f f.db
frontier-export -q -f f.db > a.jsonl
tail -n +2 a.jsonl | frontier-import -f b.db; echo "no header: exit=$?"
sed '1s/frontier-export/frontier-dump/' a.jsonl | frontier-import -f b.db; echo "other format: exit=$?"
sed '1s/"format_version":1/"format_version":2/' a.jsonl | frontier-import -f b.db; echo "newer format: exit=$?"
sed '1s/"format_version":1,//' a.jsonl | frontier-import -f b.db; echo "no format version: exit=$?"
sed '1s/"schema_version":9/"schema_version":10/' a.jsonl | frontier-import -f b.db; echo "newer schema: exit=$?"
sed '1s/^{/{{/' a.jsonl | frontier-import -f b.db; echo "bad json: exit=$?"
frontier-import -f b.db < /dev/null; echo "empty input: exit=$?"
test -e b.db && echo "b.db created" || echo "b.db not created"
# An older schema is fine: its export lacks first_success and hosts.seed,
# which are NULL, and queues.bytes (version 4), which is 0.
sed -e '1s/"schema_version":8/"schema_version":1/' -e 's/,"seed":1}/}/' -e 's/,"bytes":0}/}/' a.jsonl | frontier-import -q -f old.db; echo "older schema: exit=$?"
# A cut-off stream (no end line) is imported but reported incomplete, exit 1;
# so is one whose end line disagrees with the rows read.
head -n -1 a.jsonl | frontier-import -f cut.db | jq -c '{total, complete}'; echo "cut off: exit=${PIPESTATUS[1]}"
grep -v '"table":"counters"' a.jsonl | frontier-import -f lost.db | jq -c '{total, complete, ok: .check.ok}'
echo "rows lost: exit=${PIPESTATUS[1]}"
# Usage errors exit 2.
frontier-import -f b.db one two; echo "two inputs: exit=$?"
