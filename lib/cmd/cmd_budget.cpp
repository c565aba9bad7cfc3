// frontier-budget: the budget settings and overrides (frontier(7), BUDGETS). See
// budget_cmd.hpp for the contract and man/frontier-budget.1 for the tool.
#include <cctype>
#include <map>
#include <tuple>
#include <utility>

#include "cmd/budget_cmd.hpp"
#include "core/error.hpp"
#include "json/json.hpp"
#include "core/output.hpp"
#include "policy/settings.hpp"
#include "core/signals.hpp"
#include "store/store.hpp"

namespace frontier {

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

int64_t to_int(const std::string& json) { return std::stoll(json); }

// The budget.* settings the tool shows, in display order.
bool is_budget_key(std::string_view key) { return key.starts_with("budget."); }

// Prints {"budget.hold-queues":...,...,"overrides":[{"domain":D,...},{"queue":K,...}]}.
// Overrides come from frontier-budget (domain and queue scope) and from
// frontier-config --domain D budget.replenish|budget.total (merged per
// domain, the frontier-config value winning as it does in the Store).
void print_budgets(Store& store, const std::string& only_scope, const std::string& only_name) {
    auto stored = store.setting_values();
    JsonWriter w;
    w.begin();
    for (auto& d : setting_defs()) {
        if (!is_budget_key(d.key)) continue;
        auto it = stored.find(d.key);
        w.field_raw(d.key, it != stored.end() ? it->second : d.default_json);
    }
    struct Limits {
        std::optional<int64_t> replenish, total;
    };
    std::map<std::pair<std::string, std::string>, Limits> ov;  // (scope, name); "domain" sorts first
    for (auto& o : store.budget_overrides()) ov[{o.scope, o.name}] = {o.replenish, o.total};
    for (auto& [dom, kv] : store.domain_setting_values()) {
        for (auto& [k, v] : kv) {
            if (k == "budget.replenish") ov[{"domain", dom}].replenish = to_int(v);
            if (k == "budget.total") ov[{"domain", dom}].total = to_int(v);
        }
    }
    w.key("overrides");
    w.begin_array();
    for (auto& [sn, l] : ov) {
        if (!only_scope.empty() && (sn.first != only_scope || sn.second != only_name)) continue;
        w.begin_object();
        w.field(sn.first, sn.second);
        if (l.replenish) w.field("replenish", *l.replenish);
        if (l.total) w.field("total_budget", *l.total);
        w.end_object();
    }
    w.end_array();
    w.end();
    out().write_line(w.str());
}

// The text normalise_setting() should see for a JSON value: the decoded
// string for strings ("on", "wag"), else the JSON text.
std::string setting_text(const JsonValue& v) { return v.kind == JsonValue::Kind::string ? v.s : v.raw; }

// Applies one valid edit (each Store call is its own transaction). Returns
// the rejection reason, or "" when applied; `unretired` counts queues moved.
std::string apply_edit(Store& store, const BudgetEdit& e, int64_t& unretired, bool create) {
    // An override for a queue or domain the frontier does not know is most
    // likely a typo: refused unless --create (frontier-budget(1)).
    if (!create && (e.replenish || e.total_budget)) {
        if (!e.queue.empty() && !store.queue_exists(e.queue)) return "unknown-queue";
        if (!e.domain.empty() && !store.domain_has_queues(e.domain)) return "unknown-domain";
    }
    // Retire first: an unknown queue rejects the whole line before anything changed.
    if (e.retire && !store.retire_queue(e.queue)) return "unknown-queue";
    // Unretire before the override: an override moves budget-retired queues
    // to the inactive FIFO itself, and the count should say what --unretire did.
    if (e.unretire) unretired = store.unretire(e.queue);
    if (e.hold_queues) store.set_setting("budget.hold-queues", *e.hold_queues);
    if (e.cost_policy) store.set_setting("budget.cost-policy", *e.cost_policy);
    if (e.error_penalty) store.set_setting("budget.error-penalty", *e.error_penalty);
    bool scoped = !e.queue.empty() || !e.domain.empty();
    if (scoped && (e.replenish || e.total_budget)) {
        Store::BudgetOverride o;
        o.scope = e.queue.empty() ? "domain" : "queue";
        o.name = e.queue.empty() ? e.domain : e.queue;
        o.replenish = e.replenish;
        o.total = e.total_budget;
        store.set_budget_override(o);
    } else if (!scoped) {
        if (e.replenish) store.set_setting("budget.replenish", std::to_string(*e.replenish));
        if (e.total_budget) store.set_setting("budget.total", std::to_string(*e.total_budget));
    }
    return "";
}

int run_apply(const BudgetOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::create);
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs);
    InputLine line;
    JsonWriter w;
    int64_t rejected = 0;
    while (!stop_requested() && reader.next(line)) {
        BudgetEdit e;
        if (!line.error.empty()) e.reason = line.error;
        else e = parse_budget_edit(line.record);
        int64_t unretired = -1;
        if (e.reason.empty() && !e.empty()) e.reason = apply_edit(store, e, unretired, o.create);
        const char* status = !e.reason.empty() ? "rejected" : e.empty() ? "skipped" : "applied";
        if (!e.reason.empty()) ++rejected;
        else if (o.common.quiet) continue;
        w.begin();
        w.field("line", static_cast<int64_t>(line.line_no));
        w.field("status", status);
        if (!e.queue.empty()) w.field("queue", e.queue);
        if (!e.domain.empty()) w.field("domain", e.domain);
        if (!e.reason.empty()) {
            w.field("reason", e.reason);
            if (!e.field.empty()) w.field("field", e.field);
        } else if (e.empty()) {
            w.field("reason", "no-edit");
        } else {
            if (e.replenish) w.field("replenish", *e.replenish);
            if (e.total_budget) w.field("total_budget", *e.total_budget);
            if (e.hold_queues) w.field_raw("hold_queues", *e.hold_queues);
            if (e.cost_policy) w.field_raw("cost_policy", *e.cost_policy);
            if (e.error_penalty) w.field_raw("error_penalty", *e.error_penalty);
            if (e.retire) w.field("retire", true);
            if (e.unretire) w.field("unretired", unretired);
        }
        w.end();
        out().write_line(w.str());
        if (reader.idle()) out().flush();
    }
    out().flush();
    return rejected > 0 ? 1 : 0;
}

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

int run_budget(const BudgetOptions& o) {
    // Validate everything before touching the file.
    if ((o.domain_given || !o.domain.empty()) && (o.queue_given || !o.queue.empty()))
        throw UsageError("give --domain or --queue, not both");
    for (auto [opt, given, name] : {std::tuple{"--domain", o.domain_given, &o.domain},
                                    std::tuple{"--queue", o.queue_given, &o.queue}})
        if (given || !name->empty())
            if (std::string p = budget_scope_problem(lower(*name)); !p.empty())
                throw UsageError(std::string(opt) + " '" + *name + "' " + p);
    bool scoped = !o.domain.empty() || !o.queue.empty();
    if (scoped && (o.hold_queues || o.cost_policy || o.error_penalty))
        throw UsageError("--hold-queues, --cost-policy and --error-penalty are global: drop --domain/--queue");
    if (o.all && !o.unretire) throw UsageError("--all goes with --unretire");
    if (o.unretire && o.all == !o.unretire_keys.empty())
        throw UsageError("--unretire needs a queue KEY or --all (not both)");
    bool flag_edits = o.replenish || o.total_budget || o.hold_queues || o.cost_policy || o.error_penalty ||
                      !o.retire.empty() || o.unretire;
    if (o.apply && (flag_edits || scoped)) throw UsageError("--apply reads its edits from input: give no other edit");
    if (!o.apply && !o.inputs.empty()) throw UsageError("input files are read only with --apply");
    std::optional<std::string> replenish, total, hold, policy, penalty;
    if (o.replenish) replenish = normalise_setting("budget.replenish", *o.replenish);
    if (o.total_budget) total = normalise_setting("budget.total", *o.total_budget);
    if (o.hold_queues) hold = normalise_setting("budget.hold-queues", *o.hold_queues);
    if (o.cost_policy) policy = normalise_setting("budget.cost-policy", *o.cost_policy);
    if (o.error_penalty) penalty = normalise_setting("budget.error-penalty", *o.error_penalty);

    if (o.apply) return run_apply(o);
    std::string scope = o.queue.empty() ? "domain" : "queue";
    std::string name = lower(o.queue.empty() ? o.domain : o.queue);
    if (!flag_edits) {
        Store store(frontier_path(o.common), Store::Mode::read);
        print_budgets(store, scoped ? scope : "", name);
        return 0;
    }

    Store store(frontier_path(o.common), Store::Mode::create);
    int rc = 0;
    if (hold) store.set_setting("budget.hold-queues", *hold);
    if (policy) store.set_setting("budget.cost-policy", *policy);
    if (penalty) store.set_setting("budget.error-penalty", *penalty);
    if (scoped && (replenish || total)) {
        // A queue or domain the frontier does not know is most likely a
        // typo: refused unless --create, before anything is written.
        bool known = scope == "queue" ? store.queue_exists(name) : store.domain_has_queues(name);
        if (!known && !o.create) {
            diag("no " + scope + " " + name + " in " + frontier_path(o.common) +
                 (scope == "queue" ? " (frontier-report --queues lists them)" : " (no queue of it or its subdomains)") +
                 "; --create sets the override ahead of its URLs");
            return 1;
        }
        Store::BudgetOverride ov;
        ov.scope = scope;
        ov.name = name;
        if (replenish) ov.replenish = to_int(*replenish);
        if (total) ov.total = to_int(*total);
        store.set_budget_override(ov);
    } else {
        if (replenish) store.set_setting("budget.replenish", *replenish);
        if (total) store.set_setting("budget.total", *total);
    }
    for (auto& key : o.retire) {
        if (store.retire_queue(lower(key))) continue;
        diag("no queue " + key);
        rc = 1;
    }
    if (o.unretire && o.all) {
        int64_t n = store.unretire("");
        if (o.common.verbose) diag(std::to_string(n) + " queues moved to the inactive FIFO");
    }
    for (auto& key : o.unretire_keys) {
        if (store.unretire(lower(key)) > 0) continue;
        diag("no retired queue " + key);
        rc = 1;
    }
    return rc;
}

}  // namespace frontier
