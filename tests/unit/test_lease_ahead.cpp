// Lease-ahead (lib/policy/lease_ahead.hpp): the lease cap of a queue, the
// Crawl-delay check of an ahead lease, and fetch's --per-host for one
// fetch process, from settings alone.
#include <catch2/catch.hpp>

#include "policy/lease_ahead.hpp"
#include "policy/lease_order.hpp"
#include "store/fetch_update_sql.hpp"

using namespace frontier;

namespace {

Politeness polite(double min_delay, double factor, int64_t max_in_flight, int64_t ahead) {
    Politeness p;
    p.min_delay = min_delay;
    p.delay_factor = factor;
    p.max_in_flight = max_in_flight;
    p.lease_ahead = ahead;
    return p;
}

}  // namespace

TEST_CASE("lease_cap adds lease-ahead only when the settings give no delay", "[policy][lease-ahead]") {
    CHECK(lease_cap(polite(0, 0, 8, 0)) == 8);     // the default: off
    CHECK(lease_cap(polite(0, 0, 8, 24)) == 32);   // no delay: ahead
    CHECK(lease_cap(polite(1, 5, 8, 24)) == 8);    // min-delay and delay-factor
    CHECK(lease_cap(polite(0, 5, 8, 24)) == 8);    // delay-factor
    CHECK(lease_cap(polite(3, 5, 1, 24)) == 1);    // the defaults
    CHECK(lease_cap(Politeness{}) == 1);
}

TEST_CASE("a queue schedules and leases up to its lease cap", "[policy][lease-ahead]") {
    const Politeness p = polite(0, 0, 2, 2);
    const double now = 100;
    for (int64_t in_flight = 0; in_flight <= 5; ++in_flight) {
        INFO("in_flight " << in_flight);
        bool room = in_flight < 4;
        CHECK(may_lease_now(in_flight, lease_cap(p), now, now) == room);
        CHECK(queue_sched(true, true, in_flight, lease_cap(p), now, now) ==
              (room ? QueueSched::ready : QueueSched::idle));
        // a wake time in the future (Retry-After, host down) holds ahead leases too
        CHECK(!may_lease_now(in_flight, lease_cap(p), now + 1, now));
    }
}

TEST_CASE("an ahead lease is refused while the host has a Crawl-delay", "[policy][lease-ahead]") {
    Politeness p = polite(0, 0, 2, 4);
    CHECK(ahead_allowed(p, 0, 5.0));  // within max-in-flight the wake time spaces it
    CHECK(ahead_allowed(p, 1, 5.0));
    CHECK(!ahead_allowed(p, 2, 5.0));
    CHECK(!ahead_allowed(p, 3, 0.5));
    CHECK(ahead_allowed(p, 2, std::nullopt));
    CHECK(ahead_allowed(p, 3, 0.0));
    p.max_crawl_delay = 0;  // Crawl-delay honoured up to 0: none applies
    CHECK(ahead_allowed(p, 2, 5.0));
}

TEST_CASE("fetch_per_host: the smallest max-in-flight where lease-ahead applies", "[policy][lease-ahead]") {
    Settings s;
    CHECK(fetch_per_host(s, 16) == 16);  // no lease-ahead: fetch's cap is the concurrency
    s.politeness = polite(0, 0, 8, 24);
    CHECK(fetch_per_host(s, 16) == 8);
    CHECK(fetch_per_host(s, 4) == 4);
    s.domain_politeness["slow.example"] = polite(0, 0, 2, 24);
    CHECK(fetch_per_host(s, 16) == 2);
    s.domain_politeness["slow.example"] = polite(1, 5, 2, 24);  // a delay from the fetch time: none there
    CHECK(fetch_per_host(s, 16) == 8);
    s.politeness = polite(3, 5, 1, 24);
    CHECK(fetch_per_host(s, 16) == 16);
}

TEST_CASE("pipeline_leases_out: room for every host's ahead lease", "[policy][lease-ahead]") {
    CHECK(pipeline_leases_out(1024, polite(1, 0, 1, 0)) == 1024);    // no lease-ahead
    CHECK(pipeline_leases_out(1024, polite(3, 5, 1, 24)) == 1024);   // a delay from the fetch time: none
    CHECK(pipeline_leases_out(32, polite(0, 0, 8, 120)) == 32 + 120);  // no delay: the one site's ahead leases
    // A constant delay: one lease waiting in fetch per transfer, for every host served.
    CHECK(pipeline_leases_out(1024, polite(1, 0, 1, 15)) == 2048);
    CHECK(pipeline_leases_out(1024, polite(1, 0, 4, 2)) == 1536);
}

TEST_CASE("politeness.lease-ahead is a per-domain setting", "[policy][lease-ahead][settings]") {
    Settings s = build_settings({{"politeness.lease-ahead", "6"}},
                                {{"a.example", {{"politeness.lease-ahead", "0"}}}});
    CHECK(s.politeness.lease_ahead == 6);
    CHECK(s.politeness_for("b.example").lease_ahead == 6);
    CHECK(s.politeness_for("a.example").lease_ahead == 0);
    CHECK(build_settings({}, {}).politeness.lease_ahead == 0);
    CHECK(normalise_setting("politeness.lease-ahead", "3") == "3");
    CHECK_THROWS(normalise_setting("politeness.lease-ahead", "-1"));
}

TEST_CASE("a constant delay: at most max-in-flight ahead, and leases carry the delay", "[policy][lease-ahead]") {
    CHECK(lease_cap(polite(1, 0, 1, 15)) == 2);   // one waiting per transfer
    CHECK(lease_cap(polite(1, 0, 4, 15)) == 8);
    CHECK(lease_cap(polite(1, 0, 4, 2)) == 6);
    CHECK(lease_cap(polite(1, 0.5, 4, 15)) == 4);  // a delay from the fetch time: none
    CHECK(lease_delay(polite(1, 0, 1, 15)) == 1.0);
    CHECK(lease_delay(polite(0, 0, 8, 15)) == 0.0);
    CHECK_FALSE(lease_delay(polite(1, 0, 1, 0)));    // lease-ahead off: no key
    CHECK_FALSE(lease_delay(polite(1, 5, 1, 15)));   // delay-factor: no key
    Settings s;
    s.politeness = polite(1, 0, 1, 15);
    CHECK(fetch_per_host(s, 256) == 1);
}

namespace {
struct FakeDelta {  // the fields fetch_columns reads, as Totals::FetchDelta has them
    int64_t ended = 1, n429 = 0, ra_blocks = 0, errors = 0, penalty = 0, latency_sum = 0, latency_n = 0;
    int64_t host_down = 0, done = 1, failed = 0, queued = 0, bytes = 0;
    double wake_at = 0;
};
}  // namespace

TEST_CASE("frontier-done's queue UPDATE schedules by the lease cap", "[policy][lease-ahead][sched]") {
    for (const Politeness& p : {polite(0, 0, 8, 24), polite(1, 0, 2, 15), polite(3, 5, 1, 24)}) {
        int64_t sent = -1;
        fetch_columns(7, FakeDelta{}, p, [&](int col, auto value) {
            if (col == kMaxInFlight) sent = static_cast<int64_t>(value);
        });
        CHECK(sent == lease_cap(p));
    }
}
