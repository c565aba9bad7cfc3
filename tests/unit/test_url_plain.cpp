// Differential tests of BaseUrl's fast path (lib/web/url.hpp) against
// resolve_url, libcurl's URL API, which is the oracle: wherever the fast
// path answers, its answer must be libcurl's. Inputs: hand cases, the
// WHATWG URL tests (tests/fixtures/url/urltestdata.json) and every link
// of the B6 bench sites that are installed (tests/bench/crawl_vs_wget2.sh).
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
};

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
        CHECK(t.answered * 100 >= t.pairs * 95);  // the site's links take the fast path
    }
    if (found == 0) WARN("no bench site installed (python3-doc, libstdc++-12-doc, libglib2.0-doc)");
}
