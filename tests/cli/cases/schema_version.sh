# A frontier file from a newer version is refused with a clear message; nothing is changed.
echo http://a.example/ | frontier-add -q -f f.db
sqlite3 f.db "pragma user_version = 99"
echo http://b.example/ | frontier-add -f f.db; echo "exit=$?"
frontier-lease -f f.db; echo "exit=$?"
sqlite3 f.db "select count(*) from urls"
# A read-only tool on a missing file is an error, not a new empty file.
frontier-lease -f missing.db; echo "exit=$?"
test -e missing.db && echo "missing.db created" || echo "missing.db not created"
