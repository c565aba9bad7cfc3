# A fingerprint collision never drops a distinct URL: dedup compares the URL text.
echo http://a.example/x | frontier-add -q -f f.db
# Make the stored row hold another URL under the same fingerprint (a forced collision).
sqlite3 f.db "update urls set url = 'http://collide.example/other' where url = 'http://a.example/x'"
echo http://a.example/x | frontier-add -f f.db
echo http://a.example/x | frontier-add -f f.db
sqlite3 f.db "select count(*), count(distinct fp) from urls"
