// The table of frontier settings (frontier-config(1)): keys, defaults,
// kinds and help texts, and the lookups of lib/policy/settings.hpp over it.
// Values are checked by settings_normalise.cpp and read into a Settings by
// build_settings (settings.cpp).
#include "policy/settings.hpp"

namespace frontier {

namespace {

using K = SettingKind;

const std::vector<SettingDef> kDefs = {
    {"queue.key", "\"host\"", K::choice, "host|domain", false, false,
     "queue per host (with port) or per registered domain"},
    {"lease.ttl", "600", K::number, nullptr, false, false, "lease lifetime in seconds"},
    {"lease.class-burst", "5", K::integer, nullptr, false, false,
     "after this many URLs of one class in a row, the next lease takes the other class if it has work (0: off)"},
    {"politeness.delay-factor", "5", K::number, nullptr, true, false, "wait = factor x last fetch duration"},
    {"politeness.min-delay", "3", K::number, nullptr, true, false, "minimum wait between fetches of a queue"},
    {"politeness.max-delay", "30", K::number, nullptr, true, false, "maximum wait from the delay factor"},
    {"politeness.max-in-flight", "1", K::integer, nullptr, true, false, "leases out at once per queue"},
    {"politeness.lease-ahead", "0", K::integer, nullptr, true, false,
     "leases per queue beyond max-in-flight while the queue has no delay (with a constant one, delay-factor 0: "
     "at most max-in-flight); they wait in fetch, which keeps max-in-flight (--per-host) and the delay (one fetch "
     "process per host only)"},
    {"politeness.max-crawl-delay", "300", K::number, nullptr, true, false,
     "robots.txt Crawl-delay honoured up to this"},
    {"politeness.host-down-delay", "600", K::number, nullptr, true, false,
     "after a DNS or connection failure, the host's queue waits this long (all fetchers)"},
    {"robots.enabled", "true", K::boolean, nullptr, true, false, "robots.txt as a prerequisite"},
    {"robots.user-agent", "\"frontier\"", K::string, nullptr, true, false,
     "the crawler's name: matched against robots.txt groups and sent by fetch as its User-Agent"},
    {"retry.delay", "3600", K::number, nullptr, false, false, "wait before retrying a soft error"},
    {"retry.max", "12", K::integer, nullptr, false, false, "retries before a soft error becomes a failure"},
    {"retry.max-retry-after", "86400", K::number, nullptr, false, false,
     "a 429 or 503's Retry-After is honoured up to this: its URL is retried and its queue paused that long"},
    {"retry.soft",
     "[\"dns\",\"connect\",\"timeout\",\"reset\",\"host-down\",\"408\",\"429\",\"500\",\"502\",\"503\",\"504\","
     "\"522\",\"524\"]",
     K::string_list, nullptr, false, false, "error classes and HTTP codes that are retried"},
    {"scope.max-depth", "-1", K::integer, nullptr, false, true, "deeper URLs are rejected max-depth (-1: none)"},
    {"scope.max-queued", "-1", K::integer, nullptr, false, true, "frontier-wide queued cap (-1: none)"},
    {"scope.include", "[]", K::string_list, nullptr, false, false,
     "regular expressions; when any is given a URL must match one"},
    {"scope.exclude", "[]", K::string_list, nullptr, false, false, "regular expressions; a matching URL is rejected"},
    {"scope.seed-domains", "true", K::boolean, nullptr, false, false,
     "discovered links only within the registered domains of seeds"},
    {"net.allow", "[]", K::string_list, nullptr, false, false,
     "address kinds every URL may connect to besides public ones (loopback, private, special, link-local)"},
    {"net.seed-hosts", "true", K::boolean, nullptr, false, false,
     "a seed's host may connect to loopback, private and special addresses"},
    {"scope.depth-bypass-types", "[]", K::string_list, nullptr, false, false, "types exempt from max-depth"},
    {"scope.strip-params", "[\"utm_*\",\"jsessionid\",\"phpsessid\",\"sid\",\"sessionid\"]", K::string_list,
     nullptr, false, false, "query and path parameters removed by canonicalisation (name or prefix*)"},
    {"scope.sort-query", "false", K::boolean, nullptr, false, false, "sort query parameters when canonicalising"},
    {"priority.mode", "\"priority\"", K::choice, "priority|fifo", false, false,
     "priority order, or discovery order (fifo)"},
    {"priority.type-weights", "{\"article\":0,\"hub-seed\":4,\"history\":6,\"nav\":10,\"refresh\":25,\"default\":12}",
     K::number_map, nullptr, false, false, "type -> weight (\"default\" for other types)"},
    {"priority.discovery-bonus", "{\"adaptive-seed\":20,\"gap-prediction\":15,\"sitemap\":10,\"hub-validated\":8,\"link\":0}",
     K::number_map, nullptr, false, false, "discovery -> bonus subtracted from the priority"},
    {"priority.bonus-weights", "{}", K::number_map, nullptr, false, false,
     "name -> weight for the record's bonuses object"},
    {"priority.base-weight", "1", K::number, nullptr, false, false,
     "multiplier of the base priority (type weight + depth + bias)"},
    {"priority.unknown-depth", "0", K::number, nullptr, false, false,
     "depth term of the base priority for a record without depth (the depth bucket unknown)"},
    {"priority.cluster-boost-factor", "2.5", K::number, nullptr, false, false,
     "cluster boost = min(log2(cluster_count) x factor, 20)"},
    {"priority.cost-aware", "false", K::boolean, nullptr, false, false,
     "estimated_cost_ms < 100 lowers the priority 10%, > 500 raises it 10%"},
    {"priority.focus", "[]", K::focus, nullptr, false, false,
     "[{\"tokens\":[...],\"floor\":P}]: first matching rule sets the priority"},
    {"priority.focus-other", "null", K::number, nullptr, false, true,
     "priority floor for URLs matching no focus rule (null: unchanged)"},
    {"budget.hold-queues", "true", K::boolean, nullptr, false, false, "new queues start inactive"},
    {"budget.replenish", "3000", K::integer, nullptr, true, true, "session balance given on activation"},
    {"budget.total", "-1", K::integer, nullptr, true, true, "total budget per queue (-1: none)"},
    {"budget.cost-policy", "\"unit\"", K::choice, "zero|unit|wag|anticalendar|rules", false, false,
     "cost of each URL"},
    {"budget.cost-rules", "{}", K::number_map, nullptr, false, false,
     "regex -> cost added to 1 (cost policy rules)"},
    {"budget.error-penalty", "0", K::integer, nullptr, false, false, "charged to a queue per failed fetch"},
    {"recrawl.types", "[]", K::string_list, nullptr, false, false, "types that are revisited"},
    {"recrawl.interval", "86400", K::number, nullptr, false, false, "first revisit interval"},
    {"recrawl.adjust-factor", "2", K::number, nullptr, false, false, "interval divided (eventful) or multiplied"},
    {"recrawl.min-interval", "86400", K::number, nullptr, false, false, "shortest revisit interval"},
    {"recrawl.max-interval", "5529600", K::number, nullptr, false, false, "longest revisit interval (64 days)"},
    {"recrawl.fail-delay", "86400", K::number, nullptr, false, false, "wait after a failed revisit"},
    {"recrawl.max-failures", "3", K::integer, nullptr, false, false, "failures in a row before disabled"},
    {"recrawl.policy", "\"multiplicative\"", K::choice, "multiplicative|estimate|stored-interval", false, false,
     "interval rule: the seed's multiplicative one, change-rate estimate, or the stored interval adjusted"},
};

}  // namespace

const std::vector<SettingDef>& setting_defs() { return kDefs; }

const SettingDef* find_setting(std::string_view key) {
    for (auto& d : kDefs)
        if (key == d.key) return &d;
    return nullptr;
}

}  // namespace frontier
