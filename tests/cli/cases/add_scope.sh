# Scope: max depth (with bypass types), include/exclude, seed domains, max queued.
frontier-config -f f.db scope.max-depth 2
frontier-config -f f.db scope.depth-bypass-types '["article"]'
frontier-config -f f.db scope.exclude '["/private/"]'
printf '%s\n' \
  '{"url":"http://seed.example/"}' \
  '{"url":"http://seed.example/deep","depth":3}' \
  '{"url":"http://seed.example/deep-article","depth":3,"type":"article"}' \
  '{"url":"http://seed.example/private/x"}' \
  '{"url":"http://www.seed.example/found","discovery":"link","depth":1}' \
  '{"url":"http://elsewhere.example/found","discovery":"link","depth":1}' | frontier-add -f f.db
echo "exit=$?"
frontier-config -f f.db scope.max-queued 4
printf '%s\n' 'http://seed.example/5' 'http://seed.example/6' | frontier-add -f f.db
echo "exit=$?"
frontier-config -f f.db scope.include '["^http://seed\\.example/only"]'
frontier-config -f f.db scope.max-queued -1
printf '%s\n' 'http://seed.example/only/1' 'http://seed.example/other' | frontier-add -f f.db
echo "exit=$?"
