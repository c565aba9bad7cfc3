# Raising politeness.max-in-flight mid-crawl frees a queue that sits at its old cap at once.
frontier-config -f f.db robots.enabled false
printf '%s\n' http://a.example/1 http://a.example/2 http://a.example/3 | frontier-add -q -f f.db
frontier-lease -f f.db -n 10 | cut -d, -f1
frontier-lease -f f.db -n 10; echo "exit=$?"
frontier-config -f f.db politeness.max-in-flight 2
frontier-lease -f f.db -n 10 | cut -d, -f1
frontier-config -f f.db --domain a.example politeness.max-in-flight 3
frontier-lease -f f.db -n 10 | cut -d, -f1
