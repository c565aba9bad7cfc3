# FRONTIER_CACHE_MIB (frontier(7), ENVIRONMENT): a bad value is a usage
# error (exit 2) before the file is touched; a good one changes nothing a
# tool prints or stores.
echo 'http://c.example/a' | FRONTIER_CACHE_MIB=lots frontier-add -f f.db
echo "exit=$?"
test -e f.db && echo "f.db made" || echo "no f.db"
printf '%s\n' http://c.example/a http://c.example/b | FRONTIER_CACHE_MIB=200 frontier-add -f f.db
echo "exit=$?"
FRONTIER_CACHE_MIB=0 frontier-report -f f.db
echo "exit=$?"
FRONTIER_CACHE_MIB=1 frontier-export -f f.db -q | grep -c "\"table\":\"urls\""
