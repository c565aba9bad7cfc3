// libFuzzer target: link extraction (lib/html_links.cpp, lib/sitemap.cpp,
// lib/links.cpp). The first byte picks the content type; the rest is the
// body. Invariants: no crash; every link is an absolute http(s) URL without
// a fragment.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "links.hpp"

using namespace frontier;

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
    if (data[0] & 16) {
        (void)extract_html_links(body, page);
        (void)extract_sitemap_links(body, page);
    }
    if (data[0] & 32) {
        bool cut = false;
        std::string out = gunzip_capped(body, 1 << 20, &cut);
        if (out.size() > (1u << 20)) abort();
    }
    (void)parse_w3c_datetime(body.substr(0, 64));
    return 0;
}
