#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "policy/settings.hpp"

using namespace frontier;

TEST_CASE("setting values are validated and normalised", "[settings]") {
    CHECK(normalise_setting("politeness.min-delay", "0.5") == "0.5");
    CHECK(normalise_setting("queue.key", "domain") == "\"domain\"");
    CHECK(normalise_setting("queue.key", "\"host\"") == "\"host\"");
    CHECK(normalise_setting("robots.enabled", "off") == "false");
    CHECK(normalise_setting("scope.max-depth", "-1") == "-1");
    CHECK(normalise_setting("scope.include", R"(["^https?://a\\.com/"])") == R"(["^https?://a\\.com/"])");
    CHECK(normalise_setting("priority.type-weights", R"({"article": 1, "nav": 2.5})") == R"({"article":1,"nav":2.5})");
    CHECK_THROWS_AS(normalise_setting("no.such-key", "1"), UsageError);
    CHECK_THROWS_AS(normalise_setting("politeness.min-delay", "-3"), UsageError);
    CHECK_THROWS_AS(normalise_setting("politeness.min-delay", "soon"), UsageError);
    CHECK_THROWS_AS(normalise_setting("queue.key", "ip"), UsageError);
    CHECK_THROWS_AS(normalise_setting("retry.max", "1.5"), UsageError);
    CHECK_THROWS_AS(normalise_setting("scope.exclude", R"(["(unclosed"])"), UsageError);
    CHECK_THROWS_AS(normalise_setting("priority.focus", R"([{"tokens":"x"}])"), UsageError);
    CHECK(normalise_setting("budget.replenish", "0") == "0");
}

TEST_CASE("defaults match the specification", "[settings]") {
    Settings s = build_settings({}, {});
    CHECK(s.lease_ttl == 600);
    CHECK(s.politeness.delay_factor == 5);
    CHECK(s.politeness.min_delay == 3);
    CHECK(s.politeness.max_delay == 30);
    CHECK(s.politeness.max_in_flight == 1);
    CHECK(s.politeness.max_crawl_delay == 300);
    CHECK(s.retry_delay == 3600);
    CHECK(s.retry_max == 12);
    CHECK(s.hold_queues);
    CHECK(s.replenish == 3000);
    CHECK(s.total_budget == -1);
    CHECK(s.cost_policy == "unit");
    CHECK(s.recrawl_interval == 86400);
    CHECK(s.recrawl_max == 64 * 86400);
    CHECK(s.is_soft("connect", 0));
    CHECK(s.is_soft("", 503));
    CHECK(!s.is_soft("", 404));
}

TEST_CASE("per-domain politeness overrides: the most specific wins", "[settings]") {
    Settings s = build_settings({{"politeness.min-delay", "1"}},
                                {{"example.org", {{"politeness.min-delay", "7"}}},
                                 {"a.example.org", {{"politeness.max-in-flight", "4"}}}});
    CHECK(s.politeness_for("other.com").min_delay == 1);
    CHECK(s.politeness_for("example.org").min_delay == 7);
    CHECK(s.politeness_for("www.example.org:8080").min_delay == 7);
    CHECK(s.politeness_for("x.a.example.org").max_in_flight == 4);
    CHECK(s.politeness_for("x.a.example.org").min_delay == 1);  // an override starts from the global values
}
