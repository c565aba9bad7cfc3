# Export, import, export again: the streams are identical but for the
# header's time, the reports agree and the copy passes --check. Leases out in
# the original are out in the copy under the same ids, and the crawl goes on
# in the copy exactly as it would have in the original.
source "$CASES/report_setup.inc"
echo '{"url":"http://a.example/r","recrawl":true,"type":"article","meta":{"k":1},"last_modified":"2026-01-01T00:00:00Z"}' |
  frontier-add -q -f f.db
frontier-lease -f f.db -n 5 --per-queue 2 > leases.jsonl; echo "lease exit=$?"
cut -c1-70 leases.jsonl
frontier-export -q -f f.db -o a.jsonl; echo "export exit=$?"
FRONTIER_NOW=$((T+40)) frontier-import -f b.db a.jsonl > import.out; echo "import exit=$?"
jq -c '{total, rejected, complete, ok: .check.ok}' import.out
FRONTIER_NOW=$((T+50)) frontier-export -q -f b.db > b.jsonl
head -1 a.jsonl; head -1 b.jsonl; tail -1 b.jsonl
cmp <(tail -n +2 a.jsonl) <(tail -n +2 b.jsonl) && echo "streams identical after the header"
cmp <(frontier-report -f f.db --json) <(frontier-report -f b.db --json) && echo "report --json identical"
cmp <(frontier-report -f f.db --queues --json) <(frontier-report -f b.db --queues --json) && echo "report --queues identical"
frontier-report -f b.db --check | head -1; echo "check exit=${PIPESTATUS[0]}"
# Answer the original's leases in both files, then keep crawling: same results.
sed -E 's/.*"lease":"([^"]*)".*/{"lease":"\1","status":200,"duration_ms":10,"content_hash":"c0ffee","etag":"\\"e1\\"","links":["\/n1","\/n2"]}/' leases.jsonl > results.jsonl
export FRONTIER_NOW=$((T+60))
for db in f.db b.db; do frontier-done -f $db results.jsonl > done.$db; echo "done exit=$?"; done
cat done.b.db
cmp done.f.db done.b.db && echo "done output identical"
export FRONTIER_NOW=$((T+100))
for db in f.db b.db; do frontier-lease -f $db -n 10 --per-queue 3 > lease2.$db; echo "lease exit=$?"; done
cmp lease2.f.db lease2.b.db && echo "lease output identical"
wc -l < lease2.b.db
cmp <(frontier-export -q -f f.db | tail -n +2) <(frontier-export -q -f b.db | tail -n +2) && echo "files still identical"
frontier-report -f b.db --check >/dev/null; echo "check exit=$?"
