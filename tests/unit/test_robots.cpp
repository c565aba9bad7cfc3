// Unit tests for lib/robots: RFC 9309 parsing, group selection, matching,
// limits and the storage form.
#include <catch2/catch.hpp>
#include <chrono>
#include <random>
#include <string>

#include "web/robots.hpp"

using frontier::RobotsRules;

namespace {

bool allowed(std::string_view body, std::string_view path, std::string_view agent = "frontier/0.1") {
    return RobotsRules::parse(body, agent).allowed(path);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// RFC 9309 section 5.1, the simple example.
constexpr std::string_view kRfcExample =
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n"
    "\n"
    "EOF\n";

}  // namespace

TEST_CASE("RFC 9309 5.1: each agent gets its own group, else *", "[robots]") {
    CHECK(allowed(kRfcExample, "/example/page.html", "foobot"));
    CHECK(allowed(kRfcExample, "/example/allowed.gif", "foobot"));
    CHECK_FALSE(allowed(kRfcExample, "/example/other.html", "foobot"));
    CHECK_FALSE(allowed(kRfcExample, "/", "foobot"));
    CHECK(allowed(kRfcExample, "/robots.txt", "foobot"));  // always allowed

    for (const char* bot : {"barbot", "bazbot"}) {
        CHECK_FALSE(allowed(kRfcExample, "/example/page.html", bot));
        CHECK(allowed(kRfcExample, "/example/other.html", bot));
        CHECK(allowed(kRfcExample, "/images/logo.gif", bot));  // the * group does not add to theirs
    }
    // An empty group of our own: no rules apply, the * group is not used.
    CHECK(allowed(kRfcExample, "/example/page.html", "quxbot"));
    CHECK(allowed(kRfcExample, "/logo.gif", "quxbot"));

    // Anyone else: the * group.
    CHECK_FALSE(allowed(kRfcExample, "/logo.gif"));
    CHECK_FALSE(allowed(kRfcExample, "/example/index.html"));
    CHECK(allowed(kRfcExample, "/publications/index.html"));
    CHECK(allowed(kRfcExample, "/publications/chart.gif"));  // longer allow beats *.gif$
    CHECK(allowed(kRfcExample, "/logo.gif?size=large"));     // $ anchors the end of path+query
    CHECK(allowed(kRfcExample, "/index.html"));
}

TEST_CASE("RFC 9309 5.2: longest match wins, whatever the order", "[robots]") {
    const char* forward =
        "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n";
    const char* reversed =
        "User-Agent: foobot\nDisallow: /example/page/disallowed.gif\nAllow: /example/page/\n";
    for (const char* body : {forward, reversed}) {
        CHECK_FALSE(allowed(body, "/example/page/disallowed.gif", "foobot"));
        CHECK(allowed(body, "/example/page/allowed.gif", "foobot"));
        CHECK(allowed(body, "/example/page/", "foobot"));
    }
    CHECK(allowed("User-agent: *\nDisallow: /example/page/\nAllow: /example/page/disallowed.gif\n",
                  "/example/page/disallowed.gif"));
}

TEST_CASE("RFC 9309 2.2.3: * and $ special characters", "[robots]") {
    const char* anchored = "User-agent: *\nDisallow: /\nAllow: /this/path/exactly$\n";
    CHECK(allowed(anchored, "/this/path/exactly"));
    CHECK_FALSE(allowed(anchored, "/this/path/exactly-not"));
    CHECK_FALSE(allowed(anchored, "/this/path/exactly?q=1"));
    const char* star = "User-agent: *\nDisallow: /\nAllow: /this/*/exactly\n";
    CHECK(allowed(star, "/this/path/exactly"));
    CHECK(allowed(star, "/this/a/b/exactly/and/more"));  // no $: a prefix match
    CHECK_FALSE(allowed(star, "/this/exactly"));
    CHECK_FALSE(allowed(star, "/that/path/exactly"));
    CHECK_FALSE(allowed("User-agent: *\nDisallow: /*.php$\n", "/a/b.php"));
    CHECK(allowed("User-agent: *\nDisallow: /*.php$\n", "/a/b.php5"));
    CHECK_FALSE(allowed("User-agent: *\nDisallow: /**/x\n", "/a/x"));

    // A literal '*' or '$' in a URL is written %2A / %24 in a pattern.
    const char* literal = "User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\n";
    CHECK_FALSE(allowed(literal, "/path/file-with-a-*.html"));
    CHECK(allowed(literal, "/path/file-with-a-b.html"));
    CHECK_FALSE(allowed(literal, "/path/foo-$"));
    CHECK(allowed(literal, "/path/foo-x"));

    // '$' only anchors at the end of a pattern; elsewhere it is literal.
    CHECK_FALSE(allowed("User-agent: *\nDisallow: /a$b\n", "/a$b"));
    CHECK(allowed("User-agent: *\nDisallow: /a$b\n", "/ab"));

    // Google's precedence examples.
    CHECK(allowed("User-agent: *\nallow: /p\ndisallow: /\n", "/page"));
    CHECK(allowed("User-agent: *\nallow: /folder\ndisallow: /folder\n", "/folder/page"));
    CHECK_FALSE(allowed("User-agent: *\nallow: /page\ndisallow: /*.htm\n", "/page.htm"));
    CHECK(allowed("User-agent: *\nallow: /page\ndisallow: /*.ph\n", "/page.php5"));
    CHECK(allowed("User-agent: *\nallow: /$\ndisallow: /\n", "/"));
    CHECK_FALSE(allowed("User-agent: *\nallow: /$\ndisallow: /\n", "/page.html"));
}

TEST_CASE("groups with our token are merged; user-agent is case-insensitive", "[robots]") {
    const char* body =
        "User-agent: FRONTIER\nDisallow: /a\n\n"
        "User-agent: *\nDisallow: /b\n\n"
        "User-agent: other\nUser-agent: Frontier/2.0\nDisallow: /c\n";
    auto rules = RobotsRules::parse(body, "frontier/0.1");
    CHECK_FALSE(rules.allowed("/a"));
    CHECK(rules.allowed("/b"));  // a specific group exists: * is not used
    CHECK_FALSE(rules.allowed("/c"));
    CHECK(rules.rules().size() == 2);

    // Several * groups are merged too.
    const char* stars =
        "User-agent: *\nDisallow: /x\nUser-agent: y\nDisallow: /y\nUser-agent: *\nDisallow: /z\n";
    CHECK_FALSE(allowed(stars, "/x"));
    CHECK_FALSE(allowed(stars, "/z"));
    CHECK(allowed(stars, "/y"));

    // Exact token match only: "frontier-news" and "front" are other agents.
    CHECK(allowed("User-agent: frontier-news\nDisallow: /\nUser-agent: front\nDisallow: /\n", "/p"));
    // A user-agent line after rules starts a new group.
    const char* split = "User-agent: frontier\nDisallow: /a\nUser-agent: other\nDisallow: /b\n";
    CHECK(allowed(split, "/b"));
    // No group for us and no *: everything allowed. Rules before any user-agent are ignored.
    CHECK(allowed("Disallow: /\nUser-agent: other\nDisallow: /\n", "/p"));
}

TEST_CASE("Google-style edge cases", "[robots]") {
    SECTION("allow wins a tie") {
        CHECK(allowed("User-agent: *\nDisallow: /folder\nAllow: /folder\n", "/folder"));
        CHECK(allowed("User-agent: *\nAllow: /folder\nDisallow: /folder\n", "/folder/x"));
    }
    SECTION("empty Disallow disallows nothing") {
        auto rules = RobotsRules::parse("User-agent: *\nDisallow:\n", "frontier");
        CHECK(rules.rules().empty());
        CHECK(rules.allowed("/anything"));
    }
    SECTION("percent-encoding equivalence") {
        CHECK_FALSE(allowed("User-agent: *\nDisallow: /%7Ejoe/\n", "/~joe/index.html"));
        CHECK_FALSE(allowed("User-agent: *\nDisallow: /~joe/\n", "/%7ejoe/index.html"));
        CHECK_FALSE(allowed("User-agent: *\nDisallow: /a%3cd.html\n", "/a%3Cd.html"));
        CHECK_FALSE(allowed("User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "/foo/bar/baz"));
        CHECK_FALSE(allowed("User-agent: *\nDisallow: /foo/bar/ツ\n", "/foo/bar/%E3%83%84"));
        CHECK_FALSE(allowed("User-agent: *\nDisallow: /foo/bar/%E3%83%84\n", "/foo/bar/ツ"));
        // An encoded '/' is not a '/'.
        CHECK(allowed("User-agent: *\nDisallow: /a%2fb.html\n", "/a/b.html"));
        CHECK(allowed("User-agent: *\nDisallow: /a/b.html\n", "/a%2Fb.html"));
    }
    SECTION("query strings are part of the path") {
        const char* body = "User-agent: *\nDisallow: /*?\nAllow: /search?q=\nDisallow: /foo/bar?baz=quz\n";
        CHECK_FALSE(allowed(body, "/page?x=1"));
        CHECK(allowed(body, "/page"));
        CHECK(allowed(body, "/search?q=robots"));
        CHECK_FALSE(allowed(body, "/foo/bar?baz=quz"));
        CHECK(allowed(body, "/foo/bar"));
        CHECK(allowed(body, "/page#frag?x"));  // a fragment is never matched
    }
    SECTION("lenient syntax: typos, missing colon, comments, CR/CRLF, BOM, whitespace") {
        CHECK_FALSE(allowed("useragent: *\ndisallow: /a\n", "/a"));
        CHECK_FALSE(allowed("User agent: *\nDissallow: /a\n", "/a"));
        CHECK_FALSE(allowed("User-agent *\nDisallow /a\n", "/a"));
        CHECK(allowed("User-agent *\nDisallow /a b\n", "/a"));  // three words: not a rule
        CHECK_FALSE(allowed("USER-AGENT: * # all\r\nDISALLOW : /a # comment\r\n", "/a"));
        CHECK_FALSE(allowed("User-agent: *\rDisallow: /a\rAllow: /a/b\r", "/a/c"));
        CHECK(allowed("User-agent: *\rDisallow: /a\rAllow: /a/b\r", "/a/b"));
        CHECK_FALSE(allowed("\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n", "/a"));
        // A cut BOM is skipped too (google/robotstxt ID_UTF8ByteOrderMarkIsSkipped);
        // a broken one or one after the start spoils its line.
        CHECK_FALSE(allowed("\xEF\xBBUser-agent: *\nDisallow: /a\n", "/a"));
        CHECK_FALSE(allowed("\xEFUser-agent: *\nDisallow: /a\n", "/a"));
        CHECK(allowed("\xEF\x11\xBFUser-agent: *\nDisallow: /a\n", "/a"));
        CHECK(allowed("User-agent: *\n\xEF\xBB\xBF" "Disallow: /a\n", "/a"));
        CHECK_FALSE(allowed("  User-agent:\t*  \n\tDisallow:   /a   \n", "/a"));
        CHECK_FALSE(allowed("User-agent: *\nDisallow: private\n", "/private/x"));  // missing slash
        CHECK(allowed("User-agent: *\nFoo: bar\nDisallow: #/a\n", "/a"));
    }
    SECTION("/robots.txt is always allowed") {
        auto all = RobotsRules::disallow_all();
        CHECK(all.allowed("/robots.txt"));
        CHECK(all.allowed("/robots.txt?x=1"));
        CHECK_FALSE(all.allowed("/robots.txt.bak"));
    }
    SECTION("paths without a leading slash") {
        auto rules = RobotsRules::parse("User-agent: *\nDisallow: /$\n", "frontier");
        CHECK_FALSE(rules.allowed(""));
        CHECK_FALSE(rules.allowed("/"));
        CHECK(rules.allowed("/x"));
    }
}

TEST_CASE("crawl-delay of the selected group", "[robots]") {
    const char* body =
        "User-agent: *\nCrawl-delay: 10\nDisallow: /x\n"
        "User-agent: frontier\nCrawl-delay: 2.5\n"
        "User-agent: slowbot\nCrawl-delay: -3\n"
        "User-agent: badbot\nCrawl-delay: soon\nCrawl-delay: nan\n";
    auto ours = RobotsRules::parse(body, "frontier/0.1");
    REQUIRE(ours.crawl_delay());
    CHECK(*ours.crawl_delay() == Approx(2.5));
    auto other = RobotsRules::parse(body, "otherbot");
    REQUIRE(other.crawl_delay());
    CHECK(*other.crawl_delay() == Approx(10));
    CHECK_FALSE(RobotsRules::parse(body, "slowbot").crawl_delay());  // negative: ignored
    // Crawl-delay applies to the user-agents named so far and does not end
    // the user-agent lines: a and b share one group here.
    const char* shared = "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n";
    CHECK_FALSE(allowed(shared, "/x", "a"));
    CHECK_FALSE(allowed(shared, "/x", "b"));
    CHECK(RobotsRules::parse(shared, "a").crawl_delay());
    CHECK_FALSE(RobotsRules::parse(body, "badbot").crawl_delay());
    CHECK_FALSE(RobotsRules::parse("User-agent: *\nDisallow: /\n", "frontier").crawl_delay());
    // Merged groups: the largest delay.
    auto merged =
        RobotsRules::parse("User-agent: a\nCrawl-delay: .5\nAllow: /\nUser-agent: a\nCrawl-delay: 4\n", "a");
    REQUIRE(merged.crawl_delay());
    CHECK(*merged.crawl_delay() == Approx(4));
}

TEST_CASE("sitemaps come from the whole file", "[robots]") {
    const char* body =
        "Sitemap: https://example.com/a.xml\n"
        "User-agent: other\nDisallow: /\nsitemap: https://example.com/b.xml # comment\n"
        "Site-map: https://example.com/a.xml\n";
    auto rules = RobotsRules::parse(body, "frontier");
    CHECK(rules.sitemaps() ==
          std::vector<std::string>{"https://example.com/a.xml", "https://example.com/b.xml"});
    CHECK(rules.rules().empty());
}

TEST_CASE("only the first 500 KiB are parsed", "[robots]") {
    std::string body = "User-agent: *\nDisallow: /early\n";
    const std::string filler = "# " + std::string(98, 'x') + "\n";  // 101 octets
    while (body.size() + filler.size() < frontier::kRobotsMaxBytes - 10) body += filler;
    body += std::string(frontier::kRobotsMaxBytes - 10 - body.size(), '\n');
    body += "Disallow: /private-area\n";  // straddles the limit: dropped, not read as "/priv"
    REQUIRE(body.size() > frontier::kRobotsMaxBytes);
    while (body.size() < 600 * 1024) body += filler;
    body += "Disallow: /late\n";

    auto rules = RobotsRules::parse(body, "frontier");
    CHECK_FALSE(rules.allowed("/early"));
    CHECK(rules.allowed("/late"));
    CHECK(rules.allowed("/priv"));
    CHECK(rules.allowed("/private-area"));
    CHECK(rules.rules().size() == 1);

    // A line ending exactly at the limit is read.
    std::string exact = "User-agent: *\n";
    while (exact.size() + filler.size() < frontier::kRobotsMaxBytes - 20) exact += filler;
    exact += std::string(frontier::kRobotsMaxBytes - exact.size() - 9, '\n') + "Allow: /x";
    REQUIRE(exact.size() == frontier::kRobotsMaxBytes);
    exact += "\nDisallow: /\n";
    auto cut = RobotsRules::parse(exact, "frontier");
    REQUIRE(cut.rules().size() == 1);
    CHECK(cut.rules()[0].allow);

    // A body of exactly kRobotsMaxBytes is what fetch keeps of a longer
    // robots.txt: a last line without its line break may be cut, so it is
    // dropped ("Disallow: /p" of "Disallow: /private-area" would block /page).
    std::string prefix = "User-agent: *\nDisallow: /early\n";
    while (prefix.size() + filler.size() < frontier::kRobotsMaxBytes - 20) prefix += filler;
    prefix += std::string(frontier::kRobotsMaxBytes - prefix.size() - 12, '\n') + "Disallow: /p";
    REQUIRE(prefix.size() == frontier::kRobotsMaxBytes);
    auto kept = RobotsRules::parse(prefix, "frontier");
    CHECK_FALSE(kept.allowed("/early"));
    CHECK(kept.allowed("/page"));
    CHECK(kept.rules().size() == 1);
    // Ending in a line break, the same prefix keeps its last line.
    prefix.back() = '\n';
    CHECK_FALSE(RobotsRules::parse(prefix, "frontier").allowed("/early"));
    CHECK(RobotsRules::parse(prefix, "frontier").rules().size() == 2);
}

TEST_CASE("binary garbage: no crash, no rules, fast", "[robots]") {
    std::mt19937 rng(9309);
    std::string garbage(10 * 1024 * 1024, '\0');
    for (char& c : garbage) c = static_cast<char>(rng() & 0xFF);
    auto start = std::chrono::steady_clock::now();
    auto rules = RobotsRules::parse(garbage, "frontier");
    CHECK(seconds_since(start) < 2.0);
    CHECK(rules.rules().empty());
    CHECK(rules.sitemaps().empty());
    CHECK(rules.allowed("/anything"));

    // NUL bytes inside otherwise valid text do not stop parsing.
    std::string with_nul("User-agent: *\n\0\0\0\nDisallow: /a\n", 31);
    CHECK_FALSE(allowed(with_nul, "/a"));
}

TEST_CASE("pathological wildcards stay polynomial", "[robots]") {
    std::string body = "User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n";
    body += "Disallow: /*" + std::string(300, 'a') + "b\n";
    body += "Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b$\n";
    auto rules = RobotsRules::parse(body, "frontier");
    const std::string path = "/" + std::string(100000, 'a');
    auto start = std::chrono::steady_clock::now();
    CHECK(rules.allowed(path));
    CHECK_FALSE(rules.allowed(path + "b"));
    CHECK_FALSE(rules.allowed(path + "bc"));
    CHECK(seconds_since(start) < 2.0);
}

TEST_CASE("serialize / deserialize round trip", "[robots]") {
    auto rules = RobotsRules::parse(
        "User-agent: *\nCrawl-delay: 1.25\nDisallow: /a\nAllow: /a/b$\nDisallow: /*.gif$\nDisallow: /~x/%7e\n"
        "Sitemap: https://example.com/s.xml\n",
        "frontier");
    std::string text = rules.serialize();
    auto back = RobotsRules::deserialize(text);
    CHECK(back.serialize() == text);
    REQUIRE(back.crawl_delay());
    CHECK(*back.crawl_delay() == 1.25);
    CHECK(back.sitemaps().empty());
    for (const char* path : {"/a", "/a/b", "/a/b/c", "/x.gif", "/x.gif?y", "/~x/~", "/%7Ex/%7E", "/z"})
        CHECK(back.allowed(path) == rules.allowed(path));

    auto none = RobotsRules::deserialize(RobotsRules::disallow_all().serialize());
    CHECK_FALSE(none.allowed("/"));
    CHECK(RobotsRules::deserialize(RobotsRules::allow_all().serialize()).rules().empty());
}

TEST_CASE("deserialize of garbage gives allow-all", "[robots]") {
    for (std::string_view bad :
         {std::string_view(""), std::string_view("D\t/"), std::string_view("robots/1\nX\t/"),
          std::string_view("robots/1\nD\t/\nC\tabc\n"), std::string_view("robots/1\nD\t\n"),
          std::string_view("robots/1\nD/\n"), std::string_view("\0\0\0", 3)}) {
        auto r = RobotsRules::deserialize(bad);
        CHECK(r.rules().empty());
        CHECK_FALSE(r.crawl_delay());
        CHECK(r.allowed("/x"));
    }
    std::mt19937 rng(42);
    for (int i = 0; i < 200; ++i) {
        std::string junk = "robots/1\n";
        for (int j = 0; j < 64; ++j) junk += static_cast<char>(rng() & 0xFF);
        auto r = RobotsRules::deserialize(junk);
        CHECK(r.allowed("/robots.txt"));
    }
}

TEST_CASE("allow_all and disallow_all", "[robots]") {
    auto all = RobotsRules::allow_all();
    CHECK(all.allowed("/"));
    CHECK(all.allowed("/private?x=1"));
    CHECK(all.rules().empty());
    CHECK_FALSE(all.crawl_delay());
    auto none = RobotsRules::disallow_all();
    CHECK_FALSE(none.allowed("/"));
    CHECK_FALSE(none.allowed("/private?x=1"));
    CHECK_FALSE(none.allowed(""));
    CHECK(none.allowed("/robots.txt"));
}
