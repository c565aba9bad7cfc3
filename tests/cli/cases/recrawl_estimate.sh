# recrawl.policy estimate: the interval is ln 2 / l, with the change rate l
# from the Cho & Garcia-Molina estimator r = -ln((n - X + 0.5)/(n + 0.5)) over
# the n visits compared since the first success (X of them changed) and
# their mean interval; x adjust-factor while no change has been seen.
source "$CASES/recrawl_lib.bash"
setup
frontier-config -f f.db recrawl.policy estimate
frontier-config -f f.db recrawl.min-interval 3600
add 0 '{"url":"http://e.example/page","recrawl":true}' '{"url":"http://e.example/static","recrawl":true}'
# Visits forced at chosen days with visit_now; the page changes at the visits of days 1 and 2.
for v in 0:a 1:b 2:c 3:c 5:c; do
    day=${v%:*} hash=${v#*:}
    [ "$day" != 0 ] && add "$day" '{"url":"http://e.example/page","visit_now":true}' '{"url":"http://e.example/static","visit_now":true}'
    lease "$day"
    answer "$day" '{lease, status: 200, content_hash: (if (.url|test("static")) then "s" else "'$hash'" end)}' >/dev/null
    sqlite3 -separator ' ' f.db "SELECT '  ' || substr(url, 18), 'n=' || (successes - 1), 'X=' || changes,
        'observed=' || round((last_success - first_success) / $D, 3), 'interval=' || round(interval / $D, 3)
        FROM urls ORDER BY id"
done
echo "-- expected for the page: 1; ln2/ln3 = 0.631; ln2/ln5 = 0.431; ln2/(ln(7/3)) = 0.818; 1.25 ln2/ln(9/5) = 1.474"
