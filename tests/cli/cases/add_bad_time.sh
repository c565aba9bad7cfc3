# A last_modified outside the sane window (1990 to a day after now) is a
# bad-field rejection, from a file as from the input pipeline; the other
# records are kept.
printf '%s\n' \
  '{"url":"http://t.example/negative","last_modified":-1e18}' \
  '{"url":"http://t.example/far","last_modified":"9999-01-01T00:00:00Z"}' \
  '{"url":"http://t.example/old","last_modified":"1980-01-01T00:00:00Z"}' \
  '{"url":"http://t.example/fine","last_modified":"2024-01-01T00:00:00Z"}' | frontier-add -f f.db
echo "exit=$?"
