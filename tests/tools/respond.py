# The benchmarks' stand-in for fetch (tests/pg/bench.sh, tests/pg/waits.sh):
# each lease line in, one result (status 200) out, as the lines come.
import json
import sys

for line in sys.stdin:
    r = json.loads(line)
    sys.stdout.write(json.dumps({"lease": r["lease"], "url": r["url"], "status": 200, "duration_ms": 1}) + "\n")
    sys.stdout.flush()
