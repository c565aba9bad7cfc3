// robots.txt per RFC 9309: parsing, group selection and matching.
//
// The frontier stores, per host, only the rules of the group that applies to
// its user-agent token (serialised with serialize()), so matching at lease
// time needs no re-parse of the whole file. Thread-safe: all const.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frontier {

// How much of a robots.txt body parse() reads (RFC 9309 asks for at least
// 500 KiB), and how much fetch reads of one. A line cut by the limit is
// dropped, not read half; so is the last line of a body of exactly this size
// that does not end in a line break (fetch's prefix of a longer file).
inline constexpr std::size_t kRobotsMaxBytes = 512000;

struct RobotsRule {
    bool allow = false;
    std::string pattern;  // path pattern as written (percent-encoding normalised), may hold '*' and a final '$'
};

// The product token at the start of a user-agent value: the leading run of
// [A-Za-z_-] (RFC 9309 2.2.1), so "frontier/0.1 (+...)" gives "frontier".
std::string_view product_token(std::string_view ua);

class RobotsRules {
public:
    // Parses a robots.txt body (at most the first 500 KiB are read; binary
    // garbage yields no rules) and keeps the group for the most specific
    // user-agent product token matching `user_agent` (case-insensitive), else
    // the "*" group, else none (everything allowed). Groups with the same
    // user-agent are merged, as the RFC asks.
    static RobotsRules parse(std::string_view body, std::string_view user_agent);
    static RobotsRules allow_all();
    static RobotsRules disallow_all();

    // RFC 9309 matching on a URL's path and query ("/a/b?c=1"): the longest
    // matching pattern wins; on equal length allow wins; no match = allowed.
    // "/robots.txt" is always allowed.
    bool allowed(std::string_view path_and_query) const;

    // Crawl-delay of the selected group, if given (seconds, fractional ok).
    std::optional<double> crawl_delay() const { return crawl_delay_; }
    // Sitemap: lines (from the whole file, not only the group), absolute URLs as written.
    const std::vector<std::string>& sitemaps() const { return sitemaps_; }
    // The selected group's rules, deduplicated and in precedence order: longest
    // pattern first, allow before disallow on equal length.
    const std::vector<RobotsRule>& rules() const { return rules_; }

    // Compact text form for storage (rules and crawl-delay; sitemaps are not
    // kept). deserialize(serialize()) matches the same URLs.
    std::string serialize() const;
    static RobotsRules deserialize(std::string_view text);

private:
    std::vector<RobotsRule> rules_;
    std::optional<double> crawl_delay_;
    std::vector<std::string> sitemaps_;
};

}  // namespace frontier
