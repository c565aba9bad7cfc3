// Unit tests for lib/policy/recrawl.cpp (frontier(7), RECRAWL): tiers, the multiplicative and
// estimate interval rules, jitter, lister updates and the report counters;
// and the revisit section of the report renderers.
#include <catch2/catch.hpp>

#include <cmath>

#include "policy/recrawl.hpp"
#include "report/report_render.hpp"
#include "policy/settings.hpp"

using namespace frontier;

namespace {
constexpr double kDay = 86400;

VisitHistory hist(std::optional<double> previous, bool eventful, int64_t n = 0, int64_t x = 0, double t = 0) {
    VisitHistory h;
    h.previous = previous;
    h.eventful = eventful;
    h.compared = n;
    h.changes = x;
    h.observed = t;
    return h;
}
}  // namespace

TEST_CASE("revisit intervals: divide when eventful, multiply when not, clamp", "[recrawl]") {
    Settings s = build_settings({}, {});
    auto fb = next_revisit(s, hist(std::nullopt, false), 1000, 7);
    CHECK(fb.interval == kDay);
    CHECK(fb.next_visit >= 1000 + kDay);  // never before min-interval (1 day)
    CHECK(fb.next_visit <= 1000 + kDay * 1.1);
    CHECK(next_revisit(s, hist(kDay * 4, true), 0, 1).interval == kDay * 2);
    CHECK(next_revisit(s, hist(kDay, true), 0, 1).interval == kDay);  // clamped to min
    CHECK(next_revisit(s, hist(kDay * 4, false), 0, 1).interval == kDay * 8);
    CHECK(next_revisit(s, hist(kDay * 60, false), 0, 1).interval == kDay * 64);  // clamped to max
    Settings f3 = build_settings({{"recrawl.adjust-factor", "3"}, {"recrawl.min-interval", "3600"}}, {});
    CHECK(next_revisit(f3, hist(kDay * 3, true), 0, 1).interval == kDay);
    CHECK(next_revisit(f3, hist(kDay, true), 0, 1).interval == Approx(kDay / 3));
    CHECK(next_revisit(f3, hist(7200, true), 0, 1).interval == 3600);
}

TEST_CASE("revisit jitter: +-10% around the interval, not stored, spread over seeds", "[recrawl]") {
    Settings s = build_settings({{"recrawl.min-interval", "3600"}}, {});
    double lo = 1e300, hi = -1e300, sum = 0;
    const int n = 2000;
    for (int seed = 1; seed <= n; ++seed) {
        auto fb = next_revisit(s, hist(kDay * 4, false), 0, static_cast<uint64_t>(seed));
        CHECK(fb.interval == kDay * 8);  // the stored interval has no jitter
        double f = fb.next_visit / (kDay * 8);
        lo = std::min(lo, f);
        hi = std::max(hi, f);
        sum += f;
    }
    CHECK(lo >= 0.9);
    CHECK(hi <= 1.1);
    CHECK(lo < 0.92);  // the whole range is used
    CHECK(hi > 1.08);
    CHECK(sum / n == Approx(1.0).epsilon(0.01));
    // Deterministic per seed.
    CHECK(next_revisit(s, hist(kDay, false), 5, 42).next_visit == next_revisit(s, hist(kDay, false), 5, 42).next_visit);
    // At the minimum interval the jitter only delays.
    Settings d = build_settings({}, {});
    for (int seed = 1; seed <= 200; ++seed)
        CHECK(next_revisit(d, hist(kDay, true), 100, static_cast<uint64_t>(seed)).next_visit >= 100 + kDay);
}

TEST_CASE("Cho & Garcia-Molina change-rate estimate", "[recrawl]") {
    // r = -ln((n - X + 0.5)/(n + 0.5)) per mean interval observed / n.
    CHECK(!estimated_change_rate(0, 0, 0));
    CHECK(!estimated_change_rate(5, 0, 5 * kDay));  // no change seen: no estimate
    CHECK(!estimated_change_rate(5, 2, 0));
    double r = -std::log((10 - 4 + 0.5) / (10 + 0.5));
    CHECK(*estimated_change_rate(10, 4, 20 * kDay) == Approx(r / (2 * kDay)));
    // X = n: the estimate stays finite (ln(2n + 1) per interval).
    CHECK(*estimated_change_rate(3, 3, 3 * kDay) == Approx(std::log(7.0) / kDay));
    CHECK(*estimated_change_rate(3, 9, 3 * kDay) == Approx(std::log(7.0) / kDay));  // X capped at n
    // Many visits: the estimate approaches the true rate. A page changing
    // with rate l, visited every I, changes between visits with probability
    // 1 - e^-lI; feeding that expected X back gives l.
    double l = 1 / (3 * kDay), I = kDay;
    int64_t n = 100000;
    int64_t x = std::llround(static_cast<double>(n) * (1 - std::exp(-l * I)));
    CHECK(*estimated_change_rate(n, x, static_cast<double>(n) * I) == Approx(l).epsilon(0.01));
}

TEST_CASE("estimate policy: ln 2 / rate, clamped; multiplies while nothing changed", "[recrawl]") {
    Settings s = build_settings({{"recrawl.policy", "\"estimate\""}, {"recrawl.min-interval", "3600"}}, {});
    CHECK(next_revisit(s, hist(std::nullopt, false), 0, 1).interval == kDay);  // first success
    // 10 visits over 20 days, 4 changes.
    double rate = *estimated_change_rate(10, 4, 20 * kDay);
    CHECK(next_revisit(s, hist(2 * kDay, true, 10, 4, 20 * kDay), 0, 1).interval == Approx(std::log(2.0) / rate));
    // The outcome of this visit does not matter, only the counts.
    CHECK(next_revisit(s, hist(2 * kDay, false, 10, 4, 20 * kDay), 0, 1).interval == Approx(std::log(2.0) / rate));
    // No change yet: x adjust-factor, as the multiplicative rule.
    CHECK(next_revisit(s, hist(4 * kDay, false, 3, 0, 7 * kDay), 0, 1).interval == 8 * kDay);
    // Clamps.
    CHECK(next_revisit(s, hist(kDay, true, 50, 50, 50 * 3600), 0, 1).interval == 3600);
    CHECK(next_revisit(s, hist(60 * kDay, true, 200, 1, 4000 * kDay), 0, 1).interval == 64 * kDay);
    // A page changing about every 3 days, visited daily for a while: the
    // interval comes out near ln 2 x 3 days.
    double l = 1 / (3 * kDay);
    int64_t x = std::llround(30 * (1 - std::exp(-l * kDay)));
    CHECK(next_revisit(s, hist(kDay, true, 30, x, 30 * kDay), 0, 1).interval / kDay == Approx(2.1).margin(0.35));
}

TEST_CASE("revisit tiers follow the seed's policy", "[recrawl]") {
    RecrawlFacts f;
    f.recrawl = true;
    f.last_modified = 500;
    CHECK(recrawl_tier(f).tier == 1);
    CHECK(recrawl_tier(f).key == 500);
    f.successes = 2;
    f.last_success = 400;
    CHECK(recrawl_tier(f).tier == 2);
    CHECK(recrawl_tier(f).key == -100);
    f.last_success = 600;
    f.next_visit = 9000;
    CHECK(recrawl_tier(f).tier == 3);
    CHECK(recrawl_tier(f).key == 9000);
    RecrawlFacts g;
    g.recrawl = true;
    g.successes = 1;
    g.last_success = 300;
    CHECK(recrawl_tier(g).tier == 2);
    CHECK(recrawl_tier(g).key == 300);
    g.successes = 2;
    g.next_visit = 800;
    CHECK(recrawl_tier(g).tier == 3);
    g.visit_now = true;
    g.now = 10;
    CHECK(recrawl_tier(g).tier == 3);  // first in its tier, not another tier
    CHECK(recrawl_tier(g).key < -1e14);
    RecrawlFacts plain;
    CHECK(recrawl_tier(plain).tier == 0);
}

TEST_CASE("a lister date newer than the last success makes a revisit due", "[recrawl]") {
    Settings s = build_settings({}, {});
    CHECK(!listed_change_due(s, 500.0, std::nullopt, 0));   // never visited: tier 1 already
    CHECK(!listed_change_due(s, std::nullopt, 400.0, 2));   // no date
    CHECK(!listed_change_due(s, 400.0, 400.0, 2));          // not newer
    CHECK(*listed_change_due(s, 500.0, 400.0, 2) == 400 + kDay);  // not before min-interval
}

TEST_CASE("revisit counters: outcome and interval bucket moves", "[recrawl]") {
    CHECK(interval_bucket(3600) == "<1d");
    CHECK(interval_bucket(kDay) == "1-2d");
    CHECK(interval_bucket(kDay * 3) == "2-4d");
    CHECK(interval_bucket(kDay * 63.9) == "32-64d");
    CHECK(interval_bucket(kDay * 64) == ">=64d");
    CHECK(interval_bucket(kDay * 1000) == ">=64d");
    CHECK(interval_bucket_names().size() == 8);
    using D = std::vector<std::pair<std::string, int64_t>>;
    CHECK(revisit_counter_deltas(std::nullopt, kDay, true, false) ==
          D{{"revisit:first", 1}, {"revisit:interval:1-2d", 1}});
    CHECK(revisit_counter_deltas(kDay, 2 * kDay, false, false) ==
          D{{"revisit:uneventful", 1}, {"revisit:interval:1-2d", -1}, {"revisit:interval:2-4d", 1}});
    CHECK(revisit_counter_deltas(kDay, kDay, false, true) == D{{"revisit:eventful", 1}});
}

TEST_CASE("report: the revisit section in text, JSON and HTML", "[recrawl][report]") {
    Summary s;
    s.now = 1800000000;
    CHECK(render_report_text(s, {}, {}, "t").find("Revisits") == std::string::npos);
    CHECK(render_summary_json(s).find("revisits") == std::string::npos);
    RevisitSummary r;
    r.urls = 12;
    r.never_visited = 3;
    r.due_now = 2;
    r.next_due = 1800000000 + 3600;
    r.disabled = 1;
    r.first_visits = 9;
    r.eventful = 5;
    r.uneventful = 7;
    for (auto& b : interval_bucket_names()) r.intervals.emplace_back(b, b == "2-4d" ? 4 : b == "1-2d" ? 3 : 0);
    s.revisits = r;
    std::string text = render_report_text(s, {}, {}, "t");
    CHECK(text.find("Revisits: 12 URLs (3 never visited); 2 due now; next due 2027-01-15T09:00:00Z (in 1h00m); "
                    "1 disabled\nVisits: 9 first; 5 eventful; 7 uneventful\nIntervals: 1-2d: 3; 2-4d: 4\n") !=
          std::string::npos);
    CHECK(render_summary_json(s).find(
              R"("revisits":{"urls":12,"never_visited":3,"due_now":2,"next_due":1800003600,"disabled":1,)"
              R"("first_visits":9,"eventful":5,"uneventful":7,"intervals":{"<1d":0,"1-2d":3,"2-4d":4,"4-8d":0,)"
              R"("8-16d":0,"16-32d":0,"32-64d":0,">=64d":0}})") != std::string::npos);
    std::string html = render_report_html(s, {}, {}, "t");
    CHECK(html.find("<table id=\"revisits\">") != std::string::npos);
    CHECK(html.find("chart-intervals") != std::string::npos);
    CHECK(html.find("<tr><th>due now</th><td>2</td></tr>") != std::string::npos);
}

TEST_CASE("forks after non-forks among URLs never loaded (the lister's fork flag)", "[recrawl]") {
    RecrawlFacts f;
    f.recrawl = true;
    f.last_modified = 500;
    RecrawlFacts fork = f;
    fork.fork = true;
    fork.last_modified = 100;  // older, yet behind the non-fork
    CHECK(recrawl_tier(fork).tier == 1);
    CHECK(recrawl_tier(fork).key > recrawl_tier(f).key);
    RecrawlFacts fork2 = fork;
    fork2.last_modified = 200;
    CHECK(recrawl_tier(fork).key < recrawl_tier(fork2).key);  // oldest first among forks
    CHECK(fork_tier(1, recrawl_tier(fork).key));
    CHECK_FALSE(fork_tier(1, recrawl_tier(f).key));
    // Loaded once: the flag no longer orders it.
    fork.successes = 1;
    fork.last_success = 300;
    fork.next_visit = 9000;
    CHECK(recrawl_tier(fork).tier == 3);
    CHECK(recrawl_tier(fork).key == 9000);  // by next-visit target, as any loaded URL
    // Not revisited: tier 0, forks behind.
    RecrawlFacts plain, plain_fork;
    plain_fork.fork = true;
    CHECK(recrawl_tier(plain_fork).tier == 0);
    CHECK(recrawl_tier(plain_fork).key > recrawl_tier(plain).key);
    // visit_now still comes first.
    RecrawlFacts now_fork = plain_fork;
    now_fork.recrawl = true;
    now_fork.visit_now = true;
    CHECK(recrawl_tier(now_fork).key < recrawl_tier(f).key);
}
