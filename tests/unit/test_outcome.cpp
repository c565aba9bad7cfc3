// What a fetch result means (lib/policy/outcome.hpp), without a database:
// robots.txt results, URL results (retries, give-up, revisits, disabling)
// and the politeness wait, table-driven.
#include <catch2/catch.hpp>

#include <climits>
#include <string>

#include "policy/lease_id.hpp"
#include "policy/lease_policy.hpp"
#include "policy/outcome.hpp"
#include "fetch_facts.hpp"

using namespace frontier;
using frontier::test::kNow;
using frontier::test::result;

namespace {

Settings defaults() { return build_settings({}, {}); }

}  // namespace

TEST_CASE("robots.txt results: rules, allow all, retry, give up", "[outcome]") {
    Settings s = defaults();  // retry.max 12, retry.delay 3600
    struct Case {
        int64_t status;
        const char* error_class;
        int64_t retries;
        RobotsOutcome::HostState state;
        bool parse;
        const char* result;
    };
    using H = RobotsOutcome::HostState;
    for (Case c : std::initializer_list<Case>{
             {200, "", 0, H::known, true, "done"},
             {204, "", 0, H::known, true, "done"},
             {301, "", 0, H::known, false, "done"},              // a redirect fetch did not follow
             {404, "", 0, H::known, false, "done"},              // unavailable: allow all
             {403, "", 0, H::known, false, "done"},
             {302, "too-many-redirects", 0, H::known, false, "done"},
             {0, "blocked-address", 0, H::known, false, "done"},  // the address guard: unavailable
             {500, "", 0, H::retry, false, "retry"},
             {429, "", 0, H::retry, false, "retry"},  // a rate limit: unreachable, not unavailable
             {503, "", 11, H::retry, false, "retry"},
             {0, "dns", 3, H::retry, false, "retry"},
             {500, "", 12, H::given_up, false, "failed"},
             {0, "timeout", 12, H::given_up, false, "failed"},
         }) {
        INFO(c.status << " " << c.error_class << " retries " << c.retries);
        RobotsOutcome o = robots_outcome(result(c.status, c.error_class), c.retries, s, kNow);
        CHECK(o.state == c.state);
        CHECK(o.parse_body == c.parse);
        CHECK(o.result == c.result);
        CHECK(o.unsuccessful == (c.state != H::known));
        CHECK(o.retry_at.has_value() == (c.state == H::retry));
        if (o.retry_at) CHECK(*o.retry_at == kNow + 3600);
        CHECK(o.reason == (c.state == H::given_up ? "robots-unreachable" : ""));
    }
}

TEST_CASE("URL results: done, retry, failed", "[outcome]") {
    Settings s = defaults();  // retry.soft: dns, connect, timeout, reset, host-down, 408, 429, 5xx ...
    struct Case {
        int64_t status;
        const char* error_class;
        int64_t retries;
        const char* result;
        UrlState state;
        const char* reason;
        std::optional<double> due;
    };
    for (Case c : std::initializer_list<Case>{
             {200, "", 0, "done", UrlState::done, "", std::nullopt},
             {301, "", 0, "done", UrlState::done, "", std::nullopt},
             {304, "", 0, "done", UrlState::done, "", std::nullopt},
             {404, "", 0, "failed", UrlState::failed, "http-404", std::nullopt},
             {0, "blocked-address", 0, "failed", UrlState::failed, "blocked-address", std::nullopt},
             {0, "too-large", 0, "failed", UrlState::failed, "too-large", std::nullopt},
             {503, "", 0, "retry", UrlState::queued, "", kNow + 3600},
             {0, "dns", 11, "retry", UrlState::queued, "", kNow + 3600},
             {503, "", 12, "failed", UrlState::failed, "http-503 (retries exhausted)", std::nullopt},
             {0, "timeout", 12, "failed", UrlState::failed, "timeout (retries exhausted)", std::nullopt},
             {0, "host-down", 0, "retry", UrlState::queued, "", kNow + 3600},  // a try like the others
             {0, "host-down", 12, "failed", UrlState::failed, "host-down (retries exhausted)", std::nullopt},
         }) {
        INFO(c.status << " " << c.error_class << " retries " << c.retries);
        UrlHistory h;
        h.retries = c.retries;
        UrlOutcome o = url_outcome(h, result(c.status, c.error_class), s, kNow, 1);
        CHECK(o.result == c.result);
        CHECK(o.state == c.state);
        CHECK(o.reason == c.reason);
        CHECK(o.due == c.due);
        CHECK(o.follow_links == (o.result == "done"));
        CHECK(o.after.visits == 1);
        CHECK(o.after.successes == (o.result == "done" ? 1 : 0));
        CHECK(o.after.retries == c.retries + (o.result == "retry" ? 1 : 0));
        CHECK(o.after.last_success == (o.result == "done" ? std::optional<double>(kNow) : std::nullopt));
    }
    // Retry-After beyond retry.delay pushes the retry out.
    FetchFacts ra = result(429);
    ra.retry_after = 7200;
    CHECK(url_outcome({}, ra, s, kNow, 1).due == kNow + 7200);
    // A fetcher's own down window (host-down with retry_after) pushes it out
    // the same way; retry.delay still holds below it.
    FetchFacts down = result(0, "host-down");
    down.retry_after = 7200;
    CHECK(url_outcome({}, down, s, kNow, 1).due == kNow + 7200);
    down.retry_after = 30;
    CHECK(url_outcome({}, down, s, kNow, 1).due == kNow + 3600);
    // Without host-down in retry.soft it fails at once.
    Settings hard = build_settings({{"retry.soft", "[\"timeout\"]"}}, {});
    UrlOutcome o = url_outcome({}, result(0, "host-down"), hard, kNow, 1);
    CHECK(o.result == "failed");
    CHECK(o.reason == "host-down");
}

TEST_CASE("a dead host's URLs end: host-down spends the retries of a one-off crawl", "[outcome]") {
    // frontier-crawl's new frontier: retry.delay 10, retry.max 3. After
    // fetch has put the host down, every lease of its URL is answered
    // host-down at once; the URL fails on the fourth answer, 30 s later,
    // and adds no wait to its queue.
    Settings s = build_settings({{"retry.delay", "10"}, {"retry.max", "3"}, {"politeness.host-down-delay", "60"}}, {});
    Politeness p = s.politeness;
    UrlHistory h;
    double t = kNow;
    std::vector<std::string> results;
    for (int i = 0; i < 10 && (results.empty() || results.back() == "retry"); ++i) {
        UrlOutcome o = url_outcome(h, result(0, "host-down"), s, t, 1);
        results.push_back(o.result);
        CHECK(politeness_wait(p, result(0, "host-down"), 5.0, 0) == 0);
        h = o.after;
        if (o.due) t = *o.due;
    }
    CHECK(results == std::vector<std::string>{"retry", "retry", "retry", "failed"});
    CHECK(t == kNow + 30);
}

TEST_CASE("URL results: validators and content hashes", "[outcome]") {
    Settings s = defaults();
    UrlHistory h;
    h.content_hash = "aaaa";
    h.etag = "\"v1\"";
    FetchFacts f = result(304);
    UrlOutcome o = url_outcome(h, f, s, kNow, 1);
    CHECK(o.after.content_hash == "aaaa");  // a 304 keeps the old hash
    CHECK(o.after.etag == "\"v1\"");
    f = result(200);
    f.content_hash = "bbbb";
    f.etag = "\"v2\"";
    o = url_outcome(h, f, s, kNow, 1);
    CHECK(o.after.content_hash == "bbbb");
    CHECK(o.after.etag == "\"v2\"");
}

TEST_CASE("URL results: revisits (the seed's multiplicative rule)", "[outcome]") {
    Settings s = defaults();  // interval 1 d, adjust 2, min 1 d, max 64 d, fail-delay 1 d, max-failures 3
    UrlHistory h;
    h.recrawl = true;
    h.content_hash = "aaaa";
    // The first success: recrawl.interval, first_success set, counted first.
    FetchFacts f = result(200);
    f.content_hash = "aaaa";
    UrlOutcome o = url_outcome(h, f, s, kNow, 7);
    CHECK(o.result == "done");
    CHECK(o.after.interval == 86400);
    CHECK(o.first_success == kNow);
    REQUIRE(o.due);
    CHECK(*o.due >= kNow + 86400 * 0.9);
    CHECK(*o.due <= kNow + 86400 * 1.1);
    CHECK(o.tier.tier != 0);
    // Uneventful (same hash) at interval 2 d: multiplied by the factor.
    h.interval = 2 * 86400;
    o = url_outcome(h, f, s, kNow, 7);
    CHECK(o.after.interval == 4 * 86400);
    CHECK(o.after.changes == 0);
    CHECK(!o.first_success);
    // Eventful (a new hash): divided, held to the minimum, a change counted.
    f.content_hash = "bbbb";
    o = url_outcome(h, f, s, kNow, 7);
    CHECK(o.after.interval == 86400);
    CHECK(o.after.changes == 1);
    // Failures in a row: retried after recrawl.fail-delay, then disabled.
    FetchFacts gone = result(404);
    h.failures = 0;
    o = url_outcome(h, gone, s, kNow, 7);
    CHECK(o.result == "retry");
    CHECK(o.state == UrlState::failed);
    CHECK(o.due == kNow + 86400);
    CHECK(o.reason == "http-404");
    h.failures = 2;
    o = url_outcome(h, gone, s, kNow, 7);
    CHECK(o.result == "failed");
    CHECK(o.state == UrlState::disabled);
    CHECK(o.after.failures == 3);
    // A success resets the failures.
    o = url_outcome(h, f, s, kNow, 7);
    CHECK(o.after.failures == 0);
}

TEST_CASE("politeness wait after a fetch", "[outcome]") {
    Politeness p;  // delay-factor 5, min 3, max 30, max-crawl-delay 300
    FetchFacts f = result(200);
    f.duration_ms = 100;
    CHECK(politeness_wait(p, f, std::nullopt, 0) == 3);  // 0.5 s held to min-delay
    f.duration_ms = 2000;
    CHECK(politeness_wait(p, f, std::nullopt, 0) == 10);
    f.duration_ms = 60000;
    CHECK(politeness_wait(p, f, std::nullopt, 0) == 30);  // held to max-delay
    CHECK(politeness_wait(p, f, 45.0, 0) == 45);          // Crawl-delay
    CHECK(politeness_wait(p, f, 1000.0, 0) == 300);       // up to max-crawl-delay
    FetchFacts busy = result(429);
    CHECK(politeness_wait(p, busy, std::nullopt, 0) == 60);
    CHECK(politeness_wait(p, busy, std::nullopt, 3) == 480);       // doubling per 429 in a row
    CHECK(politeness_wait(p, busy, std::nullopt, 30) == 86400);    // up to a day
    busy.retry_after = 120;
    CHECK(politeness_wait(p, busy, std::nullopt, 5) == 120);       // Retry-After wins
    FetchFacts unavailable = result(503);
    CHECK(politeness_wait(p, unavailable, std::nullopt, 0) == 3);  // 503 without Retry-After: no back-off
    unavailable.retry_after = 1e9;
    CHECK(politeness_wait(p, unavailable, std::nullopt, 0) == 86400);
    // A host that could not be reached waits host-down-delay (600 s) for all;
    // a host-down result sent no request and adds no wait, not even
    // min-delay or Crawl-delay.
    for (const char* down : {"dns", "connect"}) CHECK(politeness_wait(p, result(0, down), std::nullopt, 0) == 600);
    CHECK(politeness_wait(p, result(0, "host-down"), 10.0, 0) == 0);
    CHECK(politeness_wait(p, result(0, "timeout"), std::nullopt, 0) == 3);
    CHECK(politeness_wait(p, result(0, "reset"), std::nullopt, 0) == 3);
}

TEST_CASE("the politeness wait counts from the fetch's end", "[outcome]") {
    Settings s = defaults();
    Politeness p;
    p.min_delay = 1;
    p.delay_factor = 0;
    FetchFacts f = result(200);
    f.duration_ms = 250;
    // No fetched_at: from frontier-done's clock.
    CHECK(queue_after_fetch({}, s, p, f, std::nullopt, false, kNow).wake_at == kNow + 1);
    // The fetch began 2 s before frontier-done saw it and took 250 ms: the
    // 1.75 s the result spent on its way are not added to the host's gap.
    f.fetched_at = kNow - 2;
    CHECK(queue_after_fetch({}, s, p, f, std::nullopt, false, kNow).wake_at == kNow - 0.75);
    // A fetch host's clock ahead of frontier-done's: never later than now.
    f.fetched_at = kNow + 5;
    CHECK(queue_after_fetch({}, s, p, f, std::nullopt, false, kNow).wake_at == kNow + 1);
    // A wake time already set later stands; Retry-After counts from the end too.
    f.fetched_at = kNow - 2;
    CHECK(queue_after_fetch({kNow + 9, 0}, s, p, f, std::nullopt, false, kNow).wake_at == kNow + 9);
    FetchFacts busy = result(503);
    busy.retry_after = 30;
    busy.fetched_at = kNow - 10;
    CHECK(queue_after_fetch({}, s, p, busy, std::nullopt, true, kNow).wake_at == kNow + 20);
}

TEST_CASE("lease ids: the one form, written and read", "[outcome][lease]") {
    CHECK(format_lease(31, 2) == "1f-2");
    CHECK(format_lease(1, 1, true) == "r1-1");
    int64_t id = 0, seq = 0;
    for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{255}, INT64_MAX}) {
        INFO(v);
        REQUIRE(parse_lease(format_lease(v, v + (v < INT64_MAX ? 1 : 0)), id, seq) == LeaseId::ok);
        CHECK(id == v);
    }
    for (const char* bad : {"0x1-1", "01-1", "+1-1", "1F-1", " 1-1", "1-", "-1", "1", "", "1-1-1"}) {
        INFO(bad);
        CHECK(parse_lease(bad, id, seq) == LeaseId::bad);
    }
    CHECK(parse_lease("8000000000000000-1", id, seq) == LeaseId::unknown);  // above any row id
    CHECK(parse_lease("1-" + std::string(40, 'f'), id, seq) == LeaseId::bad);  // over 40 characters
}

TEST_CASE("budgets: activation and what a lease's spend does", "[outcome][budget]") {
    // activation(total_spend, replenish, total)
    CHECK(activation(0, 3000, -1) == Activation::activate);
    CHECK(activation(10, 5, 10) == Activation::retire);    // total budget reached
    CHECK(activation(9, 5, 10) == Activation::activate);
    CHECK(activation(0, 0, -1) == Activation::retire);     // replenish 0 or less
    CHECK(activation(0, -5, -1) == Activation::retire);
    // after_spend(total_spend, session_balance, replenish, total, others_inactive)
    CHECK(after_spend(5, 10, 3000, -1, true) == AfterSpend::keep);
    CHECK(after_spend(10, 10, 3000, 10, false) == AfterSpend::retire);  // total reached first
    CHECK(after_spend(5, 0, 3000, -1, true) == AfterSpend::rotate_out);
    CHECK(after_spend(5, -2, 3000, -1, true) == AfterSpend::rotate_out);
    CHECK(after_spend(5, 0, 3000, -1, false) == AfterSpend::refill);   // nobody waiting: keep going
    CHECK(after_spend(5, 0, 0, -1, false) == AfterSpend::retire);
    CHECK(over_total(10, 10));
    CHECK(!over_total(10, -1));
    CHECK(!over_total(9, 10));
}

TEST_CASE("the robots.txt prerequisite at lease time", "[outcome][robots]") {
    using S = RobotsState;
    CHECK(robots_step(S::unknown, 0, 0, false, kNow) == RobotsStep::fetch_robots);
    CHECK(robots_step(S::unknown, 0, 0, true, kNow) == RobotsStep::wait_lease);
    CHECK(robots_step(S::known, kNow - 100, 0, false, kNow) == RobotsStep::check_rules);
    CHECK(robots_step(S::known, kNow - kRobotsMaxAge, 0, false, kNow) == RobotsStep::fetch_robots);  // a day old
    CHECK(robots_step(S::known, kNow - kRobotsMaxAge, 0, true, kNow) == RobotsStep::wait_lease);
    CHECK(robots_step(S::unreachable, kNow - 10, kNow + 60, false, kNow) == RobotsStep::hold);
    CHECK(robots_step(S::unreachable, kNow - 10, kNow, false, kNow) == RobotsStep::fetch_robots);    // retry due
    CHECK(robots_step(S::given_up, kNow - 10, 0, false, kNow) == RobotsStep::fail_url);
}

TEST_CASE("revisits: the seed's rule starts from the time since the last success", "[outcome][recrawl]") {
    // An unchanged visit 10 days after the last success, stored interval 1
    // day: the seed gives 20 days (10 x 2); the stored-interval rule 2.
    UrlHistory h;
    h.recrawl = true;
    h.content_hash = "aaaa";
    h.interval = 86400;
    h.last_success = kNow - 10 * 86400;
    FetchFacts f = result(200);
    f.content_hash = "aaaa";
    CHECK(url_outcome(h, f, defaults(), kNow, 3).after.interval == 20 * 86400);
    Settings stored = build_settings({{"recrawl.policy", "\"stored-interval\""}}, {});
    CHECK(url_outcome(h, f, stored, kNow, 3).after.interval == 2 * 86400);
    // Eventful: halved, held to the minimum (1 day).
    f.content_hash = "bbbb";
    CHECK(url_outcome(h, f, defaults(), kNow, 3).after.interval == 5 * 86400);
    h.last_success = kNow - 86400;
    CHECK(url_outcome(h, f, defaults(), kNow, 3).after.interval == 86400);
}

TEST_CASE("a 429 with a stored copy is served from cache", "[outcome][cached]") {
    Settings s = defaults();  // recrawl.interval 86400 = min-interval
    UrlHistory h;
    h.recrawl = true;
    h.successes = 1;
    h.visits = 1;
    h.content_hash = "aaaa";
    h.etag = "\"v1\"";
    h.interval = 4 * 86400.0;
    h.retries = 2;
    FetchFacts f = result(429);
    f.content_hash = "ffff";  // the 429 page's own body
    REQUIRE(served_from_cache(h, f));
    UrlOutcome o = url_outcome(h, f, s, kNow, 1);
    CHECK(o.result == "cached");
    CHECK(o.state == UrlState::done);
    CHECK(o.after.content_hash == "aaaa");  // the previous content stands
    CHECK(o.after.etag == "\"v1\"");
    CHECK(o.after.successes == 1);          // not a successful visit
    CHECK(o.after.visits == 2);
    CHECK(o.after.retries == 0);
    CHECK(o.after.interval == 4 * 86400.0);  // no feedback from a 429
    REQUIRE(o.due);
    CHECK(*o.due == kNow + 4 * 86400.0);
    CHECK_FALSE(o.follow_links);
    // The queue still backs off: 60 s for a first 429 without Retry-After.
    CHECK(politeness_wait(s.politeness, f, std::nullopt, 0) == 60);
    // Not revisited: done, no revisit.
    h.recrawl = false;
    o = url_outcome(h, f, s, kNow, 1);
    CHECK(o.result == "cached");
    CHECK_FALSE(o.due);
    // No stored copy (never fetched, or no hash), or another status: as before.
    UrlHistory fresh;
    CHECK_FALSE(served_from_cache(fresh, f));
    CHECK(url_outcome(fresh, f, s, kNow, 1).result == "retry");  // 429 is soft
    h.content_hash.reset();
    CHECK_FALSE(served_from_cache(h, f));
    h.content_hash = "aaaa";
    CHECK_FALSE(served_from_cache(h, result(503)));
    CHECK_FALSE(served_from_cache(h, result(429, "timeout")));
}

TEST_CASE("URL classes alternate with a burst limit", "[lease][outcome]") {
    ClassRun r;
    CHECK(forced_class(r, 3) == -1);  // nothing leased yet
    r = after_class_lease(r, kClassAcquisition);
    r = after_class_lease(r, kClassAcquisition);
    CHECK(forced_class(r, 3) == -1);
    r = after_class_lease(r, kClassAcquisition);
    CHECK(r.run == 3);
    CHECK(forced_class(r, 3) == kClassDiscovery);
    CHECK(forced_class(r, 0) == -1);  // off
    CHECK(forced_class(r, 4) == -1);
    r = after_class_lease(r, kClassDiscovery);
    CHECK(r.cls == kClassDiscovery);
    CHECK(r.run == 1);
    CHECK(forced_class(r, 1) == kClassAcquisition);
    // Stored as one integer in the meta table.
    for (ClassRun c : {ClassRun{}, ClassRun{0, 1}, ClassRun{1, 7}, ClassRun{0, 123456}}) {
        ClassRun d = decode_class_run(encode_class_run(c));
        CHECK(d.cls == c.cls);
        CHECK(d.run == c.run);
    }
}

TEST_CASE("a fork keeps its place behind the non-forks after a failed visit", "[outcome][recrawl]") {
    Settings s = defaults();
    UrlHistory h;
    h.recrawl = true;
    h.fork = true;
    h.last_modified = 1700000000;
    UrlOutcome o = url_outcome(h, result(404), s, kNow, 1);
    CHECK(o.result == "retry");
    CHECK(o.tier.tier == 1);
    CHECK(fork_tier(o.tier.tier, o.tier.key));
    CHECK(o.tier.key == 1700000000 + kForkKey);
    o = url_outcome(h, result(200), s, kNow, 1);  // loaded: the flag is spent
    CHECK_FALSE(fork_tier(o.tier.tier, o.tier.key));
    h.recrawl = false;  // not revisited: tier 0, still behind
    o = url_outcome(h, result(503), s, kNow, 1);
    CHECK(o.tier.tier == 0);
    CHECK(fork_tier(o.tier.tier, o.tier.key));
}
