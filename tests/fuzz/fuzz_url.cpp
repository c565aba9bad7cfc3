// libFuzzer target: URL canonicalisation and resolution (lib/web/url.cpp).
// The input is "URL" or "BASE\nREF". Invariants: no crash; a canonical URL
// is idempotent (canonicalising it again gives itself), http(s) only,
// without control characters or spaces, and libcurl's own answer
// (canonicalize_url_by_curl) wherever canonicalize_url skips libcurl;
// queue keys and domains are computed.
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

#include "web/url.hpp"

using namespace frontier;

namespace {

const CanonOptions& options() {
    static const CanonOptions o;
    return o;
}

void check_canonical(std::string_view input) {
    CanonResult c = canonicalize_url(input, options());
    CanonResult curl = canonicalize_url_by_curl(input, options());
    if (c.ok != curl.ok || c.reason != curl.reason || !(c.url == curl.url)) {
        fprintf(stderr, "not libcurl's answer:\n  input %.*s\n  fast  %s (%s)\n  curl  %s (%s)\n",
                static_cast<int>(input.size()), input.data(), c.url.url.c_str(), c.reason.c_str(),
                curl.url.url.c_str(), curl.reason.c_str());
        abort();
    }
    if (!c.ok) {
        if (c.reason.empty()) abort();
        return;
    }
    const std::string& u = c.url.url;
    if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0) abort();
    for (unsigned char ch : u)
        if (ch <= 0x20 || ch >= 0x7f) {
            fprintf(stderr, "non-ASCII or control byte in canonical URL: %s\n", u.c_str());
            abort();
        }
    CanonResult again = canonicalize_url(u, options());
    if (!again.ok || again.url.url != u) {
        fprintf(stderr, "not idempotent:\n  input %.*s\n  first %s\n  again %s (%s)\n", static_cast<int>(input.size()),
                input.data(), u.c_str(), again.url.url.c_str(), again.reason.c_str());
        abort();
    }
    (void)url_fingerprint(u);
    (void)queue_key(c.url, QueueKeyMode::host);
    (void)queue_key(c.url, QueueKeyMode::domain);
    (void)c.url.path_and_query();
    (void)host_in_domain(c.url.host, registered_domain(c.url.host));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024) return 0;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto nl = text.find('\n');
    if (nl == std::string_view::npos) {
        check_canonical(text);
        return 0;
    }
    std::string_view base = text.substr(0, nl), ref = text.substr(nl + 1);
    check_canonical(base);
    if (auto r = resolve_url(base, ref)) check_canonical(*r);
    if (auto r = resolve_url("http://example.com/a/b/c?q=1", ref)) check_canonical(*r);
    return 0;
}
