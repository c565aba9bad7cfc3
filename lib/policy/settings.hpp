// Frontier settings (frontier(7), SETTINGS): the table of keys with defaults and
// validation, and the typed Settings every scheduling decision reads.
// Values are JSON texts; storage (lib/store/store.cpp) keeps the non-default ones.
// Pure C++: no SQL here.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "web/url.hpp"

namespace re2 {
class RE2;
}

namespace frontier {

// A regular expression matched against URLs (scope.include, scope.exclude,
// the keys of budget.cost-rules, the anticalendar cost policy): RE2 syntax,
// matched in time linear in the URL's length (no backtracking, so no
// backreferences or lookaround), searched anywhere in the text (unanchored,
// as std::regex_search was). Copies share the compiled expression, which is
// immutable and safe to match from several threads.
class UrlRegex {
public:
    // Compiles `pattern`; throws UsageError "bad regular expression in KEY:
    // PATTERN (RE2: ERROR)" when RE2 refuses it.
    UrlRegex(std::string_view key, std::string_view pattern, bool case_insensitive = false);
    // Does the expression match anywhere in `text`?
    bool search(std::string_view text) const;
    const std::string& pattern() const;

private:
    std::shared_ptr<const re2::RE2> re_;
};

enum class SettingKind { number, integer, boolean, choice, string, string_list, number_map, focus };

struct SettingDef {
    const char* key;
    const char* default_json;  // JSON text of the default
    SettingKind kind;
    const char* choices;       // for SettingKind::choice: "host|domain"
    bool per_domain;           // may be overridden with --domain
    bool allow_negative;       // numbers: -1 allowed (meaning "none")
    const char* doc;
};

// Every known setting, in display order.
const std::vector<SettingDef>& setting_defs();
const SettingDef* find_setting(std::string_view key);

// Validates `value` for `key` and returns its normalised JSON text.
// `value` is a JSON text, or a bare word taken as a string ("domain", "on").
// Throws UsageError naming the key and what is expected.
std::string normalise_setting(std::string_view key, std::string_view value);

struct Politeness {
    double delay_factor = 5;
    double min_delay = 3;
    double max_delay = 30;
    int64_t max_in_flight = 1;
    int64_t lease_ahead = 0;  // leases beyond max_in_flight while no delay applies (lib/policy/lease_ahead.hpp)
    double max_crawl_delay = 300;
    double host_down_delay = 600;  // after dns / connect results
    bool robots_enabled = true;
    std::string robots_user_agent = "frontier";
};

struct FocusRule {
    std::vector<std::string> tokens;  // lower-case
    double floor = 0;
};

struct CostRule {
    UrlRegex re;
    int64_t cost = 0;
};

// The longest lease, seconds (7 days): the bound of lease.ttl and of
// frontier-lease --ttl. A lease must expire: an infinite or huge one would
// hold its URL for ever ("expires":null), unseen by expiry and --check.
inline constexpr double kMaxLeaseTtl = 604800;

// Typed view of all settings. Built from the stored (key -> JSON) maps.
struct Settings {
    QueueKeyMode queue_key = QueueKeyMode::host;
    double lease_ttl = 600;
    // The lease lifetime lease.ttl gives (a stored value from before the
    // bound is held to kMaxLeaseTtl).
    double bounded_lease_ttl() const { return std::min(lease_ttl, kMaxLeaseTtl); }
    int64_t class_burst = 5;  // lease.class-burst (0: off)
    Politeness politeness;
    std::map<std::string, Politeness> domain_politeness;  // domain -> effective values
    double retry_delay = 3600;
    int64_t retry_max = 12;
    double max_retry_after = 86400;  // retry.max-retry-after
    std::vector<std::string> retry_soft;
    int64_t max_depth = -1;
    int64_t max_queued = -1;
    std::vector<UrlRegex> include, exclude;
    bool seed_domains = true;
    unsigned net_allow = 0;       // net.allow: address kinds (lib/net/address_guard.hpp)
    bool net_seed_hosts = true;   // net.seed-hosts
    std::vector<std::string> depth_bypass_types;
    CanonOptions canon;
    bool fifo = false;  // priority.mode == fifo
    std::map<std::string, double> type_weights, discovery_bonus, bonus_weights;
    double base_weight = 1;            // priority.base-weight
    double unknown_depth = 0;          // priority.unknown-depth
    double cluster_boost_factor = 2.5; // priority.cluster-boost-factor
    bool cost_aware = false;           // priority.cost-aware
    std::vector<FocusRule> focus;
    std::optional<double> focus_other;
    bool hold_queues = true;
    int64_t replenish = 3000;
    int64_t total_budget = -1;
    std::string cost_policy = "unit";
    std::vector<CostRule> cost_rules;
    int64_t error_penalty = 0;
    std::vector<std::string> recrawl_types;
    double recrawl_interval = 86400, recrawl_adjust = 2, recrawl_min = 86400, recrawl_max = 64 * 86400;
    double recrawl_fail_delay = 86400;
    int64_t recrawl_max_failures = 3;
    std::string recrawl_policy = "multiplicative";

    // The politeness values for a host: the most specific --domain override
    // (the host itself, then each parent domain), else the global values.
    const Politeness& politeness_for(std::string_view host) const;
    // Is the error class / HTTP status soft (retried)?
    bool is_soft(std::string_view error_class, int64_t status) const;
};

// Builds Settings from stored values (missing keys take defaults).
// `domain_values` maps domain -> (key -> JSON). Throws UsageError on a bad stored value.
Settings build_settings(const std::map<std::string, std::string>& values,
                        const std::map<std::string, std::map<std::string, std::string>>& domain_values);

}  // namespace frontier
