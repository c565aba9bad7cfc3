#!/usr/bin/env bash
# The full-size flaky web of frontier-crawl(1) (200 hosts on 127.0.1.x, 429,
# 503, slow, dead hosts, robots.txt 500 and rules), run on demand: the
# FLAKY_FULL mode of tests/e2e/test_frontier_crawl_flaky.sh, which says what
# it checks. Prints the checks and the figures; exits 1 when one fails.
# Usage: tests/bench/flaky_web.sh   (FRONTIER_BIN=bin by default; KEEP=1 keeps
# the directory, as a failure does)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir=$(mktemp -d)
cd "$dir"
rc=0
ROOT="$root" FRONTIER_BIN="${FRONTIER_BIN:-bin}" FLAKY_FULL=1 bash "$root/tests/e2e/test_frontier_crawl_flaky.sh" || rc=$?
if [ $rc = 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$dir"; else echo "the crawl, nginx's log and the hosts: $dir"; fi
exit $rc
