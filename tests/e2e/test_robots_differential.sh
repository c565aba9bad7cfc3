# Differential test of the robots.txt parser and matcher (lib/web/robots.cpp)
# against protego (python3-protego) and google/robotstxt's documented
# expectations (robots_test.cc), by tests/tools/robots_diff.py through
# bin/robots-check: typos, BOMs, CR/CRLF/CR-only line ends, lines over
# 16,664 bytes, index.html, user-agent matching, longest match, ties, * and
# $, percent-encoding. Each answer is also checked through the stored form
# (serialize/deserialize). Differences other than the reviewed ones listed
# in robots_diff.py fail, and so does a reviewed one that went away.
set -u
: "${ROOT:?ROOT must be the repository root}"
py=${ROBOTS_DIFF_PYTHON:-/usr/bin/python3}  # Debian's python3, which has python3-protego
if ! [ -x "$py" ] || ! "$py" -c 'import protego' 2>/dev/null; then
    echo "FAIL: $py cannot import protego: python3-protego is missing (apt-get install python3-protego)"
    exit 1
fi
check=$(command -v robots-check || true)
[ -n "$check" ] || check="$ROOT/${FRONTIER_BIN:-bin}/robots-check"
if ! [ -x "$check" ]; then
    echo "FAIL: robots-check not found on PATH nor at $check (make bin/robots-check)"
    exit 1
fi
"$py" "$ROOT/tests/tools/robots_diff.py" --robots-check "$check" ${ROBOTS_DIFF_VERBOSE:+--verbose}
