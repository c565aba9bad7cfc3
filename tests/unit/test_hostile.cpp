// Regression tests for hostile input found by tests/e2e/test_hostile_*.sh
// and the fuzz targets.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "fetch/fetch_input.hpp"
#include "fetch/fetch_output.hpp"
#include "json/json.hpp"
#include "web/links.hpp"
#include "web/robots.hpp"
#include "web/url.hpp"

using namespace frontier;

namespace {

FetchResult page_result(std::string_view url) {
    InputLine l;
    l.line_no = 1;
    l.record.set_raw("url", "\"" + std::string(url) + "\"");
    FetchResult r;
    r.job = make_fetch_job(std::move(l));
    r.status = 200;
    r.duration_ms = 1;
    return r;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TEST_CASE("hostile: a page with more links than fit in one line", "[hostile]") {
    // Before: a 40,000-link page gave a 4 MB result line, which frontier-done
    // rejects as line-too-long, so the lease was never answered and the page
    // was fetched again after every lease expiry.
    FetchResult r = page_result("http://h.org/many.html");
    std::vector<Link> links(40000);
    for (size_t i = 0; i < links.size(); ++i) {
        links[i].url = "http://h.org/many/" + std::to_string(i) + "/" + std::string(60, 'p') + ".html";
        links[i].tag = "a";
    }
    std::string s = format_fetch_result(r, &links, nullptr, 0);
    CHECK(s.size() < kMaxResultLine);
    Record rec;
    REQUIRE(parse_record(s, rec));
    CHECK(rec.get_bool("links_truncated") == true);
    const JsonValue* l = rec.find("links");
    REQUIRE(l);
    CHECK(l->raw.find("/many/0/") != std::string::npos);  // the first links are kept, in order
    // A page whose links fit is not marked.
    links.resize(100);
    s = format_fetch_result(r, &links, nullptr, 0);
    REQUIRE(parse_record(s, rec));
    CHECK(!rec.has("links_truncated"));
}

TEST_CASE("hostile: a binary robots.txt body fits in one line", "[hostile]") {
    // Before: 512000 bytes of control characters escaped to 3 MB (\u0001 each).
    for (char fill : {'\x01', '\xff', 'a'}) {
        FetchResult r = page_result("http://h.org/robots.txt");
        r.have_body = true;
        r.body.assign(600000, fill);
        std::string s = format_fetch_result(r, nullptr, nullptr, 512000);
        CHECK(s.size() < kMaxResultLine);
        Record rec;
        REQUIRE(parse_record(s, rec));
        auto body = rec.get_string("body");
        REQUIRE(body);
        if (fill == 'a') CHECK(body->size() == 512000);  // plain text keeps the whole 500 KiB
        else CHECK(body->size() > 100000);
        // The kept text parses as robots.txt without trouble.
        (void)RobotsRules::parse(*body, "frontier");
    }
}

TEST_CASE("hostile: attribute floods whose values start with a name character", "[hostile]") {
    // Before: the opening quote of a value counted as an attribute boundary,
    // so the defusing '>' landed inside a quoted value (where it ends
    // nothing) and libxml2 compared 60,000 attributes pairwise (seconds).
    std::string doc = "<html><body><a href=\"/first.html\">1</a><a";
    for (int i = 0; i < 60000; ++i) doc += " a" + std::to_string(i) + "=\"x\"";
    doc += ">f</a><p><a href=\"/after.html\">2</a>";
    std::string storage;
    std::string_view d = links_detail::defuse_attribute_floods(doc, storage);
    REQUIRE(d.size() == doc.size());
    int splits = 0;
    for (size_t i = 0; i < d.size(); ++i) {
        if (d[i] == doc[i]) continue;
        ++splits;
        CHECK(d[i] == '>');
        CHECK(doc[i - 1] == ' ');  // at an attribute name, never inside a value
    }
    CHECK(splits > 200);
    auto t = std::chrono::steady_clock::now();
    std::vector<Link> links = extract_html_links(doc, "http://h.org/");
    CHECK(seconds_since(t) < 1.0);
    REQUIRE(links.size() >= 2);
    CHECK(links.front().url == "http://h.org/first.html");
    CHECK(links.back().url == "http://h.org/after.html");
}

TEST_CASE("hostile: absurd URLs are rejected with a reason, never a crash", "[hostile]") {
    std::string long_host = "http://" + std::string(10240, 'a') + ".example/";
    std::string many_labels = "http://";
    for (int i = 0; i < 100; ++i) many_labels += "abcd.";
    many_labels += "example/";
    for (std::string u : {long_host, many_labels, std::string("http://h.example:0/"),
                          std::string("http://h.example:65536/"), std::string("http://h.example:99999999999999999999/"),
                          std::string("http://h.example:-1/"), std::string("http://[fe80::1%25eth0]/"),
                          std::string("http://[zzzz]/"), std::string("http://h\x01x.example/")}) {
        CanonResult c = canonicalize_url(u);
        CHECK_FALSE(c.ok);
        CHECK(c.reason == "bad-url");
    }
    CHECK(canonicalize_url("http://user:pw@H.example:8080/a").url.url == "http://h.example:8080/a");
    CHECK(canonicalize_url("http://[::1]:8080/").url.url == "http://[::1]:8080/");
    // Every byte value in the path: either a canonical URL or a rejection.
    for (int b = 1; b < 256; ++b) {
        std::string u = "http://h.example/a" + std::string(1, static_cast<char>(b)) + "b";
        CanonResult c = canonicalize_url(u);
        if (c.ok) {
            CHECK(canonicalize_url(c.url.url).url.url == c.url.url);
            for (unsigned char ch : c.url.url) CHECK((ch > 0x20 && ch < 0x7f));
        } else {
            CHECK(!c.reason.empty());
        }
    }
}
