# Disk full and read-only frontier files: a clear error, no corruption, and
# nothing reported that is not stored.
#  Disk full, two ways: a 1 MiB tmpfs (root; mount -t tmpfs), and a file-size
#  limit (ulimit -f, with SIGXFSZ ignored so writes fail with EFBIG) which
#  needs no privilege. frontier-add fills the file until a write fails: it
#  exits 1 with "database or disk is full" / "disk I/O error", every URL it
#  printed as added is stored, frontier-report --check passes; lease and
#  done on the full file stop cleanly; once space is back the rest goes in.
#  Read-only, every way this machine allows: a read-only bind mount, an
#  immutable file (chattr +i), and a file without write permission (when not
#  root). Writing tools exit 1 with "cannot write the frontier file ...";
#  reading tools (report, --check, config and budget without edits) still
#  work; the file's bytes do not change.
set -euo pipefail
export FRONTIER_NOW=1800000000
python3 -c '
for i in range(20000): print(f"http://h{i % 50}.example/page/{i}/" + "x" * 60)' > urls.txt

# run_full NAME DB WRAPPER...: fills DB through WRAPPER (which limits space);
# the tools' output goes to NAME.* in the current directory.
run_full() {
    local name=$1 db=$2; shift 2
    "$@" frontier-config -f "$db" politeness.min-delay 0
    set +e
    "$@" frontier-add -f "$db" --batch 2000 urls.txt > "$name.add" 2> "$name.err"
    local rc=$?
    set -e
    echo "$name: frontier-add exit $rc: $(tail -1 "$name.err")"
    [ $rc = 1 ] || { cat "$name.err"; return 1; }
    grep -Eq "database or disk is full|disk I/O error" "$name.err"
    local stored; stored=$(sqlite3 "$db" "select count(*) from urls")
    local printed; printed=$(grep -c '"status":"added"' "$name.add" || true)
    echo "$name: $printed URLs reported added, $stored stored"
    [ "$stored" -gt 0 ] && [ "$stored" -lt 20000 ]
    python3 - "$db" "$name.add" <<'PY'
import json, sqlite3, sys
db, out = sys.argv[1], sys.argv[2]
stored = {u for (u,) in sqlite3.connect(db).execute("SELECT url FROM urls")}
lost = [r["url"] for r in map(json.loads, open(out)) if r["status"] == "added" and r["url"] not in stored]
if lost: print(f"{len(lost)} reported added but not stored, e.g. {lost[0]}"); sys.exit(1)
PY
    frontier-report -f "$db" --check > "$name.check" || { cat "$name.check"; return 1; }
    # Lease and done on the full file: a clean result or a clean error.
    set +e
    "$@" frontier-lease -f "$db" -n 200 --per-queue 5 > "$name.lease" 2> "$name.lease.err"; rc=$?
    set -e
    case $rc in 0|1|3) ;; *) echo "$name: frontier-lease exit $rc"; cat "$name.lease.err"; return 1 ;; esac
    sed 's/.*"lease":"\([^"]*\)".*/{"lease":"\1","status":404,"duration_ms":1}/' "$name.lease" > "$name.results"
    set +e
    "$@" frontier-done -f "$db" "$name.results" > "$name.done" 2> "$name.done.err"; rc=$?
    set -e
    case $rc in 0|1) ;; *) echo "$name: frontier-done exit $rc"; cat "$name.done.err"; return 1 ;; esac
    echo "$name: on the full file, frontier-lease leased $(wc -l < "$name.lease"), frontier-done exit $rc"
    frontier-report -f "$db" --check > "$name.check" || { cat "$name.check"; return 1; }
}

# ---------------------------------------------------------------- disk full: tmpfs
if [ "$(id -u)" = 0 ] && mkdir -p mnt && mount -t tmpfs -o size=1m tmpfs mnt 2>/dev/null; then
    trap 'umount "$PWD/mnt" 2>/dev/null || true; umount "$PWD/ro" 2>/dev/null || true' EXIT
    run_full tmpfs mnt/tmpfs.db env
    mount -o remount,size=32m mnt
    frontier-add -q -f mnt/tmpfs.db urls.txt
    test "$(sqlite3 mnt/tmpfs.db "select count(*) from urls")" = 20000
    frontier-report -f mnt/tmpfs.db --check > /dev/null
    echo "tmpfs: with space back, all 20000 URLs stored; check ok"
else
    echo "tmpfs: cannot mount here (not root, or no privilege); the file-size limit below covers disk full"
fi

# ---------------------------------------------------------------- disk full: ulimit -f
limited() { ( trap '' XFSZ; ulimit -f 1024; "$@" ); }
run_full ulimit ulimit.db limited
frontier-add -q -f ulimit.db urls.txt
test "$(sqlite3 ulimit.db "select count(*) from urls")" = 20000
frontier-report -f ulimit.db --check > /dev/null
echo "ulimit: with the limit lifted, all 20000 URLs stored; check ok"

# ---------------------------------------------------------------- read-only
mkdir -p rw
head -300 urls.txt | frontier-add -q -f rw/r.db
frontier-lease -q -f rw/r.db -n 10 > /dev/null
sum=$(cat rw/r.db $(ls rw/r.db-wal 2>/dev/null) | sha256sum)
ways=0
check_read_only() {  # PATH WAY
    local db=$1 way=$2 rc
    for cmd in "frontier-add -f $db urls.txt" "frontier-lease -f $db -n 5" "frontier-config -f $db lease.ttl 5" \
               "frontier-budget -f $db --total-budget 5"; do
        set +e; $cmd > out.txt 2> err.txt < /dev/null; rc=$?; set -e
        [ $rc = 1 ] && grep -q "cannot write the frontier file" err.txt || {
            echo "$way: '$cmd' exit $rc: $(cat err.txt)"; return 1; }
    done
    frontier-report -f "$db" > /dev/null
    frontier-report -f "$db" --check > /dev/null
    frontier-config -f "$db" > /dev/null
    frontier-budget -f "$db" > /dev/null
    test "$(cat rw/r.db $(ls rw/r.db-wal 2>/dev/null) | sha256sum)" = "$sum"
    echo "$way: writers refused with a clear error (e.g. $(head -c 120 err.txt)); readers work; the file is unchanged"
    ways=$((ways + 1))
}
if [ "$(id -u)" = 0 ] && mkdir -p ro && mount --bind rw ro 2>/dev/null; then
    if mount -o remount,bind,ro ro 2>/dev/null; then check_read_only ro/r.db "read-only bind mount"; fi
    umount ro
fi
if [ "$(id -u)" = 0 ] && chattr +i rw/r.db 2>/dev/null; then
    set +e; check_read_only rw/r.db "chattr +i"; rc=$?; set -e
    chattr -i rw/r.db
    [ $rc = 0 ]
fi
if [ "$(id -u)" != 0 ]; then
    chmod a-w rw/r.db
    check_read_only rw/r.db "chmod a-w"
    chmod u+w rw/r.db
fi
echo "read-only: $ways ways checked"
test $ways -ge 1
frontier-report -f rw/r.db --check > /dev/null
