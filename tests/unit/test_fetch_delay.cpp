// fetch's hold of lease-ahead jobs (fetch(1), "delay"): a job with a delay
// starts no sooner than that long after its host's last request ended,
// nor before a 429 or 503's Retry-After; the per-host cap still applies.
#include <catch2/catch.hpp>

#include <cmath>

#include "fetch/host_scoreboard.hpp"

using namespace frontier;

TEST_CASE("scoreboard: a delay job waits for the host's last request end + delay", "[fetch][lease-ahead]") {
    ScoreboardConfig c;
    c.per_host = 1;
    HostScoreboard b(c);
    HostState h;
    b.init(h);
    CHECK(b.earliest_start(h, 100, 1.0) == 100);  // no request yet: at once
    b.started(h, 100, 1.0);
    CHECK(std::isinf(b.earliest_start(h, 100.2, 1.0)));  // at the per-host cap
    b.finished(h, 100.3, 200, 0.1, false);
    CHECK(b.earliest_start(h, 100.3, 1.0) == Approx(101.3));
    CHECK(b.earliest_start(h, 100.3) == 100.3);  // a job without a delay is not held
    CHECK(b.earliest_start(h, 100.3, 0.0) == 100.3);
    CHECK(b.earliest_start(h, 102, 1.0) == 102);
    CHECK_FALSE(b.idle(h, 101));  // its last end still holds the next delay job
    CHECK(b.idle(h, 101.3));
}

TEST_CASE("scoreboard: a 429 or 503 holds delay jobs for its Retry-After", "[fetch][lease-ahead]") {
    ScoreboardConfig c;
    c.per_host = 8;
    HostScoreboard b(c);
    HostState h;
    b.init(h);
    b.started(h, 10, 0.0);
    b.finished(h, 11, 429, 0.1, false);
    b.retry_after(h, 11, 429, 30.0);
    CHECK(b.earliest_start(h, 11, 0.0) == 41);
    CHECK(b.earliest_start(h, 11) == 11);  // without "delay": the frontier's own lease, not held
    b.retry_after(h, 12, 503, 5.0);        // never shortened
    CHECK(b.earliest_start(h, 12, 0.0) == 41);
    HostState g;
    b.retry_after(g, 0, 429, std::nullopt);  // no Retry-After: 60 s
    CHECK(b.earliest_start(g, 0, 1.0) == 60);
    HostState k;
    b.retry_after(k, 0, 503, std::nullopt);  // a 503 without one: the delay alone
    b.retry_after(k, 0, 200, 99.0);          // other statuses: nothing
    CHECK(b.earliest_start(k, 0, 1.0) == 0);
}
