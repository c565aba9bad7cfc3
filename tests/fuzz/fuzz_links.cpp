// libFuzzer target: link extraction (lib/web/html_links.cpp, lib/web/html/,
// lib/web/sitemap.cpp, lib/web/links.cpp). The first byte picks the content type;
// the rest is the body. Invariants: no crash; every link is an absolute
// http(s) URL without a fragment; the tokenizer's tag and attribute names are
// non-empty where the standard makes them so, hold no ASCII upper case, and
// no name holds the characters that end it; the sitemap repairs give the
// same text whatever the size of the pieces the document is read in.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "web/html/encoding.hpp"
#include "web/html/tokenizer.hpp"
#include "web/links.hpp"

using namespace frontier;

namespace {

bool has_upper(std::string_view s) {
    for (char c : s)
        if (c >= 'A' && c <= 'Z') return true;
    return false;
}

bool ends_name(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>'; }

class CheckAll : public html::TagSink {
public:
    bool wants_start(std::string_view) override { return true; }
    bool wants_attribute(std::string_view, std::string_view) override { return true; }
    void start_tag(std::string_view name, const std::vector<html::Attribute>& attrs, bool) override {
        check_name(name);
        for (const auto& a : attrs) {
            if (a.name.empty() || has_upper(a.name)) abort();
            for (char c : a.name.substr(1))  // only the first character may be '='
                if (ends_name(c) || c == '=') abort();
        }
    }
    bool end_tags() override { return true; }
    void end_tag(std::string_view name) override { check_name(name); }

private:
    static void check_name(std::string_view name) {
        if (name.empty() || name.size() > html::kMaxTagName || has_upper(name)) abort();
        if (!((name[0] >= 'a' && name[0] <= 'z'))) abort();  // a tag name starts with a letter
        for (char c : name)
            if (ends_name(c)) abort();
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const char* const kTypes[] = {"text/html", "application/xml", "application/gzip", "",
                                         "text/html; charset=iso-8859-1", "application/xhtml+xml",
                                         "text/plain", "text/xml"};
    std::string_view type = kTypes[data[0] % 8];
    std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string_view page = (data[0] & 8) ? "https://example.com/a/b.xml" : "http://example.com/dir/page.html";
    for (const Link& l : extract_links(body, type, page)) {
        std::string_view u = l.url;
        if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0) abort();
        if (u.find('#') != std::string_view::npos) abort();
    }
    {
        std::string storage;
        CheckAll all;
        html::tokenize(html::to_utf8(body, storage), all);
    }
    if (data[0] & 16) {
        (void)extract_html_links(body, page);
        (void)extract_sitemap_links(body, page);
    }
    if (data[0] & 64) {
        size_t chunk = 1 + size % 61;
        if (links_detail::sitemap_prepass(body, chunk) != links_detail::sitemap_prepass(body, 1 << 20))
            abort();
    }
    if (data[0] & 32) {
        bool cut = false;
        std::string out = gunzip_capped(body, 1 << 20, &cut);
        if (out.size() > (1u << 20)) abort();
    }
    (void)parse_w3c_datetime(body.substr(0, 64));
    return 0;
}
