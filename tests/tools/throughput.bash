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

# A lease line answered 200 (sed -E), as the PostgreSQL benchmarks'
# responders answer it (tests/pg/bench.sh, tests/pg/statements.sh).
throughput_answer='s/^\{("url":"[^"]*",("robots":true,)?"lease":"[^"]*").*/{\1,"status":200,"duration_ms":1}/'

# throughput_lease_opts W: frontier-lease's options for one of W pipelines
# as the scaling rows of tests/pg/bench.sh run them, as many fetch machines
# would on many hosts with politeness off: up to 16 URLs of a queue in one
# batch, and 64 leases out per pipeline (--max-in-flight counts
# frontier-wide, so W pipelines say 64 x W). With one URL per queue and
# batch, the rows measured the tail of the busiest host, one lease
# transaction per URL, whatever W was.
throughput_lease_opts() { echo "--follow --max-in-flight $((64 * $1)) -n 16 --per-queue 16 --poll-interval 0.02"; }
