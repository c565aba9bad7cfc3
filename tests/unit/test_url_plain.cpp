// Differential tests of the fast paths of lib/web/url.hpp against libcurl's
// URL API, which is the oracle: BaseUrl's resolution against resolve_url,
// and canonicalize_url (which skips libcurl where it would change nothing)
// against canonicalize_url_by_curl. Wherever a fast path answers, its
// answer must be libcurl's. Inputs: hand cases, the WHATWG URL tests
// (tests/fixtures/url/urltestdata.json) and every link of the B6 bench
// sites that are installed (tests/bench/crawl_vs_wget2.sh).
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "web/html/tokenizer.hpp"
#include "web/url.hpp"

using namespace frontier;

namespace {

std::optional<std::string> oracle(std::string_view base, std::string_view ref) {
    auto r = resolve_url(base, ref);
    if (r) r->resize(std::min(r->size(), r->find('#')));
    return r;
}

struct Tally {
    size_t pairs = 0, answered = 0, mismatches = 0;
    size_t canonicalised = 0, canon_mismatches = 0;
};

// canonicalize_url against libcurl's answer for every URL: the same result
// in every field, or the same rejection.
void compare_canon(std::string_view input, Tally& t) {
    static const CanonOptions opt;
    ++t.canonicalised;
    CanonResult got = canonicalize_url(input, opt), want = canonicalize_url_by_curl(input, opt);
    if (got.ok != want.ok || got.reason != want.reason || !(got.url == want.url)) {
        ++t.canon_mismatches;
        UNSCOPED_INFO("input " << input << "\nfast  " << (got.ok ? got.url.url : got.reason) << "\ncurl  "
                               << (want.ok ? want.url.url : want.reason));
        CHECK(false);
    }
}

// Checks one pair: the fast path, when it answers, gives the oracle's URL;
// resolve() always does.
void compare(const BaseUrl& b, std::string_view base, std::string_view ref, Tally& t) {
    ++t.pairs;
    auto want = oracle(base, ref);
    std::string got;
    if (b.resolve_plain(ref, got)) {
        ++t.answered;
        if (!want || got != *want) {
            ++t.mismatches;
            UNSCOPED_INFO("base " << base << "\nref  " << ref << "\nfast " << got << "\ncurl "
                                  << (want ? *want : std::string("(none)")));
            CHECK(false);
        }
    }
    std::string full;
    CHECK(b.resolve(ref, full) == want.has_value());
    if (want) CHECK(full == *want);
    if (want) compare_canon(*want, t);
}

std::string fast(std::string_view base, std::string_view ref) {
    std::string out;
    return BaseUrl(base).resolve_plain(ref, out) ? out : "DECLINED";
}

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The raw references of a page as fetch --links reads them (a, area, link,
// frame, iframe and base), surrounding spaces and tabs/newlines removed.
class HrefSink : public html::TagSink {
public:
    std::vector<std::string> refs;
    bool wants_start(std::string_view n) override {
        return n == "a" || n == "area" || n == "link" || n == "frame" || n == "iframe" || n == "base";
    }
    bool wants_attribute(std::string_view, std::string_view a) override { return a == "href" || a == "src"; }
    void start_tag(std::string_view, const std::vector<html::Attribute>& attrs, bool) override {
        for (const html::Attribute& a : attrs) {
            std::string r;
            for (char c : a.value)
                if (c != '\t' && c != '\n' && c != '\r') r.push_back(c);
            while (!r.empty() && static_cast<unsigned char>(r.back()) <= ' ') r.pop_back();
            size_t i = 0;
            while (i < r.size() && static_cast<unsigned char>(r[i]) <= ' ') ++i;
            refs.push_back(r.substr(i));
        }
    }
};

// Every link of every html file under `root`, each page served at
// `prefix` + its path, against the fast path and libcurl.
Tally compare_site(const std::filesystem::path& root, const std::string& prefix) {
    Tally t;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        if (!e.is_regular_file() || e.path().extension() != ".html") continue;
        std::string page = prefix + std::filesystem::relative(e.path(), root).generic_string();
        HrefSink sink;
        html::tokenize(slurp(e.path()), sink);
        std::sort(sink.refs.begin(), sink.refs.end());
        sink.refs.erase(std::unique(sink.refs.begin(), sink.refs.end()), sink.refs.end());
        BaseUrl b(page);
        for (const std::string& r : sink.refs) compare(b, page, r, t);
    }
    return t;
}

}  // namespace

TEST_CASE("BaseUrl fast path: plain references", "[url][url-plain]") {
    std::string base = "http://a.com/b/c/d?q=1#f";
    CHECK(fast(base, "x") == "http://a.com/b/c/x");
    CHECK(fast(base, "x/y.html?p=1&r=2#s") == "http://a.com/b/c/x/y.html?p=1&r=2");
    CHECK(fast(base, "../y") == "http://a.com/b/y");
    CHECK(fast(base, "./y/./z/../w") == "http://a.com/b/c/y/w");
    CHECK(fast(base, "../../../../x") == "http://a.com/x");
    CHECK(fast(base, "..") == "http://a.com/b/");
    CHECK(fast(base, "/z/../") == "http://a.com/");
    CHECK(fast(base, "?n=2") == "http://a.com/b/c/d?n=2");
    CHECK(fast(base, "#g") == "http://a.com/b/c/d?q=1");
    CHECK(fast(base, "") == "http://a.com/b/c/d?q=1");
    CHECK(fast(base, "https://x.org/p/./q") == "https://x.org/p/q");
    CHECK(fast(base, "http://x.org:8080") == "http://x.org:8080/");
    CHECK(fast(base, "//other.org/p") == "http://other.org/p");
    CHECK(fast("https://a.com/x", "//other.org/p") == "https://other.org/p");
    CHECK(fast("http://127.0.0.1:8080/a/b.html", "c.html#x") == "http://127.0.0.1:8080/a/c.html");
    CHECK(fast("http://a.com", "x") == "http://a.com/x");
    CHECK(fast(base, "a%20b") == "http://a.com/b/c/a%20b");
}

TEST_CASE("BaseUrl fast path declines what is not plain", "[url][url-plain]") {
    std::string base = "http://a.com/b/c/d";
    for (const char* ref : {"a b",
                            "a\\b",
                            "\\\\h/x",
                            "a\tb",
                            "%2e%2e/x",
                            "a%zz",
                            "caf\xc3\xa9",
                            "http:g",
                            "HTTP://x/",
                            "mailto:a@b",
                            "http://X.org/",
                            "http://u@x.org/",
                            "http://x.org:80/",
                            "http://x.org:0/",
                            "http://127.1/",
                            "http://[::1]/",
                            "http://0x7f.0.0.1/",
                            "//",
                            "a:b/c",
                            "x?",
                            "a{b}"})
        CHECK(fast(base, ref) == "DECLINED");
    // Where libcurl's merge is not RFC 3986's (found by tests/fuzz/fuzz_url_plain.cpp).
    CHECK(fast(base, "..//x") == "DECLINED");
    CHECK(fast(base, ".//x") == "DECLINED");
    CHECK(fast(base, "../?q") == "DECLINED");
    CHECK(fast("http://a.com/b//c/d", "../x") == "DECLINED");
    CHECK(fast("http://a.com//b", "x") == "DECLINED");
    CHECK(fast(base, "x#\x14") == "DECLINED");
    CHECK(fast("file:///a/b", "c") == "DECLINED");
    CHECK(fast("http://A.com/x", "c") == "DECLINED");
    CHECK(fast("http://a.com/x y/z", "c") == "DECLINED");
    CHECK(fast("not a url", "c") == "DECLINED");
    // Declined or not, resolve() gives resolve_url's answer.
    Tally t;
    for (const char* ref :
         {"a b", "a\\b", "\\\\h/x", "HTTP://x/", "http://127.1/", "x?", "http:g", "", "..//x", "../?q"})
        compare(BaseUrl(base), base, ref, t);
    for (const char* b : {"http://a.com/b//c/d", "http://a.com//b", "http://a.com/b/c/"})
        for (const char* ref : {"../x", "x", "./y/../z", "/p/../q"}) compare(BaseUrl(b), b, ref, t);
    CHECK(t.mismatches == 0);
}

TEST_CASE("BaseUrl fast path agrees with libcurl on the WHATWG URL tests", "[url][url-plain]") {
    auto path = std::filesystem::path(__FILE__).parent_path() / "../fixtures/url/urltestdata.json";
    simdjson::dom::parser parser;
    simdjson::dom::element doc = parser.load(path.string());
    Tally t;
    size_t whatwg_differs = 0, differs_answered = 0;
    for (simdjson::dom::element e : doc.get_array()) {
        simdjson::dom::object o;
        if (e.get(o) != simdjson::SUCCESS) continue;  // a comment line
        std::string_view input, base;
        if (o["input"].get(input) || o["base"].get(base)) continue;  // no base: nothing to resolve
        BaseUrl b(base);
        size_t answered = t.answered;
        compare(b, base, input, t);
        compare_canon(input, t);
        // Where WHATWG and libcurl disagree, the fast path sides with
        // libcurl (compare checks it) or declines.
        std::string_view href;
        auto curl = oracle(base, input);
        bool failure = o["failure"].is_bool();
        bool agree = !failure && !o["href"].get(href) && curl &&
                     *curl == href.substr(0, std::min(href.size(), href.find('#')));
        if (!agree && !(failure && !curl)) {
            ++whatwg_differs;
            differs_answered += t.answered - answered;
        }
    }
    INFO("pairs " << t.pairs << ", fast path answered " << t.answered << ", WHATWG and libcurl differ on "
                  << whatwg_differs << " (fast path answered " << differs_answered << " of them)");
    CHECK(t.mismatches == 0);
    CHECK(t.pairs > 300);
    CHECK(t.answered >= 25);  // the test reaches the fast path
    CHECK(whatwg_differs > 0);
    CHECK(t.canon_mismatches == 0);
}

TEST_CASE("BaseUrl fast path agrees with libcurl on every link of the bench sites", "[url][url-plain]") {
    struct Site {
        const char* dir;
        const char* prefix;
    };
    // The page URLs as B6 serves them, and an https base for good measure.
    const Site sites[] = {
        {"/usr/share/doc/python3/html", "http://127.0.0.1:8080/"},
        {"/usr/share/doc/gcc-12-base/libstdc++/user", "https://127.0.0.1:8443/"},
        {"/usr/share/gtk-doc/html/glib", "http://127.0.0.1:8080/glib/"},
        {"/usr/share/gtk-doc/html/gio", "http://localhost:8080/gio/"},
        {"/usr/share/gtk-doc/html/gobject", "http://127.0.0.1:9/gobject/"},
    };
    size_t found = 0;
    for (const Site& s : sites) {
        if (!std::filesystem::is_directory(s.dir)) continue;  // that package is not installed
        ++found;
        Tally t = compare_site(s.dir, s.prefix);
        INFO(s.dir << ": " << t.pairs << " distinct links of pages, fast path answered " << t.answered);
        CHECK(t.mismatches == 0);
        CHECK(t.canon_mismatches == 0);
        CHECK(t.answered * 100 >= t.pairs * 95);  // the site's links take the fast path
    }
    if (found == 0) WARN("no bench site installed (python3-doc, libstdc++-12-doc, libglib2.0-doc)");
}

TEST_CASE("canonicalize_url skips libcurl only where libcurl changes nothing", "[url][url-plain]") {
    Tally t;
    for (const char* u : {"http://a.com/b/c?q=1", "HTTP://A.COM:80/b", "https://a.com:443", "http://a.com:8080/x",
                          "http://127.0.0.1:8080/a", "http://127.1/", "http://0x7f.0.0.1/", "http://0177.0.0.1/",
                          "http://2130706433/", "http://1.2.3.4.5/", "http://256.1.1.1/", "http://01.2.3.4/",
                          "http://1.2.3.a/", "http://a.1.2.3/", "http://-a.com/", "http://_a.com/", "http://9a.com/",
                          "http://[::1]:8080/", "http://[0:0::1]/", "http://a.com/./b", "http://a.com/b/../c",
                          "http://a.com/b/..", "http://a.com/b/.", "http://a.com/.b/..c/...", "http://a.com/%2e/b",
                          "http://a.com/b?x/../y", "http://a.com/?", "http://a.com/a%zz", "http://a.com/é",
                          "http://ÉX.com/", "http://a.com/a b", "http://a.com/#f", "http://a.com\\b\\..\\c",
                          "http://u:p@a.com/", "http://a.com./x", "http://a..com/", "http://a.com:0/",
                          "http://a.com:65536/", "http://a.com/;jsessionid=1?x=1"})
        compare_canon(u, t);
    CHECK(t.canon_mismatches == 0);
    CHECK(canonicalize_url("http://127.1/").url.url == "http://127.0.0.1/");
    CHECK(canonicalize_url("http://a.com/b/../c").url.url == "http://a.com/c");
}
