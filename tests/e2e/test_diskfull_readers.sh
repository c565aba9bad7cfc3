# Disk full, as every tool sees it, readers included: the message says
# "disk full" and names the frontier file. A frontier file with no -wal or
# -shm left (its last writer closed it) on a 1 MiB tmpfs that is then filled
# up: a reader must create the -shm, a writer the -wal too, so every tool
# fails (exit 1) with "disk full: /path/f.db (...)". Before, readers said
# "database error: disk I/O error" and writers "cannot prepare statement:
# disk I/O error in: PRAGMA journal_mode=WAL". Once space is back, every tool
# works and the file passes --check. Needs root (mount -t tmpfs); skipped
# otherwise (test_diskfull.sh covers the writers with ulimit -f).
set -euo pipefail
export FRONTIER_NOW=1800000000
if [ "$(id -u)" != 0 ] || ! { mkdir -p mnt && mount -t tmpfs -o size=1m tmpfs mnt 2>/dev/null; }; then
    echo "skipped: cannot mount a tmpfs here (not root, or no privilege)"
    exit 0
fi
trap 'umount "$PWD/mnt" 2>/dev/null || true' EXIT
db=$PWD/mnt/f.db
python3 -c '
for i in range(300): print(f"http://h{i % 10}.example/page/{i}")' | frontier-add -q -f "$db"
frontier-lease -q -f "$db" -n 5 > leases.jsonl
test ! -e "$db-wal" && test ! -e "$db-shm"
dd if=/dev/zero of=mnt/fill bs=1k 2>/dev/null || true   # fills the file system (ENOSPC)
test "$(df --output=avail mnt | tail -1 | tr -d ' ')" = 0
n=0
for cmd in "frontier-report -f $db" "frontier-report -f $db --check" "frontier-report -f $db --queues --json" \
           "frontier-config -f $db" "frontier-budget -f $db" "frontier-export -q -f $db" \
           "frontier-lease -f $db -n 1" "frontier-config -f $db lease.ttl 60" "frontier-add -f $db -"; do
    set +e; $cmd > out.txt 2> err.txt < /dev/null; rc=$?; set -e
    if [ $rc != 1 ] || ! grep -q "disk full: $db " err.txt; then
        echo "'$cmd': exit $rc, expected 1 and 'disk full: $db': $(cat err.txt)"; exit 1
    fi
    n=$((n + 1))
done
echo "full: $n tools exit 1 with e.g.: $(head -1 err.txt)"
sed 's/.*"lease":"\([^"]*\)".*/{"lease":"\1","status":200}/' leases.jsonl > results.jsonl
set +e; frontier-done -f "$db" results.jsonl > out.txt 2> err.txt; rc=$?; set -e
[ $rc = 1 ] && grep -q "disk full: $db " err.txt || { echo "frontier-done: exit $rc: $(cat err.txt)"; exit 1; }
rm mnt/fill
frontier-report -f "$db" --check > /dev/null
frontier-done -q -f "$db" results.jsonl
frontier-report -f "$db" --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("space back: check ok;", json.dumps(r.get("urls", r)))'
