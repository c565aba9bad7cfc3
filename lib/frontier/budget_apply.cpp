// frontier-budget's work over a frontier (lib/frontier/budget_apply.hpp).
#include "frontier/budget_apply.hpp"

#include <vector>

#include "json/json.hpp"
#include "policy/budget_limits.hpp"
#include "policy/settings.hpp"

namespace frontier {

std::string budget_listing(Store& store, const std::string& only_scope, const std::string& only_name) {
    auto stored = store.setting_values();
    JsonWriter w;
    w.begin();
    for (auto& d : setting_defs()) {
        if (!std::string_view(d.key).starts_with("budget.")) continue;
        auto it = stored.find(d.key);
        w.field_raw(d.key, it != stored.end() ? it->second : d.default_json);
    }
    std::vector<BudgetOverride> rows;
    for (auto& o : store.budget_overrides()) rows.push_back({o.scope, o.name, o.replenish, o.total});
    w.key("overrides");
    w.begin_array();
    for (const BudgetOverride& o : BudgetOverrides(rows, store.domain_setting_values()).list()) {
        if (!only_scope.empty() && (o.scope != only_scope || o.name != only_name)) continue;
        w.begin_object();
        w.field(o.scope, o.name);
        if (o.replenish) w.field("replenish", *o.replenish);
        if (o.total) w.field("total_budget", *o.total);
        w.end_object();
    }
    w.end_array();
    w.end();
    return w.str();
}

std::string apply_budget_edit(Store& store, const BudgetEdit& e, int64_t& unretired, bool create) {
    // An override for a queue or domain the frontier does not know is most
    // likely a typo: refused unless --create (frontier-budget(1)).
    if (!create && (e.replenish || e.total_budget)) {
        if (!e.queue.empty() && !store.queue_exists(e.queue)) return "unknown-queue";
        if (!e.domain.empty() && !store.domain_has_queues(e.domain)) return "unknown-domain";
    }
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

std::string budget_result_line(int64_t line_no, const BudgetEdit& e, int64_t unretired) {
    JsonWriter w;
    w.begin();
    w.field("line", line_no);
    w.field("status", !e.reason.empty() ? "rejected" : e.empty() ? "skipped" : "applied");
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
    return w.str();
}

}  // namespace frontier
