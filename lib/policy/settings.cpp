// Settings read from their stored JSON values (build_settings), and the
// regular expressions of the scope and cost rules (UrlRegex). The table of
// settings is in settings_table.cpp, the checks of new values in
// settings_normalise.cpp.
#include "policy/settings.hpp"

#include <re2/re2.h>
#include <simdjson.h>

#include <algorithm>

#include "core/error.hpp"
#include "net/address_guard.hpp"

namespace frontier {

namespace {

std::vector<std::string> string_list(const std::string& json) {
    simdjson::dom::parser p;
    std::vector<std::string> v;
    for (auto e : p.parse(json).get_array()) v.emplace_back(std::string_view(e.get_string()));
    return v;
}

std::map<std::string, double> number_map(const std::string& json) {
    simdjson::dom::parser p;
    std::map<std::string, double> m;
    for (auto f : p.parse(json).get_object()) m[std::string(f.key)] = double(f.value.get_double());
    return m;
}

std::vector<UrlRegex> regex_list(const std::string& key, const std::string& json) {
    std::vector<UrlRegex> v;
    for (auto& s : string_list(json)) v.emplace_back(key, s);
    return v;
}

}  // namespace

UrlRegex::UrlRegex(std::string_view key, std::string_view pattern, bool case_insensitive) {
    RE2::Options opts;  // UTF-8, longest_match off, ...
    opts.set_log_errors(false);
    opts.set_case_sensitive(!case_insensitive);
    auto re = std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), opts);
    if (!re->ok()) {
        std::string why = re->error();
        // Name the two constructs users bring from backtracking engines.
        const std::string& arg = re->error_arg();
        if (re->error_code() == RE2::ErrorBadEscape && arg.size() >= 2 && arg[1] >= '1' && arg[1] <= '9')
            why += "; RE2 has no backreferences";
        else if (arg.starts_with("(?=") || arg.starts_with("(?!") ||
                 (arg.starts_with("(?<") && (pattern.find("(?<=") != std::string_view::npos ||
                                             pattern.find("(?<!") != std::string_view::npos)))
            why += "; RE2 has no lookahead or lookbehind";
        throw UsageError("bad regular expression in " + std::string(key) + ": " + std::string(pattern) +
                         " (RE2: " + why + ")");
    }
    re_ = std::move(re);
}

bool UrlRegex::search(std::string_view text) const {
    return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

const std::string& UrlRegex::pattern() const { return re_->pattern(); }

const Politeness& Settings::politeness_for(std::string_view host) const {
    if (domain_politeness.empty()) return politeness;
    std::string_view h = host;
    if (auto colon = h.rfind(':'); colon != std::string_view::npos && h.find(']') == std::string_view::npos)
        h = h.substr(0, colon);
    while (!h.empty()) {
        auto it = domain_politeness.find(std::string(h));
        if (it != domain_politeness.end()) return it->second;
        auto dot = h.find('.');
        if (dot == std::string_view::npos) break;
        h = h.substr(dot + 1);
    }
    return politeness;
}

bool Settings::is_soft(std::string_view error_class, int64_t status) const {
    std::string code = status > 0 ? std::to_string(status) : std::string();
    for (auto& s : retry_soft) {
        if (!error_class.empty() && s == error_class) return true;
        if (!code.empty() && s == code) return true;
    }
    return false;
}

namespace {

void apply_politeness(Politeness& p, const std::string& key, const std::string& v) {
    simdjson::dom::parser parser;
    auto e = parser.parse(v);
    if (key == "politeness.delay-factor") p.delay_factor = double(e.get_double());
    else if (key == "politeness.min-delay") p.min_delay = double(e.get_double());
    else if (key == "politeness.max-delay") p.max_delay = double(e.get_double());
    else if (key == "politeness.max-in-flight") p.max_in_flight = int64_t(e.get_int64());
    else if (key == "politeness.lease-ahead") p.lease_ahead = int64_t(e.get_int64());
    else if (key == "politeness.max-crawl-delay") p.max_crawl_delay = double(e.get_double());
    else if (key == "politeness.host-down-delay") p.host_down_delay = double(e.get_double());
    else if (key == "robots.enabled") p.robots_enabled = bool(e.get_bool());
    else if (key == "robots.user-agent") p.robots_user_agent = std::string(std::string_view(e.get_string()));
}

}  // namespace

namespace {

// The stored values by key (defaults for those not stored), read as the
// kinds they hold.
class StoredValues {
public:
    explicit StoredValues(std::map<std::string, std::string> v) : v_(std::move(v)) {}
    double num(const char* k) { return double(p_.parse(v_[k]).get_double()); }
    int64_t integer(const char* k) { return int64_t(p_.parse(v_[k]).get_int64()); }
    bool boolean(const char* k) { return bool(p_.parse(v_[k]).get_bool()); }
    std::string str(const char* k) { return std::string(std::string_view(p_.parse(v_[k]).get_string())); }
    std::string& json(const std::string& k) { return v_[k]; }
    simdjson::dom::parser& parser() { return p_; }

private:
    std::map<std::string, std::string> v_;
    simdjson::dom::parser p_;
};

void read_lease_and_politeness(Settings& s, StoredValues& v,
                               const std::map<std::string, std::map<std::string, std::string>>& domain_values) {
    s.queue_key = v.str("queue.key") == "domain" ? QueueKeyMode::domain : QueueKeyMode::host;
    s.lease_ttl = v.num("lease.ttl");
    s.class_burst = v.integer("lease.class-burst");
    for (auto& d : setting_defs())
        if (std::string_view(d.key).starts_with("politeness.") || std::string_view(d.key).starts_with("robots."))
            apply_politeness(s.politeness, d.key, v.json(d.key));
    for (auto& [domain, kv] : domain_values) {
        Politeness pd = s.politeness;
        for (auto& [k, val] : kv) apply_politeness(pd, k, val);
        s.domain_politeness[domain] = pd;
    }
}

void read_retry_and_scope(Settings& s, StoredValues& v) {
    s.retry_delay = v.num("retry.delay");
    s.retry_max = v.integer("retry.max");
    s.max_retry_after = v.num("retry.max-retry-after");
    s.retry_soft = string_list(v.json("retry.soft"));
    s.max_depth = v.integer("scope.max-depth");
    s.max_queued = v.integer("scope.max-queued");
    s.include = regex_list("scope.include", v.json("scope.include"));
    s.exclude = regex_list("scope.exclude", v.json("scope.exclude"));
    s.seed_domains = v.boolean("scope.seed-domains");
    s.depth_bypass_types = string_list(v.json("scope.depth-bypass-types"));
    for (auto& kind : string_list(v.json("net.allow"))) s.net_allow |= parse_address_kinds(kind).value_or(0);
    s.net_seed_hosts = v.boolean("net.seed-hosts");
    s.canon.strip_params = string_list(v.json("scope.strip-params"));
    s.canon.sort_query = v.boolean("scope.sort-query");
}

void read_priority(Settings& s, StoredValues& v) {
    s.fifo = v.str("priority.mode") == "fifo";
    s.type_weights = number_map(v.json("priority.type-weights"));
    s.discovery_bonus = number_map(v.json("priority.discovery-bonus"));
    s.bonus_weights = number_map(v.json("priority.bonus-weights"));
    s.base_weight = v.num("priority.base-weight");
    s.unknown_depth = v.num("priority.unknown-depth");
    s.cluster_boost_factor = v.num("priority.cluster-boost-factor");
    s.cost_aware = v.boolean("priority.cost-aware");
    for (auto rule : v.parser().parse(v.json("priority.focus")).get_array()) {
        FocusRule fr;
        for (auto t : rule["tokens"].get_array()) {
            std::string tok(std::string_view(t.get_string()));
            std::transform(tok.begin(), tok.end(), tok.begin(), [](unsigned char c) { return std::tolower(c); });
            fr.tokens.push_back(tok);
        }
        fr.floor = double(rule["floor"].get_double());
        s.focus.push_back(std::move(fr));
    }
    if (v.json("priority.focus-other") != "null") s.focus_other = v.num("priority.focus-other");
}

void read_budget_and_recrawl(Settings& s, StoredValues& v) {
    s.hold_queues = v.boolean("budget.hold-queues");
    s.replenish = v.integer("budget.replenish");
    s.total_budget = v.integer("budget.total");
    s.cost_policy = v.str("budget.cost-policy");
    for (auto& [re, cost] : number_map(v.json("budget.cost-rules")))
        s.cost_rules.push_back({UrlRegex("budget.cost-rules", re), static_cast<int64_t>(cost)});
    s.error_penalty = v.integer("budget.error-penalty");
    s.recrawl_types = string_list(v.json("recrawl.types"));
    s.recrawl_interval = v.num("recrawl.interval");
    s.recrawl_adjust = v.num("recrawl.adjust-factor");
    s.recrawl_min = v.num("recrawl.min-interval");
    s.recrawl_max = v.num("recrawl.max-interval");
    s.recrawl_fail_delay = v.num("recrawl.fail-delay");
    s.recrawl_max_failures = v.integer("recrawl.max-failures");
    s.recrawl_policy = v.str("recrawl.policy");
}

}  // namespace

Settings build_settings(const std::map<std::string, std::string>& values,
                        const std::map<std::string, std::map<std::string, std::string>>& domain_values) {
    std::map<std::string, std::string> v;
    for (auto& d : setting_defs()) v[d.key] = d.default_json;
    for (auto& [k, val] : values)
        if (v.count(k)) v[k] = val;
    StoredValues stored(std::move(v));
    Settings s;
    try {
        read_lease_and_politeness(s, stored, domain_values);
        read_retry_and_scope(s, stored);
        read_priority(s, stored);
        read_budget_and_recrawl(s, stored);
    } catch (const simdjson::simdjson_error& e) {
        throw UsageError(std::string("a stored setting has a bad value: ") + e.what());
    } catch (const UsageError& e) {
        // A pattern stored by a version that used std::regex (ECMAScript) may
        // be one RE2 refuses (a backreference, a lookahead).
        throw UsageError(std::string("a stored setting is invalid: ") + e.what() +
                         "; change it with frontier-config");
    }
    return s;
}

}  // namespace frontier
