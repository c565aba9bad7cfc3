// URL canonicalisation (frontier(7), URLS, CANONICAL FORM AND FINGERPRINTS), fingerprints and queue keys.
//
// Parsing is libcurl's URL API; IDNA is libidn2; registered domains come
// from libpsl's built-in public-suffix list. All functions are thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frontier {

struct CanonOptions {
    // Query / ;path parameter names removed; an entry ending in '*' is a
    // prefix ("utm_*"). Matching is case-insensitive.
    std::vector<std::string> strip_params = {"utm_*", "jsessionid", "phpsessid", "sid", "sessionid"};
    bool sort_query = false;
};

// A canonical URL and its parts.
struct Url {
    std::string url;     // the canonical form, e.g. "http://example.com:8080/a?b=1"
    std::string scheme;  // "http" or "https"
    std::string host;    // lower-case, punycode; IPv6 literals in brackets "[::1]"
    int port = -1;       // explicit non-default port, else -1
    std::string path;    // starts with '/'
    std::string query;   // without '?', empty when none
    bool has_query = false;

    bool operator==(const Url&) const = default;  // every field

    // "host" or "host:port" (port only when not the scheme's default).
    std::string authority() const;
    // path plus "?query" when present: what robots.txt rules match against.
    std::string path_and_query() const;
};

// Result of canonicalize_url: ok, or a rejection reason
// ("bad-url" for unparsable input, "bad-scheme" for anything but http/https).
struct CanonResult {
    bool ok = false;
    std::string reason;
    Url url;
};

// Canonical form per frontier(7), URLS, CANONICAL FORM AND FINGERPRINTS: whitespace trimmed, scheme and host lower-case,
// IDN host to punycode, default port removed, empty path -> "/", dot segments
// resolved, percent-encoding normalised (upper-case hex, unreserved decoded,
// spaces and non-ASCII encoded), fragment removed, session parameters
// stripped (query and ";name=value" path parameters), query sorted if asked.
// Further choices: userinfo ("user:pw@") is dropped; one trailing dot of the
// host is removed; "http:/h" and "http:\\h" mean host h, backslashes in the
// path are '/', as in browsers; empty query parameters ("a=1&&b=2") are
// dropped and an empty query is removed; IPv6 literals are normalised by
// libcurl ("[0:0::1]" -> "[::1]") and lower-cased, IPv6 zone ids are
// rejected; IPv4 shorthands are expanded by libcurl ("127.1" -> "127.0.0.1").
// "bad-url": no scheme, empty or invalid host, label over 63 or host over 253
// characters, port not in 1..65535, control characters (NUL, tab, newline)
// inside the trimmed input. The result is idempotent. Never throws for bad
// input (std::bad_alloc only). Thread-safe (one libcurl handle per thread).
// Pass a long-lived CanonOptions: the default argument costs an allocation.
CanonResult canonicalize_url(std::string_view input, const CanonOptions& opt = {});
// The same through libcurl's URL API for every URL: canonicalize_url skips
// it where it would change nothing. The oracle of its tests.
CanonResult canonicalize_url_by_curl(std::string_view input, const CanonOptions& opt = {});

// Resolves `ref` (absolute or relative) against the absolute `base` URL
// (RFC 3986). Returns nullopt when either does not parse. The result is not
// canonicalised; pass it to canonicalize_url.
// As browsers do, surrounding whitespace and tabs/newlines in `ref` are
// dropped. A `ref` with a scheme other than http/https ("mailto:",
// "javascript:") is returned as is, so canonicalize_url reports bad-scheme.
// "http:g" against an http base is the relative "g" (RFC 3986 5.2.2).
std::optional<std::string> resolve_url(std::string_view base, std::string_view ref);

// resolve_url against one base, for the many references of a page: the
// base is parsed once, and a plain reference is resolved without a URL
// parser (RFC 3986 5.2, dot segments removed). Plain: printable ASCII
// without "<>\"{}|\\^`[]" and spaces, '%' only in an escape that is no
// encoded '.', no trailing '?', a fragment of the same bytes; and a path
// (relative with no ':' in its first segment, or absolute), a query, or a
// lower-case "http://", "https://" or "//" URL whose host is lower-case
// letters, digits, '-' and dots (a numeric last label only in a dotted
// quad) and whose port, if any, is no default one. Dot segments are
// declined beside an empty segment or a query, where libcurl's merge is not
// RFC 3986's. The base qualifies when libcurl's view of it is plain too (an
// http or https URL whose path does not start with "//"). Everything else
// goes to resolve_url, whose answers these are: a test and a fuzz target
// compare the two. Not thread-safe.
class BaseUrl {
public:
    explicit BaseUrl(std::string_view base);
    // resolve_url(base, ref) without its fragment, into `out`; false where
    // resolve_url gives nullopt.
    bool resolve(std::string_view ref, std::string& out) const;
    // The fast path alone: true with `out` as resolve() gives it when base
    // and reference are plain; false (`out` unspecified) when it declines.
    bool resolve_plain(std::string_view ref, std::string& out) const;

private:
    std::string base_;
    std::string self_;       // the base without fragment (for "" and "#f")
    std::string origin_;     // "http://h:8080"; empty: the base is not plain
    std::string directory_;  // "/a/" for base "http://h/a/b?q"
    std::string path_;       // "/a/b"
    bool https_ = false;
    mutable std::string scratch_;  // a relative path merged with directory_
};

// XXH3-64 of the canonical URL text.
uint64_t url_fingerprint(std::string_view canonical_url);

// Registered domain ("news.bbc.co.uk" -> "bbc.co.uk") from the public-suffix
// list; an IP literal, or a host that is itself a public suffix, is returned
// unchanged.
std::string registered_domain(std::string_view host);

// True when `host` is `domain` or a subdomain of it ("a.b.com" in "b.com").
bool host_in_domain(std::string_view host, std::string_view domain);

enum class QueueKeyMode { host, domain };

// The queue a URL belongs to: its authority (QueueKeyMode::host) or its
// registered domain (QueueKeyMode::domain).
std::string queue_key(const Url& url, QueueKeyMode mode);

}  // namespace frontier
