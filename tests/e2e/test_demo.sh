# The README's main job (make demo) works: a real crawl of the local
# python3-doc site, a mid-crawl budget change, the text and HTML reports.
set -euo pipefail
export DEMO_OUT="$PWD/demo"
"$ROOT/examples/demo.sh" > demo.out 2> demo.err || { cat demo.err demo.out; exit 1; }
cat demo.err
grep -q "^[0-9]* queues: " demo.out
grep -q "paused at finish (exit 4)\|the crawl finished" demo.err
test -s demo/report.html
ls demo/warc/*.warc.gz > /dev/null
# The raised budget took effect: the first host spent more than the global cap of 150.
spent=$(frontier-report -f demo/crawl.db --queues --json | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
print(max(r["total_spend"] for r in rows), min(r["total_spend"] for r in rows))')
read -r most least <<<"$spent"
echo "spend: most $most, least $least"
test "$most" -gt 150
test "$least" -le 150
