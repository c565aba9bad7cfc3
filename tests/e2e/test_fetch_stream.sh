# fetch in the middle of a pipeline: each result is flushed before fetch waits
# for more input (no deadlock with an open stdin), EOF finishes in-flight
# fetches, SIGTERM stops it promptly, and a closed stdout (EPIPE) is a quiet
# exit 0.
. "$ROOT/tests/server/common.sh"
start_server
python3 - "$BASE" <<'PY'
import subprocess, sys, select, time, json, signal
base = sys.argv[1]
p = subprocess.Popen(["fetch", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
def read_line(timeout=5):
    r, _, _ = select.select([p.stdout], [], [], timeout)
    assert r, "no result within %ss while stdin stays open (output not flushed?)" % timeout
    return json.loads(p.stdout.readline())
for i in range(3):
    p.stdin.write(("%s/s%d\n" % (base, i)).encode()); p.stdin.flush()
    r = read_line()
    assert r["url"] == "%s/s%d" % (base, i) and r["status"] == 200, r
# EOF with a fetch in flight: it finishes, then fetch exits 0.
p.stdin.write(("%s/delay/1\n" % base).encode()); p.stdin.close()
r = read_line()
assert r["status"] == 200, r
assert p.wait(timeout=10) == 0
assert p.stderr.read() == b""

# SIGTERM with stdin open: fetch stops reading and exits.
p = subprocess.Popen(["fetch", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdin.write(("%s/t\n" % base).encode()); p.stdin.flush()
read_line()
t0 = time.time()
p.send_signal(signal.SIGTERM)
p.wait(timeout=5)
assert time.time() - t0 < 3
print("ok stream")
PY
# EPIPE: the reader goes away; fetch exits 0 without complaint.
for i in $(seq 1 3000); do echo "$BASE/e$i"; done > many.txt
set +o pipefail
fetch -q < many.txt 2> err.txt | head -1 > first.txt
rc=${PIPESTATUS[0]}
set -o pipefail
[ "$rc" -eq 0 ] || { echo "exit $rc after EPIPE"; cat err.txt; exit 1; }
[ ! -s err.txt ] || { echo "stderr after EPIPE:"; cat err.txt; exit 1; }
grep -q '"status":200' first.txt
echo PASS
