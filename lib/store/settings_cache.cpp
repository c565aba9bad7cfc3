// SettingsCache: the budget overrides as loaded, and the one in force for
// a queue (the rule: lib/policy/budget_limits.hpp).
#include "store/settings_cache.hpp"

namespace frontier {

void SettingsCache::load_budgets(const std::vector<StoredBudget>& rows,
                                 const std::map<std::string, std::map<std::string, std::string>>& domains) {
    std::vector<BudgetOverride> overrides;
    overrides.reserve(rows.size());
    for (const StoredBudget& r : rows) overrides.push_back({r.scope, r.name, r.replenish, r.total});
    budgets_ = BudgetOverrides(overrides, domains);
}

BudgetLimits SettingsCache::budget_for(const std::string& queue_key) const {
    return budgets_.limits_for(queue_key, {loaded->replenish, loaded->total_budget});
}

}  // namespace frontier
