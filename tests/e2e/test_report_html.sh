# frontier-report --html: the page is self-contained (no scripts, no network
# resources), loads in a real headless Chromium without console errors, has
# every chart's SVG and every crawl section in its DOM, fits a
# 1280 px window (no horizontal overflow of the page, of a table or of any
# element, and no chart text cut at the chart's edges, measured by a
# test-only wrapper page that frames the report and writes the widths into
# its own DOM; the report stays script-free), draws no bar for a
# no-limit budget, cuts long URLs in the middle (whole on hover), and
# renders to a screenshot at laptop size (kept as $ROOT/out/report-html.png).
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
# A very long URL (a table must not grow with it).
long="http://a.example/$(printf 'segment%.0s/' $(seq 30))page.html?query=$(printf 'x%.0s' $(seq 80))"
echo "$long" | frontier-add -q -f f.db
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
    chromium --headless --no-sandbox --disable-gpu --disable-quic --disable-background-networking --disable-component-update \
        --disable-sync --no-first-run --user-data-dir="$profile" "$@"
    rm -rf "$profile"
}

# The DOM as Chromium built it: every chart's SVG with its marks.
chrome --window-size=1280,900 --dump-dom "file://$PWD/report.html" > dom.html 2>/dev/null
for id in chart-queue-states chart-urls chart-spend chart-results chart-depth chart-heatmap chart-timeline chart-timeline-bytes chart-codes \
          chart-mimetypes; do
    grep -q "<svg[^>]*id=\"$id\"" dom.html || { echo "FAIL: chart $id missing from the DOM"; exit 1; }
done
for id in crawl hosts seeds failed-urls failed-hosts mimetypes; do
    grep -q "<table[^>]*id=\"$id\"" dom.html || { echo "FAIL: table $id missing from the DOM"; exit 1; }
done
grep -q 'generated at <time id="generated">2027-01-15T08:00:30Z</time>' dom.html || { echo "FAIL: generation time"; exit 1; }
# a.example spent 1 of no limit: a text, no bar; b.example (budget 50) has its track and bar.
grep -q '1 spent · no limit' dom.html || { echo "FAIL: no-limit spend not shown as text"; exit 1; }
spend=$(sed -n 's/.*\(<svg[^>]*id="chart-spend".*\)/\1/p' dom.html | sed 's,</svg>.*,,')
[ "$(grep -o '<rect' <<< "$spend" | wc -l)" -eq 2 ] || { echo "FAIL: spend chart bars: $(grep -o '<rect' <<< "$spend" | wc -l)"; exit 1; }
# The long URL: cut in the middle in the cell, whole in its title.
grep -q "title=\"$long\"" dom.html || { echo "FAIL: long URL not in a title"; exit 1; }
grep -q ">$long<" dom.html && { echo "FAIL: long URL printed whole"; exit 1; }
grep -q '>http://a.example/segment/segm[^<]*…[^<]*xxxx</td>' dom.html || { echo "FAIL: long URL not cut in the middle"; exit 1; }
# No relative times on the page.
grep -Eq '[0-9]+[smhd] ago|>in [0-9]' dom.html && { echo "FAIL: relative time on the page"; exit 1; }

# A crawl with what made the page overflow at 1280 px: a queue key, budget
# and spend as long as they come, a seed that failed in a queue with pages
# done, a long MIME type and a byte count of 7 digits (the axis label).
frontier-config -q -f c.db robots.enabled false
frontier-config -q -f c.db politeness.min-delay 0
lq=a-rather-long-queue-key-of-a-host.example
printf '%s\n' "{\"url\":\"http://$lq/\",\"cost\":1234567}" \
  "{\"url\":\"http://$lq/$(printf 'p%.0s' $(seq 60))\",\"cost\":7654321}" \
  http://s.example/ http://s.example/missing | frontier-add -q -f c.db
frontier-budget -q -f c.db --queue $lq --total-budget 1000000000
FRONTIER_NOW=$((1800000000+30)) frontier-lease -f c.db -n 10 | jq -c '{lease, url}' > c.leases
done_line() { jq -c --arg u "$1" --argjson r "$2" 'select(.url == $u) | {lease} + $r' c.leases; }
{ done_line "http://$lq/" '{"status":200,"bytes":9635386,"content_type":"application/octet-stream"}'
  done_line http://s.example/ '{"status":200,"bytes":100,"content_type":"text/html"}'; } |
    FRONTIER_NOW=$((1800000000+40)) frontier-done -q -f c.db
FRONTIER_NOW=$((1800000000+45)) frontier-lease -f c.db -n 10 | jq -c '{lease, url}' > c.leases
done_line http://s.example/missing '{"status":404}' | FRONTIER_NOW=$((1800000000+50)) frontier-done -q -f c.db
FRONTIER_NOW=$((1800000000+95)) frontier-report -f c.db --html crawl.html
grep -q 'one bar per 1s' crawl.html || { echo "FAIL: a short crawl's results chart is not in seconds"; exit 1; }
# The seed that failed shows its 404, not the pages done in its queue.
grep -q '>http://s.example/missing</td><td>failed</td><td>404</td>' crawl.html || { echo "FAIL: the failed seed's row"; exit 1; }

# At 1280 px: a test-only wrapper frames a page and measures it: the page,
# the scroll boxes (counted), every element (no content wider than its box,
# but for cells cut with an ellipsis that show the whole on hover) and
# every chart text (inside its chart's view box, so none is cut).
measure() {
cat > wrap.html <<HTML
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="$1" style="width:1280px;height:900px;border:0"></iframe>
<pre id="result">pending</pre>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument, w = d.defaultView, e = d.documentElement, out = [];
  function name(el) { return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.closest('[id]') ? '@' + el.closest('[id]').id : ''); }
  out.push('page ' + e.scrollWidth + ' ' + e.clientWidth);
  if (e.scrollWidth > e.clientWidth) out.push('overflow page ' + e.scrollWidth + ' ' + e.clientWidth);
  d.querySelectorAll('.scroll').forEach(function (s) { out.push('scroll ' + s.scrollWidth + ' ' + s.clientWidth); });
  d.querySelectorAll('body *').forEach(function (el) {
    if (el instanceof w.SVGElement || (el.clientWidth === 0 && el.clientHeight === 0)) return;
    var cut = w.getComputedStyle(el).textOverflow === 'ellipsis' && el.hasAttribute('title');
    if (el.scrollWidth > el.clientWidth && !cut) out.push('overflow ' + name(el) + ' ' + el.scrollWidth + ' ' + el.clientWidth);
  });
  d.querySelectorAll('svg.chart').forEach(function (svg) {
    var v = svg.viewBox.baseVal, n = 0;
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBBox(); ++n;
      if (b.x < v.x - 0.5 || b.x + b.width > v.x + v.width + 0.5 || b.y < v.y - 0.5 || b.y + b.height > v.y + v.height + 0.5)
        out.push('cut ' + svg.id + ' [' + t.lastChild.textContent + '] ' + Math.round(b.x) + '..' + Math.round(b.x + b.width));
    });
    out.push('texts ' + svg.id + ' ' + n);
  });
  document.getElementById('result').textContent = out.join('\\n');
});
</script></body></html>
HTML
chrome --allow-file-access-from-files --window-size=1300,1000 --virtual-time-budget=5000 --dump-dom "file://$PWD/wrap.html" \
    2>/dev/null | sed -n '/<pre id="result">/,/<\/pre>/p' | sed 's/<[^>]*>//g' > "$2"
grep -q '^page ' "$2" || { echo "FAIL: the wrapper measured nothing in $1"; cat "$2"; exit 1; }
[ "$(grep -c '^scroll ' "$2")" -ge 6 ] || { echo "FAIL: too few tables measured in $1"; cat "$2"; exit 1; }
[ "$(grep -c '^texts ' "$2")" -ge 10 ] || { echo "FAIL: too few charts measured in $1"; cat "$2"; exit 1; }
if grep -Eq '^(overflow|cut) ' "$2"; then
    echo "FAIL: $1 at 1280 px:"; grep -E '^(overflow|cut) ' "$2"; exit 1
fi
}
measure report.html widths.txt
measure crawl.html crawl-widths.txt
[ "$(grep -o '<rect' dom.html | wc -l)" -ge 30 ] || { echo "FAIL: too few chart marks"; exit 1; }
grep -Eq '7 queues: [0-9]+ active \([0-9]+ in-process; [0-9]+ ready; [0-9]+ snoozed\); 1 inactive; 1 retired; 1 exhausted' dom.html ||
    { echo "FAIL: summary line missing"; exit 1; }
grep -q 'timeout (error)' dom.html || { echo "FAIL: error class missing from the results chart"; exit 1; }

# Load with console logging and take a screenshot.
chrome --window-size=1280,900 --run-all-compositor-stages-before-draw --virtual-time-budget=3000 --enable-logging=stderr --v=0 --screenshot="$PWD/shot.png" "file://$PWD/report.html" > chrome.out 2> chrome.err || {
    echo "FAIL: chromium exited with an error"; tail -20 chrome.err; exit 1; }
if grep -E 'CONSOLE|Uncaught|net::ERR_|Failed to load resource' chrome.err; then
    echo "FAIL: console errors while loading the page"; exit 1
fi
[ -s shot.png ] || { echo "FAIL: no screenshot"; exit 1; }
[ "$(head -c 8 shot.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "FAIL: screenshot is not a PNG"; exit 1; }
[ "$(stat -c %s shot.png)" -gt 20000 ] || { echo "FAIL: screenshot looks blank"; exit 1; }
# PNG width and height from the IHDR chunk.
w=$((16#$(od -An -tx1 -j16 -N4 shot.png | tr -d ' \n'))); h=$((16#$(od -An -tx1 -j20 -N4 shot.png | tr -d ' \n')))
[ "$w" -eq 1280 ] && [ "$h" -eq 900 ] || { echo "FAIL: screenshot is ${w}x${h}"; exit 1; }
mkdir -p "$ROOT/out" && cp shot.png "$ROOT/out/report-html.png"   # kept to look at (out/ is not in git)
[ -z "${REPORT_SHOT:-}" ] || cp shot.png "$REPORT_SHOT"

# --html - writes the page to stdout.
frontier-report -f f.db --html - | head -c 15 | grep -c >/dev/null '<!DOCTYPE html>' || { echo "FAIL: --html -"; exit 1; }
echo PASS
