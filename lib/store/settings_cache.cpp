// SettingsCache: the budget overrides as loaded, and the rule that picks
// the one in force for a queue (frontier(7), BUDGETS).
#include "store/settings_cache.hpp"

#include <limits>
#include <string_view>

namespace frontier {

namespace {
// Marks a budget field an override does not set (see load_budgets).
constexpr int64_t kUnsetBudget = std::numeric_limits<int64_t>::min();
}  // namespace

void SettingsCache::load_budgets(const std::vector<StoredBudget>& rows,
                                 const std::map<std::string, std::map<std::string, std::string>>& domains) {
    budget_domain_.clear();
    budget_queue_.clear();
    // Fields an override leaves unset hold kUnsetBudget; budget_for() fills
    // them from the next less specific override, then the global settings.
    for (const StoredBudget& r : rows) {
        auto& map = r.scope == "queue" ? budget_queue_ : budget_domain_;
        map[r.name] = BudgetLimits{r.replenish.value_or(kUnsetBudget), r.total.value_or(kUnsetBudget)};
    }
    // Domain-scoped settings of budget.* (frontier-config --domain) count as overrides too.
    for (const auto& [domain, kv] : domains)
        for (const auto& [key, value] : kv) {
            if (key != "budget.replenish" && key != "budget.total") continue;
            auto it = budget_domain_.try_emplace(domain, BudgetLimits{kUnsetBudget, kUnsetBudget}).first;
            (key == "budget.replenish" ? it->second.replenish : it->second.total) = std::stoll(value);
        }
}

// The most specific value wins, field by field: the queue's own override,
// then the override of its host, then of each parent domain, then the global
// setting. (A queue override of `total` alone keeps a domain's `replenish`.)
BudgetLimits SettingsCache::budget_for(const std::string& queue_key) const {
    const Settings& s = *loaded;
    BudgetLimits r{kUnsetBudget, kUnsetBudget};
    auto fill = [&r](const BudgetLimits& o) {
        if (r.replenish == kUnsetBudget) r.replenish = o.replenish;
        if (r.total == kUnsetBudget) r.total = o.total;
    };
    if (auto it = budget_queue_.find(queue_key); it != budget_queue_.end()) fill(it->second);
    if (!budget_domain_.empty()) {
        std::string_view h = queue_key;
        if (auto colon = h.rfind(':'); colon != std::string_view::npos && h.find(']') == std::string_view::npos)
            h = h.substr(0, colon);
        while (!h.empty() && (r.replenish == kUnsetBudget || r.total == kUnsetBudget)) {
            if (auto it = budget_domain_.find(std::string(h)); it != budget_domain_.end()) fill(it->second);
            auto dot = h.find('.');
            if (dot == std::string_view::npos) break;
            h = h.substr(dot + 1);
        }
    }
    fill({s.replenish, s.total_budget});
    return r;
}

}  // namespace frontier
