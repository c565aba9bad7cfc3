# throughput_config FRONTIER [MAX_IN_FLIGHT]: robots.txt, politeness delays
# and queue holding off, at most MAX_IN_FLIGHT leases per queue (default
# 100000000): the frontier as the throughput tests and benchmarks use it.
throughput_config() {
    local kv
    for kv in "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" \
              "politeness.max-in-flight ${2:-100000000}" "budget.hold-queues false"; do
        # shellcheck disable=SC2086
        frontier-config -f "$1" $kv
    done
}
