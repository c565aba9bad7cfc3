// robots.txt per RFC 9309. Parsing follows Google's robotstxt library where
// the RFC leaves room (missing colon, common key typos, product token cut at
// the first non [A-Za-z_-] character); matching is a greedy wildcard matcher
// that is O(pattern x path) in the worst case, never exponential.
#include "web/robots.hpp"

#include "core/ascii.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace frontier {

namespace {

constexpr std::string_view kSerialHeader = "robots/1";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool is_unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

void append_escaped(std::string& out, unsigned char c) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
}

// Brings a pattern or a path to one canonical form so that equivalent
// spellings compare equal octet by octet (RFC 9309 2.2.2): %XX of an
// unreserved character is decoded, other %XX get upper-case hex, a stray '%'
// becomes %25, controls, space and non-ASCII octets are %-encoded. In a path
// a literal '*' or '$' becomes %2A / %24 (RFC 9309 2.2.3: a pattern names
// them that way); in a pattern '*' stays a wildcard and only a final '$' is
// an anchor, any other '$' is literal (%24).
std::string normalize(std::string_view in, bool is_pattern) {
    std::string out;
    out.reserve(in.size() + 8);
    for (std::size_t i = 0; i < in.size(); ++i) {
        auto c = static_cast<unsigned char>(in[i]);
        if (c == '%') {
            int hi = i + 2 < in.size() ? hex_value(in[i + 1]) : -1;
            int lo = i + 2 < in.size() ? hex_value(in[i + 2]) : -1;
            if (hi >= 0 && lo >= 0) {
                auto v = static_cast<unsigned char>(hi * 16 + lo);
                if (is_unreserved(v))
                    out += static_cast<char>(v);
                else
                    append_escaped(out, v);
                i += 2;
            } else {
                append_escaped(out, '%');
            }
        } else if (c <= 0x20 || c >= 0x7F) {
            append_escaped(out, c);
        } else if (c == '*' && !is_pattern) {
            append_escaped(out, c);
        } else if (c == '$' && !(is_pattern && i + 1 == in.size())) {
            append_escaped(out, c);
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

// A rule's value as a stored pattern: normalised, and anchored at '/' when the
// file forgot the slash ("Disallow: private" means "/private"). Empty = no rule.
std::string pattern_from_value(std::string_view value) {
    if (value.empty()) return {};
    std::string p = normalize(value, true);
    if (p.front() != '/' && p.front() != '*') p.insert(p.begin(), '/');
    return p;
}

// Does `pattern` (normalised: '*' any sequence, final '$' anchors the end)
// match `path` (normalised) from its first octet? Without '$' the pattern
// only has to match a prefix. Greedy two-pointer matching that backtracks to
// the last '*' only: correct for '*'-only globs, O(|pattern| x |path|) worst case.
bool pattern_matches(std::string_view pattern, std::string_view path) {
    bool anchored = !pattern.empty() && pattern.back() == '$';
    if (anchored) pattern.remove_suffix(1);
    constexpr std::size_t npos = std::string_view::npos;
    std::size_t p = 0, s = 0, star = npos, mark = 0;
    for (;;) {
        if (p == pattern.size()) {
            if (!anchored || s == path.size()) return true;
        } else if (pattern[p] == '*') {
            star = p++;
            mark = s;
            continue;
        } else if (s < path.size() && pattern[p] == path[s]) {
            ++p;
            ++s;
            continue;
        }
        // Mismatch: let the last '*' swallow one more octet, if there is one.
        if (star == npos || mark >= path.size()) return false;
        p = star + 1;
        s = ++mark;
    }
}

enum class Key { kUserAgent, kAllow, kDisallow, kCrawlDelay, kSitemap, kOther };

Key classify(std::string_view key) {
    struct Spelling {
        std::string_view text;
        Key key;
    };
    static constexpr Spelling kSpellings[] = {
        {"user-agent", Key::kUserAgent},   {"useragent", Key::kUserAgent},
        {"user agent", Key::kUserAgent},   {"allow", Key::kAllow},
        {"disallow", Key::kDisallow},      {"dissallow", Key::kDisallow},
        {"dissalow", Key::kDisallow},      {"disalow", Key::kDisallow},
        {"diasllow", Key::kDisallow},      {"disallaw", Key::kDisallow},
        {"crawl-delay", Key::kCrawlDelay}, {"crawldelay", Key::kCrawlDelay},
        {"crawl delay", Key::kCrawlDelay}, {"sitemap", Key::kSitemap},
        {"site-map", Key::kSitemap},
    };
    for (const auto& s : kSpellings)
        if (iequals(key, s.text)) return s.key;
    return Key::kOther;
}

// Splits a comment-free, trimmed line into key and value at the first ':'.
// Without a colon, "Disallow /x" (exactly two words) is accepted as Google does.
bool split_line(std::string_view line, std::string_view& key, std::string_view& value) {
    std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
        key = trim(line.substr(0, colon));
        value = trim(line.substr(colon + 1));
        return !key.empty();
    }
    std::size_t ws = line.find_first_of(" \t");
    if (ws == std::string_view::npos) return false;
    key = line.substr(0, ws);
    value = trim(line.substr(ws));
    return value.find_first_of(" \t") == std::string_view::npos;
}

// A non-negative finite number of seconds, the whole value ("1", "2.5", ".5").
std::optional<double> parse_seconds(std::string_view v) {
    double d = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc() || ptr != v.data() + v.size() || !std::isfinite(d) || d < 0) return std::nullopt;
    return d;
}

// Precedence order (longest first, allow first on a tie, then by text for a
// stable form), duplicates removed. allowed() takes the first match.
void order_rules(std::vector<RobotsRule>& rules) {
    std::sort(rules.begin(), rules.end(), [](const RobotsRule& a, const RobotsRule& b) {
        if (a.pattern.size() != b.pattern.size()) return a.pattern.size() > b.pattern.size();
        if (a.allow != b.allow) return a.allow;
        return a.pattern < b.pattern;
    });
    rules.erase(std::unique(rules.begin(), rules.end(),
                            [](const RobotsRule& a, const RobotsRule& b) {
                                return a.allow == b.allow && a.pattern == b.pattern;
                            }),
                rules.end());
}

// Rules and crawl-delay collected for one kind of group (ours or "*").
struct Selection {
    bool seen = false;  // some group names this agent (even with no rules)
    std::vector<RobotsRule> rules;
    std::optional<double> delay;

    void add_delay(double d) { delay = delay ? std::max(*delay, d) : d; }
};

}  // namespace

// The product token at the start of a user-agent value: the leading run of
// [A-Za-z_-] (RFC 9309 2.2.1), so "frontier/0.1" gives "frontier".
std::string_view product_token(std::string_view ua) {
    ua = trim(ua);
    std::size_t n = 0;
    while (n < ua.size()) {
        char c = ua[n];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_')) break;
        ++n;
    }
    return ua.substr(0, n);
}


namespace {

// Only whole lines of the first kRobotsMaxBytes octets are read. A body of
// exactly kRobotsMaxBytes is what fetch keeps of a longer robots.txt: its
// last line counts only when it ends there. A UTF-8 byte order mark is
// skipped, and so is a cut one ("\xEF", "\xEF\xBB"), as Google's parser
// does: it would spoil the first line.
std::string_view readable_part(std::string_view body) {
    if (body.size() >= kRobotsMaxBytes) {
        std::string_view head = body.substr(0, kRobotsMaxBytes);
        char next = body.size() > kRobotsMaxBytes ? body[kRobotsMaxBytes] : head.back();
        if (next != '\n' && next != '\r') {
            std::size_t eol = head.find_last_of("\r\n");
            head = eol == std::string_view::npos ? std::string_view() : head.substr(0, eol + 1);
        }
        body = head;
    }
    for (char bom : std::string_view("\xEF\xBB\xBF")) {
        if (body.empty() || body.front() != bom) break;
        body.remove_prefix(1);
    }
    return body;
}

// The line at `pos` (ended by CR, LF or CR LF; `pos` moves past it), its
// comment cut and trimmed.
std::string_view next_line(std::string_view body, std::size_t& pos) {
    std::size_t eol = body.find_first_of("\r\n", pos);
    if (eol == std::string_view::npos) eol = body.size();
    std::string_view line = body.substr(pos, eol - pos);
    pos = eol + 1;
    if (eol < body.size() && body[eol] == '\r' && pos < body.size() && body[pos] == '\n') ++pos;
    if (std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    return trim(line);
}

// The groups for our product token (`specific`) and for "*", as the lines
// come: which of them the current group is.
struct GroupReader {
    std::string_view ours;
    Selection specific, star;
    bool cur_specific = false, cur_star = false;
    bool in_agent_lines = false;  // the last group line was a user-agent line

    void user_agent(std::string_view value) {
        if (!in_agent_lines) cur_specific = cur_star = false;  // a new group starts
        in_agent_lines = true;
        if (value.size() >= 1 && value[0] == '*' && (value.size() == 1 || is_space(value[1]))) {
            cur_star = star.seen = true;
        } else {
            std::string_view token = product_token(value);
            if (!token.empty() && iequals(token, ours)) cur_specific = specific.seen = true;
        }
    }

    void rule(bool allow, std::string_view value) {
        in_agent_lines = false;
        std::string pattern = pattern_from_value(value);
        if (pattern.empty()) return;  // "Disallow:" alone disallows nothing
        RobotsRule r{allow, std::move(pattern)};
        if (cur_specific) specific.rules.push_back(r);
        if (cur_star) star.rules.push_back(std::move(r));
    }

    // Not an RFC rule: like other unknown records it does not end the
    // user-agent lines of a group.
    void crawl_delay(std::string_view value) {
        if (auto d = parse_seconds(value)) {
            if (cur_specific) specific.add_delay(*d);
            if (cur_star) star.add_delay(*d);
        }
    }
};

}  // namespace

RobotsRules RobotsRules::parse(std::string_view body, std::string_view user_agent) {
    body = readable_part(body);
    GroupReader groups;
    groups.ours = product_token(user_agent);
    RobotsRules result;
    std::size_t pos = 0;
    while (pos < body.size()) {
        std::string_view line = next_line(body, pos);
        std::string_view key, value;
        if (line.empty() || !split_line(line, key, value)) continue;
        switch (classify(key)) {
            case Key::kUserAgent: groups.user_agent(value); break;
            case Key::kAllow: groups.rule(true, value); break;
            case Key::kDisallow: groups.rule(false, value); break;
            case Key::kCrawlDelay: groups.crawl_delay(value); break;
            case Key::kSitemap:
                if (!value.empty() && std::find(result.sitemaps_.begin(), result.sitemaps_.end(), value) ==
                                          result.sitemaps_.end())
                    result.sitemaps_.emplace_back(value);
                break;
            case Key::kOther: break;
        }
    }
    Selection& chosen = groups.specific.seen ? groups.specific : groups.star;
    result.rules_ = std::move(chosen.rules);
    result.crawl_delay_ = chosen.delay;
    order_rules(result.rules_);
    return result;
}

RobotsRules RobotsRules::allow_all() { return RobotsRules(); }

RobotsRules RobotsRules::disallow_all() {
    RobotsRules r;
    r.rules_.push_back(RobotsRule{false, "/"});
    return r;
}

bool RobotsRules::allowed(std::string_view path_and_query) const {
    if (std::size_t hash = path_and_query.find('#'); hash != std::string_view::npos)
        path_and_query = path_and_query.substr(0, hash);
    std::string path = normalize(path_and_query, false);
    if (path.empty() || path.front() != '/') path.insert(path.begin(), '/');
    std::string_view path_only = std::string_view(path).substr(0, path.find('?'));
    if (path_only == "/robots.txt") return true;
    for (const RobotsRule& rule : rules_)
        if (pattern_matches(rule.pattern, path)) return rule.allow;
    return true;
}

std::string RobotsRules::serialize() const {
    std::string out(kSerialHeader);
    out += '\n';
    if (crawl_delay_) {
        char buf[64];
        auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, *crawl_delay_);
        if (ec == std::errc()) {
            out += "C\t";
            out.append(buf, ptr);
            out += '\n';
        }
    }
    for (const RobotsRule& rule : rules_) {
        out += rule.allow ? "A\t" : "D\t";
        out += rule.pattern;
        out += '\n';
    }
    return out;
}

RobotsRules RobotsRules::deserialize(std::string_view text) {
    RobotsRules result;
    std::size_t pos = 0;
    bool header = false;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        if (!header) {
            if (line != kSerialHeader) return allow_all();
            header = true;
            continue;
        }
        if (line.empty()) continue;
        if (line.size() < 3 || line[1] != '\t') return allow_all();
        std::string_view value = line.substr(2);
        if (line[0] == 'C') {
            auto d = parse_seconds(value);
            if (!d) return allow_all();
            result.crawl_delay_ = d;
        } else if (line[0] == 'A' || line[0] == 'D') {
            // Re-normalised, so a hand-edited or damaged value cannot break
            // the matcher's assumptions; normalised input comes out unchanged.
            result.rules_.push_back(RobotsRule{line[0] == 'A', pattern_from_value(value)});
        } else {
            return allow_all();
        }
    }
    order_rules(result.rules_);
    return result;
}

}  // namespace frontier
