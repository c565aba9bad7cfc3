// libFuzzer target: BaseUrl's fast path (lib/web/url_plain.cpp) against
// resolve_url, libcurl's URL API. The input is "BASE\nREF", or a REF alone
// (tried against a few fixed bases). Invariants: whenever the fast path
// answers, its answer is libcurl's (fragment dropped); resolve() always
// gives libcurl's answer.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "web/url.hpp"

using namespace frontier;

namespace {

void check(std::string_view base, std::string_view ref) {
    auto want = resolve_url(base, ref);
    if (want) want->resize(std::min(want->size(), want->find('#')));
    BaseUrl b(base);
    std::string got;
    if (b.resolve_plain(ref, got) && (!want || got != *want)) {
        fprintf(stderr, "fast path differs from libcurl:\n  base %.*s\n  ref  %.*s\n  fast %s\n  curl %s\n",
                static_cast<int>(base.size()), base.data(), static_cast<int>(ref.size()), ref.data(),
                got.c_str(), want ? want->c_str() : "(none)");
        abort();
    }
    std::string full;
    if (b.resolve(ref, full) != want.has_value() || (want && full != *want)) {
        fprintf(stderr, "resolve() differs from libcurl: base %.*s ref %.*s\n", static_cast<int>(base.size()),
                base.data(), static_cast<int>(ref.size()), ref.data());
        abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 16 * 1024) return 0;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto nl = text.find('\n');
    if (nl != std::string_view::npos) {
        check(text.substr(0, nl), text.substr(nl + 1));
        return 0;
    }
    for (std::string_view base : {"http://127.0.0.1:8080/a/b/c.html", "https://example.com/",
                                  "http://a.com/b/c/d?q=1#f", "http://a.com", "https://x.org:8443/p/q/"})
        check(base, text);
    return 0;
}
