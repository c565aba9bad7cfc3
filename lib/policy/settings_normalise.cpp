// normalise_setting (lib/policy/settings.hpp): a value given for a setting,
// checked against its kind and rules and written as canonical JSON.
#include "policy/settings.hpp"

#include <simdjson.h>

#include <cmath>

#include "core/error.hpp"
#include "json/json.hpp"
#include "net/address_guard.hpp"
#include "web/robots.hpp"

namespace frontier {

namespace {

using K = SettingKind;

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

// One function per kind: the value `e` (parsed from `value`) of setting
// `d`, checked and written as canonical JSON, or bad_value.

std::string normalise_number(const SettingDef& d, std::string_view value, simdjson::dom::element e) {
    if (e.is_null() && d.allow_negative) return "null";
    double v;
    if (e.get_double().get(v) || !std::isfinite(v) || (v < 0 && !d.allow_negative)) bad_value(d, value);
    if (std::string_view(d.key) == "lease.ttl" && !(v > 0 && v <= kMaxLeaseTtl)) bad_value(d, value);
    std::string out;
    append_json_number(out, v);
    return out;
}

std::string normalise_integer(const SettingDef& d, std::string_view value, simdjson::dom::element e) {
    int64_t v;
    // -1 means none where negatives are allowed; budget.replenish is
    // 0 or more (0 retires a queue when its turn comes, frontier(7)).
    bool replenish = std::string_view(d.key) == "budget.replenish";
    if (e.get_int64().get(v) || (v < 0 && !(d.allow_negative && v == -1 && !replenish))) bad_value(d, value);
    std::string out;
    append_json_int(out, v);
    return out;
}

std::string normalise_boolean(const SettingDef& d, std::string_view value, simdjson::dom::element e) {
    bool b;
    if (e.get_bool().get(b)) bad_value(d, value);
    return b ? "true" : "false";
}

// Whether `s` is one of the '|'-separated `choices`.
bool is_choice(std::string_view choices, std::string_view s) {
    bool found = false;
    size_t pos = 0;
    while (pos <= choices.size()) {
        size_t bar = choices.find('|', pos);
        if (bar == std::string_view::npos) bar = choices.size();
        if (choices.substr(pos, bar - pos) == s) found = true;
        pos = bar + 1;
    }
    return found;
}

// K::choice and K::string.
std::string normalise_string(const SettingDef& d, std::string_view value, simdjson::dom::element e) {
    std::string_view s;
    if (e.get_string().get(s)) bad_value(d, value);
    if (d.kind == K::choice) {
        if (!is_choice(d.choices, s)) bad_value(d, value);
    } else if (s.empty()) {
        bad_value(d, value);
    } else if (std::string_view(d.key) == "robots.user-agent" && (s.size() > 64 || product_token(s) != s)) {
        bad_value(d, value);  // fetch sends it as the User-Agent's product token
    }
    std::string out;
    append_json_string(out, s);
    return out;
}

std::string normalise_string_list(const SettingDef& d, std::string_view value, simdjson::dom::element e) {
    simdjson::dom::array a;
    if (e.get_array().get(a)) bad_value(d, value);
    std::string out = "[";
    for (auto x : a) {
        std::string_view s;
        if (x.get_string().get(s)) bad_value(d, value);
        if (std::string_view(d.key).starts_with("scope.include") || std::string_view(d.key).starts_with("scope.exclude"))
            (void)UrlRegex(d.key, s);  // throws UsageError naming the key and RE2's error
        if (std::string_view(d.key) == "net.allow" && !parse_address_kinds(s)) bad_value(d, value);
        if (out.size() > 1) out += ',';
        append_json_string(out, s);
    }
    return out + "]";
}

std::string normalise_number_map(const SettingDef& d, std::string_view value, simdjson::dom::element e) {
    simdjson::dom::object o;
    if (e.get_object().get(o)) bad_value(d, value);
    std::string out = "{";
    for (auto f : o) {
        double v;
        if (f.value.get_double().get(v) || !std::isfinite(v)) bad_value(d, value);
        if (std::string_view(d.key) == "budget.cost-rules") (void)UrlRegex(d.key, f.key);
        if (out.size() > 1) out += ',';
        append_json_string(out, f.key);
        out += ':';
        append_json_number(out, v);
    }
    return out + "}";
}

// [{"tokens":[...],"floor":N}, ...]
std::string normalise_focus(const SettingDef& d, std::string_view value, simdjson::dom::element e) {
    simdjson::dom::array a;
    if (e.get_array().get(a)) bad_value(d, value);
    std::string out = "[";
    for (auto rule : a) {
        simdjson::dom::array toks;
        double floor;
        if (rule["tokens"].get_array().get(toks) || rule["floor"].get_double().get(floor)) bad_value(d, value);
        if (out.size() > 1) out += ',';
        out += "{\"tokens\":[";
        bool first = true;
        for (auto t : toks) {
            std::string_view s;
            if (t.get_string().get(s)) bad_value(d, value);
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

}  // namespace

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
    switch (d->kind) {
        case K::number: return normalise_number(*d, value, e);
        case K::integer: return normalise_integer(*d, value, e);
        case K::boolean: return normalise_boolean(*d, value, e);
        case K::choice:
        case K::string: return normalise_string(*d, value, e);
        case K::string_list: return normalise_string_list(*d, value, e);
        case K::number_map: return normalise_number_map(*d, value, e);
        case K::focus: return normalise_focus(*d, value, e);
    }
    bad_value(*d, value);
}

}  // namespace frontier
