// Unit tests for lib/web/url.hpp: canonicalisation (frontier(7), URLS, CANONICAL FORM AND FINGERPRINTS), resolution,
// fingerprints, registered domains and queue keys.
#include <catch2/catch.hpp>
#include <string>

#include "web/url.hpp"

using namespace frontier;

namespace {

// The canonical form of `in`, or "REJECT:<reason>".
std::string canon(std::string_view in, const CanonOptions& opt = {}) {
    CanonResult r = canonicalize_url(in, opt);
    if (!r.ok) return "REJECT:" + r.reason;
    // Canonicalisation must be idempotent.
    CanonResult again = canonicalize_url(r.url.url, opt);
    REQUIRE(again.ok);
    CHECK(again.url.url == r.url.url);
    return r.url.url;
}

}  // namespace

TEST_CASE("scheme and host are lower-cased, path case kept", "[url]") {
    CHECK(canon("HTTP://Example.COM/A/b") == "http://example.com/A/b");
    CHECK(canon("HtTpS://WWW.Example.org/Path?Q=V") == "https://www.example.org/Path?Q=V");
}

TEST_CASE("IDN hosts become punycode", "[url]") {
    CHECK(canon("http://Bücher.example/") == "http://xn--bcher-kva.example/");
    CHECK(canon("http://BÜCHER.example/x") == "http://xn--bcher-kva.example/x");
    CHECK(canon("http://faß.de/") == "http://xn--fa-hia.de/");  // non-transitional
    CHECK(canon("http://www.食狮.中国/") == "http://www.xn--85x722f.xn--fiqs8s/");
    CHECK(canon("http://b%C3%BCcher.example/") == "http://xn--bcher-kva.example/");
    CHECK(canon("http://xn--bcher-kva.example/") == "http://xn--bcher-kva.example/");
}

TEST_CASE("percent-encoding is normalised", "[url]") {
    CHECK(canon("http://h.com/a%2fb%3a") == "http://h.com/a%2Fb%3A");
    CHECK(canon("http://h.com/%41%62%7e%2D%2e%5F") == "http://h.com/Ab~-._");
    CHECK(canon("http://h.com/a b?q=c d") == "http://h.com/a%20b?q=c%20d");
    CHECK(canon("http://h.com/ü?x=é") == "http://h.com/%C3%BC?x=%C3%A9");
    CHECK(canon("http://h.com/%c3%bc") == "http://h.com/%C3%BC");
    CHECK(canon("http://h.com/100%") == "http://h.com/100%25");
    CHECK(canon("http://h.com/%zz") == "http://h.com/%25zz");
    CHECK(canon("http://h.com/a\"<>{}|^`") == "http://h.com/a%22%3C%3E%7B%7D%7C%5E%60");
    CHECK(canon("http://h.com/a?b=c+d&e=%26") == "http://h.com/a?b=c+d&e=%26");
    CHECK(canon("http://h.com/a:b@c!$'()*,;=") == "http://h.com/a:b@c!$'()*,;=");
    CHECK(canon("http://h.com/p?a/b?c") == "http://h.com/p?a/b?c");
}

TEST_CASE("dot segments are resolved", "[url]") {
    CHECK(canon("http://h.com/a/./b/../c") == "http://h.com/a/c");
    CHECK(canon("http://h.com/../../x") == "http://h.com/x");
    CHECK(canon("http://h.com/a/b/..") == "http://h.com/a/");
    CHECK(canon("http://h.com/a/%2e%2E/b") == "http://h.com/b");
    CHECK(canon("http://h.com/a/..x/b") == "http://h.com/a/..x/b");
}

TEST_CASE("default ports are removed, others kept", "[url]") {
    CHECK(canon("http://h.com:80/x") == "http://h.com/x");
    CHECK(canon("https://h.com:443/x") == "https://h.com/x");
    CHECK(canon("http://h.com:080/") == "http://h.com/");
    CHECK(canon("http://h.com:443/") == "http://h.com:443/");
    CHECK(canon("https://h.com:80/") == "https://h.com:80/");
    CHECK(canon("http://h.com:8080/") == "http://h.com:8080/");
    CHECK(canon("http://h.com:/x") == "http://h.com/x");
    CanonResult r = canonicalize_url("http://H.com:8080/a?b");
    REQUIRE(r.ok);
    CHECK(r.url.port == 8080);
    CHECK(r.url.host == "h.com");
    CHECK(r.url.authority() == "h.com:8080");
    CHECK(canonicalize_url("https://h.com:443/").url.port == -1);
}

TEST_CASE("empty path becomes / and the fragment is removed", "[url]") {
    CHECK(canon("http://h.com") == "http://h.com/");
    CHECK(canon("http://h.com?x=1") == "http://h.com/?x=1");
    CHECK(canon("http://h.com#top") == "http://h.com/");
    CHECK(canon("http://h.com/a#top") == "http://h.com/a");
    CHECK(canon("http://h.com/a?b=1#c?d") == "http://h.com/a?b=1");
    CHECK(canon("http://h.com/a?") == "http://h.com/a");
}

TEST_CASE("session parameters are stripped from the query", "[url]") {
    CHECK(canon("http://h.com/?utm_source=x&a=1&utm_medium=y") == "http://h.com/?a=1");
    CHECK(canon("http://h.com/?a=1&jsessionid=abc") == "http://h.com/?a=1");
    CHECK(canon("http://h.com/p?sid=1&b=2") == "http://h.com/p?b=2");
    CHECK(canon("http://h.com/p?PHPSESSID=1&b=2&SessionId=3") == "http://h.com/p?b=2");
    CHECK(canon("http://h.com/p?UTM_Campaign=1") == "http://h.com/p");  // query gone
    CHECK(canon("http://h.com/p?sidebar=1&asid=2") == "http://h.com/p?sidebar=1&asid=2");
    CHECK(canon("http://h.com/p?a=1&&b=2&") == "http://h.com/p?a=1&b=2");
    CHECK(canon("http://h.com/p?sid") == "http://h.com/p");

    CanonOptions opt;
    opt.strip_params = {"ref*", "x"};
    CHECK(canon("http://h.com/p?REFerrer=1&x=2&utm_source=3&xx=4", opt) ==
          "http://h.com/p?utm_source=3&xx=4");
    opt.strip_params.clear();
    CHECK(canon("http://h.com/p?sid=1", opt) == "http://h.com/p?sid=1");
}

TEST_CASE("session parameters are stripped from ;path parameters", "[url]") {
    CHECK(canon("http://h.com/a;jsessionid=123") == "http://h.com/a");
    CHECK(canon("http://h.com/a;JSESSIONID=123?x=1") == "http://h.com/a?x=1");
    CHECK(canon("http://h.com/a;jsessionid=1;v=2/b;sid=3/c") == "http://h.com/a;v=2/b/c");
    CHECK(canon("http://h.com/a;v=2") == "http://h.com/a;v=2");
}

TEST_CASE("query order is kept unless sort_query", "[url]") {
    CHECK(canon("http://h.com/?b=2&a=1&c=3") == "http://h.com/?b=2&a=1&c=3");
    CanonOptions opt;
    opt.sort_query = true;
    CHECK(canon("http://h.com/?b=2&a=1&c=3&a=0", opt) == "http://h.com/?a=0&a=1&b=2&c=3");
    CHECK(canon("http://h.com/?b=2&utm_x=1&a=1", opt) == "http://h.com/?a=1&b=2");
}

TEST_CASE("schemes other than http and https are bad-scheme", "[url]") {
    CHECK(canon("ftp://h.com/x") == "REJECT:bad-scheme");
    CHECK(canon("mailto:someone@h.com") == "REJECT:bad-scheme");
    CHECK(canon("javascript:alert(1)") == "REJECT:bad-scheme");
    CHECK(canon("data:text/plain,hi") == "REJECT:bad-scheme");
}

TEST_CASE("unparsable URLs are bad-url", "[url]") {
    CHECK(canon("garbage") == "REJECT:bad-url");
    CHECK(canon("") == "REJECT:bad-url");
    CHECK(canon("   ") == "REJECT:bad-url");
    CHECK(canon("/relative/path") == "REJECT:bad-url");
    CHECK(canon("http://") == "REJECT:bad-url");
    CHECK(canon("http:///") == "REJECT:bad-url");
    CHECK(canon("http:h.com") == "REJECT:bad-url");
    CHECK(canon("http://:80/") == "REJECT:bad-url");
    CHECK(canon("http://h.com:99999/") == "REJECT:bad-url");
    CHECK(canon("http://h.com:0/") == "REJECT:bad-url");
    CHECK(canon("http://h.com:8x/") == "REJECT:bad-url");
    CHECK(canon("http://" + std::string(300, 'a') + ".com/") == "REJECT:bad-url");
    CHECK(canon("http://" + std::string(64, 'a') + ".com/") == "REJECT:bad-url");
    CHECK(canon("http://" + std::string(63, 'a') + ".com/") != "REJECT:bad-url");
    std::string long_host;  // 5 x 63-char labels: over 253 characters
    for (int i = 0; i < 5; ++i) long_host += std::string(63, 'b') + ".";
    CHECK(canon("http://" + long_host + "com/") == "REJECT:bad-url");
    CHECK(canon("http://a..b/") == "REJECT:bad-url");
    CHECK(canon("http://a b.com/") == "REJECT:bad-url");
    CHECK(canon("http://h*.com/") == "REJECT:bad-url");
    CHECK(canon("http://h.com/a\nb") == "REJECT:bad-url");
    CHECK(canon("http://h.com/a\tb") == "REJECT:bad-url");
    CHECK(canon(std::string("http://h.com/a\0b", 16)) == "REJECT:bad-url");
    CHECK(canon("http://[::1/") == "REJECT:bad-url");
    CHECK(canon("http://[::g]/") == "REJECT:bad-url");
    CHECK(canon("http://[fe80::1%25eth0]/") == "REJECT:bad-url");
    CHECK(canon("http://\xff\xfe.com/") == "REJECT:bad-url");
}

TEST_CASE("IP literal hosts", "[url]") {
    CHECK(canon("http://[::1]/") == "http://[::1]/");
    CHECK(canon("http://[2001:DB8::1]:8080/x") == "http://[2001:db8::1]:8080/x");
    CHECK(canon("https://[2001:db8::1]:443/") == "https://[2001:db8::1]/");
    CanonResult r = canonicalize_url("http://[2001:DB8::1]:8080/x");
    REQUIRE(r.ok);
    CHECK(r.url.host == "[2001:db8::1]");
    CHECK(r.url.port == 8080);
    CHECK(canon("http://192.168.1.1/x") == "http://192.168.1.1/x");
    CHECK(canon("http://192.168.1.1:8000/") == "http://192.168.1.1:8000/");
}

TEST_CASE("userinfo is dropped", "[url]") {
    CHECK(canon("http://user:pw@h.com/x") == "http://h.com/x");
    CHECK(canon("http://user@H.com:8080/") == "http://h.com:8080/");
    CHECK(canon("http://a@b@h.com/") == "http://h.com/");
}

TEST_CASE("surrounding whitespace is trimmed", "[url]") {
    CHECK(canon("  http://h.com/x \t\r\n") == "http://h.com/x");
    CHECK(canon("\thttp://h.com/x y ") == "http://h.com/x%20y");
}

TEST_CASE("Url parts", "[url]") {
    CanonResult r = canonicalize_url("https://Sub.H.com/a/b?x=1&y=2#f");
    REQUIRE(r.ok);
    CHECK(r.reason.empty());
    CHECK(r.url.url == "https://sub.h.com/a/b?x=1&y=2");
    CHECK(r.url.scheme == "https");
    CHECK(r.url.host == "sub.h.com");
    CHECK(r.url.port == -1);
    CHECK(r.url.path == "/a/b");
    CHECK(r.url.query == "x=1&y=2");
    CHECK(r.url.has_query);
    CHECK(r.url.authority() == "sub.h.com");
    CHECK(r.url.path_and_query() == "/a/b?x=1&y=2");

    CanonResult n = canonicalize_url("http://h.com");
    REQUIRE(n.ok);
    CHECK(n.url.path == "/");
    CHECK_FALSE(n.url.has_query);
    CHECK(n.url.query.empty());
    CHECK(n.url.path_and_query() == "/");
}

TEST_CASE("fingerprints", "[url]") {
    uint64_t a = url_fingerprint("http://example.com/a");
    CHECK(a == url_fingerprint("http://example.com/a"));
    CHECK(a != url_fingerprint("http://example.com/b"));
    CHECK(a != url_fingerprint("https://example.com/a"));
    CHECK(url_fingerprint(canonicalize_url("HTTP://Example.com:80/a#x").url.url) == a);
    CHECK(url_fingerprint("") == url_fingerprint(""));
}

TEST_CASE("registered domains", "[url]") {
    CHECK(registered_domain("news.bbc.co.uk") == "bbc.co.uk");
    CHECK(registered_domain("bbc.co.uk") == "bbc.co.uk");
    CHECK(registered_domain("a.b.example.com") == "example.com");
    CHECK(registered_domain("co.uk") == "co.uk");  // a public suffix itself
    CHECK(registered_domain("user.github.io") == "user.github.io");
    CHECK(registered_domain("x.bar.xn--p1ai") == "bar.xn--p1ai");
    CHECK(registered_domain("localhost") == "localhost");
    CHECK(registered_domain("192.168.1.1") == "192.168.1.1");
    CHECK(registered_domain("[::1]") == "[::1]");
}

TEST_CASE("host_in_domain", "[url]") {
    CHECK(host_in_domain("b.com", "b.com"));
    CHECK(host_in_domain("a.b.com", "b.com"));
    CHECK(host_in_domain("x.a.b.com", "b.com"));
    CHECK(host_in_domain("A.B.com", "b.COM"));
    CHECK_FALSE(host_in_domain("ab.com", "b.com"));
    CHECK_FALSE(host_in_domain("b.com", "a.b.com"));
    CHECK_FALSE(host_in_domain("b.com", ""));
    CHECK_FALSE(host_in_domain("b.com.evil.org", "b.com"));
}

TEST_CASE("queue keys", "[url]") {
    Url u = canonicalize_url("http://news.bbc.co.uk/x").url;
    CHECK(queue_key(u, QueueKeyMode::host) == "news.bbc.co.uk");
    CHECK(queue_key(u, QueueKeyMode::domain) == "bbc.co.uk");
    Url p = canonicalize_url("https://news.bbc.co.uk:8443/x").url;
    CHECK(queue_key(p, QueueKeyMode::host) == "news.bbc.co.uk:8443");
    CHECK(queue_key(p, QueueKeyMode::domain) == "bbc.co.uk");
    Url d = canonicalize_url("https://news.bbc.co.uk:443/x").url;
    CHECK(queue_key(d, QueueKeyMode::host) == "news.bbc.co.uk");
    Url v6 = canonicalize_url("http://[::1]:8080/").url;
    CHECK(queue_key(v6, QueueKeyMode::host) == "[::1]:8080");
    CHECK(queue_key(v6, QueueKeyMode::domain) == "[::1]");
    Url v4 = canonicalize_url("http://10.0.0.1/").url;
    CHECK(queue_key(v4, QueueKeyMode::domain) == "10.0.0.1");
}

TEST_CASE("resolve_url", "[url]") {
    const std::string base = "http://a.com/b/c/d?q=1#f";
    CHECK(resolve_url(base, "x") == "http://a.com/b/c/x");
    CHECK(resolve_url(base, "../y") == "http://a.com/b/y");
    CHECK(resolve_url(base, "../../../../x") == "http://a.com/x");
    CHECK(resolve_url(base, "/z") == "http://a.com/z");
    CHECK(resolve_url(base, "?n=2") == "http://a.com/b/c/d?n=2");
    CHECK(resolve_url(base, "#g") == "http://a.com/b/c/d?q=1#g");
    CHECK(resolve_url(base, "") == "http://a.com/b/c/d?q=1");
    CHECK(resolve_url(base, "https://x.org/p") == "https://x.org/p");
    CHECK(resolve_url(base, "//other.org/p") == "http://other.org/p");
    CHECK(resolve_url("https://a.com/x", "//other.org/p") == "https://other.org/p");
    CHECK(resolve_url(base, "  x \n") == "http://a.com/b/c/x");
    CHECK(resolve_url(base, "http:g") == "http://a.com/b/c/g");
    CHECK(resolve_url("http://a.com", "x") == "http://a.com/x");

    // Not crawlable, but resolved as is so that canonicalize_url says why.
    CHECK(resolve_url(base, "mailto:a@b.com") == "mailto:a@b.com");
    CHECK(canonicalize_url(*resolve_url(base, "javascript:void(0)")).reason == "bad-scheme");

    // Spaces and non-ASCII survive resolution and are encoded by canonicalisation.
    auto r = resolve_url(base, "a b/ü");
    REQUIRE(r);
    CHECK(canon(*r) == "http://a.com/b/c/a%20b/%C3%BC");

    CHECK_FALSE(resolve_url("not a url", "x"));
    CHECK_FALSE(resolve_url("", "x"));
}

TEST_CASE("resolve_url does not leak state between calls", "[url]") {
    REQUIRE(resolve_url("http://a.com/b/", "c") == "http://a.com/b/c");
    CHECK_FALSE(resolve_url("relative/base", "x"));
    CHECK_FALSE(resolve_url("http:", "x"));
    REQUIRE(canonicalize_url("http://z.com/1/2").ok);
    CHECK_FALSE(resolve_url("/only/a/path", "x"));
    CHECK(resolve_url("https://q.org/a/b", "c") == "https://q.org/a/c");
}
