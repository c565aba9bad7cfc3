// Private to the storage module (lib/store/): the settings and budget
// overrides of one Store as last read (frontier(7), SETTINGS, BUDGETS).
// Memory only: Store reads the rows (store_settings.cpp) and hands them
// over; the budget rule is lib/policy/budget_limits.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/budget_limits.hpp"
#include "policy/settings.hpp"

namespace frontier {

class Stmt;

// A budget override row (queue_budgets), as Store::refresh_settings reads it.
struct StoredBudget {
    std::string scope, name;
    std::optional<int64_t> replenish, total;
};

class SettingsCache {
public:
    // The settings loaded, none before the first load or after a change.
    std::optional<Settings> loaded;
    int64_t version = -1;  // the stored settings version they were read at
    // The settings version read sent with a transaction's first read
    // (Store::Impl::send_settings_version), read by its sent_settings_version.
    Stmt* version_sent = nullptr;

    // Keeps the budget overrides (queue_budgets rows, then domains' budget.*
    // settings) as Store::refresh_settings read them.
    void load_budgets(const std::vector<StoredBudget>& rows,
                      const std::map<std::string, std::map<std::string, std::string>>& domains);
    // The replenish amount and total budget in force for a queue (needs
    // the settings loaded).
    BudgetLimits budget_for(const std::string& queue_key) const;

private:
    BudgetOverrides budgets_;
};

}  // namespace frontier
