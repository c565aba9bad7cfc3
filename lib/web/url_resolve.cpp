// Resolving links against a base URL (libcurl's URL API), and what is
// derived from a canonical URL: its fingerprint, registered domain and queue
// key (lib/web/url.hpp). Canonicalisation is in url.cpp.
#include "web/url.hpp"
#include "web/url_detail.hpp"

#include "core/ascii.hpp"
#include "core/ondemand.hpp"

#include <libpsl.h>
#include <xxhash.h>

#include <algorithm>

namespace frontier {

using namespace url_detail;

std::string Url::authority() const {
    if (port < 0) return host;
    return host + ':' + std::to_string(port);
}

std::string Url::path_and_query() const {
    if (!has_query) return path;
    std::string s;
    s.reserve(path.size() + 1 + query.size());
    s.append(path).append(1, '?').append(query);
    return s;
}

std::optional<std::string> resolve_url(std::string_view base, std::string_view ref) {
    // As browsers do: surrounding whitespace trimmed, tabs and newlines dropped.
    std::string r;
    r.reserve(ref.size());
    for (char c : trim(ref))
        if (c != '\t' && c != '\n' && c != '\r') r += c;
    std::string b(trim(base));

    // The base must be absolute: the reused handle would resolve a relative
    // one against the URL it last held, so it is also cleared first.
    if (scheme_length(b) == 0) return std::nullopt;
    CURLU* h = thread_curlu();
    const unsigned flags = CURLU_NON_SUPPORT_SCHEME | CURLU_ALLOW_SPACE;
    curl_api().curl_url_set(h, CURLUPART_URL, nullptr, 0);
    if (curl_api().curl_url_set(h, CURLUPART_URL, b.c_str(), flags) != CURLUE_OK) return std::nullopt;

    if (size_t sl = scheme_length(r); sl > 0) {
        std::string_view scheme(r.data(), sl);
        bool same_scheme = iequals(scheme, std::string_view(b).substr(0, scheme_length(b)));
        if (same_scheme && r.compare(sl + 1, 1, "/") != 0) {
            r.erase(0, sl + 1);  // "http:g" against an http base is "g" (RFC 3986 5.2.2)
        } else if (!iequals(scheme, "http") && !iequals(scheme, "https")) {
            return r;  // mailto:, javascript:, ...: returned as is, canonicalize_url rejects it
        }
    }
    if (r.empty() || r.front() == '#') {
        // curl 7.88 gets these wrong; RFC 3986: the base without its fragment.
        b = b.substr(0, b.find('#'));
        return b + r;
    }
    if (curl_api().curl_url_set(h, CURLUPART_URL, r.c_str(), flags) != CURLUE_OK) return std::nullopt;
    CurlString out;
    if (curl_api().curl_url_get(h, CURLUPART_URL, &out.p, 0) != CURLUE_OK) return std::nullopt;
    return std::string(out.p);
}

uint64_t url_fingerprint(std::string_view canonical_url) {
    return XXH3_64bits(canonical_url.data(), canonical_url.size());
}

std::string registered_domain(std::string_view host) {
    if (host.empty() || host.front() == '[') return std::string(host);
    if (std::all_of(host.begin(), host.end(), [](char c) { return is_digit(c) || c == '.'; }))
        return std::string(host);  // IPv4 literal
    std::string h(host);
    const psl_ctx_t* psl = psl_api().psl_builtin();
    const char* d = psl ? psl_api().psl_registrable_domain(psl, h.c_str()) : nullptr;
    if (!d) return h;  // the host is itself a public suffix (or no list)
    return std::string(d);
}

bool host_in_domain(std::string_view host, std::string_view domain) {
    if (domain.empty() || host.size() < domain.size()) return false;
    if (host.size() == domain.size()) return iequals(host, domain);
    size_t off = host.size() - domain.size();
    return host[off - 1] == '.' && iequals(host.substr(off), domain);
}

std::string queue_key(const Url& url, QueueKeyMode mode) {
    return mode == QueueKeyMode::domain ? registered_domain(url.host) : url.authority();
}

}  // namespace frontier
