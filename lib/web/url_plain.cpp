// BaseUrl (lib/web/url.hpp): resolve_url against one base for the many
// references of a page. The base goes through resolve_url (libcurl) once
// when constructed, so what the fast path prepends is libcurl's own
// answer; a plain reference is then resolved by RFC 3986 5.2 without any
// URL parser. What is not plain is declined and goes to resolve_url, which
// stays the reference: tests/unit/test_url_plain.cpp compares the two over
// the WHATWG URL tests and every link of the bench sites, and
// tests/fuzz/fuzz_url_plain.cpp whenever the fast path answers.
#include "web/url.hpp"
#include "web/url_detail.hpp"

namespace frontier {

using namespace url_detail;

namespace {

// Bytes taken literally by libcurl and by the fast path alike: ASCII
// graphic characters but the ones URLs do not allow raw ("<>\"{}|\\^`"
// and the brackets of IPv6 literals), '#' (cut before) and '%'.
struct PlainBytes {
    bool ok[256] = {};
    constexpr PlainBytes() {
        for (int c = 0x21; c < 0x7f; ++c) ok[c] = true;
        for (char c : std::string_view("\"<>\\^`{|}[]#%")) ok[static_cast<unsigned char>(c)] = false;
    }
};
constexpr PlainBytes kPlainBytes;

bool is_plain_byte(unsigned char c) { return kPlainBytes.ok[c]; }

// True when every byte of `s` is plain or starts a valid escape that is not
// an encoded '.' (WHATWG counts "%2e" as a dot segment, RFC 3986 does not).
bool is_plain_text(std::string_view s) {
    for (size_t i = 0; i < s.size(); ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (is_plain_byte(c)) continue;
        if (c != '%' || i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) return false;
        if (s[i + 1] == '2' && lower(s[i + 2]) == 'e') return false;
        i += 2;
    }
    return true;
}

// A host the fast path copies as it is: lower-case letters, digits, '-' and
// inner dots, no empty label; when the last label starts with a digit, a
// dotted quad in its plain form (libcurl rewrites the other numeric forms:
// "127.1", "0x7f.1", "2130706433").
bool is_plain_host(std::string_view h) {
    if (h.empty() || h.size() > 253 || h.front() == '.' || h.back() == '.') return false;
    for (char c : h)
        if (!((c >= 'a' && c <= 'z') || is_digit(c) || c == '-' || c == '.')) return false;
    if (h.find("..") != std::string_view::npos) return false;
    return !is_digit(h[h.rfind('.') + 1]) || is_dotted_quad(h);
}

// "host" or "host:port" copied as libcurl would write it back: a port of 1
// to 65535 without leading zeros and not the scheme's default.
bool is_plain_authority(std::string_view a, bool https) {
    size_t colon = a.find(':');
    if (colon == std::string_view::npos) return is_plain_host(a);
    std::string_view port = a.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port[0] == '0') return false;
    int value = 0;
    for (char c : port) {
        if (!is_digit(c)) return false;
        value = value * 10 + (c - '0');
    }
    if (value > 65535 || value == (https ? 443 : 80)) return false;
    return is_plain_host(a.substr(0, colon));
}

// Appends `path` (starting with '/') to `out` with its "." and ".."
// segments removed (RFC 3986 5.2.4).
void append_without_dot_segments(std::string& out, std::string_view path) {
    if (path.empty()) return;
    if (path.find("/.") == std::string_view::npos) {
        out.append(path);
        return;
    }
    const size_t root = out.size();
    size_t i = 1;  // past the leading '/'
    while (true) {
        size_t end = path.find('/', i);
        bool last = end == std::string_view::npos;
        std::string_view segment = path.substr(i, last ? std::string_view::npos : end - i);
        if (segment == "..") {
            size_t slash = out.rfind('/');
            out.resize(slash == std::string::npos || slash < root ? root : slash);
            if (last) out.push_back('/');
        } else if (segment == ".") {
            if (last) out.push_back('/');
        } else {
            out.push_back('/');
            out.append(segment);
        }
        if (last) break;
        i = end + 1;
    }
    if (out.size() == root) out.push_back('/');
}

}  // namespace

// libcurl parses the base once, resolving "?x": its answer is the origin,
// the base's path and "?x". The directory is that path up to its last '/'
// (RFC 3986 5.2.3, as libcurl merges).
BaseUrl::BaseUrl(std::string_view base) : base_(base) {
    auto query = resolve_url(base_, "?x");
    if (!query || !query->ends_with("?x")) return;
    std::string_view url = std::string_view(*query).substr(0, query->size() - 2);
    bool https = url.starts_with("https://");
    if (!https && !url.starts_with("http://")) return;
    size_t path_start = url.find('/', https ? 8 : 7);
    if (path_start == std::string_view::npos) return;
    std::string_view origin = url.substr(0, path_start), path = url.substr(path_start);
    if (!is_plain_authority(origin.substr(https ? 8 : 7), https)) return;
    // A path that starts with "//" has libcurl merge "x" into "/x".
    if (!is_plain_text(path) || path.find('?') != std::string_view::npos || path.starts_with("//")) return;
    std::string dedotted;
    append_without_dot_segments(dedotted, path);
    if (dedotted != path) return;
    self_ = resolve_url(base_, "").value_or("");  // the base without fragment: no parser involved
    origin_ = origin;
    directory_ = path.substr(0, path.rfind('/') + 1);
    path_ = path;
    https_ = https;
}

bool BaseUrl::resolve_plain(std::string_view ref, std::string& out) const {
    // libcurl checks the fragment too (control characters fail the URL).
    size_t hash = ref.find('#');
    if (hash != std::string_view::npos && !is_plain_text(ref.substr(hash + 1))) return false;
    ref = ref.substr(0, hash);
    if (origin_.empty() || !is_plain_text(ref) || ref.ends_with('?')) return false;
    out.clear();
    if (ref.empty()) {
        out = self_;
        return true;
    }
    bool network_path = ref.starts_with("//"), https = https_;
    if (ref.starts_with("http://") || ref.starts_with("https://")) {
        network_path = true;
        https = ref[4] == 's';
        ref.remove_prefix(https ? 6 : 5);
    } else if (scheme_length(ref) > 0) {
        return false;  // another scheme, "http:g", or a scheme not in lower case
    }
    if (network_path) {
        ref.remove_prefix(2);
        std::string_view authority = ref.substr(0, ref.find_first_of("/?"));
        if (!is_plain_authority(authority, https)) return false;
        ref.remove_prefix(authority.size());
        out.append(https ? "https://" : "http://").append(authority);
        if (ref.empty() || ref[0] == '?') out.push_back('/');
    } else {
        out.append(origin_);
        if (ref[0] == '?') {
            out.append(path_).append(ref);
            return true;
        }
    }
    size_t q = ref.find('?');
    std::string_view path = ref.substr(0, q), query = ref.substr(path.size());
    // libcurl strips a leading "./" and "../"s before merging, a level of
    // the base's path at a time, not a segment: with an empty segment in
    // the reference ("..//x") or the base's directory ("/a//b/"), or
    // nothing but a query after them ("../?q"), its answer is not RFC 3986's.
    bool relative = !path.empty() && path[0] != '/';
    if ((!query.empty() || path.find("//") != std::string_view::npos ||
         (relative && directory_.find("//") != std::string::npos)) &&
        has_dot_segment(path))
        return false;
    if (!relative) {
        append_without_dot_segments(out, path);
    } else {
        // A colon in the first segment would make it a scheme to some parsers.
        if (path.substr(0, path.find('/')).find(':') != std::string_view::npos) return false;
        scratch_.assign(directory_).append(path);
        append_without_dot_segments(out, scratch_);
    }
    out.append(query);
    return true;
}

bool BaseUrl::resolve(std::string_view ref, std::string& out) const {
    if (resolve_plain(ref, out)) return true;
    auto resolved = resolve_url(base_, ref);
    if (!resolved) return false;
    out = std::move(*resolved);
    if (size_t hash = out.find('#'); hash != std::string::npos) out.resize(hash);
    return true;
}

}  // namespace frontier
