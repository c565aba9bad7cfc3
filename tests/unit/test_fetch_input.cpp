// Unit tests for fetch's input validation, error classes and result lines
// (lib/fetch/fetch_input.hpp, lib/fetch/transfer.hpp, lib/fetch/fetch_output.hpp).
#include <catch2/catch.hpp>

#include <string>

#include "fetch/fetch_input.hpp"
#include "fetch/fetch_output.hpp"
#include "fetch/transfer.hpp"

using namespace frontier;

namespace {
InputLine line_of(std::initializer_list<std::pair<const char*, const char*>> fields, uint64_t n = 1) {
    InputLine l;
    l.line_no = n;
    for (auto& [k, v] : fields) l.record.set_raw(k, v);
    return l;
}
}  // namespace

TEST_CASE("fetch: host keys", "[fetch]") {
    CHECK(url_host_key("http://Example.COM/a").value() == "example.com");
    CHECK(url_host_key("HTTPS://example.com:443/").value() == "example.com");
    CHECK(url_host_key("http://example.com:80").value() == "example.com");
    CHECK(url_host_key("http://example.com:8080/x?y").value() == "example.com:8080");
    CHECK(url_host_key("https://example.com:80/").value() == "example.com:80");
    CHECK(url_host_key("http://user:pw@h.org/").value() == "h.org");
    CHECK(url_host_key("http://[::1]:8080/").value() == "[::1]:8080");
    CHECK(url_host_key("http://[::1]/").value() == "[::1]");
    CHECK(url_host_key("http://h.org?q").value() == "h.org");
    CHECK_FALSE(url_host_key("ftp://h.org/").has_value());
    CHECK_FALSE(url_host_key("h.org/a").has_value());
    CHECK_FALSE(url_host_key("http:///a").has_value());
    CHECK_FALSE(url_host_key("http://a b/").has_value());
}

TEST_CASE("fetch: input validation", "[fetch]") {
    FetchJob j = make_fetch_job(line_of({{"url", "\"http://h.org/a\""}, {"robots", "true"}, {"etag", "\"\\\"x\\\"\""}}));
    CHECK(j.bad.empty());
    CHECK(j.url == "http://h.org/a");
    CHECK(j.host == "h.org");
    CHECK(j.robots);
    CHECK(j.etag == "\"x\"");
    CHECK_FALSE(j.if_modified_since);

    j = make_fetch_job(line_of({{"url", "\"http://h.org/\""}, {"http_last_modified", "784111777"}}));
    CHECK(j.if_modified_since.value() == 784111777);
    j = make_fetch_job(line_of({{"url", "\"http://h.org/\""}, {"http_last_modified", "\"Sun, 06 Nov 1994 08:49:37 GMT\""}}));
    CHECK(j.if_modified_since.value() == 784111777);
    j = make_fetch_job(line_of({{"url", "\"http://h.org/\""}, {"http_last_modified", "\"yesterday-ish\""}}));
    CHECK_FALSE(j.bad.empty());

    CHECK(make_fetch_job(line_of({{"depth", "1"}})).bad == "missing url");
    CHECK_FALSE(make_fetch_job(line_of({{"url", "12"}})).bad.empty());
    CHECK_FALSE(make_fetch_job(line_of({{"url", "\"mailto:x@y\""}})).bad.empty());
    CHECK_FALSE(make_fetch_job(line_of({{"url", "\"http://h.org/\""}, {"robots", "\"yes\""}})).bad.empty());
    InputLine bad;
    bad.line_no = 7;
    bad.error = "bad-json";
    FetchJob b = make_fetch_job(std::move(bad));
    CHECK(b.bad == "bad-json");
    CHECK(b.line == 7);
}

TEST_CASE("fetch: libcurl error classes", "[fetch]") {
    CHECK(classify_curl_error(CURLE_COULDNT_RESOLVE_HOST, false) == "dns");
    CHECK(classify_curl_error(CURLE_COULDNT_CONNECT, false) == "connect");
    CHECK(classify_curl_error(CURLE_OPERATION_TIMEDOUT, false) == "timeout");
    CHECK(classify_curl_error(CURLE_RECV_ERROR, false) == "reset");
    CHECK(classify_curl_error(CURLE_PARTIAL_FILE, false) == "reset");
    CHECK(classify_curl_error(CURLE_PEER_FAILED_VERIFICATION, false) == "tls");
    CHECK(classify_curl_error(CURLE_WRITE_ERROR, true) == "too-large");
    CHECK(classify_curl_error(CURLE_FILESIZE_EXCEEDED, false) == "too-large");
    CHECK(classify_curl_error(CURLE_URL_MALFORMAT, false) == "bad-url");
    CHECK(classify_curl_error(CURLE_WEIRD_SERVER_REPLY, false) == "protocol");
    CHECK(classify_curl_error(CURLE_UNSUPPORTED_PROTOCOL, false) == "protocol");
    CHECK(classify_curl_error(CURLE_BAD_CONTENT_ENCODING, false) == "protocol");
    CHECK(classify_curl_error(CURLE_OUT_OF_MEMORY, false) == "other");
}

TEST_CASE("fetch: result lines keep input keys and add the result fields", "[fetch]") {
    FetchResult r;
    r.job = make_fetch_job(line_of({{"url", "\"http://h.org/\""},
                                    {"lease", "\"L1\""},
                                    {"meta", "{\"a\":[1,2]}"},
                                    {"status", "\"old\""},
                                    {"content_hash", "\"00000000000000aa\""},
                                    {"etag", "\"\\\"e1\\\"\""}}));
    r.status = 304;
    r.fetched_at = 1700000000.5;
    r.duration_ms = 12;
    r.ttfb_ms = 3;
    r.content_hash = 0x1234;  // a 304's empty body: the input's hash is kept
    r.retry_after = 30;
    std::string s = format_fetch_result(r, nullptr, nullptr, 100);
    CHECK(s ==
          "{\"url\":\"http://h.org/\",\"lease\":\"L1\",\"meta\":{\"a\":[1,2]},\"status\":304,"
          "\"fetched_at\":1700000000.5,\"duration_ms\":12,\"ttfb_ms\":3,\"bytes\":0,"
          "\"content_hash\":\"00000000000000aa\",\"etag\":\"\\\"e1\\\"\",\"retry_after\":30}");

    FetchResult ok;
    ok.job = make_fetch_job(line_of({{"url", "\"http://h.org/\""}, {"robots", "true"}}));
    ok.status = 200;
    ok.duration_ms = 1;
    ok.bytes = 5;
    ok.content_type = "text/plain";
    ok.content_hash = 0xabc;
    ok.etag = "\"n\"";
    ok.http_last_modified = 784111777;
    ok.have_body = true;
    ok.body = "hello";
    std::vector<Link> links(2);
    links[0].url = "http://h.org/x";
    links[0].tag = "a";
    links[0].nofollow = true;
    links[1].url = "http://h.org/s";
    links[1].discovery = "sitemap";
    links[1].last_modified = 5;
    WarcLocation loc{"out-00000.warc.gz", 10, 20};
    s = format_fetch_result(ok, &links, &loc, 3);
    CHECK(s.find("\"content_hash\":\"0000000000000abc\"") != std::string::npos);
    CHECK(s.find("\"http_last_modified\":784111777") != std::string::npos);
    CHECK(s.find("\"links\":[{\"url\":\"http://h.org/x\",\"nofollow\":true,\"tag\":\"a\"},"
                 "{\"url\":\"http://h.org/s\",\"discovery\":\"sitemap\",\"last_modified\":5}]") != std::string::npos);
    CHECK(s.find("\"body\":\"hel\"") != std::string::npos);  // capped
    CHECK(s.find("\"warc\":{\"file\":\"out-00000.warc.gz\",\"offset\":10,\"length\":20}") != std::string::npos);

    FetchResult bad;
    bad.job = make_fetch_job(line_of({{"x", "1"}}, 9));
    bad.error_class = "bad-input";
    bad.error = bad.job.bad;
    CHECK(format_fetch_result(bad, nullptr, nullptr, 0) ==
          "{\"line\":9,\"x\":1,\"status\":0,\"error_class\":\"bad-input\",\"error\":\"missing url\"}");
    CHECK(result_class(bad) == "bad-input");
    CHECK(result_class(ok) == "2xx");
}
