// Queue decisions without a database, table-driven: the budget merge rule
// (lib/policy/budget_limits.hpp), what a result does to its queue (error
// count and penalty, 429s in a row, Retry-After blocks, wake time:
// queue_after_fetch) and queue rotation (lib/policy/lease_policy.hpp).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "policy/budget_limits.hpp"
#include "policy/lease_policy.hpp"
#include "policy/outcome.hpp"
#include "fetch_facts.hpp"

using namespace frontier;
using frontier::test::kNow;
using frontier::test::result;

TEST_CASE("budget merge: the most specific value wins, field by field", "[policy][budget]") {
    const std::vector<BudgetOverride> rows = {
        {"domain", "example.org", std::nullopt, 500},
        {"queue", "x.example.org:8080", 10, std::nullopt},
        {"domain", "shop.example.org", 20, std::nullopt},
        {"domain", "other.net", 1, 2},
    };
    const DomainSettingValues domains = {
        {"example.org", {{"budget.replenish", "7"}, {"politeness.min-delay", "1"}}},
        {"other.net", {{"budget.total", "9"}}},  // wins over the stored override's 2
        {"new.org", {{"budget.total", "4"}}},    // a domain setting alone is an override too
    };
    const BudgetOverrides o(rows, domains);
    const BudgetLimits global{3000, -1};
    struct Case {
        const char* queue;
        int64_t replenish, total;
    };
    for (const Case& c : {
             Case{"a.example.org", 7, 500},           // the domain setting merged into the domain's override
             Case{"example.org", 7, 500},             // the domain itself
             Case{"a.shop.example.org", 20, 500},     // the most specific domain, then its parent's total
             Case{"x.example.org:8080", 10, 500},     // the queue's own override first
             Case{"y.example.org:8080", 7, 500},      // a port is not part of a domain
             Case{"other.net", 1, 9},                 // the domain setting wins over the stored field
             Case{"www.new.org", 3000, 4},
             Case{"unrelated.com", 3000, -1},         // the global settings
             Case{"notexample.org", 3000, -1},        // a suffix that is not a parent domain
             Case{"[::1]:8080", 3000, -1},            // an IPv6 key keeps its colons
         }) {
        INFO(c.queue);
        BudgetLimits b = o.limits_for(c.queue, global);
        CHECK(b.replenish == c.replenish);
        CHECK(b.total == c.total);
    }
    CHECK(BudgetOverrides().limits_for("a.example.org", {5, 6}).replenish == 5);

    // The listing: merged, domains first, each scope by name.
    std::vector<BudgetOverride> l = o.list();
    REQUIRE(l.size() == 5);
    std::vector<std::string> names;
    for (auto& x : l) names.push_back(x.scope + " " + x.name);
    CHECK(names == std::vector<std::string>{"domain example.org", "domain new.org", "domain other.net",
                                            "domain shop.example.org", "queue x.example.org:8080"});
    CHECK(l[0].replenish == 7);
    CHECK(l[0].total == 500);
    CHECK(l[1].replenish == std::nullopt);
    CHECK(l[2].total == 9);
}

TEST_CASE("a result's effect on its queue: errors, penalty, 429s, wake time", "[policy][queue]") {
    Politeness p;  // min-delay 3, host-down-delay 600
    Settings s = build_settings({{"budget.error-penalty", "50"}}, {});
    struct Case {
        const char* what;
        FetchFacts f;
        bool unsuccessful;
        QueueBefore before;
        double wake_in;  // wake_at - now
        int64_t n429, penalty;
        bool error, ra_block, host_down;
    };
    auto with_ra = [](FetchFacts f, double ra) {
        f.retry_after = ra;
        return f;
    };
    const std::vector<Case> cases = {
        {"200", result(200), false, {0, 2}, 3, 0, 0, false, false, false},
        {"404 charged", result(404), true, {0, 0}, 3, 0, 50, true, false, false},
        {"429 counted in a row", result(429), true, {0, 2}, 240, 3, 50, true, false, false},
        {"429 with Retry-After", with_ra(result(429), 7), true, {0, 0}, 7, 1, 50, true, true, false},
        {"503 with Retry-After", with_ra(result(503), 7), true, {0, 4}, 7, 0, 50, true, true, false},
        {"500 with Retry-After: no block", with_ra(result(500), 7), true, {0, 0}, 3, 0, 50, true, false, false},
        {"host-down: no request, no wait, not charged", result(0, "host-down"), true, {0, 0}, 0, 0, 0, true, false,
         true},
        {"host-down: the connect failure's wait stands", result(0, "host-down"), true, {kNow + 500, 0}, 500, 0, 0,
         true, false, true},
        {"connect: charged", result(0, "connect"), true, {0, 0}, 600, 0, 50, true, false, false},
        {"a later wake time stands", result(200), false, {kNow + 100, 0}, 100, 0, 0, false, false, false},
        {"429 served from cache", result(429), false, {0, 0}, 60, 1, 0, false, false, false},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        QueueAfterFetch a = queue_after_fetch(c.before, s, p, c.f, std::nullopt, c.unsuccessful, kNow);
        CHECK(a.wake_at == kNow + c.wake_in);
        CHECK(a.n429 == c.n429);
        CHECK(a.penalty == c.penalty);
        CHECK(a.error == c.error);
        CHECK(a.retry_after_block == c.ra_block);
        CHECK(a.host_down == c.host_down);
    }
}

TEST_CASE("queue rotation: activation, spend, and when to ask for others", "[policy][budget]") {
    struct Case {
        int64_t total_spend, balance, replenish, total;
        bool others;
        bool asks;
        AfterSpend after;
    };
    for (const Case& c : {
             Case{5, 10, 3000, -1, true, false, AfterSpend::keep},
             Case{10, 10, 3000, 10, false, false, AfterSpend::retire},  // total reached first
             Case{10, 0, 3000, 10, true, false, AfterSpend::retire},
             Case{5, 0, 3000, -1, true, true, AfterSpend::rotate_out},
             Case{5, -2, 3000, -1, true, true, AfterSpend::rotate_out},
             Case{5, 0, 3000, -1, false, true, AfterSpend::refill},  // nobody waiting: keep going
             Case{5, 0, 0, -1, false, true, AfterSpend::retire},     // and nothing to refill with
         }) {
        INFO(c.total_spend << " " << c.balance << " " << c.replenish << " " << c.total << " " << c.others);
        CHECK(rotation_asks_others(c.total_spend, c.balance, c.total) == c.asks);
        CHECK(after_spend(c.total_spend, c.balance, c.replenish, c.total, c.others) == c.after);
        // The answer depends on the others only where the caller is told to ask.
        if (!c.asks)
            CHECK(after_spend(c.total_spend, c.balance, c.replenish, c.total, !c.others) == c.after);
    }
    CHECK(activation(0, 3000, -1) == Activation::activate);
    CHECK(activation(10, 5, 10) == Activation::retire);
    CHECK(activation(0, 0, -1) == Activation::retire);
}
