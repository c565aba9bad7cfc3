# frontier-report --html: the page is self-contained (no scripts, no network
# resources), loads in a real headless Chromium without console errors, has
# every chart's SVG in its DOM, and renders to a screenshot at laptop size.
# Chromium is installed with apt-get when missing; the test fails when it
# cannot be installed or run.
set -euo pipefail
export PATH="$ROOT/bin:$PATH" LC_ALL=C FRONTIER_NOW=1800000000
if ! command -v chromium >/dev/null 2>&1; then
    echo "installing chromium"
    if [ "$(id -u)" -eq 0 ]; then apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1; } || true
    else sudo -n apt-get install -y chromium >/dev/null 2>&1 || true; fi
    command -v chromium >/dev/null 2>&1 || { echo "FAIL: chromium is not installed and could not be installed"; exit 1; }
fi

# A frontier with queues in every state, then an error class and a 3xx result.
CASES="$ROOT/tests/cli/cases" source "$ROOT/tests/cli/cases/report_setup.inc"
printf '%s\n' '{"lease":"r4-1","status":0,"error_class":"timeout"}' | frontier-done -q -f f.db
frontier-report -f f.db --html report.html
[ -s report.html ] || { echo "FAIL: no page written"; exit 1; }
[ ! -e report.html.tmp ] || { echo "FAIL: temporary file left behind"; exit 1; }

# Self-contained: no scripts, no external references of any kind.
if grep -Eiq '<script|<link|<img|<iframe|@import|url\(|src=' report.html; then
    echo "FAIL: page refers to external resources or scripts"; grep -Eio '<script|<link|<img|<iframe|@import|url\(|src=' report.html | sort -u; exit 1
fi

chrome() {
    local profile
    profile=$(mktemp -d)
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
        --disable-sync --no-first-run --user-data-dir="$profile" --window-size=1366,900 "$@"
    rm -rf "$profile"
}

# The DOM as Chromium built it: every chart's SVG with its marks.
chrome --dump-dom "file://$PWD/report.html" > dom.html 2>/dev/null
for id in chart-queue-states chart-urls chart-spend chart-results chart-depth chart-heatmap; do
    grep -q "<svg[^>]*id=\"$id\"" dom.html || { echo "FAIL: chart $id missing from the DOM"; exit 1; }
done
[ "$(grep -o '<rect' dom.html | wc -l)" -ge 30 ] || { echo "FAIL: too few chart marks"; exit 1; }
grep -Eq '7 queues: [0-9]+ active \([0-9]+ in-process; [0-9]+ ready; [0-9]+ snoozed\); 1 inactive; 1 retired; 1 exhausted' dom.html ||
    { echo "FAIL: summary line missing"; exit 1; }
grep -q 'timeout (error)' dom.html || { echo "FAIL: error class missing from the results chart"; exit 1; }

# Load with console logging and take a screenshot.
chrome --enable-logging=stderr --v=0 --screenshot="$PWD/shot.png" "file://$PWD/report.html" > chrome.out 2> chrome.err || {
    echo "FAIL: chromium exited with an error"; tail -20 chrome.err; exit 1; }
if grep -E 'CONSOLE|Uncaught|net::ERR_|Failed to load resource' chrome.err; then
    echo "FAIL: console errors while loading the page"; exit 1
fi
[ -s shot.png ] || { echo "FAIL: no screenshot"; exit 1; }
[ "$(head -c 8 shot.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "FAIL: screenshot is not a PNG"; exit 1; }
[ "$(stat -c %s shot.png)" -gt 20000 ] || { echo "FAIL: screenshot looks blank"; exit 1; }
# PNG width and height from the IHDR chunk.
w=$((16#$(od -An -tx1 -j16 -N4 shot.png | tr -d ' \n'))); h=$((16#$(od -An -tx1 -j20 -N4 shot.png | tr -d ' \n')))
[ "$w" -eq 1366 ] && [ "$h" -eq 900 ] || { echo "FAIL: screenshot is ${w}x${h}"; exit 1; }
[ -z "${REPORT_SHOT:-}" ] || cp shot.png "$REPORT_SHOT"   # keep it to look at: REPORT_SHOT=/tmp/x.png

# --html - writes the page to stdout.
frontier-report -f f.db --html - | head -c 15 | grep -q '<!DOCTYPE html>' || { echo "FAIL: --html -"; exit 1; }
echo PASS
