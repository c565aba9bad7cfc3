// Unit tests for lib/fetch/host_scoreboard.hpp and lib/http_date.hpp.
#include <catch2/catch.hpp>

#include <cmath>

#include "fetch/host_scoreboard.hpp"
#include "core/http_date.hpp"

using namespace frontier;

TEST_CASE("scoreboard: per-host cap and host-down window", "[fetch]") {
    ScoreboardConfig c;
    c.per_host = 2;
    c.conn_retry = 600;
    HostScoreboard b(c);
    HostState h;
    b.init(h);
    CHECK(b.earliest_start(h, 100) == 100);
    b.started(h, 100);
    b.started(h, 100);
    CHECK(h.active == 2);
    CHECK(std::isinf(b.earliest_start(h, 100)));
    b.finished(h, 101, 200, 0.5, false);
    CHECK(h.active == 1);
    CHECK(b.earliest_start(h, 101) == 101);
    CHECK_FALSE(b.down(h, 101));
    b.finished(h, 102, 0, 0, true);
    CHECK(b.down(h, 102));
    CHECK(b.down(h, 701));
    CHECK_FALSE(b.down(h, 702));
    CHECK(b.idle(h, 702));
}

TEST_CASE("scoreboard: timeouts in a row put a host down", "[fetch]") {
    ScoreboardConfig c;
    c.conn_retry = 600;
    c.down_after_timeouts = 3;
    HostScoreboard b(c);
    HostState h;
    b.init(h);
    auto timeout = [&](double t) {
        b.started(h, t);
        b.finished(h, t, 0, 0, false, true);
    };
    timeout(10);
    timeout(20);
    CHECK_FALSE(b.down(h, 20));
    CHECK_FALSE(b.idle(h, 20));  // the count is kept while the host is quiet
    b.started(h, 30);
    b.finished(h, 30, 200, 0.1, false);  // an answer: the count starts again
    timeout(40);
    timeout(50);
    b.started(h, 55);
    b.finished(h, 55, 0, 0, false, false);  // reset, not a timeout: starts again
    timeout(60);
    timeout(70);
    CHECK_FALSE(b.down(h, 70));
    timeout(80);
    CHECK(b.down(h, 80));
    CHECK(h.down_for_timeouts);
    CHECK(b.down(h, 679));
    CHECK_FALSE(b.down(h, 681));
    CHECK(b.idle(h, 681));
    b.started(h, 700);
    b.finished(h, 700, 0, 0, true);  // a connection failure says why now
    CHECK_FALSE(h.down_for_timeouts);

    c.down_after_timeouts = 0;  // off
    HostScoreboard off(c);
    HostState o;
    off.init(o);
    for (int i = 0; i < 10; ++i) {
        off.started(o, i);
        off.finished(o, i, 0, 0, false, true);
    }
    CHECK_FALSE(off.down(o, 10));
}

TEST_CASE("scoreboard: latency EWMA (Media Cloud rules)", "[fetch]") {
    HostScoreboard b(ScoreboardConfig{});
    HostState h;
    b.init(h);
    b.started(h, 0);
    b.finished(h, 0, 200, 2.0, false);
    CHECK(h.latency == Approx(2.0));  // first sample
    b.started(h, 0);
    b.finished(h, 0, 200, 6.0, false);
    CHECK(h.latency == Approx(3.0));  // += 0.25 (6 - 2)
    b.started(h, 0);
    b.finished(h, 0, 404, 1.0, false);
    CHECK(h.latency == Approx(3.0));  // only a 200 may lower it
    b.started(h, 0);
    b.finished(h, 0, 500, 7.0, false);
    CHECK(h.latency == Approx(4.0));  // a non-200 may raise it
    b.started(h, 0);
    b.finished(h, 0, 200, 0.0, false);
    CHECK(h.latency == Approx(3.0));
    b.started(h, 0);
    b.finished(h, 0, 429, 0.1, false);
    CHECK(h.latency == Approx(30.0));  // 429 sets 30 s
    b.started(h, 0);
    b.finished(h, 0, 0, 99, false);
    CHECK(h.latency == Approx(30.0));  // no response: no sample
    CHECK(h.delay == 0);               // autothrottle off
}

TEST_CASE("scoreboard: Scrapy autothrottle", "[fetch]") {
    ScoreboardConfig c;
    c.autothrottle_target = 2;
    c.start_delay = 5;
    c.max_delay = 60;
    c.per_host = 8;
    HostScoreboard b(c);
    HostState h;
    b.init(h);
    CHECK(h.delay == 5);
    b.started(h, 100);
    CHECK(h.next_start == 105);
    CHECK(b.earliest_start(h, 101) == 105);  // spaced by the delay
    b.finished(h, 101, 200, 1.0, false);     // target 0.5: (5 + 0.5) / 2
    CHECK(h.delay == Approx(2.75));
    b.started(h, 105);
    b.finished(h, 106, 200, 1.0, false);  // target 0.5: (2.75 + 0.5) / 2
    CHECK(h.delay == Approx(1.625));
    b.started(h, 107);
    b.finished(h, 107, 404, 1.0, false);  // would lower: a non-200 may not
    CHECK(h.delay == Approx(1.625));
    b.started(h, 108);
    b.finished(h, 108, 429, 1.0, false);  // latency 30 -> target 15: max(15, 8.3)
    CHECK(h.delay == Approx(15));
    for (int i = 0; i < 5; ++i) {
        b.started(h, 200);
        b.finished(h, 200, 429, 1.0, false);
    }
    CHECK(h.delay <= 60);
    ScoreboardConfig c2 = c;
    c2.autothrottle_target = 0.1;  // target 300 s: clamped to 60
    HostScoreboard b2(c2);
    HostState h2;
    b2.init(h2);
    b2.started(h2, 0);
    b2.finished(h2, 0, 429, 1, false);
    CHECK(h2.delay == 60);
}

TEST_CASE("http_date: the three RFC 9110 forms", "[fetch]") {
    CHECK(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").value() == 784111777);
    CHECK(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT").value() == 784111777);
    CHECK(parse_http_date("Sun Nov  6 08:49:37 1994").value() == 784111777);
    CHECK_FALSE(parse_http_date("").has_value());
    CHECK_FALSE(parse_http_date("12345").has_value());
    CHECK_FALSE(parse_http_date("not a date at all").has_value());
    CHECK(format_http_date(784111777) == "Sun, 06 Nov 1994 08:49:37 GMT");
    CHECK(format_http_date(784111777.9) == "Sun, 06 Nov 1994 08:49:37 GMT");
    CHECK(format_iso8601(784111777) == "1994-11-06T08:49:37Z");
    CHECK(format_iso8601(784111777.25, true) == "1994-11-06T08:49:37.250000Z");
}

TEST_CASE("http_date: Retry-After delta-seconds and dates", "[fetch]") {
    CHECK(parse_retry_after("120", 0).value() == 120);
    CHECK(parse_retry_after(" 0 ", 0).value() == 0);
    CHECK(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784111777 - 30).value() == 30);
    CHECK(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784111777 + 30).value() == 0);  // past: 0
    CHECK_FALSE(parse_retry_after("-5", 0).has_value());
    CHECK_FALSE(parse_retry_after("soon", 0).has_value());
    CHECK_FALSE(parse_retry_after("", 0).has_value());
}
