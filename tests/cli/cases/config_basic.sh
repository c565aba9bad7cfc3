# frontier-config: read-only on a missing file is an error; set, get, validate, per-domain overrides.
frontier-config -f missing.db; echo "exit=$?"
frontier-config -f f.db politeness.min-delay 0.5; echo "exit=$?"
frontier-config -f f.db politeness.min-delay; echo "exit=$?"
frontier-config -f f.db queue.key domain; echo "exit=$?"
frontier-config -f f.db queue.key; echo "exit=$?"
frontier-config -f f.db no.such.key 1; echo "exit=$?"
frontier-config -f f.db politeness.min-delay soon; echo "exit=$?"
frontier-config -f f.db --domain example.org politeness.max-in-flight 2; echo "exit=$?"
frontier-config -f f.db --domain example.org retry.max 2; echo "exit=$?"
frontier-config -f f.db --domain example.org politeness.max-in-flight; echo "exit=$?"
frontier-config -f f.db politeness.min-delay --unset; echo "exit=$?"
frontier-config -f f.db | tr ',' '\n' | grep -E 'min-delay|queue.key|domains|max-in-flight'
