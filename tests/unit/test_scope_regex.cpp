// URL regular expressions (scope.include, scope.exclude, budget.cost-rules):
// RE2, linear in the URL's length. std::regex backtracks: scope.include
// ["(a+)+$"] would take seconds on a short path.
#include <catch2/catch.hpp>

#include <chrono>
#include <regex>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "policy/priority.hpp"
#include "policy/settings.hpp"
#include "web/url.hpp"

using namespace frontier;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string refusal(const char* key, const char* value) {
    try {
        normalise_setting(key, value);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a catastrophic-backtracking pattern is matched in linear time", "[scope-regex]") {
    Settings s = build_settings({{"scope.include", R"(["(a+)+$"])"}, {"scope.exclude", R"(["(a|aa)*b$"])"}}, {});
    REQUIRE(s.include.size() == 1);
    REQUIRE(s.exclude.size() == 1);
    // 28 a's then a character that makes every attempt fail: 2^28 paths for a
    // backtracking engine.
    std::string bad = "http://x.example/" + std::string(28, 'a') + "!";
    std::string good = "http://x.example/" + std::string(28, 'a');
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) {
        std::string u = bad + std::to_string(i);
        CHECK_FALSE(s.include[0].search(u));
        CHECK_FALSE(s.exclude[0].search(u));
    }
    double t = seconds_since(t0);
    INFO("1,000 URLs with a 28+ character path: " << t << " s");
    CHECK(t < 2.0);  // generous for a loaded 2-core machine; RE2 takes about a millisecond
    CHECK(s.include[0].search(good));

    // A 10,000-character path (longer than frontier-add lets through, to show
    // the matching itself is linear).
    std::string longbad = "http://x.example/" + std::string(10000, 'a') + "!";
    std::string longgood = "http://x.example/" + std::string(10000, 'a');
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) {
        CHECK_FALSE(s.include[0].search(longbad));
        CHECK(s.include[0].search(longgood));
        CHECK_FALSE(s.exclude[0].search(longbad));
    }
    t = seconds_since(t0);
    INFO("100 x 3 searches of a 10,000-character path: " << t << " s");
    CHECK(t < 2.0);

    // Unanchored ones too (RE2 cannot start from the end for these): the
    // DFA reads each character once per start.
    for (const char* p : {"(a|aa)*c", "(a*)*b", "(x+x+)+y", "(a|a?)+z", "^(([a-z])+.)+[A-Z]([a-z])+$"}) {
        UrlRegex re("scope.exclude", p);
        t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 100; ++i) {
            CHECK_FALSE(re.search(longbad));
            CHECK_FALSE(re.search(bad + std::to_string(i)));
        }
        t = seconds_since(t0);
        INFO(p << ": 100 searches of a 10,000-character path and 100 of a 29-character one: " << t << " s");
        CHECK(t < 2.0);
    }
}

TEST_CASE("the cost rules and the anticalendar policy are linear too", "[scope-regex]") {
    Settings s = build_settings({{"budget.cost-policy", R"("rules")"}, {"budget.cost-rules", R"({"(a+)+$":5})"}}, {});
    Url bad = canonicalize_url("http://x.example/" + std::string(28, 'a') + "!", {}).url;
    Url good = canonicalize_url("http://x.example/" + std::string(28, 'a'), {}).url;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) CHECK(compute_cost(s, bad, "") == 1);
    CHECK(seconds_since(t0) < 2.0);
    CHECK(compute_cost(s, good, "") == 6);

    Settings cal = build_settings({{"budget.cost-policy", R"("anticalendar")"}}, {});
    CHECK(compute_cost(cal, canonicalize_url("http://x.example/CALENDAR/x", {}).url, "") == 2);  // case-insensitive
    CHECK(compute_cost(cal, canonicalize_url("http://x.example/a/2024/x", {}).url, "") == 2);
    CHECK(compute_cost(cal, canonicalize_url("http://x.example/a/20245", {}).url, "") == 1);
    CHECK(compute_cost(cal, canonicalize_url("http://x.example/a/b", {}).url, "") == 1);
}

TEST_CASE("backreferences and lookaround are refused with RE2's error", "[scope-regex]") {
    std::string e = refusal("scope.include", R"(["(a)\\1"])");
    CHECK(e.find("scope.include") != std::string::npos);
    CHECK(e.find("(a)\\1") != std::string::npos);
    CHECK(e.find("RE2: invalid escape sequence: \\1") != std::string::npos);
    CHECK(e.find("no backreferences") != std::string::npos);

    e = refusal("scope.exclude", R"j(["^/x(?=y)"])j");
    CHECK(e.find("scope.exclude") != std::string::npos);
    CHECK(e.find("RE2: invalid perl operator: (?=") != std::string::npos);
    CHECK(e.find("no lookahead or lookbehind") != std::string::npos);

    e = refusal("scope.exclude", R"(["ok", "(?<!a)b"])");
    CHECK(e.find("scope.exclude") != std::string::npos);
    CHECK(e.find("lookbehind") != std::string::npos);

    e = refusal("budget.cost-rules", R"({"(x)\\1":3})");
    CHECK(e.find("budget.cost-rules") != std::string::npos);
    CHECK(e.find("RE2: ") != std::string::npos);

    e = refusal("scope.include", R"(["(unclosed"])");
    CHECK(e.find("scope.include") != std::string::npos);
    CHECK(e.find("RE2: missing ): (unclosed") != std::string::npos);

    // A stored pattern that RE2 refuses (written by a std::regex version) is
    // reported by whatever opens the file, naming the key.
    try {
        build_settings({{"scope.exclude", R"(["(a)\\1"])"}}, {});
        FAIL("no exception");
    } catch (const UsageError& err) {
        std::string m = err.what();
        CHECK(m.find("scope.exclude") != std::string::npos);
        CHECK(m.find("frontier-config") != std::string::npos);
    }
}

TEST_CASE("ordinary patterns match as std::regex_search did", "[scope-regex]") {
    const std::vector<std::string> patterns = {
        "/private/",
        "^http://seed\\.example/only",
        "\\.pdf$",
        "(a|b)*zzz",
        "/excluded/",
        "/p/1[0-9]$",
        "/n/2",
        "/many/",
        "^https?://a\\.com/",
        "example",
        "/b$",
        "[?&]sessionid=",
        "\\d{4}/\\d{2}/",
        "^https://[^/]+/(en|fr)/",
        "\\bnews\\b",
        "\\.(jpe?g|png|gif)$",
        "/wiki/Special:",
        "\\?.*page=\\d+",
        "^http://",
        "[A-Z]",
        "a.c",
        "(?:foo|bar)+/baz",
        "\\/tag\\/",
        "x{2,3}",
        "^$",
        "",
    };
    const std::vector<std::string> urls = {
        "http://seed.example/",
        "http://seed.example/only/1",
        "http://seed.example/other",
        "http://seed.example/private/x",
        "http://good.example/excluded/x",
        "https://a.com/doc.pdf",
        "https://a.com/doc.pdf?x=1",
        "http://x.example/p/12",
        "http://x.example/p/123",
        "http://x.example/n/2x",
        "http://x.example/ababzzz",
        "http://example.com/a/b",
        "http://example.com/a/b?sessionid=1",
        "http://example.com/2024/05/x",
        "https://site.example/fr/page",
        "https://site.example/de/page",
        "http://news.example/news/today",
        "http://newsroom.example/x",
        "http://img.example/a.JPG",
        "http://img.example/a.jpeg",
        "https://en.example/wiki/Special:Random",
        "http://x.example/list?sort=1&page=20",
        "http://x.example/Upper",
        "http://x.example/abc",
        "http://x.example/foobarfoo/baz",
        "http://x.example/tag/a",
        "http://x.example/xx",
        "https://x.example/",
    };
    for (auto& p : patterns) {
        UrlRegex re("scope.include", p);
        std::regex old(p, std::regex::ECMAScript | std::regex::optimize);
        for (auto& u : urls) {
            INFO(p << " against " << u);
            CHECK(re.search(u) == std::regex_search(u, old));
        }
    }
    // Through build_settings, in the order given.
    Settings s = build_settings({{"scope.include", R"(["^http://seed\\.example/only", "\\.pdf$"])"},
                                 {"scope.exclude", R"(["/private/"])"}},
                                {});
    REQUIRE(s.include.size() == 2);
    CHECK(s.include[0].pattern() == "^http://seed\\.example/only");
    CHECK(s.include[1].search("https://a.com/doc.pdf"));
    CHECK(s.exclude[0].search("http://seed.example/private/x"));
    // Copies share the compiled expression.
    Settings copy = s;
    CHECK(copy.exclude[0].search("http://seed.example/private/x"));
}
