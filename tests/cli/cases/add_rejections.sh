# Every rejection reason, mixed with good lines that are kept; bad input exits 1.
printf '%s\n' \
  '{"url":"http://good.example/1"}' \
  '{"url":"http://good.example/2",' \
  'ftp://files.example/x' \
  'http://' \
  '{"url":42}' \
  '{"depth":1}' \
  '{"url":"http://good.example/3","depth":"deep"}' \
  '{"url":"http://good.example/4","priority":"high"}' \
  '[1,2]' \
  '{"url":"http://good.example/5"}' > in.jsonl
printf '{"url":"http://good.example/\xff"}\n' >> in.jsonl
printf '{"url":"http://good.example/6"}\n' >> in.jsonl
frontier-add -f f.db in.jsonl
echo "exit=$?"
