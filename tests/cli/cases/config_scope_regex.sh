# Scope regular expressions are RE2 (linear time, RE2 syntax): with std::regex
# scope.include ["(a+)+$"] took 26.8 s on one 28-character path.
frontier-config -f f.db scope.include '["(a+)+$"]'
echo "exit=$?"
frontier-config -f f.db scope.include
# 1,000 URLs whose 29-character path makes a backtracking engine try 2^28
# ways, and 10 with a 2,001-character one (frontier-add takes up to 2083 bytes).
aaa=$(printf 'a%.0s' $(seq 28))
long=$(printf 'a%.0s' $(seq 2000))
start=$EPOCHREALTIME
{
    for i in $(seq 1000); do echo "http://x.example/$aaa!$i"; done
    for i in $(seq 10); do echo "http://x.example/$long!$i"; done
} | frontier-add -f f.db > add.out
rc=$?
end=$EPOCHREALTIME
echo "exit=$rc"
grep -c '"reason":"out-of-scope"' add.out
awk -v s="$start" -v e="$end" 'BEGIN { t = e - s; print (t < 2 ? "1,010 URLs checked in under 2 s" : "1,010 URLs took " t " s") }'
printf '%s\n' "http://x.example/$aaa" "http://x.example/b$aaa" "http://x.example/${aaa}b" | frontier-add -f f.db
echo "exit=$?"
# What RE2 cannot do is refused, naming the key and RE2's error; nothing is written.
frontier-config -f f.db scope.include '["(a)\\1"]'
echo "exit=$?"
frontier-config -f f.db scope.exclude '["/private/", "/x(?=y)"]'
echo "exit=$?"
frontier-config -f f.db scope.exclude '["(?<!a)b"]'
echo "exit=$?"
frontier-config -f f.db budget.cost-rules '{"(x)\\1":2}'
echo "exit=$?"
frontier-config -f f.db scope.include '["(unclosed"]'
echo "exit=$?"
frontier-config -f f.db scope.include
frontier-config -f f.db scope.exclude
frontier-config -f f.db budget.cost-rules
# Ordinary patterns: searched anywhere, anchors, classes, alternation, (?i).
frontier-config -f f.db scope.include '["^https?://(www\\.)?y\\.example/(en|fr)/", "\\.html$"]'
frontier-config -f f.db scope.exclude '["/private/", "[?&]page=[0-9]{3,}", "(?i)\\.PDF$"]'
printf '%s\n' \
  'http://y.example/en/a' \
  'https://www.y.example/fr/b' \
  'http://y.example/de/c' \
  'http://z.example/any/page.html' \
  'http://y.example/en/private/d' \
  'http://y.example/en/list?page=12' \
  'http://y.example/en/list?page=123' \
  'http://y.example/en/doc.pdf' \
  'http://y.example/en/doc.PDF' | frontier-add -f f.db
echo "exit=$?"
