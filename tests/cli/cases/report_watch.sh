# frontier-report --watch redraws until SIGINT and then exits 0; off a
# terminal each snapshot ends with a blank line instead of a screen clear.
frontier-config -f f.db robots.enabled false
printf '%s\n' http://a.example/1 http://b.example/1 | frontier-add -q -f f.db
timeout --preserve-status -s INT 1.2 frontier-report -f f.db --watch 0.3 > w.txt; echo "exit=$?"
head -n 5 w.txt
n=$(grep -c '^frontier-report: f.db' w.txt); [ "$n" -ge 2 ] && echo "redrawn: yes" || echo "redrawn: no ($n)"
grep -c $'\e' w.txt
