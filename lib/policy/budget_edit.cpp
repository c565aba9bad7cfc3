// frontier-budget's edit records (lib/policy/budget_edit.hpp).
#include "policy/budget_edit.hpp"

#include <cctype>

#include "core/error.hpp"
#include "policy/settings.hpp"

namespace frontier {

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The text normalise_setting() should see for a JSON value: the decoded
// string for strings ("on", "wag"), else the JSON text.
std::string setting_text(const JsonValue& v) { return v.kind == JsonValue::Kind::string ? v.s : v.raw; }

}  // namespace

std::string budget_scope_problem(std::string_view name) {
    if (name.empty()) return "is empty";
    if (name.size() > 260) return "is longer than 260 bytes";
    for (unsigned char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_' ||
                  c == ':' || c == '[' || c == ']';
        if (!ok)
            return "is not a host name (letters, digits, '.', '-', '_', and ':' '[' ']' for a port or an IPv6 "
                   "address; an IDN in its xn-- form)";
    }
    return "";
}


BudgetEdit parse_budget_edit(const Record& r) {
    BudgetEdit e;
    auto reject = [&e](const char* reason, std::string_view field) {
        e.reason = reason;
        e.field = std::string(field);
        return e;
    };
    const char* key = "";
    try {
        key = "queue";
        if (auto v = r.get_string(key)) e.queue = lower(*v);
        key = "domain";
        if (auto v = r.get_string(key)) e.domain = lower(*v);
        key = "replenish";
        e.replenish = r.get_int(key);
        key = "total_budget";
        e.total_budget = r.get_int(key);
        key = "retire";
        e.retire = r.get_bool(key).value_or(false);
        key = "unretire";
        e.unretire = r.get_bool(key).value_or(false);
    } catch (const FieldTypeError&) {
        return reject("bad-field", key);
    }
    // Global settings: validated like frontier-config values.
    struct Global {
        const char* field;
        const char* setting;
        std::optional<std::string>* slot;
    };
    for (const Global& g : {Global{"hold_queues", "budget.hold-queues", &e.hold_queues},
                            Global{"cost_policy", "budget.cost-policy", &e.cost_policy},
                            Global{"error_penalty", "budget.error-penalty", &e.error_penalty}}) {
        const JsonValue* v = r.find(g.field);
        if (!v || v->kind == JsonValue::Kind::null) continue;
        try {
            *g.slot = normalise_setting(g.setting, setting_text(*v));
        } catch (const UsageError&) {
            return reject("bad-value", g.field);
        }
    }
    for (const char* k : {"queue", "domain"}) {
        const JsonValue* v = r.find(k);
        if (v && v->kind == JsonValue::Kind::string && !budget_scope_problem(lower(v->s)).empty())
            return reject("bad-value", k);
    }
    for (auto [value, setting, field] : {std::tuple{e.total_budget, "budget.total", "total_budget"},
                                         std::tuple{e.replenish, "budget.replenish", "replenish"}}) {
        if (!value) continue;
        try {
            (void)normalise_setting(setting, std::to_string(*value));
        } catch (const UsageError&) {
            return reject("bad-value", field);
        }
    }
    // A line with neither an edit nor a scope is not an edit at all: a bare
    // word, a number or an array (read as a lease-less "url"), {}, or an
    // object whose keys are all misspelt. (A report row names its queue:
    // with nothing to change it is skipped, not rejected.)
    if (e.empty() && e.queue.empty() && e.domain.empty()) return reject("not-an-edit", "");
    if (!e.queue.empty() && !e.domain.empty()) return reject("two-scopes", "domain");
    if ((e.retire || e.unretire) && e.queue.empty()) return reject("needs-queue", e.retire ? "retire" : "unretire");
    if (e.retire && e.unretire) return reject("conflict", "unretire");
    bool scoped = !e.queue.empty() || !e.domain.empty();
    if (scoped && (e.hold_queues || e.cost_policy || e.error_penalty))
        return reject("global-only", e.hold_queues ? "hold_queues" : e.cost_policy ? "cost_policy" : "error_penalty");
    return e;
}

}  // namespace frontier
