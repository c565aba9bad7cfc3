// A 429 or 503 with Retry-After (lib/policy/outcome.hpp; frontier(7),
// RETRIES): its URL is due again after the time the server named, held to
// retry.max-retry-after, and its queue sleeps as long; other results keep
// retry.delay. Table-driven, no database.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "policy/outcome.hpp"
#include "fetch_facts.hpp"

using namespace frontier;
using frontier::test::kNow;
using frontier::test::result;

TEST_CASE("Retry-After of a 429 or 503: the URL's retry and its queue's pause", "[policy][retry]") {
    struct Case {
        const char* what;
        int64_t status;
        std::optional<double> retry_after;
        const char* error_class;
        double cap;         // retry.max-retry-after
        double due_in;      // the URL's due time - now
        double queue_wake;  // the queue's wake time - now (min-delay 3)
    };
    const std::vector<Case> cases = {
        {"429, Retry-After 3", 429, 3, "", 86400, 3, 3},
        {"503, Retry-After 3", 503, 3, "", 86400, 3, 3},
        {"429, Retry-After 120", 429, 120, "", 86400, 120, 120},
        {"429, Retry-After 0", 429, 0, "", 86400, 0, 3},
        {"429, a huge Retry-After: capped", 429, 1e9, "", 86400, 86400, 86400},
        {"503, over a lower cap", 503, 7200, "", 3600, 3600, 3600},
        {"429, a cap of 0: no wait beyond politeness", 429, 30, "", 0, 0, 3},
        {"429 without Retry-After: retry.delay, 60 s back-off", 429, std::nullopt, "", 86400, 3600, 60},
        {"503 without Retry-After: retry.delay", 503, std::nullopt, "", 86400, 3600, 3},
        {"500 with Retry-After: the longer of the two", 500, 7200, "", 60, 7200, 3},
        {"timeout: retry.delay", 0, std::nullopt, "timeout", 86400, 3600, 3},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        Settings s = build_settings({{"retry.max-retry-after", std::to_string(c.cap)}}, {});
        const FetchFacts f = result(c.status, c.retry_after, c.error_class);
        UrlOutcome o = url_outcome(UrlHistory{}, f, s, kNow, 1);
        CHECK(o.result == "retry");
        CHECK(o.state == UrlState::queued);
        CHECK(o.after.retries == 1);  // a retry is spent all the same
        REQUIRE(o.due);
        CHECK(*o.due == kNow + c.due_in);
        CHECK(o.next_visit == o.due);
        QueueAfterFetch q = queue_after_fetch({}, s, s.politeness, f, std::nullopt, true, kNow);
        CHECK(q.wake_at == kNow + c.queue_wake);
    }
}

TEST_CASE("Retry-After: retries exhausted, robots.txt, the honoured value", "[policy][retry]") {
    Settings s = build_settings({{"retry.max", "1"}, {"retry.max-retry-after", "600"}}, {});
    UrlHistory spent;
    spent.retries = 1;
    UrlOutcome o = url_outcome(spent, result(429, 3), s, kNow, 1);
    CHECK(o.result == "failed");
    CHECK(o.reason == "http-429 (retries exhausted)");
    CHECK(!o.due);

    // A robots.txt answered 503 or 429 with Retry-After is fetched again
    // then (a 429 is a rate limit, not "unavailable").
    RobotsOutcome r = robots_outcome(result(503, 30), 0, s, kNow);
    CHECK(r.result == "retry");
    CHECK(r.retry_at == kNow + 30);
    CHECK(robots_outcome(result(503, 1e6), 0, s, kNow).retry_at == kNow + 600);
    CHECK(robots_outcome(result(503, std::nullopt), 0, s, kNow).retry_at == kNow + 3600);
    CHECK(robots_outcome(result(429, 30), 0, s, kNow).result == "retry");
    CHECK(robots_outcome(result(429, 30), 0, s, kNow).retry_at == kNow + 30);

    CHECK(honoured_retry_after(result(429, 5), 600) == 5.0);
    CHECK(honoured_retry_after(result(503, 5000), 600) == 600.0);
    CHECK(!honoured_retry_after(result(429, std::nullopt), 600));
    CHECK(!honoured_retry_after(result(500, 5), 600));
    CHECK(!honoured_retry_after(result(301, 5), 600));
}
