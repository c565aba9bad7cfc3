// Link extraction: HTML (lib/web/html_links.cpp), sitemaps (lib/web/sitemap.cpp)
// and the content-type dispatch (lib/web/links.cpp), including hostile input
// and a deterministic fuzz loop.

#include <zlib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "web/links.hpp"
#include "web/url.hpp"

using frontier::extract_html_links;
using frontier::extract_links;
using frontier::extract_sitemap_links;
using frontier::Link;

namespace {

const char* const kPage = "http://example.com/dir/page.html";

std::vector<std::string> urls(const std::vector<Link>& links) {
    std::vector<std::string> out;
    for (const Link& l : links) out.push_back(l.url);
    return out;
}

std::vector<std::string> html_urls(std::string_view html, std::string_view page = kPage) {
    return urls(extract_html_links(html, page));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string gzip(std::string_view data, int level = 6) {
    z_stream zs;
    std::memset(&zs, 0, sizeof zs);
    REQUIRE(deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&zs, data.size()), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

// Every extracted URL is absolute and has no fragment.
void check_well_formed(const std::vector<Link>& links) {
    for (const Link& l : links) {
        CHECK((l.url.rfind("http://", 0) == 0 || l.url.rfind("https://", 0) == 0));
        CHECK(l.url.find('#') == std::string::npos);
    }
}

}  // namespace

TEST_CASE("relative, absolute and protocol-relative links", "[links]") {
    auto got = html_urls(R"(<html><body>
        <a href="a.html">1</a> <a href="/root">2</a> <a href="//cdn.example.org/x">3</a>
        <a href="https://other.org/p?q=1#frag">4</a> <a href="../up.html">5</a>
        <a href="?q=2">6</a> <a href="sub/b.html#s">7</a> <a href="HTTP://Example.COM/Caps">8</a>
        </body></html>)");
    std::vector<std::string> want = {
        "http://example.com/dir/a.html",    "http://example.com/root",
        "http://cdn.example.org/x",         "https://other.org/p?q=1",
        "http://example.com/up.html",       "http://example.com/dir/page.html?q=2",
        "http://example.com/dir/sub/b.html"};
    REQUIRE(got.size() == 8);
    got.pop_back();  // the upper-case one is only checked to resolve
    CHECK(got == want);
}

TEST_CASE("the result equals resolve_url without fragment, for plain and tricky references", "[links]") {
    const char* refs[] = {"a",
                          "a/b/c.html",
                          "/x/y?z=1&w=2",
                          "a%20b",
                          "./a",
                          "../../a",
                          "a/./b",
                          "a/../b",
                          "/",
                          "x?y#z",
                          "?",
                          "//h.org",
                          "a:b",
                          "%zz",
                          "a b",
                          "~user/",
                          "a;p=1",
                          "é.html",
                          "a?b/../c",
                          "/.",
                          "...",
                          "..a",
                          "https://h.org/./x/../y"};
    for (const char* page : {kPage, "https://h.org/", "https://h.org", "http://h.org/a/b/?q#f"}) {
        for (const char* ref : refs) {
            INFO(page << " + " << ref);
            auto want = frontier::resolve_url(page, ref);
            REQUIRE(want);
            std::string expected = want->substr(0, want->find('#'));
            auto got = html_urls(std::string("<a href=\"") + ref + "\">x</a>", page);
            if (expected.rfind("http", 0) != 0) {  // "a:b" is a URL of scheme "a": not kept
                CHECK(got.empty());
                continue;
            }
            REQUIRE(got.size() == 1);
            CHECK(got[0] == expected);
        }
    }
}

TEST_CASE("<base href> applies to the whole document, first one wins", "[links]") {
    CHECK(html_urls(R"(<base href="http://b.example/sub/"><a href="x">)") ==
          std::vector<std::string>{"http://b.example/sub/x"});
    CHECK(html_urls(R"(<a href="x"><base href="http://b.example/sub/"><a href="y">)") ==
          std::vector<std::string>{"http://b.example/sub/x", "http://b.example/sub/y"});
    // A relative base resolves against the page; later bases are ignored.
    CHECK(html_urls(R"(<base href="/other/"><base href="http://ignored/"><a href="x">)") ==
          std::vector<std::string>{"http://example.com/other/x"});
    // A base that is not http(s) is ignored.
    CHECK(html_urls(R"(<base href="javascript:x"><a href="x">)") ==
          std::vector<std::string>{"http://example.com/dir/x"});
    // A base without href does not count; absolute links ignore the base.
    CHECK(html_urls(R"(<base target="_blank"><base href="http://b.example/"><a href="http://c.org/">)") ==
          std::vector<std::string>{"http://c.org/"});
}

TEST_CASE("rel=nofollow and meta robots", "[links]") {
    auto links = extract_html_links(R"(
        <a href="/1" rel="NoFollow noopener">a</a>
        <a href="/2" rel="nofollowing">b</a>
        <a href="/3" rel="external
             nofollow">c</a>
        <link rel="nofollow stylesheet" href="/4.css">
        <a href="/5">d</a>)",
                                    kPage);
    REQUIRE(links.size() == 5);
    CHECK(links[0].nofollow);
    CHECK_FALSE(links[1].nofollow);
    CHECK(links[2].nofollow);
    CHECK(links[3].nofollow);
    CHECK(links[3].tag == "link");
    CHECK_FALSE(links[4].nofollow);

    for (const char* meta :
         {R"(<meta name="robots" content="noindex, nofollow">)", R"(<meta name="ROBOTS" content="NOFOLLOW">)",
          R"(<meta name="robots" content="none">)"}) {
        INFO(meta);
        auto all = extract_html_links(std::string("<a href=/a>a</a>") + meta + "<a href=/b>b</a>", kPage);
        REQUIRE(all.size() == 2);
        CHECK(all[0].nofollow);
        CHECK(all[1].nofollow);
    }
    for (const char* meta : {R"(<meta name="googlebot" content="nofollow">)",
                             R"(<meta name="robots" content="noindex, follow">)"}) {
        INFO(meta);
        auto all = extract_html_links(std::string(meta) + "<a href=/a>a</a>", kPage);
        REQUIRE(all.size() == 1);
        CHECK_FALSE(all[0].nofollow);
    }
}

TEST_CASE("a, area, link, frame and iframe; not img or script", "[links]") {
    auto links = extract_html_links(R"(<html><head><link rel="alternate" href="/feed.xml">
        <script src="/app.js"></script></head>
        <frameset><frame src="/frame.html"></frameset>
        <body><iframe src="/inner.html"></iframe><img src="/pic.png">
        <map><area href="/area.html" shape="rect"></map><a href="/a.html">a</a>
        <a name="anchor-without-href">x</a><iframe></iframe></body></html>)",
                                    kPage);
    std::vector<std::pair<std::string, std::string>> got;
    for (const Link& l : links) got.emplace_back(l.tag, l.url);
    std::vector<std::pair<std::string, std::string>> want = {{"link", "http://example.com/feed.xml"},
                                                             {"frame", "http://example.com/frame.html"},
                                                             {"iframe", "http://example.com/inner.html"},
                                                             {"area", "http://example.com/area.html"},
                                                             {"a", "http://example.com/a.html"}};
    CHECK(got == want);
    for (const Link& l : links) {
        CHECK(l.discovery.empty());
        CHECK_FALSE(l.last_modified);
    }
}

TEST_CASE("skipped references and schemes", "[links]") {
    auto got = html_urls(R"~(
        <a href="javascript:void(0)">1</a> <a href="JavaScript:alert(1)">2</a>
        <a href="mailto:a@b.org">3</a> <a href="tel:+123">4</a> <a href="data:text/html,x">5</a>
        <a href="#top">6</a> <a href="">7</a> <a href="   ">8</a> <iframe src="about:blank"></iframe>
        <a href=" vbscript:x">9</a> <a href="ftp://h.org/f">10</a> <a href="irc:chan">11</a>
        <a href="  /kept  ">12</a>)~");
    CHECK(got == std::vector<std::string>{"http://example.com/kept"});
}

TEST_CASE("whitespace in hrefs, entities, duplicates", "[links]") {
    CHECK(html_urls("<a href=\" \n /a\n/b\t?x=1&amp;y=2 \">") ==
          std::vector<std::string>{"http://example.com/a/b?x=1&y=2"});
    // Exact repeats go (fragments do not make a link different); order is kept;
    // the same URL with and without nofollow is two links.
    auto links = extract_html_links(R"(<a href="/x">1</a><a href="/y">2</a><a href="/x#s">3</a>
        <a href="http://example.com/x">4</a><a href="/x" rel="nofollow">5</a><a href="/y">6</a>)",
                                    kPage);
    REQUIRE(links.size() == 3);
    CHECK(links[0].url == "http://example.com/x");
    CHECK(links[1].url == "http://example.com/y");
    CHECK(links[2].url == "http://example.com/x");
    CHECK(links[2].nofollow);
    // Over-long references are dropped.
    CHECK(html_urls("<a href=\"/" + std::string(10000, 'a') + "\">x</a><a href=/ok>").size() == 1);
}

TEST_CASE("malformed HTML still yields its links", "[links]") {
    CHECK(html_urls("<div><a href=one.html>one<p><a href='two.html'>two<table><tr><td><a href=three.html>") ==
          std::vector<std::string>{"http://example.com/dir/one.html", "http://example.com/dir/two.html",
                                   "http://example.com/dir/three.html"});
    CHECK(html_urls("<!-- <a href=/hidden> --><a href=/shown>") ==
          std::vector<std::string>{"http://example.com/shown"});
    CHECK(html_urls("<script>document.write('<a href=\"/no\">')</script><a href=/yes>") ==
          std::vector<std::string>{"http://example.com/yes"});
    // Broken and unclosed comments, stray brackets: no crash, sane output.
    for (const char* doc :
         {"<!-- never closed <a href=/x>", "<!--> <a href=/x>", "<! broken <a href=/x>", "<a href=/x",
          "< a href=/x>", "<a href=/x/></a></b></a></html></html>", "<<<<a href=/x>>>>",
          "<a href=\"/x\"href=\"/y\">", "<?php echo 1 ?><a href=/x>"}) {
        INFO(doc);
        check_well_formed(extract_html_links(doc, kPage));
    }
}

TEST_CASE("hostile HTML: no crash, bounded time", "[links]") {
    auto t0 = std::chrono::steady_clock::now();
    std::string nested;
    for (int i = 0; i < 2000000; ++i) nested += "<div>";  // 10 MB
    nested += "<a href=/deep>";
    CHECK(html_urls(nested) == std::vector<std::string>{"http://example.com/deep"});

    std::string ends = "<a href=/first>";
    for (int i = 0; i < 100000; ++i) ends += "<div>";
    for (int i = 0; i < 300000; ++i) ends += "</x>";
    ends += "<a href=/last>";
    CHECK(html_urls(ends).size() == 2);

    std::string big_attr = "<a title=\"" + std::string(1 << 20, 'b') + "\" href=/after>";
    CHECK(html_urls(big_attr) == std::vector<std::string>{"http://example.com/after"});

    std::string attrs = "<a";
    for (int i = 0; i < 300000; ++i) attrs += " x" + std::to_string(i) + "=''";
    CHECK(html_urls(attrs + "><a href=/after>") == std::vector<std::string>{"http://example.com/after"});

    std::string names;
    for (int i = 0; i < 300000; ++i) names += "<x" + std::to_string(i) + " y" + std::to_string(i) + ">";
    html_urls(names);  // stops early; the point is the time

    std::string nul("<a href=one>\0\0<a href=\"t\0o\"><a href=three>", 42);
    CHECK(html_urls(nul) == std::vector<std::string>{"http://example.com/dir/one",
                                                     "http://example.com/dir/t%ef%bf%bdo",
                                                     "http://example.com/dir/three"});
    CHECK(seconds_since(t0) < 20);
}

TEST_CASE("character encodings", "[links]") {
    // Undeclared valid UTF-8 is read as UTF-8, not ISO-8859-1.
    CHECK(html_urls("<a href=\"caf\xC3\xA9.html\">") ==
          std::vector<std::string>{"http://example.com/dir/caf%c3%a9.html"});
    // Declared or invalid-UTF-8 Latin-1 is converted.
    CHECK(html_urls("<meta charset=iso-8859-1><a href=\"caf\xE9.html\">") ==
          std::vector<std::string>{"http://example.com/dir/caf%c3%a9.html"});
    CHECK(html_urls("<a href=\"caf\xE9.html\">") ==
          std::vector<std::string>{"http://example.com/dir/caf%c3%a9.html"});
    check_well_formed(extract_html_links("\xFF\xFE<\0a\0 \0h\0r\0e\0f\0=\0x\0>\0", kPage));
    check_well_formed(extract_html_links("<a href=\"\xC3\x28\xED\xA0\x80\xF8\x88\x80\x80\x80\">", kPage));
}

TEST_CASE("fuzz: mutated and random documents never crash", "[links]") {
    const std::string seed =
        R"(<!DOCTYPE html><html><head><base href="/b/"><meta name=robots content=nofollow>
        <link rel=canonical href="https://example.com/c"><script>if (a < b) x = "</a>";</script></head>
        <body><!-- c --><a href="x.html#f" rel="nofollow">t</a><area href=//h.org/y><iframe src='i'>
        </iframe><frame src=f><a href="  ../z?q=1&amp;r=2 ">&eacute;&#233;</a></body></html>)";
    const char alphabet[] = "<>/=\"' &#;!-?abhrefsc\n\t\0\xC3\xA9\xFF";
    std::mt19937 rng(12345);
    for (int round = 0; round < 3000; ++round) {
        std::string doc = seed;
        int edits = 1 + static_cast<int>(rng() % 12);
        for (int e = 0; e < edits; ++e) {
            size_t pos = rng() % (doc.size() + 1);
            switch (rng() % 4) {
                case 0:
                    doc.insert(pos, 1, alphabet[rng() % (sizeof alphabet - 1)]);
                    break;
                case 1:
                    if (pos < doc.size()) doc.erase(pos, 1 + rng() % 8);
                    break;
                case 2:
                    if (pos < doc.size()) doc[pos] = alphabet[rng() % (sizeof alphabet - 1)];
                    break;
                default:
                    doc.insert(pos, doc.substr(rng() % doc.size(), rng() % 40));
                    break;
            }
        }
        if (round % 10 == 0) {  // pure noise
            doc.resize(rng() % 300);
            for (char& c : doc) c = static_cast<char>(rng() % 256);
        }
        check_well_formed(extract_html_links(doc, kPage));
        check_well_formed(extract_links(doc, "text/xml", "https://example.com/sitemap.xml"));
    }
}

TEST_CASE("parse_w3c_datetime", "[links]") {
    using frontier::parse_w3c_datetime;
    CHECK(parse_w3c_datetime("2024-05-01") == 1714521600.0);
    CHECK(parse_w3c_datetime(" 2024-05-01T12:00:00+00:00\n") == 1714564800.0);
    CHECK(parse_w3c_datetime("2024-05-01T12:00:00Z") == 1714564800.0);
    CHECK(parse_w3c_datetime("2024-05-01T14:00+02:00") == 1714564800.0);
    CHECK(parse_w3c_datetime("2024-05-01T07:00:00.5-05:00") == 1714564800.5);
    CHECK(parse_w3c_datetime("2024-05-01 12:00:00") == 1714564800.0);
    CHECK(parse_w3c_datetime("2024-05") == 1714521600.0);
    CHECK(parse_w3c_datetime("2024") == 1704067200.0);
    CHECK(parse_w3c_datetime("1970-01-01T00:00:00Z") == 0.0);
    CHECK(parse_w3c_datetime("2024-02-29") == 1709164800.0);
    for (const char* bad : {"", "yesterday", "2023-02-29", "2024-13-01", "2024-05-01T25:00Z", "2024-05-01T12",
                            "2024-05-01T12:00:00+0", "2024-05-01x", "24-05-01", "2024-05-01T12:00:00.Z"}) {
        INFO(bad);
        CHECK_FALSE(parse_w3c_datetime(bad));
    }
}

TEST_CASE("sitemap urlset with lastmod", "[links]") {
    auto links = extract_sitemap_links(R"(<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc> https://example.com/a </loc><lastmod>2024-05-01</lastmod><priority>0.5</priority></url>
  <url><loc>https://example.com/b?x=1&amp;y=2#f</loc><lastmod>2024-05-01T12:00:00+00:00</lastmod>
       <image:image><image:loc>https://example.com/pic.png</image:loc></image:image></url>
  <url><loc><![CDATA[https://example.com/c]]></loc><lastmod>garbage</lastmod></url>
  <url><lastmod>2024-05-01</lastmod></url>
  <url><loc>/relative</loc></url>
</urlset>)",
                                       "https://example.com/sitemap.xml");
    REQUIRE(links.size() == 4);
    CHECK(links[0].url == "https://example.com/a");
    CHECK(links[0].discovery == "sitemap");
    CHECK(links[0].tag.empty());
    CHECK(links[0].last_modified == 1714521600.0);
    CHECK(links[1].url == "https://example.com/b?x=1&y=2");
    CHECK(links[1].last_modified == 1714564800.0);
    CHECK(links[2].url == "https://example.com/c");
    CHECK_FALSE(links[2].last_modified);
    CHECK(links[3].url == "https://example.com/relative");
}

TEST_CASE("sitemap leniency: bare ampersands, repeated fields, truncation", "[links]") {
    auto links = extract_sitemap_links(
        "<urlset><url><loc>https://example.com/?a=1&b=2&c</loc><loc>https://example.com/second</loc>"
        "<lastmod>2024-01-01</lastmod><lastmod>2025-01-01</lastmod></url>"
        "<url><loc><![CDATA[https://example.com/?x=1&amp;y]]></loc></url>"
        "<url><loc>https://example.com/&#x41;&#66;&amp;&lt;</loc></url>"
        "<url><loc>https://example.com/cut",
        "https://example.com/sitemap.xml");
    REQUIRE(urls(links) == std::vector<std::string>{"https://example.com/?a=1&b=2&c",
                                                    "https://example.com/?x=1&amp;y",
                                                    "https://example.com/AB&<"});
    CHECK(links[0].last_modified == 1704067200.0);
    // Non-http(s) locations are dropped.
    CHECK(extract_sitemap_links("<urlset><url><loc>ftp://example.com/f</loc></url></urlset>",
                                "https://example.com/")
              .empty());
}

TEST_CASE("extraction is thread-safe", "[links]") {
    std::string html = "<base href=/b/><meta name=robots content=nofollow>";
    for (int i = 0; i < 500; ++i)
        html += "<a href=p" + std::to_string(i % 50) + ".html>x</a><p>\xFF broken</p>";
    std::string sitemap = "<urlset>";
    for (int i = 0; i < 500; ++i)
        sitemap += "<url><loc>https://example.com/" + std::to_string(i) + "</loc></url>";
    sitemap += "</urlset>";
    auto html_want = urls(extract_html_links(html, kPage));
    const std::string gz = gzip(sitemap);  // Catch assertions stay out of the threads
    auto sitemap_want = urls(extract_sitemap_links(gz, kPage));
    REQUIRE(html_want.size() == 50);
    REQUIRE(sitemap_want.size() == 500);
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int round = 0; round < 50; ++round) {
                if (urls(extract_html_links(html, kPage)) != html_want) ++mismatches;
                if (urls(extract_sitemap_links(gz, kPage)) != sitemap_want) ++mismatches;
            }
        });
    for (auto& t : threads) t.join();
    CHECK(mismatches == 0);
}

TEST_CASE("sitemap index, prefixed names, gzip", "[links]") {
    std::string index = R"(<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sm:sitemap><sm:loc>https://example.com/s1.xml.gz</sm:loc><sm:lastmod>2024-01-01</sm:lastmod></sm:sitemap>
  <sm:sitemap><sm:loc>https://example.com/s2.xml</sm:loc></sm:sitemap>
</sm:sitemapindex>)";
    for (const std::string& body : {index, gzip(index), gzip(index) + gzip("trailing member")}) {
        auto links = extract_sitemap_links(body, "https://example.com/robots.txt");
        REQUIRE(urls(links) ==
                std::vector<std::string>{"https://example.com/s1.xml.gz", "https://example.com/s2.xml"});
        CHECK(links[0].last_modified == 1704067200.0);
        CHECK(links[1].discovery == "sitemap");
    }
    // Truncated gzip: what decompressed is used.
    std::string gz = gzip(index);
    CHECK(extract_sitemap_links(gz.substr(0, gz.size() - 10), "https://example.com/").size() == 2);
    CHECK(extract_sitemap_links(std::string("\x1f\x8b garbage", 10), "https://example.com/").empty());
}

TEST_CASE("gzip bomb is capped", "[links]") {
    // 1 MiB of blanks compresses to ~1 KB; 200 members make 200 MiB.
    std::string member = gzip(std::string(1 << 20, ' '), 9);
    std::string bomb = gzip("<urlset><url><loc>https://example.com/first</loc></url>");
    for (int i = 0; i < 200; ++i) bomb += member;
    bomb += gzip("<url><loc>https://example.com/last</loc></url></urlset>");
    bool truncated = false;
    CHECK(frontier::gunzip_capped(bomb, 64 << 20, &truncated).size() == size_t{64} << 20);
    CHECK(truncated);
    CHECK(frontier::gunzip_capped(member, 64 << 20, &truncated).size() == size_t{1} << 20);
    CHECK_FALSE(truncated);
    auto t0 = std::chrono::steady_clock::now();
    auto links = extract_sitemap_links(bomb, "https://example.com/");
    CHECK(urls(links) == std::vector<std::string>{"https://example.com/first"});
    CHECK(seconds_since(t0) < 20);
}

TEST_CASE("hostile XML: entities, depth, external references", "[links]") {
    std::string laughs = R"(<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa">)";
    laughs += R"(<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">)";
    laughs += R"(<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">)";
    laughs += R"(<!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">)";
    laughs += R"(<!ENTITY xxe SYSTEM "file:///etc/passwd">]>)";
    laughs +=
        R"(<urlset><url><loc>https://example.com/&g;</loc></url><url><loc>https://example.com/&xxe;</loc></url>)";
    laughs += R"(<url><loc>https://example.com/ok</loc></url></urlset>)";
    auto t0 = std::chrono::steady_clock::now();
    auto links = extract_sitemap_links(laughs, "https://example.com/");
    CHECK(seconds_since(t0) < 5);
    for (const Link& l : links) {
        CHECK(l.url.size() < 200);
        CHECK(l.url.find("root") == std::string::npos);
    }
    CHECK(urls(links).back() == "https://example.com/ok");

    std::string names = "<urlset><url><loc>https://example.com/n</loc></url>", attrs = "<urlset><x";
    for (int i = 0; i < 300000; ++i) names += "<x" + std::to_string(i) + "/>";
    for (int i = 0; i < 300000; ++i) attrs += " a" + std::to_string(i) + "=''";
    t0 = std::chrono::steady_clock::now();
    CHECK(urls(extract_sitemap_links(names, "https://example.com/")) ==
          std::vector<std::string>{"https://example.com/n"});
    CHECK(extract_sitemap_links(attrs + "/><url><loc>https://example.com/a</loc></url></urlset>",
                                "https://example.com/")
              .size() <= 1);
    CHECK(seconds_since(t0) < 10);

    std::string deep = "<urlset>";
    for (int i = 0; i < 100000; ++i) deep += "<x>";
    CHECK(extract_sitemap_links(deep + "<url><loc>https://example.com/d</loc></url>", "https://example.com/")
              .empty());
}

namespace {

// Chunk sizes for the streaming tests: every cut near the interesting
// bytes of the short documents below, and a few larger ones.
const std::vector<size_t> kChunks = {1,  2,  3,  4,  5,   6,   7,   8,   9,    10,  11,
                                     13, 17, 31, 64, 100, 255, 256, 257, 1000, 4096};

struct Entry {
    std::string url;
    std::optional<double> last_modified;
    bool operator==(const Entry&) const = default;
};

std::vector<Entry> entries(const std::vector<Link>& links) {
    std::vector<Entry> out;
    for (const Link& l : links) out.push_back({l.url, l.last_modified});
    return out;
}

}  // namespace

TEST_CASE("sitemap repairs are the same whatever the cut between pieces", "[links][sitemap]") {
    using frontier::links_detail::sitemap_prepass;
    std::string flood = "<urlset><x";
    for (int i = 0; i < 600; ++i) flood += " a" + std::to_string(i) + "='v'";
    flood += "/><url><loc>https://example.com/?f=1&g</loc></url></urlset>";
    const std::vector<std::pair<std::string, std::string>> cases = {
        // A reference, a bare '&', numeric references, one cut off by '<'.
        {"<urlset><url><loc>https://example.com/?a=1&amp;b=2&c=3&#65;&#x42;&lt;&bogus</loc></url></urlset>",
         "<urlset><url><loc>https://example.com/?a=1&amp;b=2&amp;c=3&#65;&#x42;&lt;&amp;bogus</loc></url></"
         "urlset>"},
        // '&' inside CDATA sections is left alone; "]]" and a "<![CDAT" that is no opener.
        {"<a>&x<![CDATA[ & ]] ]> &amp ]]>&y<![CDAT & ]]><![CDATA[&]]>&#;&#x;&",
         "<a>&amp;x<![CDATA[ & ]] ]> &amp ]]>&amp;y<![CDAT &amp; ]]><![CDATA[&]]>&amp;#;&amp;#x;&amp;"},
        // An unterminated CDATA section: nothing after its opener is touched.
        {"&a=1<![CDATA[ & &b; &", "&amp;a=1<![CDATA[ & &b; &"},
        // Names and digits are read up to 64 characters.
        {"&" + std::string(64, 'n') + "; &" + std::string(65, 'n') + "; &#" + std::string(64, '1') + "; &#" +
             std::string(65, '1') + ";",
         "&" + std::string(64, 'n') + "; &amp;" + std::string(65, 'n') + "; &#" + std::string(64, '1') +
             "; &amp;#" + std::string(65, '1') + ";"},
        // References that start like one but are not; the document ends in "&".
        {"&1a; &-a; &.a; &_a; &:a; &\xC3\xA9; &a b; &",
         "&amp;1a; &amp;-a; &amp;.a; &_a; &:a; &\xC3\xA9; &amp;a b; &amp;"},
    };
    for (const auto& [doc, want] : cases) {
        INFO(doc);
        CHECK(sitemap_prepass(doc, SIZE_MAX) == want);
        for (size_t chunk : kChunks) {
            INFO("chunk " << chunk);
            CHECK(sitemap_prepass(doc, chunk) == want);
            CHECK(sitemap_prepass(gzip(doc), chunk) == want);
        }
    }
    // An attribute flood: split every 256th attribute, at the same bytes for
    // any cut, and as defuse_attribute_floods does on the whole document.
    std::string storage;
    std::string defused(frontier::links_detail::defuse_attribute_floods(flood, storage));
    REQUIRE(defused != flood);
    std::string want = defused;
    want.replace(want.find("&g"), 2, "&amp;g");
    CHECK(sitemap_prepass(flood, SIZE_MAX) == want);
    for (size_t chunk : kChunks) {
        INFO("chunk " << chunk);
        CHECK(sitemap_prepass(flood, chunk) == want);
    }
}

TEST_CASE("sitemap links are the same whatever the cut between pieces", "[links][sitemap]") {
    using frontier::links_detail::extract_sitemap_links_chunked;
    std::string flood = "<urlset><url><loc>https://example.com/before</loc></url><x";
    for (int i = 0; i < 600; ++i) flood += " a" + std::to_string(i) + "=\"v\"";
    flood += "/><url><loc>https://example.com/after?a=1&b=2</loc></url></urlset>";
    const std::string doc = R"(<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/a?x=1&amp;y=2&z=3</loc><lastmod>2024-05-01</lastmod></url>
<url><loc><![CDATA[https://example.com/c?p=1&q=2]]></loc><lastmod><![CDATA[2024-01-01]]></lastmod></url>
<url><loc>https://example.com/&#x41;&#66;&lt;&bare</loc></url>
<url>
  <loc>
    https://example.com/spaced
  </loc>
</url>
<!-- <url><loc>https://example.com/in-comment</loc></url> & -->
<url><loc>/relative/path.html</loc><lastmod>2024-05-01T12:00:00+00:00</lastmod></url>
</urlset>)";
    const std::vector<Entry> want = {{"https://example.com/a?x=1&y=2&z=3", 1714521600.0},
                                     {"https://example.com/c?p=1&q=2", 1704067200.0},
                                     {"https://example.com/AB<&bare", std::nullopt},
                                     {"https://example.com/spaced", std::nullopt},
                                     {"https://example.com/relative/path.html", 1714564800.0}};
    const std::vector<Entry> want_flood = {{"https://example.com/before", std::nullopt},
                                           {"https://example.com/after?a=1&b=2", std::nullopt}};
    const std::string page = "https://example.com/sitemap.xml";
    CHECK(entries(extract_sitemap_links(doc, page)) == want);
    CHECK(entries(extract_sitemap_links(flood, page)) == want_flood);
    for (size_t chunk : kChunks) {
        INFO("chunk " << chunk);
        CHECK(entries(extract_sitemap_links_chunked(doc, page, chunk)) == want);
        CHECK(entries(extract_sitemap_links_chunked(gzip(doc), page, chunk)) == want);
        CHECK(entries(extract_sitemap_links_chunked(flood, page, chunk)) == want_flood);
    }
    // UTF-16 with a byte order mark: the encoding is read from the first bytes.
    std::string utf16 = "\xFF\xFE";
    for (char c : std::string("<urlset><url><loc>https://example.com/u16</loc></url></urlset>"))
        utf16 += std::string{c, '\0'};
    for (size_t chunk : {size_t{1}, size_t{3}, size_t{5}, size_t{256}})
        CHECK(urls(extract_sitemap_links_chunked(utf16, page, chunk)) ==
              std::vector<std::string>{"https://example.com/u16"});
}

TEST_CASE("sitemap streaming: random documents, random cuts", "[links][sitemap]") {
    using frontier::links_detail::extract_sitemap_links_chunked;
    using frontier::links_detail::sitemap_prepass;
    std::mt19937 rng(7);
    const std::vector<std::string> atoms = {"<url>",
                                            "</url>",
                                            "<loc>",
                                            "</loc>",
                                            "<lastmod>2024-01-0",
                                            "</lastmod>",
                                            "https://example.com/",
                                            "p?a=1",
                                            "&",
                                            "&amp;",
                                            "&#x4",
                                            "1;",
                                            "&lt",
                                            ";",
                                            "<![CDATA[",
                                            "]]>",
                                            "]",
                                            "<!--",
                                            "-->",
                                            " a=\"x\"",
                                            " b='&'",
                                            ">",
                                            "<x",
                                            "\n",
                                            "<![CDAT",
                                            "&#",
                                            "q"};
    for (int round = 0; round < 300; ++round) {
        std::string doc = "<urlset>";
        int n = std::uniform_int_distribution<int>(1, 120)(rng);
        for (int i = 0; i < n; ++i) doc += atoms[rng() % atoms.size()];
        if (rng() % 2) doc += "</urlset>";
        const std::string whole = sitemap_prepass(doc, SIZE_MAX);
        auto want = entries(extract_sitemap_links_chunked(doc, kPage, SIZE_MAX));
        size_t chunk = std::uniform_int_distribution<size_t>(1, 40)(rng);
        INFO(doc << "\nchunk " << chunk);
        CHECK(sitemap_prepass(doc, chunk) == whole);
        CHECK(entries(extract_sitemap_links_chunked(doc, kPage, chunk)) == want);
    }
}

TEST_CASE("sitemap caps: entries, decompressed size", "[links][sitemap]") {
    std::string doc = "<urlset>";
    for (int i = 0; i < 50001; ++i)
        doc += "<url><loc>https://example.com/" + std::to_string(i) + "</loc></url>";
    bool truncated = false;
    auto links = extract_sitemap_links(doc + "</urlset>", kPage, &truncated);
    CHECK(links.size() == 50000);
    CHECK(links.back().url == "https://example.com/49999");
    CHECK(truncated);
    links = extract_sitemap_links(doc.substr(0, doc.rfind("<url>")) + "</urlset>", kPage, &truncated);
    CHECK(links.size() == 50000);
    CHECK_FALSE(truncated);
    // 64 MiB of empty elements after the first entry: the last one is past the cap.
    std::string filler;
    while (filler.size() < (1u << 20)) filler += "<x/>";
    std::string member = gzip(filler.substr(0, 1 << 20), 9);
    std::string bomb = gzip("<urlset><url><loc>https://example.com/first</loc></url>");
    for (int i = 0; i < 70; ++i) bomb += member;
    bomb += gzip("<url><loc>https://example.com/last</loc></url></urlset>");
    CHECK(urls(extract_sitemap_links(bomb, kPage, &truncated)) ==
          std::vector<std::string>{"https://example.com/first"});
    CHECK(truncated);
}

TEST_CASE("StringSet: exact, in insertion order", "[links]") {
    frontier::StringSet set;
    std::vector<std::string> all;
    std::set<std::string> members;
    std::mt19937 rng(3);
    for (int i = 0; i < 20000; ++i) {
        std::string s = "http://example.com/" + std::to_string(rng() % 15000);
        if (i % 1000 == 0) s.clear();  // the empty string is a member like any other
        bool fresh = members.insert(s).second;
        if (set.insert(s) != fresh) FAIL("insert(" << s << ") should say " << fresh);
        if (fresh) all.push_back(s);
    }
    REQUIRE(set.size() == all.size());
    for (size_t i = 0; i < all.size(); ++i) {
        CHECK(set.at(i) == all[i]);
        CHECK(set.find(all[i]) == i);
    }
    CHECK(set.find("http://example.com/x") == frontier::StringSet::npos);
}

TEST_CASE("extract_links dispatches on content type and sniffing", "[links]") {
    const std::string html = "<html><a href=/a>a</a></html>";
    const std::string sitemap = "<urlset><url><loc>https://example.com/s</loc></url></urlset>";
    CHECK(urls(extract_links(html, "text/html; charset=UTF-8", kPage)) ==
          std::vector<std::string>{"http://example.com/a"});
    CHECK(extract_links(html, "application/xhtml+xml", kPage).size() == 1);
    CHECK(extract_links(html, "", kPage).size() == 1);  // sniffed
    for (const char* type : {"image/png", "text/plain", "application/json", "text/css", "application/pdf"}) {
        INFO(type);
        CHECK(extract_links(html, type, kPage).empty());
        CHECK(extract_links(sitemap, type, kPage).empty());
    }
    CHECK(extract_links("plain text <a href=/a>", "", kPage).empty());
    CHECK(extract_links(sitemap, "application/xml", kPage).at(0).discovery == "sitemap");
    CHECK(extract_links(sitemap, "Text/XML; charset=utf-8", kPage).size() == 1);
    CHECK(extract_links(sitemap, "text/plain", "https://example.com/sitemap.xml").size() == 1);
    CHECK(extract_links(gzip(sitemap), "application/octet-stream", "https://example.com/s.xml.gz?x").size() ==
          1);
    CHECK(extract_links(gzip(sitemap), "application/x-gzip", "https://example.com/s").size() == 1);
    // XML that is not a sitemap gives nothing.
    CHECK(extract_links(
              R"(<rss><channel><item><link>https://example.com/i</link><loc>https://example.com/l</loc>
        </item></channel></rss>)",
              "application/rss+xml", kPage)
              .empty());
    CHECK(extract_links("<html><a href=/a>a</a></html>", "application/xml", kPage).empty());
    CHECK(extract_links("", "text/html", kPage).empty());
    CHECK(extract_links("", "application/xml", kPage).empty());
}
