#include <catch2/catch.hpp>

#include "policy/priority.hpp"
#include "policy/settings.hpp"

using namespace frontier;

namespace {
Settings defaults() { return build_settings({}, {}); }
Url url_of(const char* s) { return canonicalize_url(s).url; }
}  // namespace

TEST_CASE("priority follows the seed's formula and tables", "[priority]") {
    Settings s = defaults();
    Url u = url_of("http://example.com/a");
    UrlRecord in;
    in.type = "article";
    in.depth = 2;
    CHECK(compute_priority(s, u, in) == 2);
    in.type = "hub-seed";
    CHECK(compute_priority(s, u, in) == 6);
    in.type = "";
    in.depth = 0;
    CHECK(compute_priority(s, u, in) == 12);  // default weight
    in.type = "refresh";
    in.bias = 1.5;
    CHECK(compute_priority(s, u, in) == 26.5);
    in.bias = 0;
    in.type = "nav";
    in.discovery = "sitemap";
    CHECK(compute_priority(s, u, in) == 0);  // 10 - 10
    in.discovery = "intelligent-seed";    // alias of adaptive-seed: bonus 20
    CHECK(compute_priority(s, u, in) == -10);
    in.discovery = "link-discovery";
    CHECK(compute_priority(s, u, in) == 10);
    // The seed's DEFAULT_BONUSES give gap-prediction 15: 12 - 15 for no type.
    in.type = "";
    in.discovery = "gap-prediction";
    CHECK(compute_priority(s, u, in) == -3);
}

TEST_CASE("named bonuses and the cost-aware adjustment", "[priority]") {
    Settings s = build_settings({{"priority.bonus-weights", "{\"gap-score\":15}"}}, {});
    Url u = url_of("http://example.com/a");
    UrlRecord in;
    in.type = "nav";
    in.bonuses = {{"gap-score", 0.4}};
    CHECK(compute_priority(s, u, in) == Approx(4));  // 10 - 0.4*15
    in.bonuses.clear();
    // costAwarePriority is off by default, as in the seed.
    in.estimated_cost_ms = 50;
    CHECK(compute_priority(s, u, in) == Approx(10));
    s = build_settings({{"priority.cost-aware", "true"}}, {});
    CHECK(compute_priority(s, u, in) == Approx(9));
    in.estimated_cost_ms = 900;
    CHECK(compute_priority(s, u, in) == Approx(11));
    in.estimated_cost_ms = 300;
    CHECK(compute_priority(s, u, in) == Approx(10));
}

TEST_CASE("the seed's scorer steps: base multiplier, gap prediction, cluster boost, source", "[priority]") {
    Settings s = build_settings({{"priority.bonus-weights", "{\"gap-score\":2}"}}, {});
    Url u = url_of("http://example.com/a");
    UrlRecord in;
    in.type = "nav";  // weight 10
    PriorityResult r = compute_priority_detail(s, u, in);
    CHECK(r.priority == 10);
    CHECK(r.source == "base");
    CHECK(r.bonus_applied == 0);
    // Gap score = confidence x 10 + coverage lift x 5 = 0.5 x 10 + 0.2 x 5 = 6,
    // times the gap-score weight 2: 12.
    in.discovery = "sitemap";  // 10
    in.gap_prediction = std::make_pair(0.5, 0.2);
    r = compute_priority_detail(s, u, in);
    CHECK(r.priority == Approx(10 - 10 - 12));
    CHECK(r.source == "gap-prediction");
    CHECK(r.bonus_applied == Approx(22));
    // Cluster boost = min(log2(count) x 2.5, 20): 8 occurrences give 7.5.
    in.cluster_count = 8;
    r = compute_priority_detail(s, u, in);
    CHECK(r.priority == Approx(10 - 10 - 12 - 7.5));
    CHECK(r.source == "cluster-boost");
    in.cluster_count = 1e9;  // held to 20
    CHECK(compute_priority_detail(s, u, in).priority == Approx(10 - 10 - 12 - 20));
    // The base multiplier scales the base only.
    Settings twice = build_settings({{"priority.base-weight", "2"}}, {});
    UrlRecord base;
    base.type = "nav";
    base.discovery = "sitemap";
    r = compute_priority_detail(twice, u, base);
    CHECK(r.priority == 10 * 2 - 10);
    CHECK(r.source == "discovery-bonus");
}

TEST_CASE("focus rules set floors; focus-other drops the rest", "[priority]") {
    Settings s = build_settings({{"priority.focus", R"([{"tokens":["france","paris"],"floor":-5000},{"tokens":["europe"],"floor":-3000}])"},
                                 {"priority.focus-other", "5000000"}},
                                {});
    Url a = url_of("http://news.example.com/world/paris/story");
    Url b = url_of("http://example.com/europe/x");
    Url c = url_of("http://example.com/sport");
    UrlRecord in;
    CHECK(compute_priority(s, a, in) == -5000);
    CHECK(compute_priority(s, b, in) == -3000);
    CHECK(compute_priority(s, c, in) == 5000000);
    in.meta_strings = {"France"};
    CHECK(compute_priority(s, c, in) == -5000);
    CHECK(compute_priority(s, Url{}, in) == -5000);  // the record's tokens alone
    in.meta_strings.clear();
    in.type = "europe";
    CHECK(compute_priority(s, c, in) == -3000);
}

TEST_CASE("cost policies", "[priority]") {
    Url plain = url_of("http://example.com/a/b");
    Url query = url_of("http://example.com/a/b?x=1");
    Url cal = url_of("http://example.com/calendar/2024/05");
    auto cost = [](const char* policy, const Url& u, const char* via = "") {
        Settings s = build_settings({{"budget.cost-policy", std::string("\"") + policy + "\""},
                                     {"budget.cost-rules", R"({"/b$":5,"example":1})"}},
                                    {});
        return compute_cost(s, u, via);
    };
    CHECK(cost("zero", query) == 0);
    CHECK(cost("unit", query) == 1);
    CHECK(cost("wag", plain) == 1);
    CHECK(cost("wag", query) == 2);
    CHECK(cost("wag", query, "http://example.com/a/b?x=2") == 3);
    CHECK(cost("wag", query, "http://example.com/other") == 2);
    CHECK(cost("anticalendar", cal) == 2);
    CHECK(cost("anticalendar", plain) == 1);
    CHECK(cost("rules", plain) == 7);
    CHECK(cost("rules", query) == 2);
}

TEST_CASE("url class and discovery aliases", "[priority]") {
    CHECK(url_class("article") == "acquisition");
    CHECK(url_class("refresh") == "acquisition");
    CHECK(url_class("history") == "acquisition");
    CHECK(url_class("nav") == "discovery");
    CHECK(url_class("") == "discovery");
    CHECK(canonical_discovery("hub-seed") == "adaptive-seed");
    CHECK(canonical_discovery("validated-hub") == "hub-validated");
    CHECK(canonical_discovery("sitemap") == "sitemap");
}

TEST_CASE("a record without depth is the depth bucket unknown: priority.unknown-depth", "[priority]") {
    Url u = url_of("http://example.com/a");
    UrlRecord in;
    in.type = "article";
    in.depth_given = false;
    Settings s = defaults();
    CHECK(compute_priority(s, u, in) == 0);  // default 0: scored as depth 0, as before
    s = build_settings({{"priority.unknown-depth", "3"}, {"priority.base-weight", "2"}}, {});
    CHECK(compute_priority(s, u, in) == 6);  // (0 + 3) x 2
    in.depth = 0;
    in.depth_given = true;
    CHECK(compute_priority(s, u, in) == 0);  // a known depth 0 is not unknown
    in.depth = 1;
    CHECK(compute_priority(s, u, in) == 2);
    CHECK_THROWS(normalise_setting("priority.unknown-depth", "-1"));  // frontier-config refuses it
}
