# Canonical variants of one URL are duplicates; results per line; summary on stderr.
printf '%s\n' 'http://Example.com/a#top' 'http://example.com/a' 'HTTP://EXAMPLE.COM:80/./a' \
  'https://example.com/a' '  http://example.com/b?utm_source=x&id=1  ' | frontier-add -f f.db
echo "exit=$?"
