// URL canonicalisation (frontier(7), URLS, CANONICAL FORM AND FINGERPRINTS), fingerprints and queue keys.
//
// How canonicalize_url works: our own single pass splits the input (scheme,
// authority, path, query; fragment cut), converts the host (percent-decoding,
// IDNA via libidn2, lower case, checks), and normalises percent-encoding and
// strips session parameters in the path and query. libcurl's URL API then
// validates the rebuilt URL, resolves dot segments and normalises IP
// literals ("http://127.1/" -> "http://127.0.0.1/", "[0:0::1]" -> "[::1]").
// One CURLU handle per thread is reused.
#include "web/url.hpp"

#include "core/ascii.hpp"
#include "core/ondemand.hpp"
#include "web/url_detail.hpp"

#include <curl/curl.h>
#include <idn2.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace frontier {
namespace {

using namespace url_detail;

// True when `name` matches an entry of `patterns` (case-insensitive; a
// trailing '*' makes the entry a prefix).
bool param_matches(std::string_view name, const std::vector<std::string>& patterns) {
    for (const std::string& p : patterns) {
        if (!p.empty() && p.back() == '*') {
            size_t n = p.size() - 1;
            if (name.size() >= n && iequals(name.substr(0, n), std::string_view(p).substr(0, n))) return true;
        } else if (iequals(name, p)) {
            return true;
        }
    }
    return false;
}

void append_pct(std::string& out, unsigned char c) {
    static constexpr char hex[] = "0123456789ABCDEF";
    out += '%';
    out += hex[c >> 4];
    out += hex[c & 15];
}

// Appends `in` to `out` with percent-encoding normalised: valid escapes get
// upper-case hex, escapes of unreserved characters are decoded, a '%' that
// starts no valid escape becomes "%25", and bytes not allowed literally
// (space, controls, non-ASCII, "<>[]^`{|}\"...) are encoded. In a path a
// backslash is a '/' (as browsers treat it for http/https).
void append_normalised(std::string& out, std::string_view in, bool query) {
    for (size_t i = 0; i < in.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(in[i]);
        if (c == '%') {
            int hi = i + 2 < in.size() ? hex_value(in[i + 1]) : -1;
            int lo = hi >= 0 ? hex_value(in[i + 2]) : -1;
            if (lo < 0) {
                out += "%25";
                continue;
            }
            unsigned char v = static_cast<unsigned char>(hi * 16 + lo);
            if (is_unreserved(v))
                out += static_cast<char>(v);
            else
                append_pct(out, v);
            i += 2;
        } else if (allowed_literal(c, query)) {
            out += static_cast<char>(c);
        } else if (c == '\\' && !query) {
            out += '/';
        } else {
            append_pct(out, c);
        }
    }
}

// Removes ";name[=value]" parameters whose name matches from every segment
// of the path held in out[from..].
void strip_path_params(std::string& out, size_t from, const std::vector<std::string>& patterns) {
    if (out.find(';', from) == std::string::npos) return;
    std::string result;
    result.reserve(out.size() - from);
    size_t i = from;
    while (i < out.size()) {
        size_t end = out.find_first_of(";/", i);
        if (end == std::string::npos) end = out.size();
        std::string_view piece(out.data() + i, end - i);
        bool param = i > from && out[i - 1] == ';';
        if (param) {
            if (param_matches(piece.substr(0, piece.find('=')), patterns)) {
                result.pop_back();  // the ';' that introduced it
            } else {
                result.append(piece);
            }
        } else {
            result.append(piece);
        }
        if (end < out.size()) result += out[end];
        i = end + 1;
    }
    out.resize(from);
    out += result;
}

// Appends "?query" built from the normalised query `q`: empty parameters and
// parameters whose name matches are dropped, the rest sorted if asked.
// Nothing is appended when no parameter remains.
void append_query(std::string& out, std::string_view q, const CanonOptions& opt) {
    thread_local std::vector<std::string_view> params;
    params.clear();
    size_t i = 0;
    while (i <= q.size()) {
        size_t end = q.find('&', i);
        if (end == std::string_view::npos) end = q.size();
        std::string_view p = q.substr(i, end - i);
        if (!p.empty() && !param_matches(p.substr(0, p.find('=')), opt.strip_params)) params.push_back(p);
        i = end + 1;
    }
    if (params.empty()) return;
    if (opt.sort_query) std::stable_sort(params.begin(), params.end());
    out += '?';
    for (size_t k = 0; k < params.size(); ++k) {
        if (k) out += '&';
        out.append(params[k]);
    }
}

// Converts the authority's host to its canonical ASCII form in `out`
// (percent-decoded, IDNA, lower case, one trailing dot removed) and checks
// label and name lengths. False when the host is not acceptable.
bool canonical_host(std::string_view host, std::string& out) {
    out.clear();
    if (host.empty()) return false;
    if (host.front() == '[') {
        // IPv6 literal: curl validates it; zone ids are not crawlable.
        if (host.back() != ']' || host.find('%') != std::string_view::npos) return false;
        for (char c : host) out += lower(c);
        return true;
    }
    bool non_ascii = false;
    for (size_t i = 0; i < host.size(); ++i) {
        char c = host[i];
        if (c == '%') {
            int hi = i + 2 < host.size() ? hex_value(host[i + 1]) : -1;
            int lo = hi >= 0 ? hex_value(host[i + 2]) : -1;
            if (lo < 0) return false;
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
        }
        if (static_cast<unsigned char>(c) >= 0x80) non_ascii = true;
        out += lower(c);
    }
    if (non_ascii) {
        char* ascii = nullptr;
        auto in = reinterpret_cast<const uint8_t*>(out.c_str());
        const Idn2Api& idn2 = idn2_api();
        int rc = idn2.idn2_lookup_u8(in, reinterpret_cast<uint8_t**>(&ascii), IDN2_NONTRANSITIONAL);
        if (rc != IDN2_OK) rc = idn2.idn2_lookup_u8(in, reinterpret_cast<uint8_t**>(&ascii), IDN2_TRANSITIONAL);
        if (rc != IDN2_OK) return false;
        out.assign(ascii);
        idn2.idn2_free(ascii);
        for (char& c : out) c = lower(c);
    }
    if (!out.empty() && out.back() == '.') out.pop_back();
    if (out.empty() || out.size() > 253) return false;
    size_t label = 0;
    for (char c : out) {
        if (c == '.') {
            if (label == 0) return false;
            label = 0;
        } else if (is_alpha(c) || is_digit(c) || c == '-' || c == '_') {
            if (++label > 63) return false;
        } else {
            return false;
        }
    }
    return label > 0;
}

CanonResult reject(const char* reason) {
    CanonResult r;
    r.reason = reason;
    return r;
}

// An absolute http(s) URL split by hand: views into the input.
struct UrlParts {
    bool https = false;
    std::string_view host;  // as written (a bracketed IPv6 literal keeps its brackets)
    int port = -1;          // -1: none or the scheme's default
    std::string_view tail;  // path and query, the fragment cut
};

// "h:8080": the port, or "bad-url". An empty port ("http://h:/") is none.
const char* parse_port(std::string_view port_in, UrlParts& parts) {
    if (port_in.empty()) return nullptr;
    long v = 0;
    for (char c : port_in) {
        if (!is_digit(c)) return "bad-url";
        v = v * 10 + (c - '0');
        if (v > 65535) return "bad-url";
    }
    if (v == 0) return "bad-url";
    if (v != (parts.https ? 443 : 80)) parts.port = static_cast<int>(v);
    return nullptr;
}

// The authority less its userinfo: host and port, or "bad-url".
const char* split_authority(std::string_view authority, UrlParts& parts) {
    std::string_view port_in;
    parts.host = authority;
    if (!authority.empty() && authority.front() == '[') {
        size_t close = authority.find(']');
        if (close == std::string_view::npos) return "bad-url";
        parts.host = authority.substr(0, close + 1);
        std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') return "bad-url";
            port_in = after.substr(1);
        }
    } else if (size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
        parts.host = authority.substr(0, colon);
        port_in = authority.substr(colon + 1);
    }
    return parse_port(port_in, parts);
}

// Splits `input` into `parts`: nullptr, or the reason it is rejected.
// Userinfo ("user:pw@") is dropped: credentials never belong in a frontier,
// and the same resource must not be queued twice under different logins.
const char* split_url(std::string_view input, UrlParts& parts) {
    std::string_view s = trim(input);
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) return "bad-url";
    }
    size_t scheme_len = scheme_length(s);
    if (scheme_len == 0) return "bad-url";
    std::string_view scheme_in = s.substr(0, scheme_len);
    parts.https = iequals(scheme_in, "https");
    if (!parts.https && !iequals(scheme_in, "http")) return "bad-scheme";

    // "http:/h", "http://h" and "http:///h" all mean host h (as browsers do).
    std::string_view rest = s.substr(scheme_len + 1);
    size_t slashes = 0;
    while (slashes < rest.size() && (rest[slashes] == '/' || rest[slashes] == '\\')) ++slashes;
    if (slashes == 0) return "bad-url";
    rest.remove_prefix(slashes);
    rest = rest.substr(0, rest.find('#'));

    size_t auth_end = std::min(rest.find_first_of("/?\\"), rest.size());
    std::string_view authority = rest.substr(0, auth_end);
    parts.tail = rest.substr(auth_end);
    if (size_t at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
    return split_authority(authority, parts);
}

// The URL handed to libcurl in `buf`: scheme, the canonical `host`, port,
// and the path and query with percent-encoding normalised and session
// parameters stripped.
void build_url(const UrlParts& parts, const std::string& host, const CanonOptions& opt, std::string& buf) {
    thread_local std::string query;
    buf.clear();
    buf += parts.https ? "https://" : "http://";
    buf += host;
    if (parts.port > 0) {
        buf += ':';
        buf += std::to_string(parts.port);
    }
    size_t qmark = parts.tail.find('?');
    std::string_view path_in = parts.tail.substr(0, qmark);
    size_t path_from = buf.size();
    if (path_in.empty() || (path_in.front() != '/' && path_in.front() != '\\')) buf += '/';
    append_normalised(buf, path_in, false);
    strip_path_params(buf, path_from, opt.strip_params);
    if (qmark != std::string_view::npos) {
        query.clear();
        append_normalised(query, parts.tail.substr(qmark + 1), true);
        append_query(buf, query, opt);
    }
}

// The result from libcurl's output "scheme://host[:port]/path[?query]".
CanonResult read_canonical(const char* curl_url, bool https) {
    CanonResult r;
    Url& u = r.url;
    u.url.assign(curl_url);
    u.scheme = https ? "https" : "http";
    size_t host_begin = u.scheme.size() + 3;
    size_t path_begin = std::min(u.url.find('/', host_begin), u.url.size());
    for (size_t i = host_begin; i < path_begin; ++i) u.url[i] = lower(u.url[i]);
    std::string_view auth(u.url.data() + host_begin, path_begin - host_begin);
    size_t colon = auth.rfind(':');
    if (colon != std::string_view::npos && auth.find(']', colon) == std::string_view::npos) {
        u.host.assign(auth.substr(0, colon));
        u.port = std::atoi(u.url.c_str() + host_begin + colon + 1);
    } else {
        u.host.assign(auth);
    }
    if (u.host.empty() || u.host == "[]") return reject("bad-url");
    size_t q = u.url.find('?', path_begin);
    if (q == std::string::npos) {
        u.path.assign(u.url, path_begin);
        if (u.path.empty()) {
            u.path = "/";
            u.url += '/';
        }
    } else {
        u.path.assign(u.url, path_begin, q - path_begin);
        u.query.assign(u.url, q + 1);
        u.has_query = true;
    }
    r.ok = true;
    return r;
}

// Would libcurl hand build_url's `buf` back unchanged? It resolves dot
// segments and normalises IP literals; build_url has done the rest (case,
// percent-encoding, default port). So: a host that is a name (its last
// label begins with a letter, '-' or '_': IPv4 numbers in every notation
// libcurl reads begin with a digit) or a dotted quad as it writes them, no
// "." or ".." path segment, and a length far below its limit. Such URLs,
// nearly every link of a crawl, skip the general parser; tests/unit/
// test_url_plain.cpp checks the answer is libcurl's over the WHATWG URL
// tests and the bench sites' links, and tests/fuzz/fuzz_url.cpp fuzzes it.
bool plain_canonical(const std::string& host, std::string_view buf, size_t path_at) {
    if (buf.size() > 65536 || host.empty() || host.front() == '[') return false;
    if (is_digit(host[host.rfind('.') + 1]) && !is_dotted_quad(host)) return false;
    return !has_dot_segment(buf.substr(path_at, buf.find('?', path_at) - path_at));
}

// libcurl's answer for build_url's `buf`: it validates it, resolves dot
// segments and normalises IP literals.
CanonResult canonical_by_curl(const std::string& buf, bool https) {
    CURLU* h = thread_curlu();
    if (curl_api().curl_url_set(h, CURLUPART_URL, buf.c_str(), 0) != CURLUE_OK) return reject("bad-url");
    CurlString out;
    if (curl_api().curl_url_get(h, CURLUPART_URL, &out.p, CURLU_NO_DEFAULT_PORT) != CURLUE_OK) return reject("bad-url");
    return read_canonical(out.p, https);
}

CanonResult canonicalize(std::string_view input, const CanonOptions& opt, bool fast) {
    UrlParts parts;
    if (const char* reason = split_url(input, parts)) return reject(reason);
    thread_local std::string host;
    if (!canonical_host(parts.host, host)) return reject("bad-url");
    thread_local std::string buf;
    build_url(parts, host, opt, buf);
    const size_t path_at = buf.find('/', parts.https ? 8 : 7);
    if (fast && plain_canonical(host, buf, path_at)) return read_canonical(buf.c_str(), parts.https);
    return canonical_by_curl(buf, parts.https);
}

}  // namespace

CanonResult canonicalize_url(std::string_view input, const CanonOptions& opt) { return canonicalize(input, opt, true); }

CanonResult canonicalize_url_by_curl(std::string_view input, const CanonOptions& opt) {
    return canonicalize(input, opt, false);
}

}  // namespace frontier
