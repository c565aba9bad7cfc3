#include "policy/settings.hpp"

#include <re2/re2.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "json/json.hpp"
#include "net/address_guard.hpp"
#include "web/robots.hpp"

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
    {"politeness.max-crawl-delay", "300", K::number, nullptr, true, false,
     "robots.txt Crawl-delay honoured up to this"},
    {"politeness.host-down-delay", "600", K::number, nullptr, true, false,
     "after a DNS or connection failure, the host's queue waits this long (all fetchers)"},
    {"robots.enabled", "true", K::boolean, nullptr, true, false, "robots.txt as a prerequisite"},
    {"robots.user-agent", "\"frontier\"", K::string, nullptr, true, false,
     "the crawler's name: matched against robots.txt groups and sent by fetch as its User-Agent"},
    {"retry.delay", "3600", K::number, nullptr, false, false, "wait before retrying a soft error"},
    {"retry.max", "12", K::integer, nullptr, false, false, "retries before a soft error becomes a failure"},
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

std::string expected_of(const SettingDef& d) {
    if (std::string_view(d.key) == "lease.ttl") return "a number of seconds above 0 and at most 604800 (7 days)";
    if (std::string_view(d.key) == "net.allow")
        return "a JSON array of address kinds: loopback, private, special, link-local, public, all";
    if (std::string_view(d.key) == "budget.replenish") return "an integer >= 0 (0 retires a queue)";
    if (std::string_view(d.key) == "robots.user-agent")
        return "a crawler name: 1 to 64 letters, '-' or '_' (the User-Agent's product token)";
    switch (d.kind) {
        case K::number: return d.allow_negative ? "a number" : "a number >= 0";
        case K::integer: return d.allow_negative ? "an integer >= 0, or -1 for none" : "an integer >= 0";
        case K::boolean: return "true or false";
        case K::choice: return std::string("one of ") + d.choices;
        case K::string: return "a string";
        case K::string_list: return "a JSON array of strings";
        case K::number_map: return "a JSON object of numbers";
        case K::focus: return "a JSON array of {\"tokens\":[...],\"floor\":N}";
    }
    return "a value";
}

[[noreturn]] void bad_value(const SettingDef& d, std::string_view value) {
    throw UsageError("bad value for " + std::string(d.key) + ": '" + std::string(value) + "' (expected " +
                     expected_of(d) + ")");
}

simdjson::dom::element parse_json(simdjson::dom::parser& p, const std::string& text, bool& ok) {
    auto r = p.parse(text);
    ok = !r.error();
    return ok ? r.value() : simdjson::dom::element();
}

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

const std::vector<SettingDef>& setting_defs() { return kDefs; }

const SettingDef* find_setting(std::string_view key) {
    for (auto& d : kDefs)
        if (key == d.key) return &d;
    return nullptr;
}

std::string normalise_setting(std::string_view key, std::string_view value) {
    const SettingDef* d = find_setting(key);
    if (!d) throw UsageError("unknown setting: " + std::string(key) + " (frontier-config lists them)");
    std::string text(value);
    simdjson::dom::parser p;
    bool ok = false;
    auto e = parse_json(p, text, ok);
    if (!ok) {
        // A bare word is a string; on/off/yes/no are booleans.
        if (d->kind == K::boolean) {
            if (value == "on" || value == "yes") return "true";
            if (value == "off" || value == "no") return "false";
        }
        if (d->kind == K::choice || d->kind == K::string) {
            std::string s;
            append_json_string(s, value);
            text = s;
            e = parse_json(p, text, ok);
        }
        if (!ok) bad_value(*d, value);
    }
    std::string out;
    switch (d->kind) {
        case K::number: {
            if (e.is_null() && d->allow_negative) return "null";
            double v;
            if (e.get_double().get(v) || !std::isfinite(v) || (v < 0 && !d->allow_negative)) bad_value(*d, value);
            if (std::string_view(d->key) == "lease.ttl" && !(v > 0 && v <= kMaxLeaseTtl)) bad_value(*d, value);
            append_json_number(out, v);
            return out;
        }
        case K::integer: {
            int64_t v;
            // -1 means none where negatives are allowed; budget.replenish is
            // 0 or more (0 retires a queue when its turn comes, frontier(7)).
            bool replenish = std::string_view(d->key) == "budget.replenish";
            if (e.get_int64().get(v) || (v < 0 && !(d->allow_negative && v == -1 && !replenish)))
                bad_value(*d, value);
            append_json_int(out, v);
            return out;
        }
        case K::boolean: {
            bool b;
            if (e.get_bool().get(b)) bad_value(*d, value);
            return b ? "true" : "false";
        }
        case K::choice:
        case K::string: {
            std::string_view s;
            if (e.get_string().get(s)) bad_value(*d, value);
            if (d->kind == K::choice) {
                std::string_view choices = d->choices;
                bool found = false;
                size_t pos = 0;
                while (pos <= choices.size()) {
                    size_t bar = choices.find('|', pos);
                    if (bar == std::string_view::npos) bar = choices.size();
                    if (choices.substr(pos, bar - pos) == s) found = true;
                    pos = bar + 1;
                }
                if (!found) bad_value(*d, value);
            } else if (s.empty()) {
                bad_value(*d, value);
            } else if (std::string_view(d->key) == "robots.user-agent" &&
                       (s.size() > 64 || product_token(s) != s)) {
                bad_value(*d, value);  // fetch sends it as the User-Agent's product token
            }
            append_json_string(out, s);
            return out;
        }
        case K::string_list: {
            simdjson::dom::array a;
            if (e.get_array().get(a)) bad_value(*d, value);
            out = "[";
            for (auto x : a) {
                std::string_view s;
                if (x.get_string().get(s)) bad_value(*d, value);
                if (std::string_view(d->key).starts_with("scope.include") ||
                    std::string_view(d->key).starts_with("scope.exclude"))
                    (void)UrlRegex(d->key, s);  // throws UsageError naming the key and RE2's error
                if (std::string_view(d->key) == "net.allow" && !parse_address_kinds(s)) bad_value(*d, value);
                if (out.size() > 1) out += ',';
                append_json_string(out, s);
            }
            return out + "]";
        }
        case K::number_map: {
            simdjson::dom::object o;
            if (e.get_object().get(o)) bad_value(*d, value);
            out = "{";
            for (auto f : o) {
                double v;
                if (f.value.get_double().get(v) || !std::isfinite(v)) bad_value(*d, value);
                if (std::string_view(d->key) == "budget.cost-rules") (void)UrlRegex(d->key, f.key);
                if (out.size() > 1) out += ',';
                append_json_string(out, f.key);
                out += ':';
                append_json_number(out, v);
            }
            return out + "}";
        }
        case K::focus: {
            simdjson::dom::array a;
            if (e.get_array().get(a)) bad_value(*d, value);
            out = "[";
            for (auto rule : a) {
                simdjson::dom::array toks;
                double floor;
                if (rule["tokens"].get_array().get(toks) || rule["floor"].get_double().get(floor)) bad_value(*d, value);
                if (out.size() > 1) out += ',';
                out += "{\"tokens\":[";
                bool first = true;
                for (auto t : toks) {
                    std::string_view s;
                    if (t.get_string().get(s)) bad_value(*d, value);
                    if (!first) out += ',';
                    first = false;
                    append_json_string(out, s);
                }
                out += "],\"floor\":";
                append_json_number(out, floor);
                out += '}';
            }
            return out + "]";
        }
    }
    bad_value(*d, value);
}

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
    else if (key == "politeness.max-crawl-delay") p.max_crawl_delay = double(e.get_double());
    else if (key == "politeness.host-down-delay") p.host_down_delay = double(e.get_double());
    else if (key == "robots.enabled") p.robots_enabled = bool(e.get_bool());
    else if (key == "robots.user-agent") p.robots_user_agent = std::string(std::string_view(e.get_string()));
}

}  // namespace

Settings build_settings(const std::map<std::string, std::string>& values,
                        const std::map<std::string, std::map<std::string, std::string>>& domain_values) {
    std::map<std::string, std::string> v;
    for (auto& d : kDefs) v[d.key] = d.default_json;
    for (auto& [k, val] : values)
        if (v.count(k)) v[k] = val;
    Settings s;
    simdjson::dom::parser p;
    auto num = [&](const char* k) { return double(p.parse(v[k]).get_double()); };
    auto integer = [&](const char* k) { return int64_t(p.parse(v[k]).get_int64()); };
    auto boolean = [&](const char* k) { return bool(p.parse(v[k]).get_bool()); };
    auto str = [&](const char* k) { return std::string(std::string_view(p.parse(v[k]).get_string())); };
    try {
        s.queue_key = str("queue.key") == "domain" ? QueueKeyMode::domain : QueueKeyMode::host;
        s.lease_ttl = num("lease.ttl");
        s.class_burst = integer("lease.class-burst");
        for (auto& d : kDefs)
            if (std::string_view(d.key).starts_with("politeness.") || std::string_view(d.key).starts_with("robots."))
                apply_politeness(s.politeness, d.key, v[d.key]);
        for (auto& [domain, kv] : domain_values) {
            Politeness pd = s.politeness;
            for (auto& [k, val] : kv) apply_politeness(pd, k, val);
            s.domain_politeness[domain] = pd;
        }
        s.retry_delay = num("retry.delay");
        s.retry_max = integer("retry.max");
        s.retry_soft = string_list(v["retry.soft"]);
        s.max_depth = integer("scope.max-depth");
        s.max_queued = integer("scope.max-queued");
        s.include = regex_list("scope.include", v["scope.include"]);
        s.exclude = regex_list("scope.exclude", v["scope.exclude"]);
        s.seed_domains = boolean("scope.seed-domains");
        s.depth_bypass_types = string_list(v["scope.depth-bypass-types"]);
        for (auto& kind : string_list(v["net.allow"])) s.net_allow |= parse_address_kinds(kind).value_or(0);
        s.net_seed_hosts = boolean("net.seed-hosts");
        s.canon.strip_params = string_list(v["scope.strip-params"]);
        s.canon.sort_query = boolean("scope.sort-query");
        s.fifo = str("priority.mode") == "fifo";
        s.type_weights = number_map(v["priority.type-weights"]);
        s.discovery_bonus = number_map(v["priority.discovery-bonus"]);
        s.bonus_weights = number_map(v["priority.bonus-weights"]);
        s.base_weight = num("priority.base-weight");
        s.unknown_depth = num("priority.unknown-depth");
        s.cluster_boost_factor = num("priority.cluster-boost-factor");
        s.cost_aware = boolean("priority.cost-aware");
        for (auto rule : p.parse(v["priority.focus"]).get_array()) {
            FocusRule fr;
            for (auto t : rule["tokens"].get_array()) {
                std::string tok(std::string_view(t.get_string()));
                std::transform(tok.begin(), tok.end(), tok.begin(), [](unsigned char c) { return std::tolower(c); });
                fr.tokens.push_back(tok);
            }
            fr.floor = double(rule["floor"].get_double());
            s.focus.push_back(std::move(fr));
        }
        if (v["priority.focus-other"] != "null") s.focus_other = num("priority.focus-other");
        s.hold_queues = boolean("budget.hold-queues");
        s.replenish = integer("budget.replenish");
        s.total_budget = integer("budget.total");
        s.cost_policy = str("budget.cost-policy");
        for (auto& [re, cost] : number_map(v["budget.cost-rules"]))
            s.cost_rules.push_back({UrlRegex("budget.cost-rules", re), static_cast<int64_t>(cost)});
        s.error_penalty = integer("budget.error-penalty");
        s.recrawl_types = string_list(v["recrawl.types"]);
        s.recrawl_interval = num("recrawl.interval");
        s.recrawl_adjust = num("recrawl.adjust-factor");
        s.recrawl_min = num("recrawl.min-interval");
        s.recrawl_max = num("recrawl.max-interval");
        s.recrawl_fail_delay = num("recrawl.fail-delay");
        s.recrawl_max_failures = integer("recrawl.max-failures");
        s.recrawl_policy = str("recrawl.policy");
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
